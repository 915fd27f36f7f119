"""The faces of a deck from data: its regions drawn in order, each a field of the card or a text.

A region's text starts at its size and shrinks down to its ``min_size``; text that does not fit
even then is a build problem naming the card and the region, as on every face of the kit. A
badge is drawn behind its region's text: a disc as wide as the region's shorter side, or a
rounded box filling the region. A picture (PNG or JPEG) is fitted to its region whole
(``contain``), filling it and cut at its edges (``cover``) or stretched (``fill``); a missing
one prints as a grey placeholder naming the file. A PDF stores each picture once.
"""

from __future__ import annotations

import hashlib
import io
from functools import lru_cache
from pathlib import Path
from typing import Final

from mhp_cards.decks.load import art_path, svg_size
from mhp_cards.decks.models import DeckCard, DeckFace, DeckRegion
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.layout import Region, Template
from mhp_cards.pdf.typeset import fit_lines, text_runs

__all__ = ["PLACEHOLDER", "deck_side", "face_template"]

#: The fill of a missing picture's placeholder, and the cross over it.
PLACEHOLDER: Final = "#ECECEC"
PLACEHOLDER_INK: Final = "#9A9A9A"


def face_template(side: DeckFace) -> Template:
    """The layout template of one side of a deck: its colours and its regions' places and styles."""
    return Template(
        regions={
            name: Region(
                x=region.x,
                y=region.y,
                width=region.width,
                height=region.height,
                size=region.size,
                min_size=region.min_size,
                bold=region.bold,
                align=region.align,
                valign=region.valign,
                colour=region.colour,
            )
            for name, region in side.regions.items()
        },
        ink=side.ink,
        paper=side.paper,
        accent=side.accent,
    )


def deck_side(
    face: Face, side: DeckFace, card: DeckCard | None, label: str, root: Path | None = None
) -> None:
    """Draw one side of a deck card: ``card``'s fields (None for a back: fixed texts only).

    ``label`` names the card in a problem report (``organisms/moose``); ``root`` is the pack's
    directory, which pictures are relative to.
    """
    face.background(border=side.accent if side.border else None)
    for name, region in side.regions.items():
        if region.image is not None:
            value = card.shown(region.image, face.lang) if card is not None else ""
            if value:
                _picture(face, region, art_path(root or Path("."), value), side)
            continue
        if region.text is not None:
            text = region.text.get(face.lang)
        elif card is not None and region.field is not None:
            text = card.shown(region.field, face.lang)
        else:
            text = ""
        if not text:
            continue
        if region.badge is not None:
            fill = region.badge.fill or side.accent
            if region.badge.shape == "disc":
                radius = min(region.width, region.height) / 2
                centre_x, centre_y = region.x + region.width / 2, region.y + region.height / 2
                face.sketch.circle(centre_x, centre_y, radius, fill=fill)
            else:
                face.sketch.rect(
                    region.x,
                    region.y,
                    region.width,
                    region.height,
                    fill=fill,
                    radius=min(region.width, region.height) / 4,
                )
        face.lines([text_runs(text, bold=region.bold)], name, label)


def _picture(face: Face, region: DeckRegion, path: Path, side: DeckFace) -> None:
    """A card's picture fitted to its region, or a placeholder naming the missing file."""
    sketch = face.sketch
    x, y, width, height = region.x, region.y, region.width, region.height
    found = _picture_file(str(path))
    if found is None:
        sketch.rect(x, y, width, height, fill=PLACEHOLDER, stroke=side.ink, dash=(1.2, 0.8))
        sketch.line(x, y, x + width, y + height, stroke=PLACEHOLDER_INK)
        sketch.line(x, y + height, x + width, y, stroke=PLACEHOLDER_INK)
        note = ("нет рисунка: " if face.lang == "ru" else "no picture: ") + path.name
        runs = text_runs(note)
        box = Region(x=x, y=y, width=width, height=height, size=7, min_size=4)
        fit_lines(sketch, [runs], box, "placeholder", "image", side.ink)
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
