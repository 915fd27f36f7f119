"""Tokens: coins, chemist tokens and combines in the players' colours and shapes, upgrades."""

from __future__ import annotations

import math

from mhp_cards.catalog.models import (
    Colour,
)
from mhp_cards.pdf.faces import Face, _ink_on, blend
from mhp_cards.pdf.layout import Region
from mhp_cards.pdf.style import PLAYER_SHAPES, WHITE, t
from mhp_cards.pdf.typeset import (
    place_line,
    text_runs,
)


def coin(face: Face) -> None:
    """A 1 мР coin."""
    size = face.size.width
    face.background(border=face.template.accent)
    face.sketch.circle(
        size / 2, size / 2, size / 2 - 1.6, stroke=face.template.accent, line_width=0.35
    )
    face.line(text_runs("1", bold=True), "value", "coin")
    face.line(text_runs(t("coin_unit", face.lang), bold=True), "unit", "coin")


def player_mark(
    face: Face, colour: Colour, cx: float, cy: float, r: float, fill: str, card: str
) -> None:
    """The player's shape (or letter) centred on (cx, cy), about ``r`` mm from its centre.

    Colours alone do not tell players apart for everyone: each colour of the kit has its own
    shape (PLAYER_SHAPES); a colour without one shows the first letter of its name.
    """
    sketch = face.sketch
    shape = PLAYER_SHAPES.get(colour.id)
    if shape == "circle":
        sketch.circle(cx, cy, r * 0.82, fill=fill)
    elif shape == "triangle":
        sketch.polygon(
            [(cx, cy - r), (cx + r * 0.95, cy + r * 0.7), (cx - r * 0.95, cy + r * 0.7)], fill=fill
        )
    elif shape == "square":
        side = r * 1.45
        sketch.rect(cx - side / 2, cy - side / 2, side, side, fill=fill)
    elif shape == "diamond":
        sketch.polygon(
            [(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)], fill=fill
        )
    elif shape == "star":
        points = []
        for k in range(10):
            radius = r if k % 2 == 0 else r * 0.45
            angle = math.radians(-90 + 36 * k)
            points.append((cx + radius * math.cos(angle), cy + 0.08 * r + radius * math.sin(angle)))
        sketch.polygon(points, fill=fill)
    else:
        letter = colour.name.get(face.lang)[:1].upper()
        region = Region(
            x=cx - r, y=cy - r, width=2 * r, height=2 * r, size=r * 4, min_size=6, bold=True
        )
        place_line(sketch, text_runs(letter, bold=True), region, card, "mark", fill)


def chemist(face: Face, colour: Colour) -> None:
    """A chemist token in a player's colour, with the player's shape so that colour is not all."""
    size = face.size.width
    face.background(fill=colour.rgb, border=blend(colour.rgb, "#000000", 0.3))
    ink = _ink_on(colour.rgb)
    c = size / 2
    face.sketch.circle(c, c, size / 2 - 1.1, stroke=ink, line_width=0.3)
    player_mark(face, colour, c, c, size * 0.27, ink, f"chemist token {colour.id}")


def combine(face: Face, colour: Colour) -> None:
    """A combine token in a player's colour: the vehicle, the player's shape, the colour's name."""
    size = face.size.width
    face.background(fill=colour.rgb, border=blend(colour.rgb, "#000000", 0.3))
    ink = _ink_on(colour.rgb)
    cx = size / 2
    face.sketch.rect(cx - 9, 8, 13, 7, fill=ink, radius=1)
    face.sketch.polygon(
        [(cx + 4, 9.5), (cx + 8, 9.5), (cx + 10, 13), (cx + 10, 15), (cx + 4, 15)], fill=ink
    )
    face.sketch.polygon([(cx - 9, 10), (cx - 12.5, 7.5), (cx - 11.5, 12.5)], fill=ink)
    for wheel in (cx - 6, cx + 1, cx + 7):
        face.sketch.circle(
            wheel, 16.5, 1.8, fill=blend(colour.rgb, "#000000", 0.5), stroke=ink, line_width=0.4
        )
    face.sketch.circle(cx, 4.6, 2.9, fill=ink)
    player_mark(face, colour, cx, 4.6, 2.0, colour.rgb, f"combine {colour.id}")
    face.line(
        text_runs(colour.name.get(face.lang), bold=True, colour=ink),
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
                    4.5 + column * 3.8, 6 + row * 3.5, 3.4, 3.1, fill=blend(accent, WHITE, 0.2)
                )
    else:
        cx = size / 2
        face.sketch.polygon(
            [(cx - 5, 5.5), (cx + 5, 5.5), (cx + 5, 9.5), (cx, 13.5), (cx - 5, 9.5)],
            fill=blend(accent, WHITE, 0.2),
        )
    face.lines([text_runs(name, bold=True)], "label", f"token {upgrade_id}")
    face.line(
        text_runs(f"{price}\u00a0{t('coin_unit', face.lang)}"), "price", f"token {upgrade_id}"
    )
