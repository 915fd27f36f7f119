"""Is the catalog a sound game, and a deep one? The figures of DESIGN.md measured by play.

Soundness ("Catalog soundness figures"), greedy bots at every level with 2 to 5 players:

- levels 2, 1v1 and 3: no game ends by a stall (Ruling L3.E1-no-progress) or by the step cap;
- level 1: at least 70 % of the games end by a completed mission;
- levels 1, 2 and 3: each mission is at least 10 % of the missions completed;
- every table: each seat wins within 5 points of 1/n of the games, its 95 % Wilson interval
  inside that band (a short run cannot pass on its own noise: the interval must show it; a
  seat whose rate is inside the band but its interval not says how many games would decide
  it, :attr:`Figure.games_to_decide`).

Depth ("Catalog depth figures"), against the bands the catalog declares (``design:`` in
``missions.yaml``, :class:`~mhp_cards.catalog.models.DesignRules`):

- levels 2 and 3: every installation runs at least ``installation_runs`` times a game;
- levels 1, 2 and 3: the median game length lies in the level's ``rounds`` band;
- levels 1 and 3: the share of games with an attack, and with armour bought, in its band;
- statically: each mission has at least ``level1_solutions`` raw-card solutions at level 1,
  and every raw kind feeds an installation or is part of one;
- robustness: under ``noisy-greedy`` and ``lookahead`` (policies that are not the tuned
  greedy bot) no stall and no step cap, and every mission's share holds;
- skill: greedy beats random in at least 85 % of two-player games at every level (seats
  swapped half the games), and — when asked for, it is slow — the search bot beats greedy in
  at least 60 % at levels 2 and 3.

Each (policy, level, players) table is one :func:`~mhp_cards.sim.simulate` run from the same
seed, so a report is reproducible and any row can be replayed with ``mhp simulate``.

>>> [(f.level, f.players) for f in ROWS][:3]
[('1', 2), ('1', 3), ('1', 4)]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict

from mhp_cards.catalog.models import Catalog, DesignRules, ValueBand
from mhp_cards.rules.numbers import HEAD_TO_HEAD_PLAYERS, LEVELS, PLAYERS, Level
from mhp_cards.sim.runner import Table, simulate_tables
from mhp_cards.sim.summary import Summary, games_to_fit, wilson
from mhp_cards.validate.figures import catalog_figures

__all__ = [
    "DEFAULT_GAMES",
    "MATRIX_POLICIES",
    "MIN_GREEDY_OVER_RANDOM",
    "MIN_MISSION_END_SHARE",
    "MIN_MISSION_SHARE",
    "MIN_SEARCH_OVER_GREEDY",
    "ROBUSTNESS_POLICIES",
    "ROWS",
    "SEAT_TOLERANCE",
    "BalanceReport",
    "Figure",
    "Matchup",
    "Row",
    "balance",
    "figures_of",
    "matchup",
    "static_figures",
]

#: DESIGN.md asks for at least this many games per level and player count.
DEFAULT_GAMES: Final = 400
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
#: The levels where the search bot is measured against greedy.
SEARCH_LEVELS: Final[tuple[Level, ...]] = ("2", "3")
#: Policies that are not the tuned greedy bot: the game must stay sound under them too.
ROBUSTNESS_POLICIES: Final = ("noisy-greedy", "lookahead")
#: The policies of the report's policy matrix, the tuned one first (each pair is measured as
#: the earlier against the later).
MATRIX_POLICIES: Final = ("greedy", "lookahead", "noisy-greedy", "random")
#: Levels where no game may end by a stall or by the step cap.
NO_STALL_LEVELS: Final[tuple[Level, ...]] = ("2", "1v1", "3")
#: Levels where every mission must be completed often enough.
MISSION_LEVELS: Final[tuple[Level, ...]] = ("1", "2", "3")
#: Levels whose installations must all run (levels with a Mission card race).
RUN_LEVELS: Final[tuple[Level, ...]] = ("2", "3")
#: End codes that count as a stall.
STALL_ENDS: Final = ("no-progress", "step-cap")

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


@dataclass(frozen=True, slots=True)
class Row:
    """One simulated table: a level and a number of players."""

    level: Level
    players: int


#: Every table the report plays, in order.
ROWS: Final[tuple[Row, ...]] = tuple(
    Row(level, players)
    for level in LEVELS
    for players in ((HEAD_TO_HEAD_PLAYERS,) if level == "1v1" else PLAYERS)
)


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
    """The 95 % interval of a share, where one is printed."""
    high: float | None = None
    bound: str
    """The bound, as people read it (``= 0``, ``≥ 70 %``, ``8–16``)."""
    passed: bool
    policy: str = "greedy"
    """The policy that played (``catalog`` figures: the one that would have)."""
    games_to_decide: int | None = None
    """A seat figure that failed with its rate inside the band, its interval too wide: the
    games a table at which the interval would fit at the rate measured
    (:func:`~mhp_cards.sim.summary.games_to_fit`). None otherwise."""

    @property
    def shown(self) -> str:
        """The value as people read it: a count, runs or rounds, or a share (with interval)."""
        if self.figure in ("stalls", "level1-solutions", "raw-kind-use", "rounds"):
            return f"{self.value:g}"
        if self.figure == "installation-runs":
            return f"{self.value:.2f}"
        value = f"{self.value:.1%}"
        if self.low is not None and self.high is not None:
            value += f" [{self.low:.1%}, {self.high:.1%}]"
        return value


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
    """Every figure of every table; ``passed`` when each figure is within its bound."""

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

    @property
    def passed(self) -> bool:
        """True when no figure fails."""
        return all(figure.passed for figure in self.figures)

    @property
    def failures(self) -> list[Figure]:
        """The figures outside their bounds."""
        return [figure for figure in self.figures if not figure.passed]

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready mapping (``passed`` included)."""
        return {"passed": self.passed, **self.model_dump(mode="json")}


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
            passed=ok,
            policy=policy,
        )

    figures: list[Figure] = []
    if level in NO_STALL_LEVELS:
        stalls = sum(summary.ended.get(code, 0) for code in STALL_ENDS)
        subject = "games ended by " + " or ".join(STALL_ENDS)
        figures.append(figure("stalls", subject, stalls, "= 0", stalls == 0))
    if level == "1" and primary:
        share = summary.ended.get("mission", 0) / games
        bound = f"≥ {MIN_MISSION_END_SHARE:.0%}"
        ok = share >= MIN_MISSION_END_SHARE
        figures.append(figure("mission-ends", "games ended by a mission", share, bound, ok))
    if level in MISSION_LEVELS:
        completed = sum(summary.missions.values())
        for mission, count in summary.missions.items():
            share = count / completed if completed else 0.0
            ok = completed > 0 and share >= MIN_MISSION_SHARE
            subject, bound = f"{mission} of {completed} completed", f"≥ {MIN_MISSION_SHARE:.0%}"
            figures.append(figure("mission-share", subject, share, bound, ok))
    if not primary:
        return figures
    fair = 1 / players
    low_bound, high_bound = fair - SEAT_TOLERANCE, fair + SEAT_TOLERANCE
    for rate in summary.seat_win_rate:
        passed = rate.low >= low_bound and rate.high <= high_bound
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
                passed=passed,
                policy=policy,
                games_to_decide=None if passed else games_to_fit(rate.rate, low_bound, high_bound),
            )
        )
    if design is not None:
        figures += _depth_figures(summary, design, policy)
    return figures


def _depth_figures(summary: Summary, design: DesignRules, policy: str) -> list[Figure]:
    level, players, games = summary.level, summary.players, summary.games
    figures: list[Figure] = []
    if level in RUN_LEVELS:
        least = design.installation_runs
        for number, runs in summary.installations.items():
            value = runs / games
            figures.append(
                Figure(
                    figure="installation-runs",
                    level=level,
                    players=players,
                    subject=f"installation {number} runs a game",
                    value=value,
                    bound=f"≥ {least:g}",
                    passed=value >= least,
                    policy=policy,
                )
            )
    band = _band(design.rounds, level)
    if band is not None:
        median = summary.rounds.median
        figures.append(
            Figure(
                figure="rounds",
                level=level,
                players=players,
                subject="median rounds a game",
                value=median,
                bound=f"{band.min:g}–{band.max:g}",
                passed=band.min <= median <= band.max,
                policy=policy,
            )
        )
    shares: tuple[tuple[FigureName, int, Mapping[Any, ValueBand]], ...] = (
        ("attacks", summary.games_with_attack, design.attacks),
        ("armour", summary.games_with_armour, design.armour),
    )
    for name, count, bands in shares:
        share_band = _band(bands, level)
        if share_band is None:
            continue
        share = count / games
        low, high = wilson(count, games)
        what = "an attack" if name == "attacks" else "armour bought"
        figures.append(
            Figure(
                figure=name,
                level=level,
                players=players,
                subject=f"games with {what}",
                value=share,
                low=low,
                high=high,
                bound=f"{share_band.min:.0%}–{share_band.max:.0%}",
                passed=share_band.min <= share <= share_band.max,
                policy=policy,
            )
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
            passed=len(mission.solutions) >= design.level1_solutions,
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
            passed=bool(raw.feeds or raw.missions),
        )
        for raw in figures.raw
    ]
    return out


def matchup(
    catalog: Catalog,
    level: Level,
    policy: str,
    opponent: str,
    games: int,
    seed: int,
    workers: int | None = None,
) -> Matchup:
    """``policy`` against ``opponent`` in two-player games, seats swapped in half of them."""
    ahead, behind = simulate_tables(
        catalog, _duel_tables(level, policy, opponent, games, seed), workers
    )
    return _matchup(level, policy, opponent, ahead, behind)


def _duel_tables(
    level: Level, policy: str, opponent: str, games: int, seed: int
) -> tuple[Table, Table]:
    """The two tables of a duel: ``policy`` first from ``seed``, then second from the next."""
    first = max(1, games // 2)
    second = max(1, games - first)
    return (
        Table(level, 2, first, seed, (policy, opponent)),
        Table(level, 2, second, seed + 1, (opponent, policy)),
    )


def _matchup(level: Level, policy: str, opponent: str, ahead: Summary, behind: Summary) -> Matchup:
    """The duel's figure from its two tables (:func:`_duel_tables`)."""
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


def _skill_figure(duel: Matchup, least: float) -> Figure:
    return Figure(
        figure="skill",
        level=duel.level,
        players=2,
        subject=f"{duel.policy} beats {duel.opponent}",
        value=duel.share,
        low=duel.low,
        high=duel.high,
        bound=f"≥ {least:.0%}",
        passed=duel.share >= least,
        policy=duel.policy,
    )


def balance(
    catalog: Catalog,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    workers: int | None = None,
    rows: Sequence[Row] = ROWS,
    progress: Callable[[Row, int], None] | None = None,
    robust_games: int | None = None,
    skill_games: int | None = None,
    search_games: int = 0,
    policy: str = "greedy",
    matrix_games: int = 0,
) -> BalanceReport:
    """Play every table and measure every figure against its bound.

    ``policy`` plays the tables every figure is judged on (default ``greedy``; a stronger
    policy such as ``search`` checks the figures under better play). ``games`` games a
    table; ``robust_games`` (default an eighth of ``games``, at least 1; 0 for none) a table
    under each of :data:`ROBUSTNESS_POLICIES`; ``skill_games`` (default ``games``; 0 for
    none) two-player games of greedy against random at each level of ``rows``;
    ``search_games`` (default 0: not measured) of search against greedy at levels 2 and 3;
    ``matrix_games`` (default 0: none) two-player games for each pair of
    :data:`MATRIX_POLICIES` at each level, reported beside the figures (not judged).
    ``progress`` is called with the row and the games finished in it so far.
    """
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games}")
    robust_games = max(1, games // 8) if robust_games is None else robust_games
    skill_games = games if skill_games is None else skill_games
    design = catalog.design or DesignRules()
    runs: list[Summary] = []
    figures: list[Figure] = static_figures(catalog)
    plays = [(policy, games)] + [
        (other, robust_games) for other in ROBUSTNESS_POLICIES if other != policy
    ]
    # Every table of the report is planned first and played in one process pool: the pool
    # starts once, and no worker idles at the end of a table while the other finishes it.
    tables: list[Table] = []
    judged: list[tuple[str, bool]] = []
    for playing, count in plays:
        if count < 1:
            continue
        for row in rows:
            tables.append(Table(row.level, row.players, count, seed, (playing,)))
            judged.append((playing, playing == policy))
    levels = list(dict.fromkeys(row.level for row in rows))
    # Each duel: its level, the policy measured and its opponent, the games, the least share
    # that passes (None: the matrix, not judged).
    duels: list[tuple[Level, str, str, int, float | None]] = []
    if skill_games > 0:
        duels += [(lv, "greedy", "random", skill_games, MIN_GREEDY_OVER_RANDOM) for lv in levels]
    if search_games > 0:
        duels += [
            (lv, "search", "greedy", search_games, MIN_SEARCH_OVER_GREEDY)
            for lv in levels
            if lv in SEARCH_LEVELS
        ]
    if matrix_games > 0:
        duels += [
            (lv, first, second, matrix_games, None)
            for lv in levels
            for first, second in itertools.combinations(MATRIX_POLICIES, 2)
        ]
    for level, first, second, count, _ in duels:
        tables += _duel_tables(level, first, second, count, seed)
    played = len(judged)
    # The tables judged first are the primary policy's, one a row, in the order of ``rows``.
    advance = None if progress is None else _bound(progress, dict(enumerate(rows)))
    summaries = simulate_tables(catalog, tables, workers, advance)
    for (playing, primary), summary in zip(judged, summaries[:played], strict=True):
        runs.append(summary)
        figures += figures_of(summary, design, playing, primary=primary)
    matchups: list[Matchup] = []
    matrix: list[Matchup] = []
    for number, (level, first, second, _, least) in enumerate(duels):
        ahead, behind = summaries[played + 2 * number : played + 2 * number + 2]
        duel = _matchup(level, first, second, ahead, behind)
        if least is None:
            matrix.append(duel)
        else:
            matchups.append(duel)
            figures.append(_skill_figure(duel, least))
    return BalanceReport(
        games=games,
        seed=seed,
        robust_games=robust_games,
        figures=figures,
        runs=runs,
        matchups=matchups,
        policy=policy,
        matrix=matrix,
    )


def _bound(
    progress: Callable[[Row, int], None], rows: Mapping[int, Row]
) -> Callable[[int, int], None]:
    """Progress by table number, told only for the tables in ``rows``, as their row."""

    def advance(table: int, done: int) -> None:
        if table in rows:
            progress(rows[table], done)

    return advance
