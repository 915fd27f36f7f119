"""``mhp export png``: one PNG per distinct card face, with an index ``cards.json``.

For print-on-demand shops, Tabletopia and virtual tabletops: every distinct front and back,
at the card's exact size in pixels at the chosen dpi (optionally with bleed), sRGB, transparent
outside the card's shape. Backs shared by a deck are written once (``raw.back.png``); tokens
show their design on both sides, so their back is their front. ``cards.json`` lists, for each
card, its ID, deck, kind, name, copies, and the files of its two faces.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import ExportError
from mhp_cards.fileio import write_bytes_atomic, write_text_atomic
from mhp_cards.pdf.cards import CardDesign, card_designs, select_cards
from mhp_cards.pdf.layout import CardSize, load_profile, load_templates
from mhp_cards.pdf.pack_cards import PackSource, pack_designs, pack_sheets
from mhp_cards.pdf.raster import MM_PER_INCH, FaceJob, png_bytes, rasterise, sketch_faces

__all__ = ["DEFAULT_BLEED", "PngExport", "PngFace", "export_png"]

#: Bleed of ``--bleed`` when the sheet profile has none: the usual print-shop bleed, in mm.
DEFAULT_BLEED: Final = 3.0
INDEX: Final = "cards.json"


@dataclass(frozen=True, slots=True)
class PngFace:
    """One image written: its file and its size in pixels."""

    path: Path
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class PngExport:
    """What an export wrote: the images, the index, and how many cards they stand for."""

    faces: tuple[PngFace, ...]
    index: Path
    designs: int
    cards: int


def _file_names(
    designs: tuple[CardDesign, ...], sizes: Mapping[str, CardSize]
) -> dict[tuple[str, str], str]:
    """A file stem per (face name, card kind).

    The stem is the face name, with the kind appended only when the face is printed at several
    sizes, so two different images never share a file.
    """
    sizes_of: dict[str, set[CardSize]] = {}
    for design in designs:
        for side in (design.front, design.back):
            sizes_of.setdefault(side.name, set()).add(sizes[design.kind])
    return {
        (side.name, design.kind): (
            side.name if len(sizes_of[side.name]) == 1 else f"{side.name}-{design.kind}"
        )
        for design in designs
        for side in (design.front, design.back)
    }


def export_png(
    catalog: Catalog | PackSource,
    out_dir: Path,
    *,
    dpi: float = 300,
    lang: str = "ru",
    bleed: bool = False,
    layout: str = "a4",
    cards: str | None = None,
    root: Path | None = None,
) -> PngExport:
    """Write one PNG per distinct face of the game (or a deck pack) and ``cards.json``.

    The card sizes, templates and (with ``bleed``) the bleed come from the sheet profile
    ``layout``; a profile without bleed gets :data:`DEFAULT_BLEED`. ``root``: the catalog's
    directory, which its cards' pictures are relative to. ``cards`` (IDs as for
    :func:`~mhp_cards.pdf.cards.select_cards`) limits the export to those cards.
    """
    if not 10 <= dpi <= 1200:
        raise ExportError(f"--dpi must be between 10 and 1200, not {dpi:g}")
    profile = load_profile(layout)
    layout_path = Path(layout)
    templates = load_templates(profile, layout_path.parent if layout_path.suffix else None)
    margin = (profile.bleed or DEFAULT_BLEED) if bleed else 0.0
    if isinstance(catalog, PackSource):
        designs = pack_designs(catalog, lang)
        profile, templates = pack_sheets(catalog.pack.decks, profile)
    else:
        designs = card_designs(catalog, lang, root)
    if cards is not None:
        designs = tuple(dict.fromkeys(pick.design for pick in select_cards(designs, cards)))
    stems = _file_names(designs, profile.card_sizes)
    jobs: dict[str, FaceJob] = {}
    for design in designs:
        for side, suffix in ((design.front, "front"), (design.back, "back")):
            if design.back is design.front and suffix == "back":
                continue
            jobs.setdefault(
                f"{stems[side.name, design.kind]}.{suffix}.png", FaceJob(side, design.kind)
            )
    pages = sketch_faces(list(jobs.values()), profile, templates, lang, margin)
    scale = dpi / MM_PER_INCH
    images = rasterise(pages, [scale] * len(pages), transparent=True)
    written = []
    for name, image in zip(jobs, images, strict=True):
        path = out_dir / name
        write_bytes_atomic(path, png_bytes(image, dpi))
        written.append(PngFace(path, image.width, image.height))
    sizes = {face.path.name: face for face in written}
    entries = []
    for design in designs:
        size = profile.card_sizes[design.kind]
        front = f"{stems[design.front.name, design.kind]}.front.png"
        back = (
            front
            if design.back is design.front
            else f"{stems[design.back.name, design.kind]}.back.png"
        )
        entries.append(
            {
                "id": design.id,
                "deck": design.deck,
                "kind": design.kind,
                "name": design.name,
                "copies": design.copies,
                "front": front,
                "back": back,
                "width_mm": size.width,
                "height_mm": size.height,
                "shape": size.shape,
                "width_px": sizes[front].width,
                "height_px": sizes[front].height,
            }
        )
    index = out_dir / INDEX
    document = {
        "dpi": dpi,
        "bleed_mm": margin,
        "lang": lang,
        "layout": profile.name,
        "colour_space": "sRGB",
        "cards": entries,
    }
    write_text_atomic(index, json.dumps(document, ensure_ascii=False, indent=2) + "\n")
    return PngExport(tuple(written), index, len(designs), sum(design.copies for design in designs))
