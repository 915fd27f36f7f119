"""Is the catalog a sound game? The "Catalog soundness figures" of DESIGN.md, measured by play.

Greedy bots play every level with 2 to 5 players (head to head: 2), and each figure is set
against its bound:

- levels 2, 1v1 and 3: no game ends by a stall (Ruling L3.E1-no-progress) or by the step cap;
- level 1: at least 70 % of the games end by a completed mission;
- levels 1, 2 and 3: each mission is at least 10 % of the missions completed;
- 2 players, every level: each seat wins 45–55 % of the games. A seat passes when its 95 %
  Wilson interval reaches into the band (the games do not show it outside), so a short run
  is not failed by its own noise; the interval is printed beside the rate.

Each (level, players) pair is one :func:`~mhp_cards.sim.simulate` run from the same seed, so a
report is reproducible and any row can be replayed with ``mhp simulate``.

>>> [(f.level, f.players) for f in ROWS][:3]
[('1', 2), ('1', 3), ('1', 4)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict

from mhp_cards.catalog.models import Catalog
from mhp_cards.rules.numbers import HEAD_TO_HEAD_PLAYERS, LEVELS, PLAYERS, Level
from mhp_cards.sim.runner import simulate
from mhp_cards.sim.summary import Summary

__all__ = [
    "DEFAULT_GAMES",
    "MIN_MISSION_END_SHARE",
    "MIN_MISSION_SHARE",
    "ROWS",
    "SEAT_BAND",
    "BalanceReport",
    "Figure",
    "Row",
    "balance",
    "figures_of",
]

#: DESIGN.md asks for at least this many games per level and player count.
DEFAULT_GAMES: Final = 400
#: Level 1: the share of games that must end by a completed mission.
MIN_MISSION_END_SHARE: Final = 0.70
#: Levels 1, 2, 3: the share of the completed missions each mission must have at least.
MIN_MISSION_SHARE: Final = 0.10
#: Two players: each seat's win rate lies in this band.
SEAT_BAND: Final = (0.45, 0.55)
#: Levels where no game may end by a stall or by the step cap.
NO_STALL_LEVELS: Final[tuple[Level, ...]] = ("2", "1v1", "3")
#: Levels where every mission must be completed often enough.
MISSION_LEVELS: Final[tuple[Level, ...]] = ("1", "2", "3")
#: End codes that count as a stall.
STALL_ENDS: Final = ("no-progress", "step-cap")


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

    figure: Literal["stalls", "mission-ends", "mission-share", "seat-wins"]
    level: str
    players: int
    subject: str
    """What is measured: ``all games``, a mission ID, or ``seat 1``…"""
    value: float
    """The measured figure: a count (stalls) or a share (0..1)."""
    low: float | None = None
    """The 95 % interval of a share, where one is printed."""
    high: float | None = None
    bound: str
    """The bound, as people read it (``= 0``, ``≥ 70 %``)."""
    passed: bool


class BalanceReport(_Model):
    """Every figure of every table; ``passed`` when each figure is within its bound."""

    games: int
    seed: int
    figures: list[Figure]
    runs: list[Summary]

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


def figures_of(summary: Summary) -> list[Figure]:
    """The soundness figures that apply to one simulated table."""
    level, players, games = summary.level, summary.players, summary.games
    figures: list[Figure] = []
    if level in NO_STALL_LEVELS:
        stalls = sum(summary.ended.get(code, 0) for code in STALL_ENDS)
        figures.append(
            Figure(
                figure="stalls",
                level=level,
                players=players,
                subject="games ended by " + " or ".join(STALL_ENDS),
                value=stalls,
                bound="= 0",
                passed=stalls == 0,
            )
        )
    if level == "1":
        share = summary.ended.get("mission", 0) / games
        figures.append(
            Figure(
                figure="mission-ends",
                level=level,
                players=players,
                subject="games ended by a mission",
                value=share,
                bound=f"≥ {MIN_MISSION_END_SHARE:.0%}",
                passed=share >= MIN_MISSION_END_SHARE,
            )
        )
    if level in MISSION_LEVELS:
        completed = sum(summary.missions.values())
        for mission, count in summary.missions.items():
            share = count / completed if completed else 0.0
            figures.append(
                Figure(
                    figure="mission-share",
                    level=level,
                    players=players,
                    subject=f"{mission} of {completed} completed",
                    value=share,
                    bound=f"≥ {MIN_MISSION_SHARE:.0%}",
                    passed=completed > 0 and share >= MIN_MISSION_SHARE,
                )
            )
    if players == 2:
        low_bound, high_bound = SEAT_BAND
        for rate in summary.seat_win_rate:
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
                    passed=rate.high >= low_bound and rate.low <= high_bound,
                )
            )
    return figures


def balance(
    catalog: Catalog,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    workers: int | None = None,
    rows: Sequence[Row] = ROWS,
    progress: Callable[[Row, int], None] | None = None,
) -> BalanceReport:
    """Play ``games`` greedy games per row from ``seed`` and measure every soundness figure.

    ``progress`` is called with the row and the games finished in it so far.
    """
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, not {games}")
    runs: list[Summary] = []
    figures: list[Figure] = []
    for row in rows:
        advance = None if progress is None else _bound(progress, row)
        summary = simulate(
            catalog,
            row.level,
            row.players,
            games,
            seed,
            ("greedy",),
            workers=workers,
            progress=advance,
        )
        runs.append(summary)
        figures += figures_of(summary)
    return BalanceReport(games=games, seed=seed, figures=figures, runs=runs)


def _bound(progress: Callable[[Row, int], None], row: Row) -> Callable[[int], None]:
    return lambda done: progress(row, done)
