"""Replaying sketches onto a reportlab canvas: the only place that writes PDF.

The document is reproducible (reportlab's invariant mode: fixed dates and IDs), embeds its font
subsets, states a TrimBox and BleedBox on every page and asks viewers not to scale when printing,
so cards come out at their real size.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from mhp_cards.pdf.fonts import FONT_NAMES, fonts
from mhp_cards.pdf.sketch import Circle, Clip, Line, PageSketch, Polygon, Rect, Text, Unclip

__all__ = ["render_pdf"]

PT_PER_MM: Final = 72 / 25.4


def _pt(mm: float) -> float:
    return mm * PT_PER_MM


@lru_cache(maxsize=256)
def _colour(hex_text: str) -> Color:
    # The kit uses a few dozen colours over tens of thousands of operations; parse each once.
    return HexColor(hex_text)


def render_pdf(pages: Sequence[PageSketch], title: str, subject: str, lang: str) -> bytes:
    """The PDF bytes of ``pages`` (same pages in, same bytes out)."""
    fonts()  # registers the fonts
    buffer = io.BytesIO()
    # The initial font would otherwise be Helvetica: unused, not embeddable, and flagged by
    # a print shop's preflight. Start every page in the kit's own (embedded) font instead.
    canvas = Canvas(
        buffer,
        invariant=True,
        pageCompression=1,
        lang=lang,
        initialFontName=FONT_NAMES[False],  # type: ignore[arg-type]  # the stub says float
    )
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setAuthor("mhp-cards")
    canvas.setCreator("mhp-cards")
    canvas.setKeywords("МАРСХИМПРОМ, print and play")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("DisplayDocTitle", "true")
    for page in pages:
        _page(canvas, page)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _page(canvas: Canvas, page: PageSketch) -> None:
    width, height = _pt(page.width), _pt(page.height)
    canvas.setPageSize((width, height))
    # Boxes stay set for the following pages unless reset: a page without its own has none.
    canvas.setTrimBox(None)
    canvas.setBleedBox(None)
    if page.trim is not None:
        x, y, w, h = page.trim
        bleed = page.bleed
        canvas.setTrimBox((_pt(x), height - _pt(y + h), _pt(x + w), height - _pt(y)))
        canvas.setBleedBox(
            (
                _pt(max(0.0, x - bleed)),
                height - _pt(min(page.height, y + h + bleed)),
                _pt(min(page.width, x + w + bleed)),
                height - _pt(max(0.0, y - bleed)),
            )
        )
    for op in page.ops:
        if isinstance(op, Rect):
            _style(canvas, op.fill, op.stroke, op.line_width, op.dash)
            x, y = _pt(op.x), height - _pt(op.y + op.height)
            w, h = _pt(op.width), _pt(op.height)
            if op.radius > 0:
                canvas.roundRect(
                    x, y, w, h, _pt(op.radius), stroke=int(bool(op.stroke)), fill=int(bool(op.fill))
                )
            else:
                canvas.rect(x, y, w, h, stroke=int(bool(op.stroke)), fill=int(bool(op.fill)))
        elif isinstance(op, Circle):
            _style(canvas, op.fill, op.stroke, op.line_width, op.dash)
            canvas.circle(
                _pt(op.cx),
                height - _pt(op.cy),
                _pt(op.r),
                stroke=int(bool(op.stroke)),
                fill=int(bool(op.fill)),
            )
        elif isinstance(op, Line):
            _style(canvas, None, op.stroke, op.line_width, op.dash)
            canvas.line(_pt(op.x1), height - _pt(op.y1), _pt(op.x2), height - _pt(op.y2))
        elif isinstance(op, Polygon):
            _style(canvas, op.fill, op.stroke, op.line_width, ())
            path = canvas.beginPath()
            first, *rest = op.points
            path.moveTo(_pt(first[0]), height - _pt(first[1]))
            for x, y in rest:
                path.lineTo(_pt(x), height - _pt(y))
            path.close()
            canvas.drawPath(path, stroke=int(bool(op.stroke)), fill=int(bool(op.fill)))
        elif isinstance(op, Clip):
            canvas.saveState()
            path = canvas.beginPath()
            x, y = _pt(op.x), height - _pt(op.y + op.height)
            if op.circle:
                path.circle(x + _pt(op.width) / 2, y + _pt(op.height) / 2, _pt(op.width) / 2)
            elif op.radius > 0:
                path.roundRect(x, y, _pt(op.width), _pt(op.height), _pt(op.radius))
            else:
                path.rect(x, y, _pt(op.width), _pt(op.height))
            canvas.clipPath(path, stroke=0, fill=0)
        elif isinstance(op, Unclip):
            canvas.restoreState()
        elif isinstance(op, Text):
            canvas.setFillColor(_colour(op.colour))
            canvas.setFont(FONT_NAMES[op.bold], op.size)
            canvas.drawString(_pt(op.x), height - _pt(op.y), op.text)


def _style(
    canvas: Canvas, fill: str | None, stroke: str | None, width: float, dash: Sequence[float]
) -> None:
    if fill:
        canvas.setFillColor(_colour(fill))
    if stroke:
        canvas.setStrokeColor(_colour(stroke))
    canvas.setLineWidth(_pt(width))
    if dash:
        canvas.setDash([_pt(d) for d in dash], 0)
    else:
        canvas.setDash([], 0)
