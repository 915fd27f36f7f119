"""The search bot's choices: which actions are one choice, which are searched, in what order.

A player's listing holds many actions that are the same choice for what the player knows (the
sales of raw cards of one kind, the reactions that take one or another card of the same kinds,
the takes from piles whose top card is hidden); the search plays one of each. The greedy
bot's choice comes first, then the moves that collect more, cut to :data:`MAX_CANDIDATES`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Final

from mhp_cards.game.state import GameState
from mhp_cards.game.visibility import HIDDEN_RAW, is_hidden
from mhp_cards.referee.actions import Action, BuyRaw, Move, React, SellRaw, TakeRaw, partner_of
from mhp_cards.sim.reach import raw_cells

__all__ = [
    "MAX_CANDIDATES",
    "candidates",
    "choice_key",
    "distinct",
    "is_blind_take",
    "no_trades",
    "ordered",
]

#: Candidates searched at most: the greedy choice, then the others in the order listed,
#: moves that collect more first.
MAX_CANDIDATES: Final = 8


def ordered(view: GameState, preferred: Action, candidates: list[Action]) -> list[Action]:
    """The greedy choice first, then the others (moves that collect more first), cut short.

    At most :data:`MAX_CANDIDATES`; sales of raw cards to the Bank only if greedy's choice.
    The greedy choice is the candidate that is the same choice as ``preferred`` (one sale of
    a kind stands for the others).
    """
    first = next((a for a in candidates if _same(view, a, preferred)), preferred)
    if is_blind_take(view, first):
        first = preferred  # greedy's face-down pile, not always the first (see the bot)
    # A sale to the Bank is the greedy bot's call: a raw card's worth is a coin, and a
    # short rollout cannot tell one sale from another (it would spend the budget on them).
    rest = [a for a in candidates if not _same(view, a, first) and not isinstance(a, SellRaw)]
    if view.field is not None:
        raw = raw_cells(view.field)

        def collects(action: Action) -> int:
            return len(raw & set(action.path)) if isinstance(action, Move) else 0

        rest.sort(key=lambda a: -collects(a))
    return [first, *rest][:MAX_CANDIDATES]


def _same(view: GameState, one: Action, other: Action) -> bool:
    return one == other or (_key(view, one) is not None and _key(view, one) == _key(view, other))


def is_blind_take(view: GameState, action: Action) -> bool:
    """A take from a pile whose top card the viewer cannot see (head to head, V1.1)."""
    return isinstance(action, TakeRaw) and _key(view, action) is not None


def _key(view: GameState, action: Action) -> Hashable | None:
    """What makes actions the same choice for what the player knows (None: only itself)."""
    if isinstance(action, SellRaw | BuyRaw):
        return (action.kind, action.card.rsplit("#", 1)[0])
    if isinstance(action, React):
        return _reaction_key(action)
    if isinstance(action, TakeRaw) and 0 < action.pile <= len(view.piles):
        pile = view.piles[action.pile - 1]
        if pile and is_hidden(pile[-1]):
            return (action.kind, HIDDEN_RAW)
    return None


def _reaction_key(action: React) -> tuple[str, int, tuple[str, ...], tuple[str, ...]]:
    """A reaction is the same choice whichever cards of each kind it takes."""
    kinds = tuple(sorted(card.rsplit("#", 1)[0] for card in action.cards))
    return (action.kind, action.installation, kinds, action.missions)


def candidates(view: GameState, legal: list[Action]) -> list[Action]:
    """The distinct choices worth searching, in the order listed.

    Trades and sales to another player are left out while anything else is allowed (the
    sales worth offering are added by the bot, see the module). Actions that are the same
    choice for what the player knows are listed once: the sales or purchases of raw cards of
    one kind, and the takes from piles whose top card is hidden (head to head: a card unseen
    from one pile or another is the same gamble).
    """
    return distinct(legal, lambda action: _key(view, action))


def no_trades(state: GameState) -> GameState:
    """``state`` with the turn's trading done: no trade is listed (rollouts make none)."""
    if "trade" in state.done_this_turn:
        return state
    return state.model_copy(update={"done_this_turn": (*state.done_this_turn, "trade")})


def choice_key(state: GameState, action: Action, face_down: bool) -> Hashable:
    """What makes actions one choice for the viewer (see :func:`_key`), else the action.

    ``face_down``: the piles' top cards are hidden from the viewer (head to head), so in a
    sampled world a take from one pile or another is still the same gamble.
    """
    if isinstance(action, SellRaw | BuyRaw):
        return (action.kind, action.card.rsplit("#", 1)[0])
    if isinstance(action, React):
        return _reaction_key(action)
    if isinstance(action, TakeRaw) and face_down:
        return (action.kind, HIDDEN_RAW)
    return action


def distinct(actions: Sequence[Action], key: Callable[[Action], Hashable | None]) -> list[Action]:
    """``actions`` without a trade (unless only trades), one of each ``key``, in order."""
    own = [a for a in actions if partner_of(a) is None]
    chosen: list[Action] = []
    seen: set[Hashable] = set()
    for action in own or actions:
        mark = key(action)
        if mark is not None:
            if mark in seen:
                continue
            seen.add(mark)
        chosen.append(action)
    return chosen
