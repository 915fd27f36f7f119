"""Card faces as images: drawn as the kit draws them, written as PDF, rasterised by PDFium.

There is one renderer of the faces, :mod:`mhp_cards.pdf.render`; an image is that PDF page
rasterised by pypdfium2 (an optional dependency: ``pip install 'mhp-cards[export]'``), so an
exported image and the printed card cannot drift apart.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from types import ModuleType
from typing import TYPE_CHECKING, Final

from mhp_cards.errors import ExportError, KitError
from mhp_cards.pdf.cards import Side
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.impose import Slot, run_into_bleed
from mhp_cards.pdf.layout import CardSize, SheetProfile, Templates
from mhp_cards.pdf.places import token_diameter
from mhp_cards.pdf.render import render_pdf
from mhp_cards.pdf.sketch import PageSketch, Sketch
from mhp_cards.pdf.typeset import TypesetError

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "MM_PER_INCH",
    "FaceJob",
    "grid",
    "pixels",
    "png_bytes",
    "rasterise",
    "renderer",
    "sheet_page",
    "sketch_faces",
]

MM_PER_INCH: Final = 25.4
_PT_PER_INCH: Final = 72.0


def renderer() -> ModuleType:
    """pypdfium2, or an ExportError naming the extra that installs it."""
    try:
        # Optional dependencies, imported when an export runs so the base install needs neither.
        import PIL.Image  # noqa: F401, PLC0415  # pypdfium2 hands images over as PIL images
        import pypdfium2  # noqa: PLC0415
    except ImportError as missing:
        raise ExportError(
            f"exporting images needs {missing.name}, an optional dependency; "
            "install it with: pip install 'mhp-cards[export]'"
        ) from None
    module: ModuleType = pypdfium2
    return module


def pixels(mm: float, dpi: float) -> int:
    """The number of pixels ``mm`` millimetres take at ``dpi`` (rounded to the nearest)."""
    return max(1, round(mm / MM_PER_INCH * dpi))


@dataclass(frozen=True, slots=True)
class FaceJob:
    """One face to draw on a page of its own: which side, at which card size."""

    side: Side
    kind: str


def sketch_faces(
    jobs: Sequence[FaceJob],
    profile: SheetProfile,
    templates: Templates,
    lang: str,
    bleed: float = 0.0,
) -> list[PageSketch]:
    """One page per face, exactly the card's size plus ``bleed`` mm on every side.

    Each face is drawn by the kit's face function with the kit's template and card size;
    KitError lists every text that did not fit.
    """
    sketch = Sketch()
    problems: list[TypesetError] = []
    for job in jobs:
        size = profile.card_sizes[job.kind]
        page = sketch.new_page(size.width + 2 * bleed, size.height + 2 * bleed, job.side.name)
        with sketch.at(bleed, bleed):
            try:
                job.side.draw(
                    Face(
                        sketch,
                        templates[job.side.template],
                        size,
                        lang,
                        bleed,
                        token_diameter(profile),
                    )
                )
            except TypesetError as problem:
                problems.append(problem)
        # As on the kit's sheets: what reaches the cut line runs on into the bleed.
        slot = Slot(bleed, bleed, size.width, size.height, 0, 0)
        page.ops[:] = run_into_bleed(page.ops, slot, bleed, circle=size.shape == "circle")
    if problems:
        raise KitError(problems)
    return sketch.pages


def sheet_page(
    sides: Sequence[Side],
    size: CardSize,
    columns: int,
    rows: int,
    templates: Templates,
    lang: str,
    token: float | None = None,
) -> PageSketch:
    """A grid of faces, ``columns`` × ``rows`` cells of the card's size, filled row by row.

    ``token`` is the chemist token's diameter, for faces with token places.
    """
    sketch = Sketch()
    page = sketch.new_page(columns * size.width, rows * size.height, "sheet")
    problems: list[TypesetError] = []
    for index, side in enumerate(sides):
        row, column = divmod(index, columns)
        with (
            sketch.at(column * size.width, row * size.height),
            sketch.clip(0, 0, size.width, size.height),  # a face never spills into the next
        ):
            try:
                side.draw(Face(sketch, templates[side.template], size, lang, 0.0, token))
            except TypesetError as problem:
                problems.append(problem)
    if problems:
        raise KitError(problems)
    return page


def _whole_pixels(page: PageSketch, scale: float) -> PageSketch:
    """``page`` grown at its right and bottom to whole pixels at ``scale`` px/mm.

    PDFium maps a page onto a bitmap of its size rounded *up* to whole pixels, which would
    stretch the drawing by up to a pixel; on a page of whole pixels the scale is exact.
    """
    return replace(
        page,
        width=math.ceil(page.width * scale - 1e-6) / scale,
        height=math.ceil(page.height * scale - 1e-6) / scale,
    )


def rasterise(
    pages: Sequence[PageSketch],
    scales: Sequence[float],
    *,
    transparent: bool = False,
) -> list[Image]:
    """Each page as an image at ``scales[i]`` pixels per mm, its size rounded to the nearest pixel.

    A 63 mm card at 300 dpi (744.09 px) is 744 px wide; the drawing is not stretched to fit.
    Outside the drawing the image is white, or transparent with ``transparent``.
    """
    pdfium = renderer()
    padded = [_whole_pixels(page, scale) for page, scale in zip(pages, scales, strict=True)]
    document = pdfium.PdfDocument(render_pdf(padded, "МАРСХИМПРОМ", "card faces", "ru"))
    fill = (255, 255, 255, 0) if transparent else (255, 255, 255, 255)
    images: list[Image] = []
    try:
        for index, (page, scale) in enumerate(zip(pages, scales, strict=True)):
            pdf_page = document[index]
            # A hair under the scale (PDFium keeps page sizes as 32-bit floats), so that
            # its rounding up lands on the whole pixels.
            points = scale * MM_PER_INCH / _PT_PER_INCH * (1 - 1e-6)
            image = pdf_page.render(scale=points, fill_color=fill).to_pil()
            width = max(1, round(page.width * scale))
            height = max(1, round(page.height * scale))
            if image.size != (width, height):
                image = image.crop((0, 0, width, height))
            images.append(image.convert("RGBA" if transparent else "RGB"))
            pdf_page.close()
    finally:
        document.close()
    return images


def png_bytes(image: Image, dpi: float) -> bytes:
    """The PNG of ``image``, tagged sRGB (the kit's colours are sRGB) and with its dpi."""
    from PIL.PngImagePlugin import PngInfo  # noqa: PLC0415  # optional, as in renderer()

    info = PngInfo()
    info.add(b"sRGB", b"\x00")  # perceptual rendering intent
    buffer = io.BytesIO()
    image.save(buffer, "PNG", pnginfo=info, dpi=(dpi, dpi), optimize=False, compress_level=6)
    return buffer.getvalue()


def grid(count: int, max_columns: int, max_rows: int) -> tuple[int, int]:
    """Columns and rows of the smallest near-square-by-rows grid holding ``count`` cells."""
    columns = min(max_columns, count)
    rows = math.ceil(count / columns)
    if rows > max_rows:
        raise ValueError(f"{count} cells do not fit {max_columns} × {max_rows}")
    return columns, rows
