"""The figures of a balance report, and how each is judged against its bound.

A figure is one measured value (a count, a median, a runs-a-game mean or a share with its 95 %
Wilson interval) beside the bound DESIGN.md or the catalog's design gives it; its verdict is
``pass``, ``undecided`` or ``fail`` (:func:`share_verdict`). :func:`figures_of` reads the
figures of one simulated table from its summary, :func:`static_figures` those the cards decide
alone; :mod:`mhp_cards.sim.balance` plays the tables and gathers them into a
:class:`BalanceReport`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, computed_field

from mhp_cards.catalog.models import Catalog, DesignRules, ValueBand
from mhp_cards.rules.numbers import Level
from mhp_cards.sim.summary import (
    Summary,
    games_to_decide,
    games_to_leave_median,
    games_to_leave_rate,
    median_interval,
    wilson,
)
from mhp_cards.validate.figures import catalog_figures

__all__ = [
    "MIN_GREEDY_OVER_RANDOM",
    "MIN_MISSION_END_SHARE",
    "MIN_MISSION_SHARE",
    "MIN_SEARCH_OVER_GREEDY",
    "SEAT_TOLERANCE",
    "BalanceReport",
    "Figure",
    "Matchup",
    "Verdict",
    "figures_of",
    "matchup_of",
    "share_verdict",
    "skill_figure",
    "static_figures",
]


#: Level 1: the share of games that must end by a completed mission.
MIN_MISSION_END_SHARE: Final = 0.70


#: Levels 1, 2, 3: the share of the completed missions each mission must have at least.
MIN_MISSION_SHARE: Final = 0.10


#: Every table: each seat's win rate lies within this many points of 1/n.
SEAT_TOLERANCE: Final = 0.05


#: Skill: the share of two-player games greedy must win against random, at every level.
MIN_GREEDY_OVER_RANDOM: Final = 0.85


#: Skill: the share of two-player games search must win against greedy, at levels 2 and 3.
MIN_SEARCH_OVER_GREEDY: Final = 0.60


#: Levels where no game may end by a stall or by the step cap.
NO_STALL_LEVELS: Final[tuple[Level, ...]] = ("2", "1v1", "3")


#: Levels where every mission must be completed often enough.
MISSION_LEVELS: Final[tuple[Level, ...]] = ("1", "2", "3")


#: Levels whose installations must all run (levels with a Mission card race).
RUN_LEVELS: Final[tuple[Level, ...]] = ("2", "3")


#: End codes that count as a stall.
STALL_ENDS: Final = ("no-progress", "step-cap")


#: A figure's verdict: within its bound, decidedly outside it, or not decided by the games.
Verdict = Literal["pass", "undecided", "fail"]


FigureName = Literal[
    "stalls",
    "mission-ends",
    "mission-share",
    "seat-wins",
    "installation-runs",
    "rounds",
    "attacks",
    "armour",
    "level1-solutions",
    "raw-kind-use",
    "skill",
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Figure(_Model):
    """One measured figure against its bound."""

    figure: FigureName
    level: str
    """The level, or ``catalog`` for a figure read from the cards alone."""
    players: int
    """The players at the table (0 for a figure read from the cards alone)."""
    subject: str
    """What is measured: ``all games``, a mission ID, ``seat 1``, ``installation 4``…"""
    value: float
    """The measured figure: a count (stalls, solutions), rounds, runs a game or a share."""
    low: float | None = None
    """The 95 % interval of a share, an installation's runs a game or the median rounds, where
    one is printed."""
    high: float | None = None
    bound: str
    """The bound, as people read it (``= 0``, ``≥ 70 %``, ``8–16``)."""
    verdict: Verdict
    policy: str = "greedy"
    """The policy that played (``catalog`` figures: the one that would have)."""
    games_to_decide: int | None = None
    """An undecided figure: the games a table at which its 95 % interval would decide it, were
    the rate measured to hold (:func:`~mhp_cards.sim.summary.games_to_decide`; a run of that
    size decides it about half the time). None for a decided figure."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def passed(self) -> bool:
        """True when the figure is within its bound (its verdict is ``pass``)."""
        return self.verdict == "pass"

    @property
    def verdict_shown(self) -> str:
        """The verdict as a report's table shows it: ``ok``, ``undecided`` or ``FAIL``."""
        return {"pass": "ok", "undecided": "undecided", "fail": "FAIL"}[self.verdict]

    @property
    def value_shown(self) -> str:
        """The value alone as people read it: a count, runs or rounds, or a share."""
        if self.figure in ("stalls", "level1-solutions", "raw-kind-use", "rounds"):
            return f"{self.value:g}"
        if self.figure == "installation-runs":
            return f"{self.value:.2f}"
        return f"{self.value:.1%}"

    @property
    def shown(self) -> str:
        """The value as people read it, with its 95 % interval where it has one."""
        if self.low is None or self.high is None:
            return self.value_shown
        if self.figure == "installation-runs":
            return f"{self.value_shown} [{self.low:.2f}, {self.high:.2f}]"
        if self.figure == "rounds":
            return f"{self.value_shown} [{self.low:g}, {self.high:g}]"
        return f"{self.value_shown} [{self.low:.1%}, {self.high:.1%}]"


class Matchup(_Model):
    """Two policies head to head at one level: two-player games, seats swapped half of them."""

    level: str
    policy: str
    opponent: str
    games: int
    share: float
    """The share of the games ``policy`` won (a tie shares the win)."""
    low: float
    high: float


class BalanceReport(_Model):
    """Every figure of every table; ``passed`` when no figure fails."""

    games: int
    seed: int
    robust_games: int
    """Games a table under each robustness policy."""
    figures: list[Figure]
    runs: list[Summary]
    """The greedy runs, one per table, then the robustness runs."""
    matchups: list[Matchup] = []
    """The skill figures' duels: greedy against random (and search against greedy, when
    measured)."""
    policy: str = "greedy"
    """The policy that played the tables every figure is judged on."""
    matrix: list[Matchup] = []
    """Every pair of :data:`MATRIX_POLICIES` head to head at each level (when measured)."""
    decide: int = 0
    """The most games a table of ``policy`` may be played on to, to decide a figure (the other
    tables: the same multiple of their games); 0: none is played on."""

    @property
    def passed(self) -> bool:
        """True when no figure fails (an undecided one does not fail the report)."""
        return not self.failures

    @property
    def failures(self) -> list[Figure]:
        """The figures decidedly outside their bounds."""
        return [figure for figure in self.figures if figure.verdict == "fail"]

    @property
    def undecided(self) -> list[Figure]:
        """The figures the games played do not decide."""
        return [figure for figure in self.figures if figure.verdict == "undecided"]

    @property
    def verdict_line(self) -> str:
        """The verdict in one line: passed or failed, and how many figures are undecided."""
        total, failed, undecided = len(self.figures), len(self.failures), len(self.undecided)
        if not failed and not undecided:
            return f"PASS: all {total} figures within their bounds"
        line = (
            f"FAIL: {failed} of {total} figures outside their bounds"
            if failed
            else f"PASS: no figure of {total} outside its bound"
        )
        return line + (f", {undecided} undecided" if undecided else "")

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready mapping (``passed`` included)."""
        return {"passed": self.passed, **self.model_dump(mode="json")}


def share_verdict(
    rate: float, low: float, high: float, least: float, most: float = 1.0, *, by_interval: bool
) -> Verdict:
    """The verdict on a share with its 95 % interval ``[low, high]`` against ``[least, most]``.

    ``by_interval``: it passes only when the interval lies inside the bound (a seat's win
    rate); otherwise when the rate does. It fails when the interval lies wholly outside.

    >>> share_verdict(0.053, 0.034, 0.081, 0.10, by_interval=False)
    'fail'
    >>> share_verdict(0.095, 0.038, 0.22, 0.10, by_interval=False)
    'undecided'
    >>> share_verdict(0.52, 0.47, 0.57, 0.45, 0.55, by_interval=True)
    'undecided'
    """
    inside = least <= low and high <= most if by_interval else least <= rate <= most
    if inside:
        return "pass"
    return "fail" if high < least or low > most else "undecided"


def figures_of(
    summary: Summary,
    design: DesignRules | None = None,
    policy: str = "greedy",
    *,
    primary: bool | None = None,
) -> list[Figure]:
    """The figures that apply to one simulated table.

    ``primary``: the table is played by the policy the whole report is judged under (by
    default: when ``policy`` is ``greedy``). Under a robustness policy only the stalls and the
    mission shares are judged: the other figures describe the game as the designer means it
    to be played. ``design`` adds the depth figures (installation runs, game length, attacks,
    armour).
    """
    primary = policy == "greedy" if primary is None else primary
    level, players, games = summary.level, summary.players, summary.games

    def figure(name: FigureName, subject: str, value: float, bound: str, ok: bool) -> Figure:
        return Figure(
            figure=name,
            level=level,
            players=players,
            subject=subject,
            value=value,
            bound=bound,
            verdict="pass" if ok else "fail",
            policy=policy,
        )

    figures: list[Figure] = []
    if level in NO_STALL_LEVELS:
        stalls = sum(summary.ended.get(code, 0) for code in STALL_ENDS)
        subject = "games ended by " + " or ".join(STALL_ENDS)
        figures.append(figure("stalls", subject, stalls, "= 0", stalls == 0))
    if level == "1" and primary:
        ended = summary.ended.get("mission", 0)
        figures.append(
            _share_figure(
                figure(
                    "mission-ends",
                    "games ended by a mission",
                    0,
                    f"≥ {MIN_MISSION_END_SHARE:.0%}",
                    False,
                ),
                ended,
                games,
                MIN_MISSION_END_SHARE,
                games_a_trial=1.0,
            )
        )
    if level in MISSION_LEVELS:
        completed = sum(summary.missions.values())
        for mission, count in summary.missions.items():
            subject, bound = f"{mission} of {completed} completed", f"≥ {MIN_MISSION_SHARE:.0%}"
            shell = figure("mission-share", subject, 0, bound, False)
            # No mission completed at all is a failing game, not a want of games.
            if completed:
                shell = _share_figure(
                    shell, count, completed, MIN_MISSION_SHARE, games_a_trial=games / completed
                )
            figures.append(shell)
    if not primary:
        return figures
    fair = 1 / players
    low_bound, high_bound = fair - SEAT_TOLERANCE, fair + SEAT_TOLERANCE
    for rate in summary.seat_win_rate:
        verdict = share_verdict(
            rate.rate, rate.low, rate.high, low_bound, high_bound, by_interval=True
        )
        figures.append(
            Figure(
                figure="seat-wins",
                level=level,
                players=players,
                subject=f"seat {rate.seat + 1} wins",
                value=rate.rate,
                low=rate.low,
                high=rate.high,
                bound=f"{low_bound:.0%}–{high_bound:.0%}",
                verdict=verdict,
                policy=policy,
                games_to_decide=(
                    games_to_decide(rate.rate, low_bound, high_bound)
                    if verdict == "undecided"
                    else None
                ),
            )
        )
    if design is not None:
        figures += _depth_figures(summary, design, policy)
    return figures


def _share_figure(
    shell: Figure,
    successes: float,
    trials: int,
    least: float,
    most: float = 1.0,
    *,
    games_a_trial: float,
) -> Figure:
    """``shell`` measured as the share ``successes`` / ``trials``, judged on its rate.

    ``games_a_trial``: the games that make one trial (a mission share counts completions, a
    few a game), to say in games how many would decide it.
    """
    rate = successes / trials
    low, high = wilson(successes, trials)
    verdict = share_verdict(rate, low, high, least, most, by_interval=False)
    needed = games_to_decide(rate, least, most) if verdict == "undecided" else None
    return shell.model_copy(
        update={
            "value": rate,
            "low": low,
            "high": high,
            "verdict": verdict,
            "games_to_decide": None if needed is None else math.ceil(needed * games_a_trial),
        }
    )


def _runs_figure(summary: Summary, number: str, runs: int, least: float, policy: str) -> Figure:
    """Installation ``number``'s runs a game against ``least``, judged as a share is.

    It passes on its mean and fails only when its 95 % interval lies wholly below ``least``
    (:func:`~mhp_cards.sim.summary.rate_interval`, as wide as the runs' spread over the games
    asks); in between it is undecided. A summary without the runs' spread (written before it
    was kept) is judged on the Poisson interval alone.
    """
    mean = runs / summary.games
    low, high, spread = summary.runs_interval(number)
    if mean >= least:
        verdict: Verdict = "pass"
    else:
        verdict = "fail" if high < least else "undecided"
    needed = games_to_leave_rate(mean, least, spread) if verdict == "undecided" else None
    return Figure(
        figure="installation-runs",
        level=summary.level,
        players=summary.players,
        subject=f"installation {number} runs a game",
        value=mean,
        low=low,
        high=high,
        bound=f"≥ {least:g}",
        verdict=verdict,
        policy=policy,
        games_to_decide=needed,
    )


def _rounds_figure(summary: Summary, band: ValueBand, policy: str) -> Figure:
    """The median game length against the level's band, judged on its 95 % interval.

    It passes when the median lies in the band and fails only when the median's
    distribution-free interval (:func:`~mhp_cards.sim.summary.median_interval`, read from the
    games' lengths) lies wholly outside it; in between it is undecided. A summary without the
    lengths' histogram (written before it was kept) is judged on the median alone.
    """
    median = summary.rounds.median
    histogram = {int(rounds): games for rounds, games in summary.rounds_histogram.items()}
    low, high = median_interval(histogram) if histogram else (None, None)
    if band.min <= median <= band.max:
        verdict: Verdict = "pass"
    elif low is None or high is None:
        verdict = "fail"
    else:
        verdict = "fail" if high < band.min or low > band.max else "undecided"
    needed = (
        games_to_leave_median(histogram, band.min, band.max) if verdict == "undecided" else None
    )
    return Figure(
        figure="rounds",
        level=summary.level,
        players=summary.players,
        subject="median rounds a game",
        value=median,
        low=low,
        high=high,
        bound=f"{band.min:g}–{band.max:g}",
        verdict=verdict,
        policy=policy,
        games_to_decide=needed,
    )


def _depth_figures(summary: Summary, design: DesignRules, policy: str) -> list[Figure]:
    level, players, games = summary.level, summary.players, summary.games
    figures: list[Figure] = []
    if level in RUN_LEVELS:
        least = design.installation_runs
        for number, runs in summary.installations.items():
            figures.append(_runs_figure(summary, number, runs, least, policy))
    band = _band(design.rounds, level)
    if band is not None:
        figures.append(_rounds_figure(summary, band, policy))
    shares: tuple[tuple[FigureName, int, Mapping[Any, ValueBand]], ...] = (
        ("attacks", summary.games_with_attack, design.attacks),
        ("armour", summary.games_with_armour, design.armour),
    )
    for name, count, bands in shares:
        share_band = _band(bands, level)
        if share_band is None:
            continue
        what = "an attack" if name == "attacks" else "armour bought"
        shell = Figure(
            figure=name,
            level=level,
            players=players,
            subject=f"games with {what}",
            value=0,
            bound=f"{share_band.min:.0%}–{share_band.max:.0%}",
            verdict="fail",
            policy=policy,
        )
        figures.append(
            _share_figure(shell, count, games, share_band.min, share_band.max, games_a_trial=1.0)
        )
    return figures


def _band(bands: Mapping[Any, ValueBand], level: str) -> ValueBand | None:
    """The band a ``design`` mapping keyed by level gives ``level``, if any."""
    return bands.get(level)


def static_figures(catalog: Catalog) -> list[Figure]:
    """The depth figures read from the cards alone: level-1 solutions and raw kinds in use."""
    design = catalog.design or DesignRules()
    figures = catalog_figures(catalog)
    out = [
        Figure(
            figure="level1-solutions",
            level="catalog",
            players=0,
            subject=f"{mission.id} solutions at level 1",
            value=len(mission.solutions),
            bound=f"≥ {design.level1_solutions}",
            verdict="pass" if len(mission.solutions) >= design.level1_solutions else "fail",
        )
        for mission in figures.missions
    ]
    out += [
        Figure(
            figure="raw-kind-use",
            level="catalog",
            players=0,
            subject=f"{raw.id} feeds or solves",
            value=len(raw.feeds) + len(raw.missions),
            bound="≥ 1",
            verdict="pass" if raw.feeds or raw.missions else "fail",
        )
        for raw in figures.raw
    ]
    return out


def matchup_of(
    level: Level, policy: str, opponent: str, ahead: Summary, behind: Summary
) -> Matchup:
    """The duel's figure from its two tables.

    ``policy`` sits first in ``ahead`` and second in ``behind``
    (:func:`mhp_cards.sim.balance.matchup` plays them).
    """
    wins = ahead.wins_by_seat[0] + behind.wins_by_seat[1]
    total = ahead.games + behind.games
    low, high = wilson(wins, total)
    return Matchup(
        level=level,
        policy=policy,
        opponent=opponent,
        games=total,
        share=wins / total,
        low=low,
        high=high,
    )


def skill_figure(duel: Matchup, least: float) -> Figure:
    """The skill figure of a duel: its policy wins at least ``least`` of the games."""
    shell = Figure(
        figure="skill",
        level=duel.level,
        players=2,
        subject=f"{duel.policy} beats {duel.opponent}",
        value=duel.share,
        bound=f"≥ {least:.0%}",
        verdict="fail",
        policy=duel.policy,
    )
    return _share_figure(shell, duel.share * duel.games, duel.games, least, games_a_trial=1.0)
