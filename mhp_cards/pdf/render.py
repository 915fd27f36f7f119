"""Replaying sketches onto a reportlab canvas: the only place that writes PDF.

The document is reproducible (reportlab's invariant mode: fixed dates and IDs), embeds its font
subsets, states a TrimBox and BleedBox on every page and asks viewers not to scale when printing,
so cards come out at their real size.

Colours are drawn as RGB, or — for a print shop that asks for CMYK — converted to DeviceCMYK
(:func:`rgb_to_cmyk`), so that no RGB colour operator is left in the content. The cut contour
is a spot colour (``spot:<name>``) in either mode.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Literal

from reportlab.lib.colors import CMYKColor, CMYKColorSep, Color, HexColor
from reportlab.pdfgen.canvas import Canvas

from mhp_cards.pdf.fonts import FONT_NAMES, fonts
from mhp_cards.pdf.sketch import (
    Circle,
    Clip,
    Image,
    Line,
    Op,
    PageSketch,
    Polygon,
    Rect,
    Text,
    Unclip,
)

__all__ = ["COLOUR_MODES", "ColourMode", "cmyk_of", "render_pdf", "rgb_to_cmyk"]

ColourMode = Literal["rgb", "cmyk"]
COLOUR_MODES: Final[tuple[ColourMode, ...]] = ("rgb", "cmyk")

PT_PER_MM: Final = 72 / 25.4


def _pt(mm: float) -> float:
    return mm * PT_PER_MM


def rgb_to_cmyk(red: float, green: float, blue: float) -> tuple[float, float, float, float]:
    """The device CMYK of an RGB colour (components 0–1), rounded to 0.1 %.

    Black takes the darkness common to all three channels, k = 1 − max(r, g, b), and each
    colourant the rest of its channel: c = (1 − r − k) / (1 − k), and so for m and y. This is the
    exact inverse of the usual device rendering r = (1 − c)(1 − k). Shown by PDFium, the kit's
    colours stay near their RGB selves this way (Mars red #B5462E comes out (183, 97, 57)),
    where only subtracting k from 1 − r, 1 − g, 1 − b greys them ((186, 122, 91)).
    A grey gets black ink only (text stays sharp, with no colour fringes when the plates
    shift); no colour needs more than 300 % of ink in total. There is no ICC profile in it, so
    a shop that manages colour itself is better served with the RGB file and its press profile.
    """
    black = 1 - max(red, green, blue)
    if black >= 1:
        return (0.0, 0.0, 0.0, 1.0)
    rest = 1 - black
    return (
        round((1 - red - black) / rest, 3),
        round((1 - green - black) / rest, 3),
        round((1 - blue - black) / rest, 3),
        round(black, 3),
    )


#: The widest spread between the RGB channels of a colour that still prints as a grey: with
#: black ink only in CMYK (the kit's ink #231F20, its greys #6B6B6B, the blue-grey #4A5560).
NEUTRAL_SPREAD: Final = 0.1
#: The kit's ink: black text and line art, 100 % K in CMYK.
INK_HEX: Final = "#231F20"


def cmyk_of(red: float, green: float, blue: float) -> tuple[float, float, float, float]:
    """The CMYK the kit prints an RGB colour with: greys in black ink only, others as converted.

    Colours other than greys go through :func:`rgb_to_cmyk`.
    Text and line art must sit on one plate: a grey drawn on four would fringe with colour at
    the smallest misregistration. A colour whose channels spread by at most
    :data:`NEUTRAL_SPREAD` is a grey; its K is 1 − its luminance (Rec. 709), rounded to 0.1 %.
    The kit has no large dark area that would want a rich black.
    """
    if max(red, green, blue) - min(red, green, blue) <= NEUTRAL_SPREAD:
        luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
        return (0.0, 0.0, 0.0, round(1 - luminance, 3))
    return rgb_to_cmyk(red, green, blue)


@lru_cache(maxsize=512)
def _colour(text: str, mode: ColourMode) -> Color:
    # The kit uses a few dozen colours over tens of thousands of operations; parse each once.
    if text.startswith("spot:"):
        # Plotters find a cut path by its spot colour's name; magenta shows it on screen.
        return CMYKColorSep(0, 1, 0, 0, spotName=text.removeprefix("spot:"))
    if mode == "cmyk" and text.upper() == INK_HEX:
        return CMYKColor(0, 0, 0, 1)
    colour = HexColor(text)
    if mode == "cmyk":
        return CMYKColor(*cmyk_of(colour.red, colour.green, colour.blue))
    return colour


def render_pdf(
    pages: Sequence[PageSketch],
    title: str,
    subject: str,
    lang: str,
    colour: ColourMode = "rgb",
) -> bytes:
    """The PDF bytes of ``pages`` (same pages in, same bytes out), in RGB or CMYK colours."""
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
        _page(canvas, page, colour)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _page(canvas: Canvas, page: PageSketch, mode: ColourMode) -> None:
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
        spot = isinstance(op, Rect | Circle | Line) and (op.stroke or "").startswith("spot:")
        if spot:
            # A cut contour must not knock out the art under it: it overprints, so a RIP that
            # prints it by mistake adds a hairline instead of cutting a white one into the card.
            canvas.saveState()
            canvas.setStrokeOverprint(True)
            canvas.setOverprintMask(1)
        _draw(canvas, op, height, mode)
        if spot:
            canvas.restoreState()


def _draw(canvas: Canvas, op: Op, height: float, mode: ColourMode) -> None:
    if isinstance(op, Rect):
        _style(canvas, mode, op.fill, op.stroke, op.line_width, op.dash)
        x, y = _pt(op.x), height - _pt(op.y + op.height)
        w, h = _pt(op.width), _pt(op.height)
        if op.radius > 0:
            canvas.roundRect(
                x, y, w, h, _pt(op.radius), stroke=int(bool(op.stroke)), fill=int(bool(op.fill))
            )
        else:
            canvas.rect(x, y, w, h, stroke=int(bool(op.stroke)), fill=int(bool(op.fill)))
    elif isinstance(op, Circle):
        _style(canvas, mode, op.fill, op.stroke, op.line_width, op.dash)
        canvas.circle(
            _pt(op.cx),
            height - _pt(op.cy),
            _pt(op.r),
            stroke=int(bool(op.stroke)),
            fill=int(bool(op.fill)),
        )
    elif isinstance(op, Line):
        _style(canvas, mode, None, op.stroke, op.line_width, op.dash)
        canvas.line(_pt(op.x1), height - _pt(op.y1), _pt(op.x2), height - _pt(op.y2))
    elif isinstance(op, Polygon):
        _style(canvas, mode, op.fill, op.stroke, op.line_width, ())
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
    elif isinstance(op, Image) and op.path.lower().endswith(".svg"):
        _svg(canvas, op, height)
    elif isinstance(op, Image):
        # reportlab stores a file drawn many times once in the PDF (its image cache).
        canvas.drawImage(
            op.path,
            _pt(op.x),
            height - _pt(op.y + op.height),
            _pt(op.width),
            _pt(op.height),
            mask="auto",
        )
    elif isinstance(op, Text):
        canvas.setFillColor(_colour(op.colour, mode))
        canvas.setFont(FONT_NAMES[op.bold], op.size)
        canvas.drawString(_pt(op.x), height - _pt(op.y), op.text)


def _svg(canvas: Canvas, op: Image, height: float) -> None:
    """An SVG picture: drawn once into a form of the PDF, then placed (scaled) where asked."""
    from reportlab.graphics import renderPDF  # noqa: PLC0415
    from svglib.svglib import svg2rlg  # noqa: PLC0415 (the art extra; checked when the face is drawn)

    name = f"svg-{op.digest}"
    drawing = svg2rlg(op.path)
    if drawing is None:
        raise ValueError(f"{op.path}: not an SVG picture")
    if not canvas.hasForm(name):
        canvas.beginForm(name)
        renderPDF.draw(drawing, canvas, 0, 0)
        canvas.endForm()
    canvas.saveState()
    canvas.translate(_pt(op.x), height - _pt(op.y + op.height))
    canvas.scale(_pt(op.width) / drawing.width, _pt(op.height) / drawing.height)
    canvas.doForm(name)
    canvas.restoreState()


def _style(
    canvas: Canvas,
    mode: ColourMode,
    fill: str | None,
    stroke: str | None,
    width: float,
    dash: Sequence[float],
) -> None:
    if fill:
        canvas.setFillColor(_colour(fill, mode))
    if stroke:
        canvas.setStrokeColor(_colour(stroke, mode))
    canvas.setLineWidth(_pt(width))
    if dash:
        canvas.setDash([_pt(d) for d in dash], 0)
    else:
        canvas.setDash([], 0)
