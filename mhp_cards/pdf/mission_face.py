"""The Mission card: the four missions, each with its level-1 element totals and its places."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mhp_cards.catalog.art import art_path
from mhp_cards.catalog.models import (
    Mission,
)
from mhp_cards.chem.formula import Formula
from mhp_cards.errors import PlacesError
from mhp_cards.pdf.art import draw_picture
from mhp_cards.pdf.faces import Face, _shift, blend, formula_width, tally
from mhp_cards.pdf.places import (
    PLACE_CLEARANCE,
    PLACE_GAP,
    draw_places,
    place_legend,
    place_size,
)
from mhp_cards.pdf.style import WHITE, t
from mhp_cards.pdf.typeset import (
    Run,
    formula_runs,
    place_line,
    text_runs,
)


def mission_totals(mission: Mission) -> Formula:
    """The elements a mission asks for at level 1, as one formula (M1: CH₄O₆), Hill order."""
    return Formula.from_elements(mission.elements)


def mission_front(face: Face, missions: Sequence[Mission], root: Path | None = None) -> None:
    """The Mission card: four missions, each with its level-1 element totals and its places.

    With a template that has an ``art`` region (placed from each mission's corner, like the
    heading), a mission's picture is drawn there, from ``root``, the catalog's directory.
    """
    card = "Mission card"
    accent = face.template.accent
    face.background(border=accent)
    face.line(text_runs(t("missions", face.lang), bold=True, colour=accent), "title", card)
    place_legend(face, card)
    area = face.region("missions")
    gap = 3.0
    cell_w, cell_h = (area.width - gap) / 2, (area.height - gap) / 2
    for index, mission in enumerate(missions[:4]):
        row, column = divmod(index, 2)
        x, y = area.x + column * (cell_w + gap), area.y + row * (cell_h + gap)
        _mission_cell(face, mission, x, y, cell_w, cell_h, f"{card} {mission.id}", root)


def _mission_cell(
    face: Face,
    mission: Mission,
    x: float,
    y: float,
    width: float,
    height: float,
    card: str,
    root: Path | None = None,
) -> None:
    """A mission: its name, its level-1 totals, then each product followed by its places.

    The products flow along lines like words, a product's places kept together where they fit;
    places that cannot all fit in the cell are a located error naming the mission.
    """
    sketch = face.sketch
    accent = face.template.accent
    sketch.rect(
        x,
        y,
        width,
        height,
        fill=blend(accent, WHITE, 0.92),
        stroke=accent,
        line_width=0.5,
        radius=2,
    )
    if mission.art and root is not None and "art" in face.template.regions:
        art = face.region("art")
        box = _shift(art, x + art.x, y + art.y, art.width)
        draw_picture(face, box, art_path(root, mission.art), f"{card} art")
    heading = _shift(face.region("heading"), x + 2.5, y + 1.2, width - 5)
    place_line(
        sketch,
        text_runs(f"{mission.id}. {mission.name.get(face.lang)}", bold=True),
        heading,
        card,
        "heading",
        accent,
    )
    totals = _shift(face.region("totals"), x + 2.5, heading.y + heading.height, width - 5)
    place_line(
        sketch,
        [
            Run(f"{t('mission_level1', face.lang)} "),
            Run(tally(mission_totals(mission).elements), bold=True),
        ],
        totals,
        card,
        "totals",
        "#3E4A44",
    )
    place = place_size(face)
    style = face.region("product")
    left, right = x + 2.5, x + width - 2.5
    top = totals.y + totals.height + 0.8
    bottom = y + height - 1.5
    line_h = place + PLACE_GAP
    cursor_x, cursor_y = left, top
    for item in mission.places:
        label_w = formula_width(item.formula, style.size) + 1.2
        whole = label_w + item.count * (place + PLACE_GAP)
        if cursor_x > left and cursor_x + whole > right + 1e-6:
            cursor_x, cursor_y = left, cursor_y + line_h
        place_line(
            sketch,
            formula_runs(item.formula, bold=True),
            style.model_copy(
                update={"x": cursor_x, "y": cursor_y, "width": label_w, "height": place}
            ),
            card,
            f"product {item.formula}",
            face.template.ink,
        )
        cursor_x += label_w
        for _ in range(item.count):
            if cursor_x + place > right + 1e-6:
                cursor_x, cursor_y = left + label_w, cursor_y + line_h
            if cursor_y + place > bottom + 1e-6:
                raise PlacesError(
                    card,
                    f"product {item.formula}",
                    f"the places of {place:g} mm (a {face.token:g} mm chemist token + "
                    f"{PLACE_CLEARANCE:g} mm) do not fit in the mission's {width:.1f} × "
                    f"{height:.1f} mm; make the chemist token smaller in the sheet profile "
                    "(card_sizes: chemist) or the Mission card larger",
                    where=face.token_source,
                )
            draw_places(face, cursor_x, cursor_y, 1, 1, "mission", item.formula)
            cursor_x += place + PLACE_GAP
        cursor_x += 2.0
