"""The one-page setup sheet of a dealt game (mhp setup deal --pdf)."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from mhp_cards.game import deal
from mhp_cards.pdf.setup_sheet import setup_sheet, write_setup_sheet
from mhp_cards.pdf.sketch import Circle, Rect
from mhp_cards.validate import load_catalog


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


@pytest.mark.parametrize("level", ["1", "2", "1v1", "3"])
def test_sheet_draws_every_cell_and_combine(catalog, level) -> None:
    players = 2 if level == "1v1" else 4
    state = deal(catalog, level, players, seed=5, shape="cross")
    page = setup_sheet(state, catalog, lang="en")
    cells = [op for op in page.ops if isinstance(op, Rect) and op.fill in ("#E8C9A0", "#F4ECE0")]
    combines = [op for op in page.ops if isinstance(op, Circle)]
    if state.field is None:
        assert cells == []
        assert combines == []
    else:
        assert len(cells) == len(state.field.cells)
        assert len(combines) == players
    text = " ".join(op.text for op in page.ops if hasattr(op, "text"))
    for installation in state.installations:
        assert str(installation.number) in text


def test_sheet_pdf_names_the_players(catalog, tmp_path: Path) -> None:
    state = deal(catalog, "2", 3, seed=9)
    path = tmp_path / "setup.pdf"
    write_setup_sheet(state, catalog, path, lang="ru")
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == 1
        text = pdf.pages[0].extract_text()
    for colour in catalog.components.colours[:3]:
        assert colour.name.ru in text
    assert "Банк: 10 мР" in text
