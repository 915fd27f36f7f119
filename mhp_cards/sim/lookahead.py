"""Two policies that play unlike the greedy bot, to measure the game with more than one player.

A figure measured only with the bot that was tuned on the game says how that bot plays, not
whether the game is sound (DESIGN.md, "Depth, not only ends"). These two play otherwise:

- ``lookahead`` tries every action it may take on its own view and keeps one whose result
  scores best for it: the level's score (a won game above everything), where a raw card in
  hand counts at levels 2 and 3 what the Bank pays for it (at level 1 the score counts it
  already), so that selling one is no gain in itself. At level 3 the result also counts what
  it promises (:func:`~mhp_cards.sim.prospects.prospects`): the runs its cards and products
  go towards, a shared installation's less for each turn to the Base, and its tokens on
  missions by how full each is — without that a level-3 player sees no gain in a card towards
  a run nor in a walk to the Base, and hardly completes a mission. Among equals it walks
  towards the nearest raw card on the field (a combine must move, and a card lying there is
  the only gain a move can bring), else ends its turn rather than take an action that gains
  nothing; it makes no offer to another player (so the simulator does not list the trades
  for it) and attacks nobody. Head to head it keeps the
  installation dealt that promises most over the game, as the greedy bot does (no score
  tells one from another yet). It looks one action ahead
  and no further: it plans no walk and no sequence of purchases.
- ``noisy-greedy`` is the greedy bot that, a fifth of the time, plays a legal action chosen
  uniformly at random instead, as people err.
"""

from __future__ import annotations

import random
from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import MhpError
from mhp_cards.game.state import GameState
from mhp_cards.referee.actions import Action, BuyRaw, EndTurn, Move, SellRaw, partner_of
from mhp_cards.referee.end import game_end
from mhp_cards.referee.engine import apply
from mhp_cards.referee.scoring import totals
from mhp_cards.referee.table import occupant
from mhp_cards.rules.numbers import BANK_SALE_PRICE
from mhp_cards.sim.bots import GreedyBot, Policy, keep_best
from mhp_cards.sim.fights import kind_of
from mhp_cards.sim.prospects import prospects
from mhp_cards.sim.reach import raw_cells, raw_distances

__all__ = ["NOISE", "LookaheadBot", "NoisyBot"]

#: The share of choices ``noisy-greedy`` makes at random.
NOISE: Final = 0.2
#: What a won (or lost) game is worth to the lookahead, above any score.
_WON: Final = 10_000


class LookaheadBot:
    """One step ahead: the action whose result scores best for the player (see the module)."""

    name: Final = "lookahead"

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def proposes_trades(self, view: GameState) -> bool:
        """Never: it weighs only what it does alone (so the trades need not be listed)."""
        return False

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        """The best-scoring action on the view; ending the turn among equals."""
        if legal[0].kind in ("fight", "spoils", "retreat"):
            return legal[0]  # a fight's steps: the dice, then the first spoils and retreat listed
        if legal[0].kind == "keep":
            # Keeping an installation changes no score: its worth is the game it promises.
            return keep_best(view, self.catalog, legal)
        me = view.current.id
        candidates = [a for a in legal if partner_of(a) is None and not _attack(view, a)]
        if not candidates:
            return rng.choice(legal)
        best: list[Action] = []
        top = float("-inf")
        # Copies of a raw kind are alike: buying or selling one scores as any other does.
        alike: dict[tuple[str, str], float | None] = {}
        for action in candidates:
            if isinstance(action, BuyRaw | SellRaw):
                key = (action.kind, kind_of(action.card))
                if key not in alike:
                    alike[key] = self._value(view, action, me)
                value = alike[key]
            else:
                value = self._value(view, action, me)
            if value is None:
                continue
            if value > top:
                top, best = value, [action]
            elif value == top:
                best.append(action)
        if not best:
            return rng.choice(candidates)
        walk = _towards_raw(view, [a for a in best if isinstance(a, Move)])
        if walk:
            return rng.choice(walk)
        ending = [a for a in best if isinstance(a, EndTurn)]
        return ending[0] if ending else rng.choice(best)

    def _value(self, view: GameState, action: Action, me: str) -> float | None:
        """The player's score after ``action`` on the view, raw cards held and prospects counted.

        None when the view cannot play it (an action whose outcome depends on a card the
        player cannot see is judged on the placeholder, which the referee may refuse).
        """
        try:
            after, _ = apply(view, action, self.catalog)
        except (MhpError, KeyError, ValueError):
            return None
        if after.ended:
            end = game_end(after, self.catalog)
            if end is not None:
                return _WON if me in end.winners else -_WON
        if any(player == me for player, _ in after.claims):
            return _WON  # an announced mission wins, shared with later claims (L2.E1-round)
        held = 0 if after.level == "1" else BANK_SALE_PRICE * len(after.player(me).raw_cards)
        promise = prospects(after, self.catalog, me)
        return totals(after, self.catalog).get(me, 0) + held + promise


class NoisyBot:
    """A policy that plays a uniformly random legal action with probability ``noise``."""

    def __init__(self, policy: Policy, noise: float = NOISE, name: str = "noisy") -> None:
        if not 0 <= noise <= 1:
            raise ValueError(f"the noise is a probability from 0 to 1, not {noise}")
        self.policy = policy
        self.noise = noise
        self.name = name

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        """The wrapped policy's choice, or now and then any listed action."""
        if rng.random() < self.noise:
            return rng.choice(legal)
        return self.policy.choose(view, legal, rng)

    def accepts(self, view: GameState, offer: Action, rng: random.Random) -> bool:
        """The wrapped policy's answer to an offer (everything when it has none)."""
        answer = getattr(self.policy, "accepts", None)
        return True if answer is None else bool(answer(view, offer, rng))


def noisy_greedy(catalog: Catalog) -> NoisyBot:
    """The greedy bot erring a fifth of the time."""
    return NoisyBot(GreedyBot(catalog), NOISE, "noisy-greedy")


def _towards_raw(view: GameState, moves: list[Move]) -> list[Move]:
    """The moves that end nearest a raw card on the field; none when no card lies there."""
    field = view.field
    if not moves or field is None:
        return []
    raw = raw_cells(field)
    if not raw:
        return []
    steps = raw_distances(field, view.house_rules.diagonal_adjacency)
    far = len(field.cells) + 1
    nearest = min(steps.get(move.path[-1], far) for move in moves)
    return [] if nearest == far else [m for m in moves if steps.get(m.path[-1], far) == nearest]


def _attack(view: GameState, action: Action) -> bool:
    """True for a move that ends on another player's combine (an attack)."""
    return isinstance(action, Move) and (
        occupant(view, action.path[-1], besides=view.current.id) is not None
    )
