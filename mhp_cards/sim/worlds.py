"""Worlds consistent with a player's view: the hidden cards dealt from the unseen ones.

The search bot plays its rollouts in such worlds (determinisations): what it cannot see is
sampled, what it sees is kept.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.dealer import raw_instances
from mhp_cards.game.state import Cell, GameState
from mhp_cards.game.visibility import HIDDEN_RAW, is_hidden

__all__ = ["determinise", "unseen"]


def unseen(view: GameState, catalog: Catalog, box: Sequence[str] | None = None) -> tuple[str, ...]:
    """The cards ``view`` does not show, to deal onto the places it hides (:func:`determinise`).

    ``box``: every raw card of the box (default: the catalog's). ValueError if the view hides
    more cards than the box has unseen ones. Worked out once, it serves every world sampled
    from the same view.
    """
    cards = raw_instances(catalog) if box is None else box
    seen = Counter(card for card, _ in view.raw_locations() if not is_hidden(card))
    found = tuple(card for card in cards if not _take(seen, card))
    hidden = sum(1 for card, _ in view.raw_locations() if is_hidden(card))
    if hidden > len(found):
        raise ValueError(f"the view hides {hidden} raw cards but only {len(found)} are unseen")
    return found


def determinise(
    view: GameState,
    catalog: Catalog,
    rng: random.Random,
    box: Sequence[str] | None = None,
    pool: Sequence[str] | None = None,
) -> GameState:
    """A full state consistent with ``view``: its hidden raw cards dealt from the unseen ones.

    The unseen cards are the box's raw cards (``box``, default every raw card of the catalog)
    that the view shows nowhere (``pool``: :func:`unseen` of this view, worked out already);
    they are shuffled with ``rng`` onto the hidden places (field cells, piles, other players'
    hands). Fate cards stay placeholders (no rule reads a Fate card's face) and the dice get a
    fresh generator state from ``rng``. ValueError if the view hides more cards than the box
    has unseen ones.
    """
    unseen_cards = list(unseen(view, catalog, box) if pool is None else pool)
    rng.shuffle(unseen_cards)
    deck = iter(unseen_cards)

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
        update["field"] = view.field.with_cards(cells, raw_positions=view.field.raw_positions)
    return view.model_copy(update=update)


def _take(seen: Counter[str], card: str) -> bool:
    """True (and one fewer to find) if ``card`` is among the cards seen."""
    if seen[card] > 0:
        seen[card] -= 1
        return True
    return False
