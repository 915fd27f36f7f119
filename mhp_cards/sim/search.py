"""The ``search`` bot: determinised Monte Carlo search over the player's view.

At each choice the bot samples worlds consistent with what its view shows (determinisation:
the cards it cannot see, dealt at random among the places it cannot see), plays every
candidate action in each world, lets the greedy bot play on for every seat for a few turns
(a *rollout*), and scores the end of each rollout: a finished game by who won, an unfinished
one at levels 2, head to head and 3 by the lead at the rules' prices
(:func:`mhp_cards.referee.score`: the substances under each player's tokens, the Mission card
and the money), at level 1 by who is closer to a mission (a claim wins outright there). It
takes the candidate whose rollouts scored best.

What it knows is the view only: the real state's hidden cards never reach it, so a view whose
hidden cards were dealt otherwise gives the same choice. Its randomness comes from the game's
seeded generator (one draw per choice that is searched), so the same seed gives the same game.

It is cheap where there is no choice: a single candidate, or candidates that are the same
choice (selling or buying one of two cards of the same kind, taking the hidden top card of
one pile or another), cost no rollout. It does not propose trades or sales to other
players: its rollouts have no partner to ask (the simulator asks the partner of a real
offer, :func:`mhp_cards.sim.play_game`), so they could not tell an offer that would be agreed
from one that would not. It trades only when nothing else is allowed, and agrees to every
offer made to it.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.dealer import raw_instances
from mhp_cards.game.state import Cell, GameState, Player
from mhp_cards.game.visibility import HIDDEN_RAW, is_hidden
from mhp_cards.referee.actions import Action, BuyRaw, SellRaw, TakeRaw, partner_of
from mhp_cards.referee.end import game_end
from mhp_cards.referee.engine import apply
from mhp_cards.referee.legal import legal_actions
from mhp_cards.referee.scoring import score
from mhp_cards.sim.bots import GreedyBot, mission_elements

__all__ = ["SearchBot", "SearchBudget", "determinise"]

#: Money (мР) by which a lead at the horizon counts about as much as a won game, for the
#: evaluation of a rollout that stops before the end: tanh(lead / scale).
LEAD_SCALE: Final = 6.0
#: Elements by which being closer to a mission counts about as much as a won game (level 1).
MISSION_SCALE: Final = 3.0
#: Actions after which a rollout stops whatever its horizon (a guard: games end long before).
ROLLOUT_STEPS: Final = 2000


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much the search may spend on one choice.

    ``worlds``: the sampled worlds (determinisations); each candidate is played out once in
    each world, with the same rollout seed, so candidates are compared on the same luck.
    ``horizon``: the turns a rollout plays after the candidate (the rest of the bot's own
    turn counts as the first); None plays to the end of the game. ``seconds``: an optional
    time limit per choice, checked between worlds (at least one world is always played);
    with it, a game depends on the machine's speed, so the default is None.
    """

    worlds: int = 2
    horizon: int | None = 3
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.worlds < 1:
            raise ValueError(f"a search needs at least one world, not {self.worlds}")
        if self.horizon is not None and self.horizon < 1:
            raise ValueError(f"the horizon is at least one turn, not {self.horizon}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"the time budget must be positive, not {self.seconds}")


class SearchBot:
    """Determinised Monte Carlo search with greedy rollouts (see the module)."""

    name: Final = "search"

    def __init__(self, catalog: Catalog, budget: SearchBudget | None = None) -> None:
        self.catalog = catalog
        self.budget = budget or SearchBudget()
        self._greedy = GreedyBot(catalog)
        self._box: Final = tuple(raw_instances(catalog))
        # Farther than any reachable mission: more elements than the largest mission has.
        self._far = 1 + max(sum(mission_elements(m).values()) for m in catalog.missions)
        self.searched = 0
        """Choices that were searched (more than one distinct candidate)."""
        self.rollouts = 0
        """Rollouts played so far."""

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        """The candidate whose rollouts from sampled worlds score best for the viewer.

        ``view`` must be a player's view (:func:`mhp_cards.game.view`): ValueError for a full
        state, whose hidden cards the bot must not see.
        """
        if view.viewer is None:
            raise ValueError("the search bot plays from a player's view, not from the full state")
        if view.fight is not None:
            return self._greedy.choose(view, legal, rng)
        candidates = _candidates(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        self.searched += 1
        # One draw from the game's generator per search: the game stays a function of its seed.
        search_rng = random.Random(rng.getrandbits(64))
        me = view.viewer
        totals = [0.0] * len(candidates)
        started = time.perf_counter()
        for world_index in range(self.budget.worlds):
            if (
                world_index
                and self.budget.seconds is not None
                and time.perf_counter() - started > self.budget.seconds
            ):
                break
            world = determinise(view, self.catalog, search_rng, box=self._box)
            rollout_seed = search_rng.getrandbits(64)
            for index, action in enumerate(candidates):
                totals[index] += self._rollout(world, action, me, rollout_seed)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def _rollout(self, world: GameState, action: Action, me: str, seed: int) -> float:
        """The value for ``me`` of playing ``action`` in ``world``, then greedy for everyone."""
        self.rollouts += 1
        rng = random.Random(seed)
        state, _ = apply(world, action, self.catalog)
        stop = None if self.budget.horizon is None else world.turn_number + self.budget.horizon
        for _ in range(ROLLOUT_STEPS):
            if state.ended or (stop is not None and state.turn_number >= stop):
                break
            # Trades are left out of rollouts: greedy proposes none while anything else is
            # allowed, and at level 2 listing the trades is half the cost of listing actions.
            if "trade" not in state.done_this_turn and state.fight is None:
                state = state.model_copy(
                    update={"done_this_turn": (*state.done_this_turn, "trade")}
                )
            legal = legal_actions(state, self.catalog)
            if not legal:
                break
            state, _ = apply(state, self._greedy.choose(state, legal, rng), self.catalog)
        return self._value(state, me)

    def _value(self, state: GameState, me: str) -> float:
        """1 for a won game, a share of 1 for a tie, 0 for a loss; between, by the lead."""
        end = game_end(state, self.catalog)
        if end is not None:
            return 1 / len(end.winners) if me in end.winners else 0.0
        if state.level == "1":
            return self._mission_race(state, me)
        totals = score(state, self.catalog).totals
        mine = totals[me]
        best_other = max(total for player, total in totals.items() if player != me)
        return 0.5 + 0.5 * math.tanh((mine - best_other) / LEAD_SCALE)

    def _mission_race(self, state: GameState, me: str) -> float:
        """Level 1, unfinished: who is closer to claiming a mission, by elements missing.

        The score at level 1 (raw cards and money) says little while nobody has claimed:
        a mission claimed wins outright. Each player's distance is what the closest
        reachable mission still lacks (the greedy bot's measure); cards held break ties.
        """
        distance = {p.id: self._distance(p) for p in state.players}
        cards = {p.id: len(p.raw_cards) for p in state.players}
        others = [p.id for p in state.players if p.id != me]
        lead = (
            min(distance[o] for o in others)
            - distance[me]
            + 0.1 * (cards[me] - max(cards[o] for o in others))
        )
        return 0.5 + 0.5 * math.tanh(lead / MISSION_SCALE)

    def _distance(self, player: Player) -> int:
        missing = self._greedy.missing(player)
        return self._far if missing is None else sum(missing.values())


def _candidates(view: GameState, legal: list[Action]) -> list[Action]:
    """The distinct choices worth searching, in the order listed.

    Trades and sales to another player are left out while anything else is allowed (see the
    module). Actions that are the same choice for what the player knows are listed once:
    the sales or purchases of raw cards of one kind, and the takes from piles whose top card
    is hidden (head to head: a card unseen from one pile or another is the same gamble).
    """
    own = [a for a in legal if partner_of(a) is None]
    chosen: list[Action] = []
    seen: set[tuple[str, str]] = set()
    for action in own or legal:
        key: tuple[str, str] | None = None
        if isinstance(action, SellRaw | BuyRaw):
            key = (action.kind, action.card.rsplit("#", 1)[0])
        elif isinstance(action, TakeRaw) and 0 < action.pile <= len(view.piles):
            pile = view.piles[action.pile - 1]
            if pile and is_hidden(pile[-1]):
                key = (action.kind, HIDDEN_RAW)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        chosen.append(action)
    return chosen


def determinise(
    view: GameState,
    catalog: Catalog,
    rng: random.Random,
    box: Sequence[str] | None = None,
) -> GameState:
    """A full state consistent with ``view``: its hidden raw cards dealt from the unseen ones.

    The unseen cards are the box's raw cards (``box``, default every raw card of the catalog)
    that the view shows nowhere; they are shuffled with ``rng`` onto the hidden places (field
    cells, piles, other players' hands). Fate cards stay placeholders (no rule reads a Fate
    card's face) and the dice get a fresh generator state from ``rng``. ValueError if the
    view hides more cards than the box has unseen ones.
    """
    cards = raw_instances(catalog) if box is None else box
    seen = Counter(card for card, _ in view.raw_locations() if not is_hidden(card))
    unseen = [card for card in cards if not _take(seen, card)]
    hidden = sum(1 for card, _ in view.raw_locations() if is_hidden(card))
    if hidden > len(unseen):
        raise ValueError(f"the view hides {hidden} raw cards but only {len(unseen)} are unseen")
    rng.shuffle(unseen)
    deck = iter(unseen)

    def deal(card: str) -> str:
        return next(deck) if card.rsplit("#", 1)[0] == HIDDEN_RAW else card

    update: dict[str, object] = {
        "viewer": None,
        "seed": rng.getrandbits(63),
        "rng": rng.getrandbits(64),
        "piles": tuple(tuple(deal(card) for card in pile) for pile in view.piles),
        "players": tuple(
            p.model_copy(update={"raw_cards": tuple(deal(card) for card in p.raw_cards)})
            if any(is_hidden(card) for card in p.raw_cards)
            else p
            for p in view.players
        ),
    }
    if view.field is not None:
        cells: tuple[Cell, ...] = tuple(
            cell
            if cell.raw is None or not is_hidden(cell.raw)
            else cell.model_copy(update={"raw": deal(cell.raw)})
            for cell in view.field.cells
        )
        update["field"] = view.field.with_cards(cells)
    return view.model_copy(update=update)


def _take(seen: Counter[str], card: str) -> bool:
    """True (and one fewer to find) if ``card`` is among the cards seen."""
    if seen[card] > 0:
        seen[card] -= 1
        return True
    return False
