"""The random games ``engine_bench.py`` times and checks: the engine's, and chess's as reference.

A game is dealt from its seed (the player count too: :func:`players_for`) and played by a
random player through ``legal_actions`` and ``apply`` alone: uniform over the listed actions,
or over their kinds first (:data:`CHOICES`). :func:`play` is the loop the benchmark times;
:func:`checked_play` plays the same game untimed with every check on the way. This module
sits beside the script, as ``timing.py`` does. :class:`ChessRef` plays the reference's random
chess games the same way, through python-chess.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import GameState, deal, status
from mhp_cards.referee import Action, legal_actions
from mhp_cards.referee import apply as apply_action
from mhp_cards.rules.numbers import COINS, Level
from mhp_cards.sim.bots import actions_by_kind

#: How the random player picks among the listed actions: uniform over them, or over kinds.
CHOICES: tuple[str, ...] = ("actions", "kinds")
#: Where the seeds of the first plays start, far from the replayed games' 0..N-1; each way of
#: choosing has its own run of seeds (:func:`first_seed`).
FRESH_SEEDS = 1_000_000


def first_seed(choice: str) -> int:
    """The first seed of the first plays of a way of choosing."""
    return FRESH_SEEDS * (1 + CHOICES.index(choice))


def players_for(level: str, seed: int) -> int:
    """The fixed mix: head to head is two players, the other levels 2 to 5 by seed."""
    return 2 if level == "1v1" else 2 + seed % 4


def end_of(state: GameState) -> str:
    """How a game ended: its end code where the state has one, else its end words."""
    code = getattr(state, "end_code", None)
    return str(code) if code is not None else (state.end_reason or "ended")


@dataclass(frozen=True)
class Played:
    """One game's result: steps applied, whether the cap stopped it, how it ended.

    ``options`` adds up the legal actions listed at every step: only the untimed, checked
    play counts them, so a timed replay equals its checked game whatever it counted.
    """

    steps: int
    capped: bool
    end: str
    options: int = field(default=0, compare=False)


def uniform_kind(rng: random.Random, actions: list[Action]) -> Action:
    """A uniform kind of action among ``actions``, then a uniform action of that kind.

    Grouped as the random bot groups them (:func:`~mhp_cards.sim.bots.actions_by_kind`: the
    listing's runs of one kind each, without reading every action's kind).
    """
    by_kind = actions_by_kind(actions)
    return rng.choice(by_kind[rng.choice(list(by_kind))])


def chooser(choice: str) -> Callable[[random.Random, list[Action]], Action]:
    """The random player's pick: uniform over the actions, or over their kinds first."""
    return uniform_kind if choice == "kinds" else random.Random.choice


def play(catalog: Catalog, level: Level, seed: int, cap: int, choice: str = "actions") -> Played:
    """One random-policy game; this loop is what the engine's timings measure."""
    state = deal(catalog, level, players_for(level, seed), seed)
    rng = random.Random(seed)
    pick = chooser(choice)
    steps = 0
    while not state.ended:
        if steps == cap:
            return Played(steps, True, "capped")
        state, _ = apply_action(state, pick(rng, legal_actions(state, catalog)), catalog)
        steps += 1
    return Played(steps, False, end_of(state))


def coins(state: GameState) -> int:
    return state.bank + state.box_coins + sum(p.money for p in state.players)


def state_problems(state: GameState, catalog: Catalog, *, full: bool) -> list[str]:
    """What is wrong with a visited state: coins always, ``status`` when ``full``."""
    problems = []
    total = coins(state)
    if total != COINS:
        problems.append(f"coins not conserved: {total} in play, {COINS} expected")
    if full:
        problems += [f"status: [{i.rule}] {i.message}" for i in status(state, catalog)]
    return problems


def checked_play(
    catalog: Catalog, level: Level, seed: int, cap: int, check_every: int, choice: str = "actions"
) -> tuple[Played, list[str]]:
    """The same game as :func:`play`, with every check made on the way (never timed)."""
    state = deal(catalog, level, players_for(level, seed), seed)
    rng = random.Random(seed)
    pick = chooser(choice)
    steps = options = 0
    where = f"level {level}, seed {seed}, uniform over {choice}"
    while True:
        last = state.ended or steps == cap
        problems = state_problems(state, catalog, full=last or steps % check_every == 0)
        if problems:
            return Played(steps, False, "broken"), [f"{where}, step {steps}: {p}" for p in problems]
        if state.ended:
            return Played(steps, False, end_of(state), options), []
        if steps == cap:
            return Played(steps, True, "capped", options), []
        actions = legal_actions(state, catalog)
        options += len(actions)
        if not actions:
            return Played(steps, False, "stuck"), [f"{where}, step {steps}: no legal action"]
        action = pick(rng, actions)
        try:
            state, _ = apply_action(state, action, catalog)
        except Exception as error:  # any refusal of a listed action is the finding
            return Played(steps, False, "broken"), [
                f"{where}, step {steps}: listed action {action!r} refused: {error}"
            ]
        steps += 1


@dataclass
class ChessRef:
    """Random chess games as the reference: their plies, ends and timings."""

    seeds: list[int]
    cap: int
    results: list[Played] = field(default_factory=list)
    samples: list[float] = field(default_factory=list)

    @staticmethod
    def load() -> Any:
        try:
            import chess  # noqa: PLC0415 - optional: the reference only
        except ImportError:
            return None
        return chess

    def game(self, chess: Any, seed: int) -> Played:
        """One random chess game; this loop is what the reference timings measure."""
        board = chess.Board()
        rng = random.Random(seed)
        plies = 0
        while not board.is_game_over():
            if plies == self.cap:
                return Played(plies, True, "capped")
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        return Played(plies, False, board.outcome().termination.name.lower().replace("_", "-"))

    def batch(self, chess: Any) -> list[Played]:
        return [self.game(chess, seed) for seed in self.seeds]

    def counted_batch(self, chess: Any) -> list[Played]:
        """The same games as :meth:`batch`, counting the legal moves (never timed)."""
        results = []
        for seed in self.seeds:
            board = chess.Board()
            rng = random.Random(seed)
            plies = options = 0
            while not board.is_game_over() and plies < self.cap:
                moves = list(board.legal_moves)
                options += len(moves)
                board.push(rng.choice(moves))
                plies += 1
            outcome = board.outcome()
            end = "capped" if outcome is None else outcome.termination.name
            results.append(Played(plies, outcome is None, end.lower().replace("_", "-"), options))
        return results
