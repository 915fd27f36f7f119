"""Imposition: where every card lands on a sheet, its mirrored back, and the crop marks.

Cards of one size form a grid centred between the margins; for a long-edge flip the back of the
card in column c lands in column (columns − 1 − c), for a short-edge flip the rows mirror, and
the printer's duplex offset shifts every back. Tokens of several sizes are shelf-packed.
Everything is in millimetres, y downwards from the page's top-left corner.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from mhp_cards.pdf.layout import SheetProfile

__all__ = ["Imposition", "Slot", "crop_marks", "impose", "pack"]


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
    pitch_x = size.width + 2 * profile.bleed + profile.gutter
    pitch_y = size.height + 2 * profile.bleed + profile.gutter
    usable_w = width - margins.left - margins.right
    usable_h = height - margins.top - margins.bottom
    columns = max(1, math.floor((usable_w + profile.gutter) / pitch_x + 1e-9))
    rows = max(1, math.floor((usable_h + profile.gutter) / pitch_y + 1e-9))
    grid_w = columns * pitch_x - profile.gutter
    grid_h = rows * pitch_y - profile.gutter
    left = margins.left + (usable_w - grid_w) / 2 + profile.bleed
    top = margins.top + (usable_h - grid_h) / 2 + profile.bleed
    fronts = tuple(
        Slot(left + c * pitch_x, top + r * pitch_y, size.width, size.height, r, c)
        for r in range(rows)
        for c in range(columns)
    )
    backs = tuple(_back_slot(profile, slot, width, height) for slot in fronts)
    return Imposition(width, height, columns, rows, fronts, backs, profile.bleed)


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
    top = min(ys) - imposition.bleed - gap
    bottom = max(ys) + imposition.bleed + gap
    left = min(xs) - imposition.bleed - gap
    right = max(xs) + imposition.bleed + gap
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
    usable_w = width - margins.left - margins.right
    bottom_limit = height - margins.bottom
    pages: list[list[tuple[str, Slot, Slot]]] = [[]]
    y = margins.top
    row_index = 0
    for kind, count in items:
        size = profile.card_sizes[kind]
        pitch_x = size.width + 2 * profile.bleed + profile.gutter
        pitch_y = size.height + 2 * profile.bleed + profile.gutter
        per_row = max(1, math.floor((usable_w + profile.gutter) / pitch_x + 1e-9))
        left_over = count
        while left_over > 0:
            if y + pitch_y - profile.gutter > bottom_limit + 1e-9:
                pages.append([])
                y = margins.top
            in_row = min(per_row, left_over)
            row_w = in_row * pitch_x - profile.gutter
            x0 = margins.left + (usable_w - row_w) / 2 + profile.bleed
            for column in range(in_row):
                slot = Slot(
                    x0 + column * pitch_x,
                    y + profile.bleed,
                    size.width,
                    size.height,
                    row_index,
                    column,
                )
                pages[-1].append((kind, slot, _back_slot(profile, slot, width, height)))
            left_over -= in_row
            y += pitch_y
            row_index += 1
        y += profile.gutter  # a little air between kinds
    return [page for page in pages if page]
