"""Imposition: where every card lands on a sheet, its mirrored back, and the crop marks.

Cards of one size form a grid centred between the margins; for a long-edge flip the back of the
card in column c lands in column (columns − 1 − c), for a short-edge flip the rows mirror, and
the printer's duplex offset shifts every back. Tokens of several sizes are shelf-packed.
Everything is in millimetres, y downwards from the page's top-left corner.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Final

from mhp_cards.pdf.layout import SheetProfile
from mhp_cards.pdf.sketch import Circle, Clip, Image, Line, Mark, Op, Polygon, Rect, Text

__all__ = ["Imposition", "Slot", "crop_marks", "impose", "moved", "pack", "run_into_bleed"]

#: How close (mm) an edge must come to the cut line to count as drawn up to it.
_EDGE: Final = 0.02


@dataclass(frozen=True, slots=True)
class Slot:
    """Where one card goes on a page: its trimmed rectangle in mm (top-left origin)."""

    x: float
    y: float
    width: float
    height: float
    row: int
    column: int


@dataclass(frozen=True, slots=True)
class Imposition:
    """The grid of one card size on one page, and the mirrored grid of the backs."""

    page_width: float
    page_height: float
    columns: int
    rows: int
    fronts: tuple[Slot, ...]
    backs: tuple[Slot, ...]
    bleed: float

    @property
    def per_page(self) -> int:
        """Cards per sheet."""
        return len(self.fronts)

    @property
    def trim_box(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) around all card cut lines of a full front page."""
        left = min(s.x for s in self.fronts)
        top = min(s.y for s in self.fronts)
        right = max(s.x + s.width for s in self.fronts)
        bottom = max(s.y + s.height for s in self.fronts)
        return left, top, right - left, bottom - top


def impose(profile: SheetProfile, kind: str) -> Imposition:
    """Lay out as many ``kind`` cards as fit, centred between the margins; mirror the backs.

    For a long-edge flip the back of the card in column c lands in column (columns − 1 − c);
    for a short-edge flip the rows mirror. The duplex offset then shifts every back.
    """
    size = profile.card_sizes[kind]
    width, height = profile.page.dimensions
    margins = profile.margins
    gap = _gap(profile)
    pitch_x = size.width + gap
    pitch_y = size.height + gap
    # The bleed of the outermost cards must stay inside the margins; between two cards the
    # gap holds both bleeds.
    usable_w = width - margins.left - margins.right - 2 * profile.bleed
    usable_h = height - margins.top - margins.bottom - 2 * profile.bleed
    columns = max(1, math.floor((usable_w + gap) / pitch_x + 1e-9))
    rows = max(1, math.floor((usable_h + gap) / pitch_y + 1e-9))
    grid_w = columns * pitch_x - gap
    grid_h = rows * pitch_y - gap
    left = margins.left + profile.bleed + (usable_w - grid_w) / 2
    top = margins.top + profile.bleed + (usable_h - grid_h) / 2
    fronts = tuple(
        Slot(left + c * pitch_x, top + r * pitch_y, size.width, size.height, r, c)
        for r in range(rows)
        for c in range(columns)
    )
    backs = tuple(_back_slot(profile, slot, width, height) for slot in fronts)
    return Imposition(width, height, columns, rows, fronts, backs, profile.bleed)


def _gap(profile: SheetProfile) -> float:
    """Distance between the cut lines of neighbouring cards: the gutter, at least two bleeds.

    The loader rejects a profile whose gutter is narrower; this only guards a hand-made one.
    """
    return max(profile.gutter, 2 * profile.bleed)


def crop_marks(
    profile: SheetProfile, imposition: Imposition, used: int | None = None, back: bool = False
) -> Iterator[tuple[float, float, float, float]]:
    """Cut marks in the margins, one per card edge line: (x1, y1, x2, y2) in mm.

    ``used`` limits the marks to the first slots of a sheet that is not full.
    """
    if not profile.crop_marks.enabled:
        return
    slots = (imposition.backs if back else imposition.fronts)[:used]
    gap, length = profile.crop_marks.gap, profile.crop_marks.length
    xs = sorted({round(s.x, 3) for s in slots} | {round(s.x + s.width, 3) for s in slots})
    ys = sorted({round(s.y, 3) for s in slots} | {round(s.y + s.height, 3) for s in slots})
    # marks start beyond the art: past the bleed, or past a home profile's spill
    beyond = max(imposition.bleed, profile.spill)
    top = min(ys) - beyond - gap
    bottom = max(ys) + beyond + gap
    left = min(xs) - beyond - gap
    right = max(xs) + beyond + gap
    edge = profile.printer_margin
    width, height = imposition.page_width, imposition.page_height
    for x in xs:
        if top - edge >= 1:
            yield (x, max(edge, top - length), x, top)
        if height - edge - bottom >= 1:
            yield (x, bottom, x, min(height - edge, bottom + length))
    for y in ys:
        if left - edge >= 1:
            yield (max(edge, left - length), y, left, y)
        if width - edge - right >= 1:
            yield (right, y, min(width - edge, right + length), y)


def _back_slot(profile: SheetProfile, slot: Slot, width: float, height: float) -> Slot:
    x, y = slot.x, slot.y
    if profile.duplex.mode == "long-edge":
        x = width - slot.x - slot.width
    elif profile.duplex.mode == "short-edge":
        y = height - slot.y - slot.height
    offset = profile.duplex.back_offset
    return Slot(x + offset.x, y + offset.y, slot.width, slot.height, slot.row, slot.column)


def pack(profile: SheetProfile, items: list[tuple[str, int]]) -> list[list[tuple[str, Slot, Slot]]]:
    """Shelf-pack tokens of several kinds onto pages: rows of one kind, centred, top to bottom.

    Returns pages of (kind, front slot, back slot).
    """
    width, height = profile.page.dimensions
    margins = profile.margins
    bleed, gap = profile.bleed, _gap(profile)
    usable_w = width - margins.left - margins.right - 2 * bleed
    top_limit = margins.top + bleed
    bottom_limit = height - margins.bottom - bleed
    pages: list[list[tuple[str, Slot, Slot]]] = [[]]
    y = top_limit
    row_index = 0
    for kind, count in items:
        size = profile.card_sizes[kind]
        pitch_x = size.width + gap
        pitch_y = size.height + gap
        per_row = max(1, math.floor((usable_w + gap) / pitch_x + 1e-9))
        left_over = count
        while left_over > 0:
            if y + size.height > bottom_limit + 1e-9:
                pages.append([])
                y = top_limit
            in_row = min(per_row, left_over)
            row_w = in_row * pitch_x - gap
            x0 = margins.left + bleed + (usable_w - row_w) / 2
            for column in range(in_row):
                slot = Slot(x0 + column * pitch_x, y, size.width, size.height, row_index, column)
                pages[-1].append((kind, slot, _back_slot(profile, slot, width, height)))
            left_over -= in_row
            y += pitch_y
            row_index += 1
        y += profile.gutter  # a little air between kinds
    return [page for page in pages if page]


def run_into_bleed(ops: list[Op], slot: Slot, bleed: float, circle: bool = False) -> list[Op]:
    """A face's operations with everything it paints up to its cut line continued into the bleed.

    A face is drawn to its trimmed size; a print shop cuts within ±1–2 mm, so whatever reaches
    the cut line (the paper, a header band, a border, a pipe tab, a clip) must run on to the
    bleed's edge or the cut shows white slivers. A filled rectangle (or clip) gets each edge that
    lies on the cut line moved out by ``bleed`` and loses its rounded corners (the cutter rounds
    them); a border stroked just inside the cut line gets a band of its colour over the bleed.
    For a round token, a disc as large as the token grows by ``bleed``, and a ring on its edge
    gets an outer band. Text, lines and polygons are left as drawn: none of them belongs at the
    cut line.
    """
    if bleed <= 0:
        return list(ops)
    out: list[Op] = []
    if circle:
        cx, cy, radius = slot.x + slot.width / 2, slot.y + slot.height / 2, slot.width / 2
        for op in ops:
            out.append(op)
            if not isinstance(op, Circle) or abs(op.cx - cx) > _EDGE or abs(op.cy - cy) > _EDGE:
                continue
            if op.fill and abs(op.r - radius) <= _EDGE:
                out[-1] = replace(op, r=radius + bleed)
                if op.stroke:
                    out.append(replace(op, fill=None))
            elif op.stroke and abs(op.r + op.line_width / 2 - radius) <= _EDGE:
                out.append(
                    Circle(cx, cy, radius + bleed / 2, stroke=op.stroke, line_width=bleed + _EDGE)
                )
        return out
    left, top = slot.x, slot.y
    right, bottom = slot.x + slot.width, slot.y + slot.height
    for op in ops:
        if isinstance(op, Rect | Clip) and (not isinstance(op, Rect) or op.fill):
            if isinstance(op, Clip) and op.circle:
                out.append(op)
                continue
            x0, y0, x1, y1 = op.x, op.y, op.x + op.width, op.y + op.height
            touches = (
                abs(x0 - left) <= _EDGE,
                abs(y0 - top) <= _EDGE,
                abs(x1 - right) <= _EDGE,
                abs(y1 - bottom) <= _EDGE,
            )
            if any(touches):
                x0 -= bleed if touches[0] else 0.0
                y0 -= bleed if touches[1] else 0.0
                x1 += bleed if touches[2] else 0.0
                y1 += bleed if touches[3] else 0.0
                out.append(replace(op, x=x0, y=y0, width=x1 - x0, height=y1 - y0, radius=0.0))
                continue
            out.append(op)
        elif isinstance(op, Rect) and op.stroke:
            half = op.line_width / 2
            on_cut = (
                abs(op.x - half - left) <= _EDGE
                or abs(op.y - half - top) <= _EDGE
                or abs(op.x + op.width + half - right) <= _EDGE
                or abs(op.y + op.height + half - bottom) <= _EDGE
            )
            # A border on the cut line loses its rounded corners with the paper under it:
            # rounded, it would leave wedges of paper colour inside the trim at the corners.
            out.append(replace(op, radius=0.0) if on_cut else op)
            band = bleed + half  # the band overlaps the stroke, leaving no hairline between
            x0, y0 = op.x - half, op.y - half
            x1, y1 = op.x + op.width + half, op.y + op.height + half
            colour = op.stroke
            if abs(y0 - top) <= _EDGE:
                out.append(Rect(left - bleed, top - bleed, slot.width + 2 * bleed, band, colour))
            if abs(y1 - bottom) <= _EDGE:
                out.append(Rect(left - bleed, bottom - half, slot.width + 2 * bleed, band, colour))
            if abs(x0 - left) <= _EDGE:
                out.append(Rect(left - bleed, top - bleed, band, slot.height + 2 * bleed, colour))
            if abs(x1 - right) <= _EDGE:
                out.append(Rect(right - half, top - bleed, band, slot.height + 2 * bleed, colour))
        else:
            out.append(op)
    return out


def moved(ops: Sequence[Op], dx: float, dy: float) -> list[Op]:
    """``ops`` drawn at (0, 0) moved by (dx, dy): a face drawn once, placed in every slot.

    The numbers are those of drawing the face in place (``x + dx`` is what the sketch computes
    there), so a placed copy is byte for byte the face drawn at its slot.
    """
    out: list[Op] = []
    for op in ops:
        if isinstance(op, Rect | Clip | Text | Image):
            out.append(replace(op, x=op.x + dx, y=op.y + dy))
        elif isinstance(op, Circle):
            out.append(replace(op, cx=op.cx + dx, cy=op.cy + dy))
        elif isinstance(op, Line):
            out.append(replace(op, x1=op.x1 + dx, y1=op.y1 + dy, x2=op.x2 + dx, y2=op.y2 + dy))
        elif isinstance(op, Polygon):
            out.append(replace(op, points=tuple((x + dx, y + dy) for x, y in op.points)))
        elif isinstance(op, Mark):
            x, y, width, height = op.box
            out.append(replace(op, box=(x + dx, y + dy, width, height)))
        else:
            out.append(op)
    return out
