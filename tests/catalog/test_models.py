"""The catalog models as values: copies with an update answer from the new fields."""

from __future__ import annotations

from mhp_cards.validate import load_catalog


def test_model_copy_with_an_update_drops_cached_lookups() -> None:
    catalog = load_catalog()
    water = catalog.substance("H2O")
    cheaper = water.model_copy(update={"price": water.price + 7})
    changed = catalog.model_copy(
        update={"substances": tuple(cheaper if s is water else s for s in catalog.substances)}
    )
    assert changed.substance("H2O").price == water.price + 7
    assert catalog.substance("H2O").price == water.price, "the original is not changed"


def test_model_copy_of_cards_answers_for_the_new_cards() -> None:
    catalog = load_catalog()
    card = catalog.card("2А")
    renamed = card.model_copy(update={"id": "2Я"})
    first = catalog.installation(2)
    installation = first.model_copy(
        update={"cards": tuple(renamed if c is card else c for c in first.cards)}
    )
    changed = catalog.model_copy(
        update={
            "installations": tuple(installation if i is first else i for i in catalog.installations)
        }
    )
    assert changed.card("2Я") == renamed
    assert catalog.card("2А") == card
