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
(:attr:`Figure.games_to_decide`). An installation's runs a game is judged as a share is, on
its mean and a 95 % interval as wide as the runs' spread over the games asks
(:func:`~mhp_cards.sim.summary.rate_interval`), and the median game length on the
distribution-free interval of a median (:func:`~mhp_cards.sim.summary.median_interval`).
Counts (stalls, solutions) pass or fail on their value. The report fails when a figure
fails; ``decide`` plays the tables of undecided figures on (doubling their games, up to a
most) until each is decided.

Each (policy, level, players) table is one :func:`~mhp_cards.sim.simulate` run from the same
seed, so a report is reproducible and any row can be replayed with ``mhp simulate``; a table
played on is the same run with more games.

>>> [(f.level, f.players) for f in ROWS][:3]
[('1', 2), ('1', 3), ('1', 4)]
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from mhp_cards.catalog.models import Catalog, DesignRules
from mhp_cards.rules.numbers import HEAD_TO_HEAD_PLAYERS, LEVELS, PLAYERS, Level
from mhp_cards.sim.result import GameResult
from mhp_cards.sim.runner import Table, play_tables, simulate_tables, table_summary
from mhp_cards.sim.summary import Summary
from mhp_cards.sim.verdicts import (
    MIN_GREEDY_OVER_RANDOM,
    MIN_MISSION_END_SHARE,
    MIN_MISSION_SHARE,
    MIN_SEARCH_OVER_GREEDY,
    SEAT_TOLERANCE,
    BalanceReport,
    Figure,
    Matchup,
    Verdict,
    figures_of,
    matchup_of,
    skill_figure,
    static_figures,
)

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
#: The levels where the search bot is measured against greedy.
SEARCH_LEVELS: Final[tuple[Level, ...]] = ("2", "3")
#: Policies that are not the tuned greedy bot: the game must stay sound under them too.
ROBUSTNESS_POLICIES: Final = ("noisy-greedy", "lookahead")
#: The policies of the report's policy matrix by default, the tuned one first (each pair is
#: measured as the earlier against the later); ``search`` may be asked for (it is slow).
MATRIX_POLICIES: Final = ("greedy", "lookahead", "noisy-greedy", "random")


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
    return matchup_of(level, policy, opponent, ahead, behind)


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
            fought = matchup_of(
                duel.level, duel.policy, duel.opponent, played.summary(at), played.summary(at + 1)
            )
            if duel.least is None:
                matrix.append(fought)
                continue
            matchups.append(fought)
            skill = skill_figure(fought, duel.least)
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
