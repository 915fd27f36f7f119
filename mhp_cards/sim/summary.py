"""The aggregate of a simulation: how games ended, how long they lasted, who won, per seat.

Win rates carry 95 % Wilson score intervals; a tie shares the win (two winners get half each).
The JSON form is a pydantic model, so its JSON Schema is generated from the same definition
(:mod:`mhp_cards.sim.schema`).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from mhp_cards.catalog.models import Catalog
from mhp_cards.sim.result import GameResult

__all__ = [
    "Band",
    "Curves",
    "Distribution",
    "SeatRate",
    "Summary",
    "dispersion",
    "games_to_decide",
    "games_to_fit",
    "games_to_leave",
    "games_to_leave_median",
    "games_to_leave_rate",
    "median_interval",
    "rate_interval",
    "summarise",
    "wilson",
]

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054
#: Every end a game can have, listed in ``ended`` even when no game had it.
END_CODES = ("mission", "field-empty", "piles-empty", "no-progress", "step-cap")


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or all successes the bound is exactly 0 or 1; the formula gives it up to rounding.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


def games_to_fit(rate: float, low: float, high: float, z: float = Z95) -> int | None:
    """The fewest trials at which the Wilson interval of ``rate`` lies inside ``[low, high]``.

    A power estimate for a figure whose measured rate is inside its band but whose interval
    is not: were the rate to hold exactly, this many trials would show it (a new run's rate
    differs by its own noise, so a run of this size passes about half the time). None when
    ``rate`` is not strictly inside the band (no number of trials would).

    >>> games_to_fit(0.5, 0.45, 0.55)
    381
    >>> games_to_fit(0.56, 0.45, 0.55) is None
    True
    """
    if not low < rate < high or _on_edge(rate, low, high):
        return None

    def fits(trials: int) -> bool:
        below, above = wilson(rate * trials, trials, z)
        return below >= low and above <= high

    return _fewest(fits)


def games_to_leave(rate: float, low: float, high: float, z: float = Z95) -> int | None:
    """The fewest trials at which the Wilson interval of ``rate`` lies outside ``[low, high]``.

    The counterpart of :func:`games_to_fit` for a rate outside the band: were it to hold, this
    many trials would show the figure fails. None when ``rate`` is on or inside the band.

    >>> games_to_leave(0.40, 0.45, 0.55)
    381
    >>> games_to_leave(0.50, 0.45, 0.55) is None
    True
    >>> games_to_leave(3 / 20, 0.2 - 0.05, 0.2 + 0.05) is None  # on the edge, but for rounding
    True
    """
    if low <= rate <= high or _on_edge(rate, low, high):
        return None

    def leaves(trials: int) -> bool:
        below, above = wilson(rate * trials, trials, z)
        return above < low if rate < low else below > high

    return _fewest(leaves)


def _on_edge(rate: float, low: float, high: float) -> bool:
    """True when ``rate`` is an edge of the band but for rounding (``0.2 - 0.05`` is not 0.15).

    No number of trials decides a rate on its bound; off by a rounding error, the search for
    one would end at an astronomical count.
    """
    return math.isclose(rate, low, rel_tol=1e-9) or math.isclose(rate, high, rel_tol=1e-9)


def games_to_decide(rate: float, low: float, high: float, z: float = Z95) -> int | None:
    """The fewest trials at which the interval of ``rate`` decides it against ``[low, high]``.

    Inside the band: the trials at which the interval fits it (:func:`games_to_fit`); outside
    it, those at which the interval leaves it (:func:`games_to_leave`); None on its edge.
    """
    if low < rate < high:
        return games_to_fit(rate, low, high, z)
    return games_to_leave(rate, low, high, z)


def rate_interval(
    mean: float, games: int, dispersion: float = 1.0, z: float = Z95
) -> tuple[float, float]:
    """The 95 % interval of a count's mean per game (such as an installation's runs a game).

    The score interval of a Poisson mean, widened by ``dispersion`` (the counts' variance over
    their mean, at least 1: a quasi-Poisson spread), so counts bunched in a few games get the
    wider interval they call for. At a mean of 0 it still reaches up to ``z² · dispersion /
    games``: a few games without a run are no evidence of a rare one.

    >>> [round(x, 3) for x in rate_interval(0.0, 40)]
    [0.0, 0.096]
    >>> [round(x, 3) for x in rate_interval(0.125, 40)]
    [0.053, 0.293]
    """
    if games <= 0:
        return (0.0, math.inf)
    spread = z * z * max(dispersion, 1.0) / games
    half = math.sqrt(spread * mean + spread * spread / 4)
    return (max(0.0, mean + spread / 2 - half), mean + spread / 2 + half)


def games_to_leave_rate(
    mean: float, least: float, dispersion: float = 1.0, z: float = Z95
) -> int | None:
    """The fewest games at which :func:`rate_interval` of ``mean`` lies wholly below ``least``.

    Were the mean per game and the spread to hold, this many games would show that a count
    falls short of its bound. None when ``mean`` is not below it.

    >>> games_to_leave_rate(0.125, 0.25)
    62
    >>> games_to_leave_rate(0.3, 0.25) is None
    True
    """
    if mean >= least or math.isclose(mean, least, rel_tol=1e-9):
        return None
    return _fewest(lambda games: rate_interval(mean, games, dispersion, z)[1] < least)


def median_interval(histogram: Mapping[int, int], z: float = Z95) -> tuple[float, float]:
    """The distribution-free 95 % interval of a median, read from the games' histogram.

    ``histogram``: games by their value (``{12: 30, 13: 41, …}``). The interval runs between
    the order statistics whose ranks lie ``z · √n / 2`` either side of the middle of the ``n``
    games (the binomial count of games below the true median, in its normal approximation);
    it assumes nothing of the distribution's shape.

    >>> median_interval({7: 20, 8: 60, 9: 20})
    (8, 8)
    >>> median_interval({7: 2, 8: 3, 9: 2, 10: 3})
    (7, 10)
    """
    games = sum(histogram.values())
    if games == 0:
        return (-math.inf, math.inf)
    lowest, highest = _median_ranks(games, z)
    return (_ranked(histogram, lowest), _ranked(histogram, highest))


def games_to_leave_median(
    histogram: Mapping[int, int], low: float, high: float, z: float = Z95
) -> int | None:
    """The fewest games at which :func:`median_interval` would lie wholly outside ``[low, high]``.

    Were the games' distribution the histogram's: the median's interval leaves the band once
    the games beyond the band's near edge reach the rank of the interval's far end, ``n/2 + 1
    + z·√n/2`` (a share over one half by about ``z / (2 √n)``). None when no more than half the
    games lie beyond an edge (the median is not outside).

    >>> games_to_leave_median({6: 70, 9: 30}, 8, 16)
    34
    >>> games_to_leave_median({6: 40, 9: 60}, 8, 16) is None
    True
    """
    games = sum(histogram.values())
    if games == 0:
        return None
    below = sum(n for value, n in histogram.items() if value < low) / games
    above = sum(n for value, n in histogram.items() if value > high) / games
    beyond = max(below, above)
    if beyond <= 0.5:
        return None

    # The interval's far end is the game ranked n/2 + 1 + z·√n/2 from the median's side (the
    # rank rounded away from the middle, see _median_ranks): without the rounding the test
    # holds for every n from the first on, as _fewest asks.
    return _fewest(lambda n: beyond * n >= n / 2 + 1 + z * math.sqrt(n) / 2)


def _median_ranks(games: int, z: float) -> tuple[int, int]:
    """The ranks (1-based) of the games that end the median's interval among ``games``."""
    reach = z * math.sqrt(games) / 2
    return max(1, math.floor(games / 2 - reach)), min(games, math.ceil(games / 2 + 1 + reach))


def _ranked(histogram: Mapping[int, int], rank: int) -> int:
    """The value of the ``rank``-th smallest game (1-based) of ``histogram``."""
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if seen >= rank:
            return value
    return max(histogram)


def dispersion(counts: Mapping[int, int]) -> float:
    """The variance of per-game counts over their mean (1 when they have no spread to show).

    ``counts``: games by the count each had (``{0: 30, 1: 8, 3: 2}``).

    >>> round(dispersion({0: 30, 1: 8, 3: 2}), 3)
    1.546
    """
    games = sum(counts.values())
    total = sum(count * games_with for count, games_with in counts.items())
    if games < 2 or total == 0:
        return 1.0
    mean = total / games
    squares = sum((count - mean) ** 2 * games_with for count, games_with in counts.items())
    return squares / (games - 1) / mean


def _fewest(holds: Callable[[int], bool]) -> int:
    """The fewest trials for which ``holds``, a test that stays true once it is true."""
    fewest, most = 1, 2
    while not holds(most):  # the interval narrows as the trials grow: double, then halve
        fewest, most = most, most * 2
    while fewest < most:
        middle = (fewest + most) // 2
        if holds(middle):
            most = middle
        else:
            fewest = middle + 1
    return most


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Distribution(_Model):
    """A distribution of counts over the games: median, 10th and 90th percentiles, maximum."""

    median: float
    p10: float
    p90: float
    max: int
    total: int
    """The sum over the games (the mean is ``total`` / ``games``)."""

    @classmethod
    def of(cls, values: Sequence[int]) -> Distribution:
        """The distribution of ``values`` (nearest-rank percentiles); not empty."""
        ordered = sorted(values)
        return cls(
            median=float(statistics.median(ordered)),
            p10=float(_rank(ordered, 0.10)),
            p90=float(_rank(ordered, 0.90)),
            max=ordered[-1],
            total=sum(ordered),
        )


def _rank(ordered: Sequence[int], q: float) -> int:
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


class SeatRate(_Model):
    """A seat's win rate and its 95 % Wilson interval."""

    seat: Annotated[int, Field(ge=0, description="0 for the first player.")]
    rate: Annotated[float, Field(ge=0, le=1)]
    low: Annotated[float, Field(ge=0, le=1)]
    high: Annotated[float, Field(ge=0, le=1)]


class Band(_Model):
    """A per-round band: the median and the 10th–90th percentile range, one value per round."""

    median: list[float]
    p10: list[float]
    p90: list[float]

    @classmethod
    def of(cls, columns: Sequence[Sequence[int]]) -> Band:
        """The band of ``columns``: one list of values (one per game) for each round."""
        bands = [Distribution.of(column) if column else None for column in columns]
        return cls(
            median=[b.median if b else 0.0 for b in bands],
            p10=[b.p10 if b else 0.0 for b in bands],
            p90=[b.p90 if b else 0.0 for b in bands],
        )


class Curves(_Model):
    """Per-round curves: how the game unfolds, round by round, over the games."""

    rounds: list[int]
    """1, 2, … up to the longest game."""
    playing: list[int]
    """Games that reached each round (the bands of ``score`` are over these games only)."""
    score: list[Band]
    """Each seat's score (the level's rule) at the end of each round, over the games still
    being played in that round: a finished game leaves the band, it is not carried forward."""
    missions_completed: Band
    """Missions completed by the end of each round, over every game: a finished game counts
    with its final figure (the count is cumulative)."""
    with_mission: list[float]
    """The share of all games with at least one mission completed by the end of each round."""


class Summary(_Model):
    """The aggregate of a simulation (the ``--json`` output of ``mhp simulate``)."""

    level: str
    players: Annotated[int, Field(ge=1)]
    games: Annotated[int, Field(ge=1)]
    seed: int
    policy: list[str]
    """The policy of each seat."""
    ended: dict[str, int]
    """Games by end code (``mission``, ``field-empty``, ``piles-empty``,
    ``no-progress``, ``step-cap`` — the last when the step cap stopped the game)."""
    missions: dict[str, int]
    """Completions per mission ID (every mission of the catalog, 0 included)."""
    first_completion_turn: Distribution | None
    """The turn on which a mission was first completed, over the games where one was."""
    wins_by_seat: list[float]
    """Wins of each seat; a tie shares the win (fractions)."""
    seat_win_rate: list[SeatRate]
    steps: Distribution
    """Actions per game."""
    rounds: Distribution
    installations: dict[str, int]
    """Reactions each installation ran, by installation number."""
    installation_runs_histogram: dict[str, dict[str, int]] = Field(default_factory=dict)
    """For each installation number, the games by how many reactions it ran in them, runs
    ascending (``{"6": {"0": 310, "1": 71, "2": 19}}``): the spread behind ``installations``."""
    games_with_attack: int = 0
    """Games in which at least one attack was declared (L1.T4)."""
    games_with_armour: int = 0
    """Games in which someone bought armour (L1.T6)."""
    games_per_second: Annotated[float, Field(ge=0)]
    """The only timing field: it differs from run to run."""
    mission_first_turn: dict[str, Distribution | None] = Field(default_factory=dict)
    """For each mission ID, the turn on which it was first completed, over the games where it
    was (None when it never was)."""
    rounds_histogram: dict[str, int] = Field(default_factory=dict)
    """Games by their number of rounds (the game-length histogram), by rounds ascending."""
    curves: Curves | None = None
    """Per-round curves of score and missions."""
    variant: dict[str, bool | int | float | str] | None = None
    """In a sweep, the catalog fields this run changed (field path → value); None otherwise."""

    def runs_interval(self, number: str) -> tuple[float, float, float]:
        """Installation ``number``'s runs a game: the 95 % interval and the runs' dispersion.

        :func:`rate_interval` of the mean, as wide as the spread kept in
        ``installation_runs_histogram`` asks (a summary written before it was kept: the
        Poisson interval alone); the dispersion is returned for what the games would decide.
        """
        counts = self.installation_runs_histogram.get(number, {})
        spread = dispersion({int(runs): games for runs, games in counts.items()})
        low, high = rate_interval(self.installations[number] / self.games, self.games, spread)
        return low, high, spread

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready mapping."""
        return self.model_dump(mode="json")


def summarise(
    results: Sequence[GameResult],
    *,
    catalog: Catalog,
    level: str,
    players: int,
    seed: int,
    policies: Sequence[str],
    elapsed: float,
) -> Summary:
    """The aggregate of ``results`` (in game order)."""
    ended = dict.fromkeys(END_CODES, 0)
    ended.update(Counter(r.ended_by for r in results))
    missions = {mission.id: 0 for mission in catalog.missions}
    missions.update(Counter(r.mission for r in results if r.mission is not None))
    wins = [0.0] * players
    for result in results:
        for seat in result.winners:
            wins[seat] += 1 / len(result.winners)
    games = len(results)
    rates = [SeatRate(seat=s, rate=w / games, **_interval(w, games)) for s, w in enumerate(wins)]
    installations = {str(i.number): 0 for i in catalog.installations}
    ran_in_game: list[Counter[str]] = []
    for result in results:
        ran: Counter[str] = Counter()
        for installation, count in result.reactions:
            ran[str(installation)] += count
        for key, count in ran.items():
            installations[key] = installations.get(key, 0) + count
        ran_in_game.append(ran)
    runs_histogram = {key: Counter(ran[key] for ran in ran_in_game) for key in installations}
    firsts = [r.first_completion_turn for r in results if r.first_completion_turn is not None]
    turns: dict[str, list[int]] = {mission.id: [] for mission in catalog.missions}
    for result in results:
        for mission_id, turn in result.mission_turns:
            turns.setdefault(mission_id, []).append(turn)
    lengths = Counter(r.rounds for r in results)
    return Summary(
        level=level,
        players=players,
        games=games,
        seed=seed,
        policy=list(policies),
        ended=ended,
        missions=missions,
        first_completion_turn=Distribution.of(firsts) if firsts else None,
        wins_by_seat=[round(w, 6) for w in wins],
        seat_win_rate=rates,
        steps=Distribution.of([r.steps for r in results]),
        rounds=Distribution.of([r.rounds for r in results]),
        installations=installations,
        installation_runs_histogram={
            key: {str(runs): counts[runs] for runs in sorted(counts)}
            for key, counts in runs_histogram.items()
        },
        games_with_attack=sum(1 for r in results if r.attacks),
        games_with_armour=sum(1 for r in results if r.armour),
        games_per_second=games / elapsed if elapsed > 0 else 0.0,
        mission_first_turn={m: Distribution.of(t) if t else None for m, t in turns.items()},
        rounds_histogram={str(n): lengths[n] for n in sorted(lengths)},
        curves=curves(results, players),
    )


def curves(results: Sequence[GameResult], players: int) -> Curves | None:
    """The per-round curves of ``results``; None when no game recorded its rounds."""
    recorded = [r for r in results if r.round_scores]
    if not recorded:
        return None
    longest = max(len(r.round_scores) for r in recorded)
    rounds = range(longest)
    score = [
        Band.of(
            [[r.round_scores[n][seat] for r in recorded if n < len(r.round_scores)] for n in rounds]
        )
        for seat in range(players)
    ]
    done = [[r.round_missions[min(n, len(r.round_missions) - 1)] for r in recorded] for n in rounds]
    return Curves(
        rounds=[n + 1 for n in rounds],
        playing=[sum(1 for r in recorded if n < len(r.round_scores)) for n in rounds],
        score=score,
        missions_completed=Band.of(done),
        with_mission=[round(sum(1 for d in column if d) / len(recorded), 6) for column in done],
    )


def _interval(wins: float, games: int) -> dict[str, float]:
    low, high = wilson(wins, games)
    return {"low": low, "high": high}
