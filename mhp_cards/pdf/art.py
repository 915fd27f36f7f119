"""Pictures on card faces: fitted to their region, or a placeholder naming the missing file.

A picture (PNG or JPEG; SVG with svglib) is fitted to its template region as the region's
``fit`` says: whole inside it (``contain``), filling it and cut at its edges (``cover``), or
stretched (``fill``). A PDF stores each picture once however many faces show it. A file that
is missing or no picture prints as a grey placeholder naming it (the catalog's checks report
it, located).
"""

from __future__ import annotations

import hashlib
import io
from functools import lru_cache
from pathlib import Path
from typing import Final

from mhp_cards.catalog.art import svg_size
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.layout import Region
from mhp_cards.pdf.typeset import fit_lines, text_runs

__all__ = ["PLACEHOLDER", "PLACEHOLDER_INK", "draw_picture"]

#: The fill of a missing picture's placeholder, and the cross over it.
PLACEHOLDER: Final = "#ECECEC"
PLACEHOLDER_INK: Final = "#9A9A9A"


def draw_picture(face: Face, region: Region, path: Path, label: str = "art") -> None:
    """The picture at ``path`` fitted to ``region`` of the face (see the module).

    ``label`` names the region in a problem report (the placeholder's text must fit too).
    """
    sketch = face.sketch
    x, y, width, height = region.x, region.y, region.width, region.height
    ink = face.template.ink
    found = _picture_file(str(path))
    if found is None:
        sketch.rect(x, y, width, height, fill=PLACEHOLDER, stroke=ink, dash=(1.2, 0.8))
        sketch.line(x, y, x + width, y + height, stroke=PLACEHOLDER_INK)
        sketch.line(x, y + height, x + width, y, stroke=PLACEHOLDER_INK)
        note = ("нет рисунка: " if face.lang == "ru" else "no picture: ") + path.name
        box = Region(x=x, y=y, width=width, height=height, size=7, min_size=4)
        fit_lines(sketch, [text_runs(note)], box, "placeholder", label, ink)
        return
    pixels_wide, pixels_high, digest = found
    if region.fit == "fill":
        sketch.image(x, y, width, height, str(path), digest)
        return
    scale = (min if region.fit == "contain" else max)(width / pixels_wide, height / pixels_high)
    drawn_width, drawn_height = pixels_wide * scale, pixels_high * scale
    left, top = x + (width - drawn_width) / 2, y + (height - drawn_height) / 2
    if region.fit == "contain":
        sketch.image(left, top, drawn_width, drawn_height, str(path), digest)
        return
    with sketch.clip(x, y, width, height):
        sketch.image(left, top, drawn_width, drawn_height, str(path), digest)


def _picture_file(path: str) -> tuple[int, int, str] | None:
    """A picture's size in pixels and a digest of its content; None when there is none."""
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    # Keyed by the file's time and size too: a picture saved again under its name is read again.
    return _read_picture(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _read_picture(path: str, _mtime: int, _size: int) -> tuple[int, int, str] | None:
    from PIL import Image, UnidentifiedImageError  # noqa: PLC0415 (loaded only for art)

    if path.lower().endswith(".svg"):
        size = svg_size(Path(path))
        if size is None:
            return None
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]
        return round(size[0]), round(size[1]), digest
    try:
        data = Path(path).read_bytes()
        with Image.open(io.BytesIO(data)) as picture:
            wide, high = picture.size
    except (OSError, UnidentifiedImageError):
        return None
    return wide, high, hashlib.sha256(data).hexdigest()[:12]
