"""What a player may not see, masked: every hidden card replaced by its placeholder.

A page that shows one player's view (``?player=``) gets the game, its legal actions and its log
with the cards that player cannot see written as ``hidden#N``, in texts too.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any, Final

from mhp_cards.errors import ApiError, ViewError
from mhp_cards.game.state import GameState
from mhp_cards.game.visibility import PUBLIC, public_view, view

__all__ = ["hidden_from", "masked", "placeholders", "seen_by"]

_CARD: Final = re.compile(r"(?<![\w#-])([a-z][a-z0-9-]*#\d+)")


def placeholders(state: GameState, seen: GameState) -> dict[str, str]:
    """Each card of ``state`` that the view ``seen`` hides, with its placeholder there.

    The view keeps every position of the state, so walking both in the same order pairs each
    hidden card with the placeholder standing in its place.
    """
    pairs: list[tuple[str | None, str | None]] = []
    if state.field is not None and seen.field is not None:
        for cell, shown in zip(state.field.cells, seen.field.cells, strict=True):
            pairs += [(cell.raw, shown.raw), (cell.fate, shown.fate)]
    pairs += zip(state.removed_fate, seen.removed_fate, strict=True)
    for pile, shown_pile in zip(state.piles, seen.piles, strict=True):
        pairs += zip(pile, shown_pile, strict=True)
    for player, shown_player in zip(state.players, seen.players, strict=True):
        pairs += zip(player.raw_cards, shown_player.raw_cards, strict=True)
    return {real: shown for real, shown in pairs if real is not None and shown != real and shown}


def masked(value: Any, mapping: Mapping[str, str]) -> Any:
    """``value`` (JSON-ready) with every card ID of ``mapping`` replaced, in texts too."""
    if not mapping:
        return value
    if isinstance(value, str):
        return _CARD.sub(lambda m: mapping.get(m.group(1), m.group(1)), value)
    if isinstance(value, dict):
        return {key: masked(item, mapping) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [masked(item, mapping) for item in value]
    return value


def seen_by(state: GameState, player: str | None, shown: Collection[str] = ()) -> GameState:
    """The view of ``player`` (the whole state for None); 400 for a player not in the game.

    ``player`` :data:`~mhp_cards.game.visibility.PUBLIC` (``*``) is the public view: every
    hand hidden. ``shown``: other players' cards shown to ``player`` face up (see ``view``).
    """
    if player is None:
        return state
    if player == PUBLIC:
        return public_view(state)
    try:
        return view(state, player, shown=shown)
    except ViewError as error:
        raise ApiError(
            400,
            "unknown-player",
            str(error),
            {"field": "player", "players": list(error.players)},
        ) from None


def hidden_from(
    state: GameState, player: str | None, shown: Collection[str] = ()
) -> dict[str, str]:
    """The cards ``player`` may not see, with their placeholders; none for the whole state."""
    if player is None:
        return {}
    return placeholders(state, seen_by(state, player, shown))
