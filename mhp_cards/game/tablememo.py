"""Answers worked out from a state's installations and Mission card, kept while those stay.

The states of a game share their ``installations`` and ``missions`` values until a token
moves, so an answer that reads only those (and the catalog, and a few small keys) can be kept
for them. It is keyed by the values' ids and kept alive with them, so an id is never read for
another value; the memory starts afresh when it is full.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState

__all__ = ["TableMemo"]

T = TypeVar("T")


class TableMemo(Generic[T]):
    """A memory of answers for (installations, Mission card, catalog, extra keys)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._known: dict[tuple[Hashable, ...], tuple[object, object, Catalog, T]] = {}

    def get(self, state: GameState, catalog: Catalog, *extra: Hashable) -> T | None:
        """The answer kept for this table and ``extra``; None when there is none."""
        found = self._known.get(_key(state, catalog, extra))
        if (
            found is not None
            and found[0] is state.installations
            and found[1] is state.missions
            and found[2] is catalog
        ):
            return found[3]
        return None

    def put(self, state: GameState, catalog: Catalog, answer: T, *extra: Hashable) -> T:
        """Keep ``answer`` for this table and ``extra``, and return it."""
        if len(self._known) >= self._size:
            self._known.clear()
        self._known[_key(state, catalog, extra)] = (
            state.installations,
            state.missions,
            catalog,
            answer,
        )
        return answer


def _key(state: GameState, catalog: Catalog, extra: tuple[Hashable, ...]) -> tuple[Hashable, ...]:
    return (id(state.installations), id(state.missions), id(catalog), *extra)
