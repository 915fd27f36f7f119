"""Is the catalog a sound game, and a deep one? The figures of DESIGN.md measured by play.

Soundness ("Catalog soundness figures"), greedy bots at every level with 2 to 5 players:

- levels 2, 1v1 and 3: no game ends by a stall (Ruling L3.E1-no-progress) or by the step cap;
- level 1: at least 70 % of the games end by a completed mission;
- levels 1, 2 and 3: each mission is at least 10 % of the missions completed;
- every table: each seat wins within 5 points of 1/n of the games, its 95 % Wilson interval
  inside that band (a short run cannot pass on its own noise: the interval must show it).

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

Each figure has a verdict (:data:`Verdict`). A share passes on its rate, a seat's win rate
only on its 95 % interval (DESIGN.md asks the interval to show it); either **fails** only when
its interval lies wholly on the wrong side of its bound, which is evidence and not noise. In
between it is **undecided**, and says how many games would decide it
(:attr:`Figure.games_to_decide`). Counts, medians and means (stalls, rounds, runs, solutions)
pass or fail on their value. The report fails when a figure fails; ``decide`` plays the
tables of undecided figures on (doubling their games, up to a most) until each is decided.

Each (policy, level, players) table is one :func:`~mhp_cards.sim.simulate` run from the same
seed, so a report is reproducible and any row can be replayed with ``mhp simulate``; a table
played on is the same run with more games.

>>> [(f.level, f.players) for f in ROWS][:3]
[('1', 2), ('1', 3), ('1', 4)]
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, computed_field

from mhp_cards.catalog.models import Catalog, DesignRules, ValueBand
from mhp_cards.rules.numbers import HEAD_TO_HEAD_PLAYERS, LEVELS, PLAYERS, Level
from mhp_cards.sim.result import GameResult
from mhp_cards.sim.runner import Table, play_tables, simulate_tables, table_summary
from mhp_cards.sim.summary import Summary, games_to_decide, wilson
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
    "Verdict",
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
#: The policies of the report's policy matrix by default, the tuned one first (each pair is
#: measured as the earlier against the later); ``search`` may be asked for (it is slow).
MATRIX_POLICIES: Final = ("greedy", "lookahead", "noisy-greedy", "random")
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
                    verdict="pass" if value >= least else "fail",
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
                verdict="pass" if band.min <= median <= band.max else "fail",
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
    decide: int = 0,
    matrix_policies: Sequence[str] = MATRIX_POLICIES,
) -> BalanceReport:
    """Play every table and measure every figure against its bound.

    ``policy`` plays the tables every figure is judged on (default ``greedy``; a stronger
    policy such as ``search`` checks the figures under better play). ``games`` games a
    table; ``robust_games`` (default an eighth of ``games``, at least 1; 0 for none) a table
    under each of :data:`ROBUSTNESS_POLICIES`; ``skill_games`` (default ``games``; 0 for
    none) two-player games of greedy against random at each level of ``rows``;
    ``search_games`` (default 0: not measured) of search against greedy at levels 2 and 3;
    ``matrix_games`` (default 0: none) two-player games for each pair of ``matrix_policies``
    (default :data:`MATRIX_POLICIES`; two or more distinct policy names, ``search`` among
    them if asked for) at each level, reported beside the figures (not judged).
    ``decide`` (default 0: off): a table with an undecided figure is played on, from the game
    after its last, to the games its figures say would decide them (at least twice its games),
    until none is undecided or every such table has its most: ``decide`` games for a table of
    ``policy``, the same multiple of their games for the others (robustness tables, duels).
    ``progress`` is called with the row and the games finished in it so far.
    """
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games}")
    if decide < 0 or 0 < decide <= games:
        raise ValueError(f"decide must be 0 or more than the games ({games}), not {decide}")
    matrix_policies = tuple(dict.fromkeys(matrix_policies))
    if matrix_games > 0 and len(matrix_policies) < 2:
        raise ValueError(f"the matrix needs two policies or more, not {list(matrix_policies)}")
    robust_games = max(1, games // 8) if robust_games is None else robust_games
    skill_games = games if skill_games is None else skill_games
    design = catalog.design or DesignRules()
    plays = [(policy, games)] + [
        (other, robust_games) for other in ROBUSTNESS_POLICIES if other != policy
    ]
    # Every table of the report is planned first and played in one process pool: the pool
    # starts once, and no worker idles at the end of a table while the other finishes it.
    tables: list[Table] = []
    judged: list[_Judged] = []
    for playing, count in plays:
        if count < 1:
            continue
        for row in rows:
            judged.append(_Judged(len(tables), playing, playing == policy))
            tables.append(Table(row.level, row.players, count, seed, (playing,)))
    levels = list(dict.fromkeys(row.level for row in rows))
    duels: list[_Duel] = []
    if skill_games > 0:
        duels += [
            _Duel(lv, "greedy", "random", skill_games, MIN_GREEDY_OVER_RANDOM) for lv in levels
        ]
    if search_games > 0:
        duels += [
            _Duel(lv, "search", "greedy", search_games, MIN_SEARCH_OVER_GREEDY)
            for lv in levels
            if lv in SEARCH_LEVELS
        ]
    if matrix_games > 0:
        duels += [
            _Duel(lv, first, second, matrix_games, None)
            for lv in levels
            for first, second in itertools.combinations(matrix_policies, 2)
        ]
    duel_at: list[int] = []
    for duel in duels:
        duel_at.append(len(tables))
        tables += _duel_tables(duel.level, duel.policy, duel.opponent, duel.games, seed)
    # The tables judged first are the primary policy's, one a row, in the order of ``rows``.
    row_of = dict(enumerate(rows))
    played = _Played(
        catalog, tables, play_tables(catalog, tables, workers, _told(progress, row_of))
    )

    def judge() -> tuple[list[Figure], list[Matchup], list[Matchup], dict[int, int]]:
        """Every figure of the tables as played, and the games undecided ones ask for.

        The games: for each table with an undecided figure, the most any of them says would
        decide it (a duel's at its first table).
        """
        figures = static_figures(catalog)
        wanting: dict[int, int] = {}
        for unit in judged:
            found = figures_of(
                played.summary(unit.table), design, unit.policy, primary=unit.primary
            )
            figures += found
            _want(wanting, unit.table, found)
        matchups: list[Matchup] = []
        matrix: list[Matchup] = []
        for duel, at in zip(duels, duel_at, strict=True):
            fought = _matchup(
                duel.level, duel.policy, duel.opponent, played.summary(at), played.summary(at + 1)
            )
            if duel.least is None:
                matrix.append(fought)
                continue
            matchups.append(fought)
            skill = _skill_figure(fought, duel.least)
            figures.append(skill)
            _want(wanting, at, [skill])
        return figures, matchups, matrix, wanting

    figures, matchups, matrix, wanting = judge()
    duel_starts = set(duel_at)
    # Each table's most: ``decide`` for the judged policy's, the same multiple of their games
    # for the robustness tables and the duels (a duel counts both its tables).
    first_games = {at: tables[at].games for at in range(len(tables))}
    first_games.update({at: duel.games for at, duel in zip(duel_at, duels, strict=True)})
    while decide:
        more: dict[int, int] = {}
        for at, needed in sorted(wanting.items()):
            most = first_games[at] * decide // games
            count = played.games(at) + (played.games(at + 1) if at in duel_starts else 0)
            if count >= most:
                continue
            target = min(most, max(2 * count, needed))
            if at in duel_starts:
                first = target // 2
                more[at], more[at + 1] = first, target - first
            else:
                more[at] = target
        if not more:
            break
        played.play_on(more, workers, _told(progress, row_of))
        figures, matchups, matrix, wanting = judge()
    return BalanceReport(
        games=games,
        seed=seed,
        robust_games=robust_games,
        figures=figures,
        runs=[played.summary(unit.table) for unit in judged],
        matchups=matchups,
        policy=policy,
        matrix=matrix,
        decide=decide,
    )


@dataclass(frozen=True, slots=True)
class _Judged:
    """A table whose figures are judged: its number, the policy that plays it, primary or not."""

    table: int
    policy: str
    primary: bool


@dataclass(frozen=True, slots=True)
class _Duel:
    """Two policies head to head at a level; ``least`` the share that passes (None: not judged)."""

    level: Level
    policy: str
    opponent: str
    games: int
    least: float | None


class _Played:
    """The games of every table so far, which a table can be played on from."""

    def __init__(
        self,
        catalog: Catalog,
        tables: Sequence[Table],
        plays: Sequence[tuple[list[GameResult], float]],
    ) -> None:
        self._catalog = catalog
        self._tables = list(tables)
        self._results = [list(results) for results, _ in plays]
        self._seconds = [seconds for _, seconds in plays]
        self._summaries: dict[int, Summary] = {}

    def games(self, table: int) -> int:
        """The games played at ``table``."""
        return self._tables[table].games

    def summary(self, table: int) -> Summary:
        """The summary of every game played at ``table``."""
        if table not in self._summaries:
            self._summaries[table] = table_summary(
                self._catalog, self._tables[table], self._results[table], self._seconds[table]
            )
        return self._summaries[table]

    def play_on(
        self,
        targets: Mapping[int, int],
        workers: int | None,
        progress: Callable[[int, int], None] | None,
    ) -> None:
        """Play each table in ``targets`` on, from its next game, to the games it names."""
        numbers = sorted(targets)
        extra = [
            dataclasses.replace(
                self._tables[n],
                start=self._tables[n].games,
                games=targets[n] - self._tables[n].games,
            )
            for n in numbers
        ]
        told = None
        if progress is not None:

            def told(index: int, done: int) -> None:
                progress(numbers[index], extra[index].start + done)

        for number, (results, seconds) in zip(
            numbers, play_tables(self._catalog, extra, workers, told), strict=True
        ):
            self._results[number] += results
            self._seconds[number] += seconds
            self._tables[number] = dataclasses.replace(self._tables[number], games=targets[number])
            self._summaries.pop(number, None)


def _want(wanting: dict[int, int], table: int, figures: Sequence[Figure]) -> None:
    """Note in ``wanting`` the games the undecided ``figures`` of ``table`` say would decide."""
    for figure in figures:
        if figure.verdict == "undecided":
            wanting[table] = max(wanting.get(table, 0), figure.games_to_decide or 0)


def _told(
    progress: Callable[[Row, int], None] | None, rows: Mapping[int, Row]
) -> Callable[[int, int], None] | None:
    return None if progress is None else _bound(progress, rows)


def _bound(
    progress: Callable[[Row, int], None], rows: Mapping[int, Row]
) -> Callable[[int, int], None]:
    """Progress by table number, told only for the tables in ``rows``, as their row."""

    def advance(table: int, done: int) -> None:
        if table in rows:
            progress(rows[table], done)

    return advance
