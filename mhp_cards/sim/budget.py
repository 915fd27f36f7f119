"""What the search bot may spend on one choice: its budget, and the levels' defaults.

A budget (:class:`SearchBudget`) counts cost units, not seconds, so that the same seed gives
the same game on any machine; its optional time limit trades that for a bound on the time a
choice takes. :class:`Meter` keeps one iteration of the search within both. The defaults by
level (:data:`STEPS`, :data:`HORIZONS`, :data:`PRIORS`, :data:`LISTING_COST`) are what a
budget that names none takes; the simulation guide (docs/guides/simulation.md) has the games
each was chosen on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

__all__ = ["HORIZONS", "LISTING_COST", "PRIORS", "STEPS", "Meter", "SearchBudget"]

#: The turns a rollout plays by level when the budget names none; None: to the end. Head to
#: head is a short race; at level 2 a rollout to the end costs a budget of a few games, and
#: three turns judged by the lead won 61.0 % of 100 games against greedy where rollouts to
#: the end won 43.0 % (docs/guides/simulation.md); a level-3 game is long, and a level-1
#: rollout costs a check of every mission claim at every step.
HORIZONS: Final[Mapping[str, int | None]] = {"1": 4, "2": 3, "1v1": None, "3": 6}
#: The cost units a choice may spend by level when the budget names none (see
#: :data:`LISTING_COST`): a whole budget costs about 0.06 to 0.12 s of one core (the 95th
#: percentile of a unit's time, docs/guides/simulation.md); the dearest positions take up to
#: 0.2-0.3 s, which a time limit bounds (an action of a level-1 rollout costs about four of
#: head to head, one of level 2 or 3 about three). Level 3 gets twice that: on the catalog
#: of the seventh design note 220 units won 51.5 % of 100 games against greedy, 440 won
#: 64.0 % at a mean of 0.075 s a choice (docs/guides/simulation.md). Head to head 900,
#: where 1 150 won as often (48.8 % of 260 games against 48.5 %) but the slowest choice of a
#: benchmark run with two workers took up to 0.242 s (0.189 s at 900).
STEPS: Final[Mapping[str, int]] = {"1": 800, "2": 400, "1v1": 900, "3": 440}
#: What an action listed costs, in simulated actions, by level (a simulated action costs 1
#: plus this for each action the referee lists before it). At level 1 the listing is most of
#: the cost and grows with the hand (a sale and a claim check for every card): counting it
#: keeps the time of a choice within a third of its mean where counting actions alone left it
#: within a half. At the other levels the listing tracks the time no better than the actions.
LISTING_COST: Final[Mapping[str, float]] = {"1": 0.25}
#: The head start of the greedy choice by level when the budget names none: this many won
#: games added to its total, spread over its visits (so it shrinks as the evidence grows).
#: Level 1 needs a large one: a short rollout there says little (the cards collected are
#: face down, the claim a race), and a choice made on noise plays worse than greedy's rule.
#: So does level 3 against today's greedy bot: with a whole won game the search won 68.8 % of
#: 40 games (seed 0) and 62.5 % of 60 (seed 2026), with a quarter 41.2 % and 51.7 %, with two
#: 57.5 % of the 40 (docs/guides/simulation.md).
PRIORS: Final[Mapping[str, float]] = {"1": 1.0, "2": 0.25, "1v1": 0.25, "3": 1.0}


@dataclass(slots=True)
class Meter:
    """The cost units an iteration has spent and may spend (see :data:`LISTING_COST`).

    With a time limit, also the moment on ``clock`` past which it may not go on
    (``deadline``): read before every simulated action.
    """

    limit: float
    per_listed: float
    spent: float = 0.0
    deadline: float | None = None
    clock: Callable[[], float] = time.perf_counter

    def charge(self, listed: int) -> None:
        """One simulated action, after a listing of ``listed`` actions."""
        self.spent += 1 + self.per_listed * listed

    @property
    def out(self) -> bool:
        """Whether the iteration has spent its units or reached the deadline."""
        return self.spent >= self.limit or (
            self.deadline is not None and self.clock() >= self.deadline
        )


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much the search may spend on one choice.

    ``steps``: the cost units the search may spend on one choice, None: the level's
    (:data:`STEPS`). A simulated action (the tree's or a rollout's) costs one unit, plus, at
    level 1, a share of one for each action listed before it (:data:`LISTING_COST`). The
    budget is a bound: an iteration that would overrun it stops there and is scored as a
    rollout that reached its horizon, and the candidates last in greedy's order may go
    unplayed. ``worlds``: the iterations (one sampled world each) at most, unless there are more
    candidates. ``horizon``: the turns an iteration plays from the choice, down the tree
    and on in its rollout (the rest of the bot's own turn counts as the first); None takes
    the level's (:data:`HORIZONS`). ``noise``: the share of the bot's own rollout choices
    made at random among the first :data:`NOISE_CHOICES` in greedy's order. ``prior``: the
    greedy choice's head start in won games, None: the level's (:data:`PRIORS`). ``seconds``: an
    optional time limit per choice, from the moment the bot is asked: the search begins no
    iteration past it (one is always begun), and plays no simulated action past it either, an
    iteration that reaches it being scored as one that reached its horizon. It bounds the
    time a choice takes, which the units do not on a busy machine (a core shared with another
    process) or in a dear position; with it, a game depends on the machine's speed, so the
    default is None.
    """

    steps: int | None = None
    worlds: int = 256
    horizon: int | None = None
    noise: float = 0.0
    seconds: float | None = None
    prior: float | None = None

    def __post_init__(self) -> None:
        if self.steps is not None and self.steps < 1:
            raise ValueError(f"a search needs at least one step, not {self.steps}")
        if self.worlds < 1:
            raise ValueError(f"a search needs at least one world, not {self.worlds}")
        if self.horizon is not None and self.horizon < 1:
            raise ValueError(f"the horizon is at least one turn, not {self.horizon}")
        if not 0 <= self.noise <= 1:
            raise ValueError(f"the noise is a probability from 0 to 1, not {self.noise}")
        if self.prior is not None and self.prior < 0:
            raise ValueError(f"the greedy choice's head start must not be negative: {self.prior}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"the time budget must be positive, not {self.seconds}")
