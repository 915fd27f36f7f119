"""The ink-saving kit: light backs and no floods, for a home printer's cartridges.

:func:`save_ink` rewrites pages already laid out: every large filled area (a card's paper, a
back's colour, a header band, a chapter band) becomes a light tint of its colour, and text or
line art that was light on a dark flood turns dark, so everything stays legible on the tint.
Small marks keep their colour (the reactor groups' red circle and purple square, the players'
colours, the pips). The cards keep their look by hue; most of the kit's ink was on its backs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final, Literal

from mhp_cards.pdf.sketch import Circle, Line, Op, PageSketch, Polygon, Rect, Text

__all__ = ["FLOOD_AREA", "INK_MODES", "InkMode", "lighten", "save_ink", "save_ink_ops"]

InkMode = Literal["full", "save"]
INK_MODES: Final[tuple[InkMode, ...]] = ("full", "save")
#: The smallest filled area that counts as a flood, in mm² (a third of a 22 mm coin is not).
FLOOD_AREA: Final = 300.0
#: How much white a flood is mixed with: a tint of 12 % of its colour.
TINT: Final = 0.88
_DARK: Final = "#231F20"


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _luminance(colour: str) -> float:
    red, green, blue = (value / 255 for value in _rgb(colour))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def lighten(colour: str, share: float = TINT) -> str:
    """``colour`` mixed with ``share`` of white (#RRGGBB)."""
    mixed = [round(v + (255 - v) * share) for v in _rgb(colour)]
    return "#" + "".join(f"{v:02X}" for v in mixed)


def _darken(colour: str) -> str:
    """A light colour (white text on a dark back) made dark enough to read on a tint."""
    mixed = [round(v * 0.25 + c * 0.75) for v, c in zip(_rgb(colour), _rgb(_DARK), strict=True)]
    return "#" + "".join(f"{v:02X}" for v in mixed)


def _area(op: Op) -> float:
    if isinstance(op, Rect):
        return op.width * op.height
    if isinstance(op, Circle):
        return 3.14159 * op.r * op.r
    if isinstance(op, Polygon):
        points = op.points
        twice = sum(
            x0 * y1 - x1 * y0
            for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True)
        )
        return abs(twice) / 2
    return 0.0


def _hex(colour: str | None) -> bool:
    return colour is not None and colour.startswith("#") and len(colour) == 7


def _near(colour: str, other: str | None) -> bool:
    """Whether ``colour`` is a shade of the flood ``other``: a pattern on it (a lattice)."""
    if other is None:
        return False
    return sum(abs(a - b) for a, b in zip(_rgb(colour), _rgb(other), strict=True)) < 150


def _saved(ops: Sequence[Op]) -> list[Op]:
    out: list[Op] = []
    flood: str | None = None  # the original colour of the last flood: patterns on it follow it
    for drawn in ops:
        op = drawn
        if isinstance(op, Rect | Circle | Polygon) and op.fill is not None and _hex(op.fill):
            fill = op.fill
            if _area(op) >= FLOOD_AREA:
                flood = fill
                op = replace(op, fill=lighten(fill))
            elif _near(fill, flood):
                op = replace(op, fill=lighten(fill, 0.7))
        if isinstance(op, Text) and _hex(op.colour) and _luminance(op.colour) > 0.7:
            op = replace(op, colour=_darken(op.colour))
        elif isinstance(op, Line) and _hex(op.stroke):
            if _luminance(op.stroke) > 0.7:
                op = replace(op, stroke=_darken(op.stroke))
            elif _near(op.stroke, flood):
                op = replace(op, stroke=lighten(op.stroke, 0.75))
        elif isinstance(op, Rect | Circle | Polygon) and _hex(op.stroke):
            assert op.stroke is not None
            if _luminance(op.stroke) > 0.7:
                op = replace(op, stroke=_darken(op.stroke))
        out.append(op)
    return out


def save_ink_ops(ops: Sequence[Op]) -> list[Op]:
    """A face's (or a page's) operations with its floods tinted and light marks darkened."""
    return _saved(ops)


def save_ink(pages: Sequence[PageSketch]) -> list[PageSketch]:
    """The pages with every flood turned into a light tint and light text and lines darkened."""
    return [
        PageSketch(
            page.width,
            page.height,
            page.label,
            page.side,
            _saved(page.ops),
            page.trim,
            page.bleed,
        )
        for page in pages
    ]
