"""The cover sheet, read back from mhp-cover.pdf: type sizes, check boxes, counts, paper advice."""

from __future__ import annotations

import re
from typing import Any

import pdfplumber
import pytest

from mhp_cards.catalog import Catalog
from mhp_cards.pdf.cover import COVER_MIN_SIZE
from mhp_cards.pdf.kit import Section
from mhp_cards.pdf.layout import SheetProfile
from mhp_cards.pdf.sketch import Rect, Text
from mhp_cards.pdf.typeset import SUB_SCALE

Built = Any  # the ``built`` fixture of conftest.py: ``out``, ``result``, ``path(name)``
#: Sections cut into pieces (the rest are read: cover, rules, calibration, guides).
CUT = ("raw", "fate", "field", "reactors", "mission", "tokens", "aids")


@pytest.fixture(scope="module")
def cover_chars(built: Built) -> list[dict]:
    with pdfplumber.open(built.path("cover")) as pdf:
        assert len(pdf.pages) == 2  # how to print; the checklist on its back
        return [char for page in pdf.pages for char in page.chars]


@pytest.fixture(scope="module")
def cover_text(built: Built) -> str:
    with pdfplumber.open(built.path("cover")) as pdf:
        return re.sub(r"\s+", " ", " ".join(page.extract_text() or "" for page in pdf.pages))


def test_every_text_of_the_cover_is_at_least_8_pt(cover_chars: list[dict]) -> None:
    small = [c for c in cover_chars if c["size"] < COVER_MIN_SIZE - 0.01]
    # only the shifted digits of formulas and units (H₂O, g/m²) are smaller, and not by much
    assert {c["text"] for c in small} <= set("0123456789+−")
    assert min(c["size"] for c in cover_chars) >= COVER_MIN_SIZE * SUB_SCALE - 0.01 > 4.5
    assert COVER_MIN_SIZE >= 8
    assert sum(1 for c in cover_chars if c["size"] >= COVER_MIN_SIZE - 0.01) > 0.95 * len(
        cover_chars
    )


def test_one_check_box_per_thing_to_cut(kit: list[Section], catalog: Catalog) -> None:
    back = kit[0].pages[1]
    boxes = [
        op
        for op in back.ops
        if isinstance(op, Rect) and op.fill is None and op.stroke and op.width == op.height
    ]
    items = sum(len(section.contents) for section in kit[1:])
    assert len(boxes) == items
    # every raw material and every installation has its own line
    assert items > len(catalog.raw_materials) + len(catalog.installations)
    assert min(box.width for box in boxes) >= 2.5  # big enough to tick


def test_counts_per_line_and_in_total(kit: list[Section], catalog: Catalog) -> None:
    back = kit[0].pages[1]
    counts = [
        int(op.text[1:]) for op in back.ops if isinstance(op, Text) and op.text.startswith("×")
    ]
    assert counts == [count for section in kit[1:] for _, _, count in section.contents]
    components = catalog.components
    reactor_cards = sum(len(i.cards) for i in catalog.installations) + len(catalog.electrolysers)
    tokens = (
        components.coins.count
        + components.chemist_tokens.per_player * len(components.colours)
        + min(components.combines.count, len(components.colours))
        + sum(upgrade.count for upgrade in components.upgrades)
        + 1  # the die net
    )
    cut = (
        catalog.raw_deck_size
        + components.fate_cards.count
        + 2  # the Base and the Warehouse
        + reactor_cards
        + 1  # the Mission card
        + tokens
        + len(components.colours)  # one aid per player
    )
    assert sum(section.pieces for section in kit if section.name in CUT) == cut
    texts = " ".join(op.text for page in kit[0].pages for op in page.ops if isinstance(op, Text))
    assert f"Всего вырезать: {cut} шт." in texts


def test_the_paper_table_totals_pages_and_sheets(kit: list[Section], cover_text: str) -> None:
    # the single-sided Fate tiles and the cutting guide get a blank back in the duplex kit
    pages = sum(len(section.pages) * (1 if section.duplex else 2) for section in kit)
    assert [section.name for section in kit if not section.duplex] == ["cutting", "fate"]
    assert f"Страниц: {pages}, листов: {pages // 2}." in cover_text
    assert "картон 250–300 г/м" in cover_text
    assert "офисная 80–120 г/м" in cover_text


def test_sleeves_are_sized_from_the_layout(cover_text: str, a4: SheetProfile) -> None:
    raw = a4.card_sizes["raw"]
    assert f"сырьё и карты Судьбы {raw.width:g} × {raw.height:g} мм" in cover_text
    assert "Протектор берите на 2–4 мм больше карты" in cover_text
    assert "шестигранный кубик" in cover_text


def test_the_cover_points_to_the_rules(kit: list[Section], cover_text: str) -> None:
    first = 1 + sum(len(section.pages) for section in kit[:1])
    last = first + len(kit[1].pages) - 1
    assert kit[1].name == "rules"
    assert f"Правила игры — на страницах {first}–{last} этого файла" in cover_text
