"""The kit's manifest: where every page, piece and token place is in ``mhp-kit.pdf``, as JSON.

Tests and outside tools (a cutting plotter's job, a checker, a table app) read the geometry
from here instead of guessing it from the PDF. Lengths are in millimetres; coordinates are
measured from the page's lower-left corner, as in PDF; pages are numbered from 1 in
``mhp-kit.pdf`` (blank backs of single-sided pages included). The facts come from the
:class:`~mhp_cards.pdf.sketch.Mark` notes the kit leaves on its pages — ``piece`` marks from the
imposition, ``place`` marks from the faces — so the manifest and the PDF are drawn from the same
sketches and cannot drift apart. Its JSON Schema is ``layouts/schema/manifest.schema.json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from mhp_cards.pdf.sketch import Mark, PageSketch

__all__ = [
    "MANIFEST_FILE",
    "MANIFEST_SCHEMA",
    "Manifest",
    "ManifestPage",
    "Piece",
    "Place",
    "TokenSize",
    "build_manifest",
]

MANIFEST_FILE: Final = "mhp-kit.manifest.json"
MANIFEST_SCHEMA: Final = "manifest.schema.json"

Mm = Annotated[float, Field(ge=0)]
Box = tuple[float, float, float, float]
"""(x0, y0, x1, y1) in mm from the page's lower-left corner."""
Kind = Literal[
    "raw",
    "fate",
    "reactor",
    "electrolyser",
    "mission",
    "base",
    "warehouse",
    "coin",
    "chemist",
    "combine",
    "battery",
    "armour",
    "aid",
    "guide",
    "die",
    "card",
]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ManifestPage(_Model):
    """One page of ``mhp-kit.pdf``."""

    number: Annotated[int, Field(ge=1)]
    """Page number in ``mhp-kit.pdf``, from 1."""
    section: str
    """The kit section it belongs to (``raw``, ``tokens``…)."""
    face: Literal["front", "back", "single"]
    """``front`` and ``back`` pages form a double-sided sheet; ``single`` pages stand alone."""
    size_mm: tuple[Mm, Mm]
    """[width, height] of the page (its MediaBox)."""
    trim_mm: Box | None = None
    """The page's TrimBox, around the cut lines of its pieces; null: the whole page."""
    bleed_mm: Mm = 0.0
    """How far the pieces' printing runs past their cut lines."""


class Piece(_Model):
    """One face of one piece to cut out: a card or a token, on one page."""

    id: str
    """The piece: ``water-ice#3`` (third copy), ``fate-12``, ``4А``, ``chemist-red#1``…"""
    kind: Kind
    """What it is."""
    section: str
    page: Annotated[int, Field(ge=1)]
    face: Literal["front", "back", "single"]
    trim_mm: Box
    """Its cut line's bounding box [x0, y0, x1, y1] (a round token: the square around it)."""
    shape: Literal["rectangle", "circle"] = "rectangle"


class Place(_Model):
    """A printed place for a token on a piece: a product place of a reactor card or a mission."""

    piece: str
    """The ID of the piece it is printed on."""
    substance: str
    """The formula of the substance the token stands for there."""
    page: Annotated[int, Field(ge=1)]
    centre_mm: tuple[float, float]
    diameter_mm: Annotated[float, Field(gt=0)]


class TokenSize(_Model):
    """The cut size of a kind of token."""

    diameter_mm: Annotated[float, Field(gt=0)] | None = None
    """For a round token."""
    size_mm: tuple[Mm, Mm] | None = None
    """[width, height] for a square or rectangular one."""


class Manifest(_Model):
    """Where everything is in ``mhp-kit.pdf``."""

    pdf: str = "mhp-kit.pdf"
    """The file it describes, beside it."""
    layout: str
    """The sheet profile it was imposed with."""
    colour: Literal["rgb", "cmyk"] = "rgb"
    units: Literal["mm"] = "mm"
    origin: Literal["lower-left"] = "lower-left"
    pages: tuple[ManifestPage, ...]
    pieces: tuple[Piece, ...]
    places: tuple[Place, ...]
    tokens: dict[str, TokenSize]
    """The size of each kind of token, by kind (``chemist``, ``coin``…)."""

    def text(self) -> str:
        """The manifest as the JSON text the build writes (stable: same kit, same bytes)."""
        return self.model_dump_json(indent=1, exclude_none=True) + "\n"


#: Sections whose pages are pieces in themselves, with the kind they are.
_PAGE_PIECES: Final = {"guides": "guide"}
#: Kinds that are tokens (their sizes go in ``tokens``).
_TOKEN_KINDS: Final = frozenset({"coin", "chemist", "combine", "battery", "armour", "die"})


def _mm(value: float) -> float:
    rounded = round(value, 3)
    return 0.0 if rounded == 0 else rounded


def _box(page: PageSketch, x: float, y: float, width: float, height: float) -> Box:
    """A top-left (x, y, width, height) box as a lower-left (x0, y0, x1, y1) one."""
    return (_mm(x), _mm(page.height - y - height), _mm(x + width), _mm(page.height - y))


def build_manifest(
    sections: Sequence[tuple[str, Sequence[PageSketch]]],
    layout: str,
    colour: Literal["rgb", "cmyk"] = "rgb",
) -> Manifest:
    """The manifest of the combined PDF whose pages are ``sections`` in order: (name, pages).

    A place belongs to the piece whose cut line holds its centre on the same page (places drawn
    in the assembly guides, which are not pieces, are left out).
    """
    pages: list[ManifestPage] = []
    pieces: list[Piece] = []
    places: list[Place] = []
    tokens: dict[str, TokenSize] = {}
    number = 0
    for section, section_pages in sections:
        for page in section_pages:
            number += 1
            trim = None if page.trim is None else _box(page, *page.trim)
            pages.append(
                ManifestPage(
                    number=number,
                    section=section,
                    face=page.side,
                    size_mm=(_mm(page.width), _mm(page.height)),
                    trim_mm=trim,
                    bleed_mm=_mm(page.bleed),
                )
            )
            marks = [op for op in page.ops if isinstance(op, Mark)]
            on_page: list[Piece] = []
            for mark in marks:
                if mark.kind != "piece":
                    continue
                data = dict(mark.data)
                shape: Literal["rectangle", "circle"] = (
                    "circle" if data.get("shape") == "circle" else "rectangle"
                )
                piece = Piece.model_validate(
                    {
                        "id": data["id"],
                        "kind": data.get("what", "card"),
                        "section": section,
                        "page": number,
                        "face": page.side,
                        "trim_mm": _box(page, *mark.box),
                        "shape": shape,
                    }
                )
                on_page.append(piece)
                if piece.kind in _TOKEN_KINDS and piece.kind not in tokens:
                    width, height = mark.box[2], mark.box[3]
                    tokens[piece.kind] = (
                        TokenSize(diameter_mm=_mm(width))
                        if shape == "circle"
                        else TokenSize(size_mm=(_mm(width), _mm(height)))
                    )
            pieces += on_page
            # a page that is a piece in itself (a guide, printed back to back), unless blank
            if not on_page and section in _PAGE_PIECES and page.ops:
                pieces.append(
                    Piece.model_validate(
                        {
                            "id": page.label,
                            "kind": _PAGE_PIECES[section],
                            "section": section,
                            "page": number,
                            "face": page.side,
                            "trim_mm": _box(page, 0, 0, page.width, page.height),
                        }
                    )
                )
            for mark in marks:
                if mark.kind != "place":
                    continue
                data = dict(mark.data)
                x, y, width, height = mark.box
                cx, cy = _mm(x + width / 2), _mm(page.height - y - height / 2)
                holder = next(
                    (
                        p
                        for p in on_page
                        if p.trim_mm[0] <= cx <= p.trim_mm[2] and p.trim_mm[1] <= cy <= p.trim_mm[3]
                    ),
                    None,
                )
                if holder is None:
                    continue
                places.append(
                    Place(
                        piece=holder.id,
                        substance=data.get("substance", ""),
                        page=number,
                        centre_mm=(cx, cy),
                        diameter_mm=_mm(width),
                    )
                )
    return Manifest(
        layout=layout,
        colour=colour,
        pages=tuple(pages),
        pieces=tuple(pieces),
        places=tuple(places),
        tokens=dict(sorted(tokens.items())),
    )
