"""The card designs (one per distinct card) and reading ``--cards`` lists."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mhp_cards.catalog import Catalog
from mhp_cards.errors import CardSelectionError
from mhp_cards.pdf.cards import DECKS, card_designs, select_cards
from mhp_cards.validate import load_catalog

DESIGNS = card_designs(load_catalog())


def test_every_card_of_the_box_has_one_design(catalog: Catalog) -> None:
    ids = [design.id for design in DESIGNS]
    assert len(ids) == len(set(ids))
    assert {design.deck for design in DESIGNS} == set(DECKS)
    raw = {design.id: design.copies for design in DESIGNS if design.deck == "raw"}
    assert raw == {material.id: material.copies for material in catalog.raw_materials}
    reactors = [design.id for design in DESIGNS if design.deck == "reactors"]
    assert reactors == [c.id for i in catalog.installations for c in i.cards] + [
        e.id for e in catalog.electrolysers
    ]
    fate = [design for design in DESIGNS if design.deck == "fate"]
    assert len(fate) == catalog.components.fate_cards.count


def test_front_names_are_unique_and_backs_are_shared() -> None:
    fronts = [design.front.name for design in DESIGNS if design.deck != "fate"]
    assert len(fronts) == len(set(fronts))
    # the Fate cards are field tiles: one face, the Mars surface, on both sides
    fate = [design for design in DESIGNS if design.deck == "fate"]
    assert {design.front.name for design in fate} == {"fate"}
    assert all(design.back is design.front for design in fate)
    raw_backs = {design.back.name for design in DESIGNS if design.deck == "raw"}
    assert raw_backs == {"raw"}


def test_ids_are_read_with_lookalikes_aliases_and_counts() -> None:
    chosen = select_cards(DESIGNS, " water-ice , 4A*3,electrolyser,Э2, FATE-7")
    assert [(pick.design.id, pick.copies) for pick in chosen] == [
        ("water-ice", 1),
        ("4А", 3),  # the Latin A read as the Cyrillic А
        ("Э1", 1),
        ("Э2", 1),
        ("fate-7", 1),
    ]


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("water-ise", 0, "did you mean water-ice"),
        ("water-ice,4Ж", 10, "no card '4Ж'"),
        ("water-ice*0", 10, "not a number of copies"),
        ("water-ice*two", 10, "not a number of copies"),
        ("water-ice,,4А", 10, "empty card ID"),
        ("water-ice,", 9, "a comma with no card ID"),
        ("", 0, "no card IDs"),
    ],
)
def test_a_bad_list_is_located(text: str, column: int, message: str) -> None:
    with pytest.raises(CardSelectionError) as error:
        select_cards(DESIGNS, text)
    assert message in error.value.message
    assert error.value.position == column
    assert "^" in str(error.value)


@given(
    st.lists(
        st.tuples(st.sampled_from([d.id for d in DESIGNS]), st.integers(1, 12)),
        min_size=1,
        max_size=8,
    )
)
def test_any_list_of_ids_reads_back(picks: list[tuple[str, int]]) -> None:
    text = ",".join(f"{card}*{n}" if n > 1 else card for card, n in picks)
    assert [(pick.design.id, pick.copies) for pick in select_cards(DESIGNS, text)] == picks


def test_chosen_cards_are_imposed_with_aligned_backs(
    catalog: Catalog, a4, templates, boxes_of
) -> None:
    from mhp_cards.pdf.kit import Item, plan_cards

    chosen = select_cards(DESIGNS, "water-ice*2,4А")
    items = [
        (
            p.design.kind,
            Item(
                p.design.front.template,
                p.design.front.draw,
                p.design.back.template,
                p.design.back.draw,
            ),
        )
        for p in chosen
        for _ in range(p.copies)
    ]
    section = plan_cards(catalog, a4, templates, "ru", items)
    assert [(page.side, len(boxes_of(page, a4))) for page in section.pages] == [
        ("front", 2),
        ("back", 2),
        ("front", 1),
        ("back", 1),
    ]
    assert section.pieces == 3
    width = a4.page.dimensions[0]
    for front, back in zip(section.pages[::2], section.pages[1::2], strict=True):
        mirrored = sorted((round(width - x - w, 2), y, w, h) for x, y, w, h in boxes_of(front, a4))
        assert sorted(boxes_of(back, a4)) == mirrored  # long-edge flip: columns mirror
