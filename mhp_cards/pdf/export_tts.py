"""``mhp export tts``: every deck of the game as Tabletop Simulator custom decks.

Each deck (raw cards, Fate cards, the Base and Warehouse, installation and electrolyser cards,
the Mission card, player aids, and one deck per kind of token) becomes deck sheets — at most
10 × 7 cells and 4096 × 4096 px, RGB — plus one back image, and an object of a saved-object
file ``mhp-tts.json``. A sheet holds at most 69 distinct faces (TTS keeps the 70th cell for the
hidden face of sheets without a hidden back), so the 72 Fate cards take two sheets, two keys
of ``CustomDeck``. A card's ``CardID`` is its sheet's key × 100 + its cell; copies repeat the
ID, so the deck holds as many cards as the box. Tokens show the same design on both sides:
their deck uses the face sheet as a sheet of unique backs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import ExportError
from mhp_cards.fileio import write_bytes_atomic, write_text_atomic
from mhp_cards.pdf.cards import DECKS, CardDesign, card_designs
from mhp_cards.pdf.layout import CardSize, load_profile, load_templates
from mhp_cards.pdf.pack_cards import PackSource, pack_designs, pack_sheets
from mhp_cards.pdf.places import token_diameter
from mhp_cards.pdf.raster import (
    MM_PER_INCH,
    FaceJob,
    grid,
    png_bytes,
    rasterise,
    sheet_page,
    sketch_faces,
)
from mhp_cards.pdf.style import SECTION_TITLES, t

__all__ = [
    "MAX_COLUMNS",
    "MAX_FACES",
    "MAX_PIXELS",
    "MAX_ROWS",
    "SAVED_OBJECT",
    "TtsDeck",
    "TtsExport",
    "export_tts",
]

MAX_COLUMNS: Final = 10
MAX_ROWS: Final = 7
#: Distinct faces per sheet: the 10 × 7 grid less the cell TTS may use for the hidden face.
MAX_FACES: Final = MAX_COLUMNS * MAX_ROWS - 1
MAX_PIXELS: Final = 4096
#: The fewest pixels on the short side of a card or token on a sheet.
MIN_CELL: Final = 256
SAVED_OBJECT: Final = "mhp-tts.json"
#: Width of a standard TTS card (a poker card, 2.5 × 3.5 in) in mm: custom cards are scaled to it.
_TTS_CARD: Final = (63.5, 88.9)
#: TTS card shapes (``CustomDeck.Type``).
_ROUNDED, _CIRCLE = 0, 4


@dataclass(frozen=True, slots=True)
class TtsDeck:
    """One deck written: its name, its sheets, its back image and how many cards it holds."""

    deck: str
    sheets: tuple[Path, ...]
    back: Path
    cards: int


@dataclass(frozen=True, slots=True)
class TtsExport:
    """What the export wrote: the decks and the saved-object file."""

    decks: tuple[TtsDeck, ...]
    saved_object: Path


def _scale(size: CardSize, columns: int, rows: int, dpi: float) -> float:
    """Pixels per mm, rounded down to whole pixels a card.

    ``dpi``, or more for small tokens, or less when the sheet would pass 4096 px.
    """
    # Small tokens get at least MIN_CELL pixels, or they blur when a player zooms in.
    wanted = min(
        max(dpi / MM_PER_INCH, MIN_CELL / min(size.width, size.height)),
        MAX_PIXELS / (columns * size.width),
        MAX_PIXELS / (rows * size.height),
    )
    return max(1, int(size.width * wanted)) / size.width


def _guid(*parts: object) -> str:
    """A stable six-hex-digit GUID (TTS style), the same for the same deck and card."""
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(x: float, size: CardSize) -> dict[str, float]:
    if size.shape == "circle":
        scale_x = scale_z = size.width / _TTS_CARD[0]
    else:
        scale_x, scale_z = size.width / _TTS_CARD[0], size.height / _TTS_CARD[1]
    return {
        "posX": x,
        "posY": 1.0,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0,  # face down
        "scaleX": round(scale_x, 4),
        "scaleY": 1.0,
        "scaleZ": round(scale_z, 4),
    }


def _url(path: Path, base_url: str | None) -> str:
    if base_url is None:
        return path.resolve().as_uri()
    return f"{base_url.rstrip('/')}/{path.name}"


def _deck_title(deck: str, designs: Sequence[CardDesign], lang: str) -> str:
    if deck in SECTION_TITLES:
        return SECTION_TITLES[deck][lang]
    components_titles = {
        "coins": t("coin", lang),
        "chemists": t("chemist_tokens", lang).format(per=designs[0].copies, colours=len(designs)),
        "combines": t("combines", lang),
    }
    return components_titles.get(deck, ", ".join(design.name for design in designs))


def _deck_object(
    deck: str,
    designs: Sequence[CardDesign],
    custom: dict[str, dict[str, Any]],
    first_key: int,
    size: CardSize,
    x: float,
    lang: str,
    name: str | None = None,
    game: str = "МАРСХИМПРОМ",
) -> dict[str, Any]:
    transform = _transform(x, size)
    cards = []
    for index, design in enumerate(designs):
        key = first_key + index // MAX_FACES
        card_id = key * 100 + index % MAX_FACES
        for copy in range(design.copies):
            cards.append(
                {
                    "Name": "Card",
                    "Transform": transform,
                    "Nickname": design.name,
                    "Description": design.id,
                    "CardID": card_id,
                    "CustomDeck": {str(key): custom[str(key)]},
                    "Hands": True,
                    "SidewaysCard": size.width > size.height,
                    "GUID": _guid(deck, design.id, copy),
                }
            )
    common = {
        "Transform": transform,
        "Nickname": name or _deck_title(deck, designs, lang),
        "Description": game,
        "GMNotes": deck,  # the deck's name in mhp, for scripts
        "ColorDiffuse": {"r": 0.713, "g": 0.713, "b": 0.713},
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "SidewaysCard": size.width > size.height,
        "CustomDeck": custom,
        "GUID": _guid(deck),
    }
    if len(cards) == 1:  # TTS has no deck of one card: a single custom card
        return {**cards[0], **common, "Name": "CardCustom", "Hands": True}
    return {
        "Name": "DeckCustom",
        **common,
        "Hands": False,
        "DeckIDs": [card["CardID"] for card in cards],
        "ContainedObjects": cards,
    }


def export_tts(
    catalog: Catalog | PackSource,
    out_dir: Path,
    *,
    base_url: str | None = None,
    dpi: float = 200,
    lang: str = "ru",
    layout: str = "a4",
    root: Path | None = None,
) -> TtsExport:
    """Write every deck's sheets and back and the saved object ``mhp-tts.json`` to ``out_dir``.

    ``catalog`` is the game, or a deck pack (each of its decks a Tabletop Simulator deck);
    ``root`` is the game catalog's directory, which its cards' pictures are relative to.

    Images are linked as ``file://`` URLs of ``out_dir``, or as ``base_url`` + file name
    when the images are uploaded there.
    """
    if not 30 <= dpi <= 600:
        raise ExportError(f"--dpi must be between 30 and 600, not {dpi:g}")
    if base_url is not None and "://" not in base_url:
        raise ExportError(
            f"--base-url must be a URL such as https://example.org/mhp/, not {base_url!r}"
        )
    profile = load_profile(layout)
    layout_path = Path(layout)
    templates = load_templates(profile, layout_path.parent if layout_path.suffix else None)
    title = "МАРСХИМПРОМ"
    order: tuple[str, ...] = DECKS
    titles: dict[str, str] = {}
    if isinstance(catalog, PackSource):
        designs = pack_designs(catalog, lang)
        profile, templates = pack_sheets(catalog.pack.decks, profile)
        title = catalog.pack.title.get(lang)
        order = tuple(deck.id for deck in catalog.pack.decks)
        titles = {deck.id: deck.name.get(lang) for deck in catalog.pack.decks}
    else:
        designs = card_designs(catalog, lang, root)
    objects: list[dict[str, Any]] = []
    decks: list[TtsDeck] = []
    key = 1
    x = 0.0
    for deck in order:
        members = [design for design in designs if design.deck == deck]
        if not members:
            continue
        size = profile.card_sizes[members[0].kind]
        chunks = [members[i : i + MAX_FACES] for i in range(0, len(members), MAX_FACES)]
        token = all(design.back is design.front for design in members)
        pages, scales, names, shapes = [], [], [], []
        for number, chunk in enumerate(chunks, start=1):
            columns, rows = grid(len(chunk), MAX_COLUMNS, MAX_ROWS)
            page = sheet_page(
                [design.front for design in chunk],
                size,
                columns,
                rows,
                templates,
                lang,
                token_diameter(profile),
            )
            pages.append(page)
            scales.append(_scale(size, columns, rows, dpi))
            names.append(f"{deck}-{number}.png")
            shapes.append((columns, rows))
        back_scale = min(scales)
        pages += sketch_faces([FaceJob(members[0].back, members[0].kind)], profile, templates, lang)
        scales.append(back_scale)
        images = rasterise(pages, scales)
        sheets = []
        custom: dict[str, dict[str, Any]] = {}
        for offset, (name, image, (columns, rows)) in enumerate(
            zip(names, images, shapes, strict=False)
        ):
            path = out_dir / name
            write_bytes_atomic(path, png_bytes(image, scales[offset] * MM_PER_INCH))
            sheets.append(path)
            custom[str(key + offset)] = {
                "FaceURL": _url(path, base_url),
                "BackURL": "",
                "NumWidth": columns,
                "NumHeight": rows,
                "BackIsHidden": True,
                "UniqueBack": token,
                "Type": _CIRCLE if size.shape == "circle" else _ROUNDED,
            }
        back_path = out_dir / f"{deck}-back.png"
        write_bytes_atomic(back_path, png_bytes(images[-1], back_scale * MM_PER_INCH))
        for sheet_key, sheet in zip(custom, sheets, strict=True):
            # A token's back is its face: the face sheet doubles as the sheet of unique backs.
            custom[sheet_key]["BackURL"] = _url(sheet if token else back_path, base_url)
        objects.append(
            _deck_object(deck, members, custom, key, size, x, lang, titles.get(deck), title)
        )
        decks.append(
            TtsDeck(deck, tuple(sheets), back_path, sum(design.copies for design in members))
        )
        key += len(chunks)
        x += size.width / _TTS_CARD[0] * 2.6 + 0.5
    saved = {
        "SaveName": title,
        "GameMode": "",
        "Date": "",
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {},
        "VersionNumber": "",
    }
    path = out_dir / SAVED_OBJECT
    write_text_atomic(path, json.dumps(saved, ensure_ascii=False, indent=2) + "\n")
    # TTS shows a PNG of the saved object's name as its thumbnail in Objects → Saved Objects.
    write_bytes_atomic(path.with_suffix(".png"), decks[0].back.read_bytes())
    return TtsExport(tuple(decks), path)
