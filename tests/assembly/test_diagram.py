"""The text diagram of an assembled installation."""

from __future__ import annotations

from mhp_cards.assembly.arrangement import Arrangement
from mhp_cards.assembly.diagram import render_arrangement
from mhp_cards.assembly.solver import solve_installation


def test_the_sabatier_diagram_joins_its_pipes(catalog) -> None:
    text = render_arrangement(catalog, Arrangement.parse(". 2А / Э 2Б"))
    lines = text.splitlines()
    # Three boxes: 2А on top right, the electrolyser and 2Б below it.
    assert sum(line.count("┌") for line in lines) == 3
    assert any("2А ●" in line for line in lines), "the main card carries its red circle"
    assert any("Э ■" in line for line in lines), "the electrolyser carries its purple square"
    # The H2 pipe runs from the electrolyser's right edge into 2Б, and from 2Б up into 2А.
    assert any("H2 ▶▶ H2" in line for line in lines)
    assert any("▲─" in line for line in lines)
    assert "Reactions:" in text
    assert "  2А: CO2 + 4 H2 -> CH4 + 2 H2O" in lines
    assert "  Э: 2 H2O -> 2 H2 + O2" in lines
    assert "  2Б: (pipes and containers only)" in lines


def test_every_installation_draws_each_of_its_cards_once(catalog) -> None:
    for installation in catalog.installations:
        solution = solve_installation(catalog, installation.number)
        assert solution.canonical is not None
        text = render_arrangement(catalog, solution.canonical)
        boxes = sum(line.count("┌") for line in text.splitlines())
        cells = [c for row in solution.canonical.grid() for c in row if c]
        assert boxes == len(cells), installation.number
        for card in installation.cards:
            assert f"│ {card.id}" in text, card.id
