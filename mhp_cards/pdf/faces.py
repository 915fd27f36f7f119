"""Card faces: what each kind of card and token shows, drawn onto a sketch at card size.

Every function draws one face in the card's own coordinates (mm from its top-left corner) using
the regions of its template. Text goes through :mod:`mhp_cards.pdf.typeset`, so a text that
does not fit, or a character the font lacks, stops the build with the card and region named.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mhp_cards.catalog.models import (
    Catalog,
    Colour,
    Container,
    Mission,
    Port,
    RawMaterial,
    ReactorCard,
)
from mhp_cards.pdf.layout import CardSize, Region, Template, Templates
from mhp_cards.pdf.sketch import Sketch
from mhp_cards.pdf.style import PURPLE, RED, TEXT, WHITE, t
from mhp_cards.pdf.typeset import (
    Run,
    fit_lines,
    formula_runs,
    place_line,
    reaction_runs,
    text_runs,
)

__all__ = ["TEXT", "Face"]

PORT_OFFSETS: Final = {1: 0.25, 2: 0.5, 3: 0.75}
PIPE: Final = 5.0
BORDER: Final = 0.6
PIPE_DEPTH: Final = 6.5


def _shift(region: Region, x: float, y: float, width: float | None = None) -> Region:
    return region.model_copy(
        update={"x": x, "y": y, **({"width": width} if width is not None else {})}
    )


def _ink_on(background: str) -> str:
    """Dark text on a light background, white on a dark one (relative luminance)."""
    red, green, blue = (int(background[i : i + 2], 16) / 255 for i in (1, 3, 5))
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return "#231F20" if luminance > 0.55 else WHITE


def _blend(colour: str, other: str, share: float) -> str:
    """Mix two #RRGGBB colours: ``share`` of ``other``."""
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i : i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(x + (y - x) * share) for x, y in zip(a, b, strict=True)]
    return "#" + "".join(f"{v:02X}" for v in mixed)


def raw_accent(raw: RawMaterial) -> str:
    """A colour for a raw card from its chemistry (gas/ice, iron, sulfur, chlorine, carbonate…)."""
    elements = raw.parsed.elements
    if set(elements) <= {"H", "O", "C", "N", "Ar"} and len(elements) <= 2:
        return "#2F6E9E"  # atmosphere and ice
    if "Cl" in elements:
        return "#7B4F9D"  # salts and perchlorates
    if "S" in elements:
        return "#B38B00"  # sulfates and sulfides
    if "Fe" in elements:
        return "#A23E25"  # iron minerals
    if "C" in elements:
        return "#6E6E6E"  # carbonates
    return "#3F7D4E"  # silicates and the rest


@dataclass(frozen=True, slots=True)
class Face:
    """Draws faces of one card kind with a template and a language."""

    sketch: Sketch
    template: Template
    size: CardSize
    lang: str
    bleed: float = 0.0

    def region(self, name: str) -> Region:
        """The template region ``name``."""
        return self.template.regions[name]

    def background(self, fill: str | None = None, border: str | None = None) -> None:
        """The card's paper colour over its whole area, and its border.

        A border is drawn just inside the cut line, so cutting never halves it. Both are drawn
        to the trimmed size; on a sheet with a bleed the imposition runs them (and everything
        else that reaches the cut line) into the bleed: see ``impose.run_into_bleed``.
        """
        size = self.size
        paper = fill or self.template.paper
        inset = BORDER / 2
        if size.shape == "circle":
            centre, radius = size.width / 2, size.width / 2
            self.sketch.circle(centre, centre, radius, fill=paper)
            if border:
                self.sketch.circle(centre, centre, radius - inset, stroke=border, line_width=BORDER)
            return
        self.sketch.rect(0, 0, size.width, size.height, fill=paper, radius=size.corner_radius)
        if border:
            self.sketch.rect(
                inset,
                inset,
                size.width - 2 * inset,
                size.height - 2 * inset,
                stroke=border,
                line_width=BORDER,
                radius=max(0.0, size.corner_radius - inset),
            )

    def line(self, runs: Sequence[Run], region: str, card: str) -> float:
        """Fit runs on one line in a region."""
        return place_line(self.sketch, runs, self.region(region), card, region, self.template.ink)

    def lines(self, paragraphs: Sequence[Sequence[Run]], region: str, card: str) -> float:
        """Wrap paragraphs into a region."""
        return fit_lines(
            self.sketch, paragraphs, self.region(region), card, region, self.template.ink
        )


# Raw-material cards ------------------------------------------------------------------------------


def raw_front(face: Face, raw: RawMaterial, copy: int) -> None:
    """The front of a raw-material card: formula, name, element tally, where found on Mars."""
    card = f"raw card {raw.id} #{copy}"
    accent = raw_accent(raw)
    width, height = face.size.width, face.size.height
    face.background()
    face.sketch.rect(0, 0, width, 9.5, fill=accent, radius=face.size.corner_radius)
    face.sketch.rect(0, 5, width, 4.5, fill=accent)
    face.line(text_runs(t("raw", face.lang), bold=True, colour=WHITE), "header", card)
    face.line(formula_runs(raw.formula, bold=True), "formula", card)
    face.line(text_runs(raw.name.get(face.lang), bold=True), "name", card)
    tally = " · ".join(f"{symbol} {n}" for symbol, n in raw.parsed.elements.items())
    face.line(text_runs(tally), "tally", card)
    region = face.region("tally")
    face.sketch.line(
        region.x + 6,
        region.y - 0.3,
        region.x + region.width - 6,
        region.y - 0.3,
        stroke=_blend(accent, WHITE, 0.5),
        line_width=0.3,
    )
    if raw.mars is not None:
        face.lines([text_runs(raw.mars.get(face.lang))], "mars", card)
    face.sketch.rect(
        0.8,
        0.8,
        width - 1.6,
        height - 1.6,
        stroke=accent,
        line_width=0.5,
        radius=max(0.0, face.size.corner_radius - 0.8),
    )


def raw_back(face: Face) -> None:
    """The back of a raw-material card."""
    width = face.size.width
    face.background()
    _crystal(face.sketch, width / 2, 24, 11, WHITE, _blend(face.template.paper, WHITE, 0.25))
    face.line(text_runs(t("raw_back", face.lang), bold=True), "title", "raw card back")
    face.line(text_runs(t("company", face.lang)), "subtitle", "raw card back")


def _crystal(sketch: Sketch, cx: float, cy: float, r: float, stroke: str, fill: str) -> None:
    top = [
        (cx + r * math.cos(math.radians(a)), cy + r * 0.55 * math.sin(math.radians(a)) - r * 0.45)
        for a in range(0, 360, 60)
    ]
    sketch.polygon(
        [
            (cx - r, cy - r * 0.45),
            (cx - r, cy + r * 0.5),
            (cx, cy + r * 1.05),
            (cx + r, cy + r * 0.5),
            (cx + r, cy - r * 0.45),
            (cx, cy - r),
        ],
        fill=fill,
        stroke=stroke,
        line_width=0.5,
    )
    sketch.polygon(top, stroke=stroke, line_width=0.35)
    sketch.line(cx, cy + r * 0.1, cx, cy + r * 1.05, stroke=stroke, line_width=0.35)


# Fate cards, Base, Warehouse ---------------------------------------------------------------------


def fate_front(face: Face, number: int) -> None:
    """The front of a Fate card (its events belong to higher levels; here: title and number)."""
    card = f"Fate card {number}"
    face.background()
    face.sketch.rect(
        2,
        2,
        face.size.width - 4,
        face.size.height - 4,
        stroke=face.template.accent,
        line_width=0.6,
        radius=2,
    )
    face.line(text_runs(t("fate", face.lang), bold=True), "title", card)
    face.line(text_runs(f"№ {number}", bold=True), "number", card)
    face.lines([text_runs(t("fate_note", face.lang))], "note", card)


def mars_surface(face: Face, seed: int = 1961) -> None:
    """The back of Fate cards: the surface of Mars (the field), the same on every card."""
    width, height = face.size.width, face.size.height
    face.background()
    rng = random.Random(seed)
    paper = face.template.paper
    bleed = face.bleed
    radius = 0.0 if bleed else face.size.corner_radius
    with face.sketch.clip(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, radius=radius):
        for _ in range(5):
            face.sketch.circle(
                rng.uniform(0, width),
                rng.uniform(0, height),
                rng.uniform(10, 22),
                fill=_blend(paper, "#8E3B24", rng.uniform(0.12, 0.3)),
            )
        for _ in range(11):
            cx, cy = rng.uniform(4, width - 4), rng.uniform(4, height - 10)
            r = rng.uniform(1.2, 5)
            face.sketch.circle(cx + r * 0.12, cy + r * 0.12, r, fill=_blend(paper, "#F3C7A6", 0.35))
            face.sketch.circle(cx, cy, r * 0.86, fill=_blend(paper, "#5E2414", 0.35))
    face.line(text_runs(t("company", face.lang), bold=True), "title", "Fate card back")


def base_card(face: Face, warehouse: bool = False) -> None:
    """The Base card (or the Warehouse marker): an emblem, a title, what happens there."""
    key = "warehouse" if warehouse else "base"
    card = "Warehouse marker" if warehouse else "Base card"
    width = face.size.width
    face.background()
    accent = face.template.accent
    face.sketch.rect(2, 2, width - 4, face.size.height - 4, stroke=accent, line_width=0.8, radius=2)
    if warehouse:
        face.sketch.rect(
            width / 2 - 12,
            12,
            24,
            20,
            fill=_blend(accent, WHITE, 0.6),
            stroke=accent,
            line_width=0.6,
        )
        face.sketch.line(width / 2 - 12, 12, width / 2 + 12, 32, stroke=accent, line_width=0.5)
        face.sketch.line(width / 2 + 12, 12, width / 2 - 12, 32, stroke=accent, line_width=0.5)
    else:
        face.sketch.circle(
            width / 2, 30, 14, fill=_blend(accent, WHITE, 0.7), stroke=accent, line_width=0.6
        )
        face.sketch.rect(width / 2 - 18, 29.9, 36, 14.5, fill=face.template.paper)
        face.sketch.line(width / 2 - 18, 30, width / 2 + 18, 30, stroke=accent, line_width=0.8)
        face.sketch.rect(width / 2 - 3, 22, 6, 8, fill=accent)
    face.line(text_runs(t(key, face.lang), bold=True), "title", card)
    face.lines([text_runs(t(f"{key}_note", face.lang))], "subtitle", card)


# Reactor cards -----------------------------------------------------------------------------------


def _port_centre(port: Port, size: float) -> tuple[float, float]:
    along = PORT_OFFSETS[port.position] * size
    return {
        "top": (along, 0.0),
        "bottom": (along, size),
        "left": (0.0, along),
        "right": (size, along),
    }[port.edge]


def _pipe(face: Face, port: Port, card: str, colour: str) -> None:
    size = face.size.width
    cx, cy = _port_centre(port, size)
    sketch = face.sketch
    half = PIPE / 2
    if port.edge in ("top", "bottom"):
        y0 = 0.0 if port.edge == "top" else size - PIPE_DEPTH
        sketch.rect(
            cx - half,
            y0,
            PIPE,
            PIPE_DEPTH,
            fill=_blend(colour, WHITE, 0.55),
            stroke=colour,
            line_width=0.4,
            dash=(1.0, 0.6) if port.optional else (),
        )
        inward = port.direction == "in"
        downward = (port.edge == "top") == inward
        tip = y0 + (PIPE_DEPTH - 1 if downward else 1)
        back = y0 + (1.5 if downward else PIPE_DEPTH - 1.5)
        sketch.polygon([(cx, tip), (cx - 1.6, back), (cx + 1.6, back)], fill=colour)
        label = face.region("port_label")
        y = 1.0 if port.edge == "top" else size - 5.0
        region = label.model_copy(
            update={"x": cx + half + 0.8, "y": y, "width": 15.0, "align": "left"}
        )
    else:
        x0 = 0.0 if port.edge == "left" else size - PIPE_DEPTH
        sketch.rect(
            x0,
            cy - half,
            PIPE_DEPTH,
            PIPE,
            fill=_blend(colour, WHITE, 0.55),
            stroke=colour,
            line_width=0.4,
            dash=(1.0, 0.6) if port.optional else (),
        )
        inward = port.direction == "in"
        rightward = (port.edge == "left") == inward
        tip = x0 + (PIPE_DEPTH - 1 if rightward else 1)
        back = x0 + (1.5 if rightward else PIPE_DEPTH - 1.5)
        sketch.polygon([(tip, cy), (back, cy - 1.6), (back, cy + 1.6)], fill=colour)
        label = face.region("port_label")
        if port.edge == "left":
            region = label.model_copy(
                update={"x": 1.0, "y": cy + half + 0.5, "width": 15.0, "align": "left"}
            )
        else:
            region = label.model_copy(
                update={"x": size - 16.0, "y": cy + half + 0.5, "width": 15.0, "align": "right"}
            )
    place_line(
        sketch,
        formula_runs(port.substance, bold=True),
        region,
        card,
        f"port {port.edge} {port.position}",
        colour,
    )


def _container(
    face: Face,
    catalog: Catalog,
    container: Container,
    x: float,
    y: float,
    width: float,
    height: float,
    card: str,
) -> None:
    sketch = face.sketch
    accent = face.template.accent
    role = container.role
    fill = {"raw-input": "#FFF7E8", "product": WHITE, "transit": "#EEF2F6"}[role]
    dash = (1.2, 0.8) if role == "raw-input" else ()
    sketch.rect(
        x, y, width, height, fill=fill, stroke=accent, line_width=0.45, radius=1.5, dash=dash
    )
    base = face.region("reaction")
    label = base.model_copy(
        update={
            "x": x + 0.5,
            "y": y + 0.8,
            "width": width - 1,
            "height": 3.2,
            "size": 5.2,
            "min_size": 4.0,
            "bold": False,
        }
    )
    place_line(
        sketch,
        text_runs(t(role, face.lang)),
        label,
        card,
        f"container {container.substance}",
        "#5A6570",
    )
    formula_region = base.model_copy(
        update={
            "x": x + 0.6,
            "y": y + 4.2,
            "width": width - 1.2,
            "height": 6.5,
            "size": 10,
            "min_size": 4.5,
            "bold": True,
        }
    )
    place_line(
        sketch,
        formula_runs(container.substance, bold=True),
        formula_region,
        card,
        f"container {container.substance}",
        face.template.ink,
    )
    price = catalog.substance(container.substance).price
    price_region = base.model_copy(
        update={
            "x": x + 0.5,
            "y": y + height - 4.2,
            "width": width - 1,
            "height": 3.4,
            "size": 6,
            "min_size": 4.2,
            "bold": True,
        }
    )
    place_line(
        sketch,
        text_runs(f"{price}\u00a0{t('coin_unit', face.lang)}"),
        price_region,
        card,
        f"price {container.substance}",
        "#8A6D1F",
    )
    if role == "product":
        places = container.places
        columns = min(places, 2)
        rows = math.ceil(places / columns)
        r = min(2.4, (width - 3) / (2 * columns) - 0.4, (height - 16) / (2 * rows) - 0.3)
        top = y + 11.5
        for index in range(places):
            row, column = divmod(index, columns)
            cx = x + width / 2 + (column - (columns - 1) / 2) * (2 * r + 1.2)
            cy = top + r + row * (2 * r + 1.0)
            sketch.circle(cx, cy, r, fill=WHITE, stroke=accent, line_width=0.35)
            sketch.mark(
                "place",
                cx - r,
                cy - r,
                2 * r,
                2 * r,
                piece=card.removeprefix("reactor card "),
                substance=container.substance,
                diameter=f"{2 * r:.2f}",
            )


def reactor_front(face: Face, catalog: Catalog, card: ReactorCard) -> None:
    """A reactor card: ID, group mark, pipes on the edges, containers, the reaction it hosts."""
    label = f"reactor card {card.id}"
    size = face.size.width
    accent = face.template.accent
    face.background(border=accent)
    face.sketch.rect(
        7.5,
        7.5,
        size - 15,
        size - 15,
        stroke=_blend(accent, WHITE, 0.6),
        line_width=0.3,
        radius=1.5,
    )
    face.line(text_runs(card.id, bold=True, colour=accent), "id", label)
    name = (
        card.name.get(face.lang)
        if card.name
        else (t("electrolyser", face.lang) if card.group == "electrolyser" else "")
    )
    if name:
        face.line(text_runs(name), "name", label)
    for port in card.ports:
        _pipe(face, port, label, accent)
    area = face.region("containers")
    count = max(1, len(card.containers))
    gap = 2.0
    width = (area.width - gap * (count - 1)) / count
    for index, container in enumerate(card.containers):
        _container(
            face,
            catalog,
            container,
            area.x + index * (width + gap),
            area.y,
            width,
            area.height,
            label,
        )
    reactions: list[list[Run]] = [reaction_runs(reaction) for reaction in card.parsed_reactions]
    if not reactions:
        reactions = [text_runs(t("pipes_only", face.lang))]
    face.lines(reactions, "reaction", label)
    if card.group == "main":
        face.sketch.circle(5.2, size - 5.2, 3.0, fill=RED)
    elif card.group == "electrolyser":
        face.sketch.rect(size - 8.2, size - 8.2, 6, 6, fill=PURPLE)


def reactor_back(face: Face) -> None:
    """The back of reactor cards (installations and electrolysers alike)."""
    size = face.size.width
    face.background()
    light = _blend(face.template.paper, WHITE, 0.3)
    cx, cy = size / 2, 26
    for angle in range(0, 360, 45):
        a = math.radians(angle)
        face.sketch.polygon(
            [
                (cx + 13 * math.cos(a - 0.18), cy + 13 * math.sin(a - 0.18)),
                (cx + 17 * math.cos(a - 0.12), cy + 17 * math.sin(a - 0.12)),
                (cx + 17 * math.cos(a + 0.12), cy + 17 * math.sin(a + 0.12)),
                (cx + 13 * math.cos(a + 0.18), cy + 13 * math.sin(a + 0.18)),
            ],
            fill=light,
        )
    face.sketch.circle(cx, cy, 13.5, fill=light)
    face.sketch.circle(cx, cy, 6, fill=face.template.paper)
    face.line(text_runs(t("installation", face.lang), bold=True), "title", "reactor card back")
    face.line(text_runs(t("company", face.lang)), "subtitle", "reactor card back")


# The Mission card --------------------------------------------------------------------------------


def mission_front(face: Face, missions: Sequence[Mission]) -> None:
    """The Mission card: four missions, each with its products and places for tokens."""
    card = "Mission card"
    accent = face.template.accent
    face.background(border=accent)
    face.line(text_runs(t("missions", face.lang), bold=True, colour=accent), "title", card)
    area = face.region("missions")
    gap = 4.0
    cell_w, cell_h = (area.width - gap) / 2, (area.height - gap) / 2
    for index, mission in enumerate(missions[:4]):
        row, column = divmod(index, 2)
        x, y = area.x + column * (cell_w + gap), area.y + row * (cell_h + gap)
        _mission_cell(face, mission, x, y, cell_w, cell_h, f"{card} {mission.id}")


def _mission_cell(
    face: Face, mission: Mission, x: float, y: float, width: float, height: float, card: str
) -> None:
    sketch = face.sketch
    accent = face.template.accent
    sketch.rect(
        x,
        y,
        width,
        height,
        fill=_blend(accent, WHITE, 0.92),
        stroke=accent,
        line_width=0.5,
        radius=2,
    )
    heading = _shift(face.region("heading"), x + 2, y + 1.5, width - 4)
    place_line(
        sketch,
        text_runs(f"{mission.id}. {mission.name.get(face.lang)}", bold=True),
        heading,
        card,
        "heading",
        accent,
    )
    rows = len(mission.places)
    row_h = min(10.0, (height - 11) / max(rows, 1))
    for index, place in enumerate(mission.places):
        top = y + 10.5 + index * row_h
        product = face.region("product").model_copy(
            update={"x": x + 3, "y": top, "width": 30.0, "height": row_h - 1}
        )
        place_line(
            sketch,
            formula_runs(place.formula, bold=True),
            product,
            card,
            f"product {place.formula}",
            face.template.ink,
        )
        r = min(3.2, (row_h - 1.6) / 2)
        for k in range(place.count):
            cx, cy = x + 37 + r + k * (2 * r + 1.8), top + (row_h - 1) / 2
            sketch.circle(cx, cy, r, fill=WHITE, stroke=accent, line_width=0.4)
            sketch.mark(
                "place",
                cx - r,
                cy - r,
                2 * r,
                2 * r,
                piece="mission",
                substance=place.formula,
                diameter=f"{2 * r:.2f}",
            )


def plain_back(face: Face, key: str, card: str) -> None:
    """A plain coloured back with one title (Mission card, player aids)."""
    face.background()
    face.line(text_runs(t(key, face.lang), bold=True), "title", card)


# Tokens ------------------------------------------------------------------------------------------


def coin(face: Face) -> None:
    """A 1 мР coin."""
    size = face.size.width
    face.background(border=face.template.accent)
    face.sketch.circle(
        size / 2, size / 2, size / 2 - 1.6, stroke=face.template.accent, line_width=0.35
    )
    face.line(text_runs("1", bold=True), "value", "coin")
    face.line(text_runs(t("coin_unit", face.lang), bold=True), "unit", "coin")


def chemist(face: Face, colour: Colour) -> None:
    """A chemist token in a player's colour: a flask."""
    size = face.size.width
    face.background(fill=colour.rgb, border=_blend(colour.rgb, "#000000", 0.3))
    cx = size / 2
    face.sketch.polygon(
        [
            (cx - 1.2, 2.8),
            (cx + 1.2, 2.8),
            (cx + 1.2, 5.2),
            (cx + 4.2, 9.2),
            (cx - 4.2, 9.2),
            (cx - 1.2, 5.2),
        ],
        fill=WHITE,
    )
    ink = _ink_on(colour.rgb)
    face.line(
        text_runs(t("chemist", face.lang), bold=True, colour=ink),
        "label",
        f"chemist token {colour.id}",
    )


def combine(face: Face, colour: Colour) -> None:
    """A combine token in a player's colour."""
    size = face.size.width
    face.background(fill=colour.rgb, border=_blend(colour.rgb, "#000000", 0.3))
    cx = size / 2
    face.sketch.rect(cx - 9, 8, 13, 7, fill=WHITE, radius=1)
    face.sketch.polygon(
        [(cx + 4, 9.5), (cx + 8, 9.5), (cx + 10, 13), (cx + 10, 15), (cx + 4, 15)], fill=WHITE
    )
    face.sketch.polygon([(cx - 9, 10), (cx - 12.5, 7.5), (cx - 11.5, 12.5)], fill=WHITE)
    for wheel in (cx - 6, cx + 1, cx + 7):
        face.sketch.circle(
            wheel, 16.5, 1.8, fill=_blend(colour.rgb, "#000000", 0.5), stroke=WHITE, line_width=0.4
        )
    face.line(
        text_runs(colour.name.get(face.lang), bold=True, colour=_ink_on(colour.rgb)),
        "label",
        f"combine {colour.id}",
    )


def upgrade(face: Face, upgrade_id: str, name: str, price: int) -> None:
    """A solar battery or armour token."""
    size = face.size.width
    accent = "#1F5FAD" if upgrade_id == "solar-battery" else "#5D6D7E"
    face.background(border=accent)
    if upgrade_id == "solar-battery":
        for row in range(2):
            for column in range(3):
                face.sketch.rect(
                    4.5 + column * 3.8, 6 + row * 3.5, 3.4, 3.1, fill=_blend(accent, WHITE, 0.2)
                )
    else:
        cx = size / 2
        face.sketch.polygon(
            [(cx - 5, 5.5), (cx + 5, 5.5), (cx + 5, 9.5), (cx, 13.5), (cx - 5, 9.5)],
            fill=_blend(accent, WHITE, 0.2),
        )
    face.lines([text_runs(name, bold=True)], "label", f"token {upgrade_id}")
    face.line(
        text_runs(f"{price}\u00a0{t('coin_unit', face.lang)}"), "price", f"token {upgrade_id}"
    )


def templates_for(templates: Templates, kind: str) -> Template:
    """The template of a card kind."""
    return templates[kind]
