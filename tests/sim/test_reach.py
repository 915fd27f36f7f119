"""The field's reach as the bots read it: what is kept for a field is what it holds now."""

from __future__ import annotations

import random

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import deal, view
from mhp_cards.referee import apply, legal_actions
from mhp_cards.sim.reach import distances, raw_cells, raw_distances


def test_raw_cells_and_distances_follow_the_field_as_cards_are_collected(
    catalog: Catalog,
) -> None:
    """On every view of a level-1 and a level-3 game the raw cells are those with a card, an
    immutable set kept for the field, and the distances kept are the ones worked out; the
    field changes."""
    fields = set()
    for level, seed in (("1", 2), ("3", 5)):
        rng = random.Random(seed)
        state = deal(catalog, level, players=3, seed=seed)
        for _ in range(120):
            if state.ended:
                break
            field = view(state, state.current.id).field
            assert field is not None
            fields.add(id(field))
            diagonal = state.house_rules.diagonal_adjacency
            expected = {cell.position for cell in field.cells if cell.raw is not None}
            cells = raw_cells(field)
            assert cells == expected
            assert isinstance(cells, frozenset)  # shared by every caller: nobody can change it
            assert raw_cells(field) is cells
            assert raw_cells(field.model_copy(deep=True)) == expected
            neighbours = field.neighbours(diagonal)
            assert raw_distances(field, diagonal) == distances(neighbours, expected)
            assert raw_distances(field, diagonal, field.base) == distances(neighbours, {field.base})
            state, _ = apply(state, rng.choice(legal_actions(state, catalog)), catalog)
    assert len(fields) > 4
