"""The player aids: the turn in words, rule IDs beside, counts computed for the box, type ≥ 6 pt."""

from __future__ import annotations

import itertools
import re

import pytest

from mhp_cards.catalog import Catalog
from mhp_cards.errors import TypesetError
from mhp_cards.game.setups import removal_options
from mhp_cards.pdf.aids import AID_MIN_SIZE, AID_SIDES, aid_front, aid_groups
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.kit import Section
from mhp_cards.pdf.layout import SheetProfile, Templates
from mhp_cards.pdf.sketch import Sketch, Text
from mhp_cards.pdf.style import LEVEL_TITLES
from mhp_cards.rules.numbers import LEVELS, WAREHOUSE_SIZE
from mhp_cards.rules.rulebook import load_rulebook


def _aid_texts(kit: list[Section]) -> list[Text]:
    (aids,) = [section for section in kit if section.name == "aids"]
    return [op for page in aids.pages for op in page.ops if isinstance(op, Text)]


def test_no_aid_text_is_below_6_pt(kit: list[Section], kit_en: list[Section]) -> None:
    for sections in (kit, kit_en):
        sizes = [op.size for op in _aid_texts(sections)]
        assert sizes
        assert min(sizes) >= 6.0
    assert AID_MIN_SIZE >= 6.0


def test_every_aid_line_is_printed_with_its_rule_id(kit: list[Section], catalog: Catalog) -> None:
    """Each level's turn, missions, end and scoring, under its own level; the setup is the
    rulebook's (the aid is used after it)."""
    printed = re.sub(r"\s+", " ", " ".join(op.text for op in _aid_texts(kit)))
    book = load_rulebook()
    shown = 0
    for level in LEVELS:
        for _, lines in aid_groups(catalog, level, "ru"):
            for rule, sentence in lines:
                if book.rule(rule).section == "setup" or book.rule(rule).level != level:
                    continue
                # the sentence's lines, then its ID beside the first of them
                assert f"{sentence} {rule}" in printed, (level, rule)
                shown += 1
    assert shown >= 35


def test_one_aid_per_player_with_both_sides_used(kit: list[Section], catalog: Catalog) -> None:
    (aids,) = [section for section in kit if section.name == "aids"]
    assert aids.pieces == len(catalog.components.colours) == 5
    fronts = [p for p in aids.pages if p.side == "front"]
    backs = [p for p in aids.pages if p.side == "back"]
    assert len(fronts) == len(backs)
    for side, levels in ((fronts, AID_SIDES[0]), (backs, AID_SIDES[1])):
        text = " ".join(op.text for page in side for op in page.ops if isinstance(op, Text))
        for level in levels:
            assert LEVEL_TITLES[level]["ru"] in text, level
    assert set(AID_SIDES[0] + AID_SIDES[1]) == set(LEVELS)


def _span(low: int, high: int) -> str:
    """A count as the aids print it: one number, or a range with an en dash."""
    return str(low) if low == high else f"{low}–{high}"


def _numbers(sentence: str) -> list[str]:
    """The counts of a sentence, a range as one item ("8–12")."""
    return re.findall(r"\d+(?:–\d+)?", sentence)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_field_counts_on_the_aids_are_computed(catalog: Catalog, lang: str) -> None:
    fate, raw = catalog.components.fate_cards.count, catalog.raw_deck_size
    for level in ("1", "3"):
        options = removal_options(fate, raw, WAREHOUSE_SIZE[level])
        assert options, level
        removed = _span(options[0], options[-1])
        warehouse = _span(raw - fate + options[0], raw - fate + options[-1])
        lines = dict(line for _, group in aid_groups(catalog, level, lang) for line in group)
        first = "L1.S1" if level == "1" else "L3.S1"
        stock = "L1.S3" if level == "1" else "L3.S2"
        assert removed in _numbers(lines[first]), (level, lines[first])
        assert warehouse in _numbers(lines[stock]), (level, lines[stock])
    # For this box (72 Fate cards, 72 raw cards): the Warehouse is raw - (fate - removed) =
    # removed, so level 1 (Warehouse 4..8) allows only 8 put aside, a field of 64 and a
    # Warehouse of 8 -- one number, not the rules' bare 8-12 nor a range "8–8"; level 3
    # (Warehouse 8..12) allows all of 8..12, so a Warehouse of 8–12.
    level_1 = dict(line for _, group in aid_groups(catalog, "1", lang) for line in group)
    level_3 = dict(line for _, group in aid_groups(catalog, "3", lang) for line in group)
    assert _numbers(level_1["L1.S1"]) == ["8", "64"], level_1["L1.S1"]
    assert _numbers(level_1["L1.S3"]) == ["8"], level_1["L1.S3"]
    assert "8–12" in _numbers(level_3["L3.S1"]), level_3["L3.S1"]
    assert _numbers(level_3["L3.S2"]) == ["8–12"], level_3["L3.S2"]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_no_count_is_left_unfilled(catalog: Catalog, lang: str) -> None:
    for level in LEVELS:
        for _, lines in aid_groups(catalog, level, lang):
            for rule, sentence in lines:
                assert not re.search(r"[{}]", sentence), (level, rule, sentence)


def test_lines_are_grouped_by_phase_in_the_order_of_the_rulebook(catalog: Catalog) -> None:
    book = load_rulebook()
    for level in LEVELS:
        groups = aid_groups(catalog, level, "en")
        ids = [rule for _, lines in groups for rule, _ in lines]
        unsold = {"L1.T6"} if level == "1" else set()  # armour: level 3 only (L1.T6.R2)
        assert ids == [rule.id for rule, _ in book.player_aid(level) if rule.id not in unsold]
        sections = [book.rule(lines[0][0]).section for _, lines in groups]
        assert all(a != b for a, b in itertools.pairwise(sections))
        assert groups[0][0] == "Setup"


def _selling_armour_at(catalog: Catalog, levels: tuple[str, ...]) -> Catalog:
    """The catalog with armour sold at ``levels`` (a fresh value: no cached lookups)."""
    data = catalog.model_dump(mode="json")
    for upgrade in data["components"]["upgrades"]:
        if upgrade["id"] == "armour":
            upgrade["levels"] = list(levels)
    return Catalog.model_validate(data)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_an_upgrade_the_box_does_not_sell_at_a_level_leaves_its_aid(
    catalog: Catalog, lang: str
) -> None:
    def ids(box: Catalog, level: str) -> list[str]:
        return [rule for _, lines in aid_groups(box, level, lang) for rule, _ in lines]

    assert "L1.T6" not in ids(catalog, "1")
    assert "L1.T3" in ids(catalog, "1")
    both = _selling_armour_at(catalog, ("1", "3"))
    assert "L1.T6" in ids(both, "1")
    assert ids(both, "1").index("L1.T6") == ids(both, "1").index("L1.T5") + 1
    assert ids(both, "3") == ids(catalog, "3")


def test_the_aids_share_one_type_size(kit: list[Section]) -> None:
    (aids,) = [section for section in kit if section.name == "aids"]
    front = aids.pages[0]
    greys = {op.size for op in front.ops if isinstance(op, Text) and op.colour == "#7A7A7A"}
    body = {op.size for op in front.ops if isinstance(op, Text) and op.colour == "#231F20"}
    assert len(greys) == 1  # the rule IDs of both sides
    assert len(body) == 1  # the sentences of both sides
    assert greys.pop() < body.pop()


def test_a_set_of_aids_that_would_be_too_small_still_keeps_6_pt(
    a4: SheetProfile, templates: Templates
) -> None:
    sketch = Sketch()
    sketch.new_page(100, 150, "test")
    face = Face(sketch, templates["aid"], a4.card_sizes["aid"], "en")
    lines = [(f"L1.T{n}", "Short line") for n in range(20)]
    aid_front(face, "Level 1", [("The turn", lines)], "player aid 1", size=AID_MIN_SIZE)
    sizes = [op.size for op in sketch.page.ops if isinstance(op, Text)]
    assert min(sizes) >= 6.0


def test_an_aid_that_cannot_fit_names_the_card(a4: SheetProfile, templates: Templates) -> None:
    sketch = Sketch()
    sketch.new_page(100, 150, "test")
    face = Face(sketch, templates["aid"], a4.card_sizes["aid"], "en")
    lines = [
        (f"L1.T{n}", "A long sentence that takes two lines on the aid card") for n in range(40)
    ]
    with pytest.raises(TypesetError, match=r"player aid 1.*6\.5 pt"):
        aid_front(face, "Level 1", [("The turn", lines)], "player aid 1")
