"""TableMemo: answers kept for a state's installations and Mission card, and only for them."""

from __future__ import annotations

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.dealer import deal
from mhp_cards.game.tablememo import TableMemo


def test_an_answer_is_kept_for_the_same_table_and_keys(catalog: Catalog) -> None:
    state = deal(catalog, "2", players=2, seed=1)
    memo: TableMemo[str] = TableMemo(8)
    assert memo.get(state, catalog, "red") is None
    assert memo.put(state, catalog, "answer", "red") == "answer"
    # Another state sharing the table's values (a raw card moved, no token) finds it.
    moved = state.model_copy(update={"bank": state.bank + 1})
    assert memo.get(moved, catalog, "red") == "answer"
    assert memo.get(state, catalog, "blue") is None


def test_a_new_table_value_is_another_table(catalog: Catalog) -> None:
    state = deal(catalog, "2", players=2, seed=1)
    memo: TableMemo[int] = TableMemo(8)
    memo.put(state, catalog, 1)
    # An equal but distinct tuple of installations (as after a token moved and back) is not
    # taken for the kept one: the memory reads identities, not equality.
    copied = state.model_copy(update={"installations": (*state.installations,)})
    assert copied.installations is not state.installations
    assert memo.get(copied, catalog) is None


def test_the_memory_starts_afresh_when_full(catalog: Catalog) -> None:
    state = deal(catalog, "2", players=2, seed=1)
    memo: TableMemo[int] = TableMemo(2)
    memo.put(state, catalog, 1, "a")
    memo.put(state, catalog, 2, "b")
    memo.put(state, catalog, 3, "c")
    assert memo.get(state, catalog, "a") is None
    assert memo.get(state, catalog, "c") == 3
