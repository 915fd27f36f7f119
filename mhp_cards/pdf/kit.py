"""The print-and-play kit: every card and component of the game, imposed on double-sided sheets.

:func:`plan_kit` lays the kit out as sketches (no PDF yet): a cover with the contents and a
checklist, a calibration page for the printer's front/back offset, then each kind of card on
sheets whose back pages mirror the fronts, the tokens, the player aids and an assembly guide per
installation. :func:`build_kit` renders the sketches and writes one combined PDF and one PDF per
section, each atomically. Problems found while laying out — text that does not fit, a glyph
the font lacks — are collected for the whole kit and reported together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.decks.models import DeckPack
from mhp_cards.errors import KitError
from mhp_cards.fileio import write_files_atomic
from mhp_cards.pdf.cover import CoverSection, plan_cover
from mhp_cards.pdf.impose import Slot, moved, run_into_bleed
from mhp_cards.pdf.ink import InkMode, save_ink
from mhp_cards.pdf.kit_sections import (
    FATE_DECK,
    aids_section,
    calibration_section,
    cutting_section,
    deck_section,
    extra_deck_section,
    fate_section,
    field_section,
    guides_section,
    mission_section,
    raw_section,
    reactors_section,
    rules_section,
    tokens_section,
)
from mhp_cards.pdf.kit_sheets import (
    Item,
    KitContext,
    Section,
    Sheets,
    card_sheets,
    with_blank_backs,
)
from mhp_cards.pdf.layout import Offset, SheetProfile, Templates, load_profile, load_templates
from mhp_cards.pdf.manifest import MANIFEST_FILE, build_manifest
from mhp_cards.pdf.pack_cards import PackSource, pack_sheets
from mhp_cards.pdf.pdfx import IccProfile, find_icc, to_pdfx
from mhp_cards.pdf.render import ColourMode, render_pdf
from mhp_cards.pdf.sketch import PageSketch

__all__ = [
    "SECTIONS",
    "Item",
    "KitError",
    "KitFile",
    "KitResult",
    "Section",
    "build_deck_kit",
    "build_kit",
    "kit_documents",
    "plan_cards",
    "plan_decks",
    "plan_kit",
    "with_back_offset",
]

SECTIONS: Final = (
    "cover",
    "rules",
    "calibration",
    "cutting",
    "raw",
    "fate",
    "field",
    "reactors",
    "mission",
    "tokens",
    "aids",
    "guides",
)


@dataclass(frozen=True, slots=True)
class KitFile:
    """A PDF written by the build."""

    path: Path
    section: str
    pages: int


@dataclass(frozen=True, slots=True)
class KitResult:
    """What a build wrote."""

    files: tuple[KitFile, ...]
    pieces: int
    manifest: Path | None = None
    """``mhp-kit.manifest.json``, when the build wrote the combined kit."""


def _cover(ctx: KitContext, sections: Sequence[Section]) -> Section:
    """The cover: how to print and on what paper, then a checklist of what to cut (its back)."""
    section = Section("cover")
    listed = []
    page_number = 1
    for other in sections:
        pages = len(with_blank_backs(other))
        listed.append(
            CoverSection(other.name, pages, page_number, other.pieces, tuple(other.contents))
        )
        page_number += pages
    section.pages = plan_cover(listed, ctx.profile, ctx.lang, ctx.problems)
    if ctx.profile.bleed > 0:
        section.pages = [_with_page_bleed(page, ctx.profile.bleed) for page in section.pages]
    section.pieces = 1
    return section


def _with_page_bleed(page: PageSketch, bleed: float) -> PageSketch:
    """A page trimmed by a print shop: the sheet grown by ``bleed`` on every side.

    The page becomes the TrimBox, and whatever reaches its edge (the cover's band) runs on into
    the bleed.
    """
    slot = Slot(bleed, bleed, page.width, page.height, 0, 0)
    ops = run_into_bleed(moved(page.ops, bleed, bleed), slot, bleed)
    grown = PageSketch(page.width + 2 * bleed, page.height + 2 * bleed, page.label, page.side, ops)
    grown.trim, grown.bleed = (bleed, bleed, page.width, page.height), bleed
    return grown


def plan_kit(
    catalog: Catalog,
    profile: SheetProfile,
    templates: Templates,
    lang: str = "ru",
    only: Iterable[str] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    ink: InkMode = "full",
    extra: PackSource | None = None,
    art_root: Path | None = None,
) -> list[Section]:
    """Lay out the kit as sketches, section by section; KitError lists every problem.

    ``extra``: the catalog's own decks (its ``decks.yaml``), each a section after the game's
    (``only`` may name them); a deck called ``fate`` prints the Fate cards' fronts, on the back
    of the field tiles. ``extra`` in :func:`build_kit` is the same. ``art_root``: the catalog's
    directory, which its cards' pictures are relative to (no pictures without it).

    With ``ink="save"`` the cards' floods are light tints (:mod:`mhp_cards.pdf.ink`), face by
    face, and so are the pages that are read (cover, rulebook, calibration, guides).
    """
    wanted = list(SECTIONS) if only is None else [name for name in SECTIONS if name in set(only)]
    decks = [] if extra is None else [d for d in extra.pack.decks if d.id != FATE_DECK]
    if only is not None:
        decks = [deck for deck in decks if deck.id in set(only)]
    if extra is not None:
        profile, faces = pack_sheets(extra.pack.decks, profile)
        templates = Templates(templates={**templates.templates, **faces.templates})
    ctx = KitContext(profile, templates, lang, ink, catalog=catalog, extra=extra, art_root=art_root)
    builders: dict[str, Callable[[KitContext], Section]] = {
        "rules": rules_section,
        "calibration": calibration_section,
        "cutting": cutting_section,
        "raw": raw_section,
        "fate": fate_section,
        "field": field_section,
        "reactors": reactors_section,
        "mission": mission_section,
        "tokens": tokens_section,
        "aids": aids_section,
        "guides": guides_section,
    }
    for deck in decks:
        builders[deck.id] = partial(extra_deck_section, deck=deck)
    sections: list[Section] = []
    steps = [name for name in wanted if name != "cover"] + [deck.id for deck in decks]
    for index, name in enumerate(steps, start=1):
        sections.append(builders[name](ctx))
        if progress is not None:
            progress(name, index, len(steps) + ("cover" in wanted))
    if "cover" in wanted:
        placeholder = Section("cover", [PageSketch(0, 0, ""), PageSketch(0, 0, "")], pieces=1)
        sections.insert(0, _cover(ctx, [placeholder, *sections]))
        if progress is not None:
            progress("cover", len(steps) + 1, len(steps) + 1)
    if ctx.problems:
        raise KitError(ctx.problems)
    if ink == "save":
        for section in sections:
            if section.name in _READ:
                section.pages = save_ink(section.pages)
    return sections


#: The sections read, not cut: their pages are tinted whole in the ink-saving kit.
_READ: Final = frozenset({"cover", "rules", "calibration", "cutting", "guides"})


def plan_cards(
    catalog: Catalog,
    profile: SheetProfile,
    templates: Templates,
    lang: str,
    cards: Sequence[tuple[str, Item]],
    name: str = "cards",
) -> Section:
    """Impose chosen cards as the kit does: (card kind, item) pairs, kind by kind, with backs.

    Cards of one kind share sheets (a front page, then its mirrored back page); KitError lists
    every problem.
    """
    ctx = KitContext(profile, templates, lang, catalog=catalog)
    section = Section(name)
    for kind in dict.fromkeys(kind for kind, _ in cards):
        card_sheets(ctx, section, kind, [item for k, item in cards if k == kind])
    if ctx.problems:
        raise KitError(ctx.problems)
    return section


def with_back_offset(profile: SheetProfile, offset: tuple[float, float] | None) -> SheetProfile:
    """``profile`` with the printer's measured back offset (mm, x right, y down) replacing its own.

    What the calibration sheet reads, entered as ``mhp build --back-offset X,Y``: no profile
    file is edited.
    """
    if offset is None:
        return profile
    duplex = profile.duplex.model_copy(update={"back_offset": Offset(x=offset[0], y=offset[1])})
    return profile.model_copy(update={"duplex": duplex})


def build_kit(
    catalog: Catalog,
    layout: str = "a4",
    lang: str = "ru",
    only: Iterable[str] | None = None,
    out_dir: Path = Path("output"),
    progress: Callable[[str, int, int], None] | None = None,
    colour: ColourMode = "rgb",
    back_offset: tuple[float, float] | None = None,
    ink: InkMode = "full",
    pdfx: bool = False,
    icc: Path | None = None,
    extra: PackSource | None = None,
    art_root: Path | None = None,
) -> KitResult:
    """Write the kit: ``mhp-kit.pdf``, one ``mhp-<section>.pdf`` per section, and the manifest.

    ``mhp-kit.manifest.json`` (:mod:`mhp_cards.pdf.manifest`) says where every page, piece and
    token place is in ``mhp-kit.pdf``. With ``colour="cmyk"`` every colour is written as
    DeviceCMYK. ``back_offset`` (mm) replaces the profile's duplex offset (the calibration
    reading); ``ink="save"`` prints light backs and no floods (:func:`save_ink`). ``pdfx``
    writes every PDF as PDF/X-4 in CMYK with ``icc`` (else a free CMYK profile installed on the
    system, :func:`mhp_cards.pdf.pdfx.find_icc`) as its output intent. The set is
    replaced all together: a build that fails half-way leaves every previous file as it was,
    and no temporary file.
    """
    profile = with_back_offset(load_profile(layout), back_offset)
    output = find_icc(icc) if pdfx else None  # before any work: a missing profile stops it
    if pdfx:
        colour = "cmyk"
    layout_path = Path(layout)
    templates = load_templates(profile, layout_path.parent if layout_path.suffix else None)
    sections = plan_kit(catalog, profile, templates, lang, only, progress, ink, extra, art_root)
    subject = "МАРСХИМПРОМ print-and-play kit" if lang == "en" else "МАРСХИМПРОМ: набор для печати"
    return _write_kit(sections, out_dir, "МАРСХИМПРОМ", subject, lang, colour, output, profile)


def _write_kit(
    sections: Sequence[Section],
    out_dir: Path,
    title: str,
    subject: str,
    lang: str,
    colour: ColourMode,
    output: IccProfile | None,
    profile: SheetProfile,
) -> KitResult:
    """Render the combined kit, one PDF per section and the manifest; write them all at once."""
    files, rendered = kit_documents(
        sections, out_dir, title, subject, lang, colour, profile, output
    )
    # All or nothing: every PDF is rendered before the first one replaces its previous version.
    write_files_atomic(rendered)
    manifest_path = out_dir / MANIFEST_FILE
    return KitResult(tuple(files), sum(section.pieces for section in sections), manifest_path)


def kit_documents(
    sections: Sequence[Section],
    out_dir: Path,
    title: str,
    subject: str,
    lang: str,
    colour: ColourMode,
    profile: SheetProfile,
    output: IccProfile | None = None,
    names: Iterable[str] | None = None,
) -> tuple[list[KitFile], dict[Path, bytes]]:
    """The kit's files rendered, not yet written: the combined kit, its manifest, the sections.

    ``mhp-kit.pdf`` with ``mhp-kit.manifest.json``, and ``mhp-<section>.pdf`` per section.
    ``names`` renders only those documents (``kit`` for the combined kit and its manifest, a
    section's name for its own PDF): a rebuild renders only what changed.
    """
    wanted = None if names is None else set(names)
    files = []
    combined = [page for section in sections for page in with_blank_backs(section)]
    documents = [("kit", combined)] + [(section.name, section.pages) for section in sections]
    rendered: dict[Path, bytes] = {}
    for name, pages in documents:
        if wanted is not None and name not in wanted:
            continue
        document_title = f"{title} — {name}"
        path = out_dir / f"mhp-{name}.pdf"
        data = render_pdf(pages, document_title, subject, lang, colour)
        rendered[path] = data if output is None else to_pdfx(data, document_title, output)
        files.append(KitFile(path, name, len(pages)))
    if wanted is None or "kit" in wanted:
        manifest = build_manifest(
            [(section.name, with_blank_backs(section)) for section in sections],
            profile.name,
            colour,
        )
        rendered[out_dir / MANIFEST_FILE] = manifest.text().encode("utf-8")
    return files, rendered


def plan_decks(
    pack: DeckPack,
    profile: SheetProfile,
    lang: str = "ru",
    only: Iterable[str] | None = None,
    ink: InkMode = "full",
    root: Path | None = None,
) -> list[Section]:
    """Lay out a deck pack: one section per deck, fronts and mirrored backs, as the kit does.

    Each deck's card size and face templates come from the pack; ``only`` keeps the decks
    named; ``root`` is the pack's directory, which the cards' pictures are relative to.
    KitError lists every text that does not fit and every glyph the font lacks.
    """
    wanted = None if only is None else set(only)
    decks = [deck for deck in pack.decks if wanted is None or deck.id in wanted]
    with_decks, faces = pack_sheets(decks, profile)
    ctx = Sheets(with_decks, faces, lang, ink)
    sections = [deck_section(ctx, deck, root) for deck in decks]
    if ctx.problems:
        raise KitError(ctx.problems)
    return sections


def build_deck_kit(
    pack: DeckPack,
    layout: str = "a4",
    lang: str = "ru",
    only: Iterable[str] | None = None,
    out_dir: Path = Path("output"),
    colour: ColourMode = "rgb",
    back_offset: tuple[float, float] | None = None,
    ink: InkMode = "full",
    root: Path | None = None,
) -> KitResult:
    """Write a deck pack's kit: ``mhp-kit.pdf``, ``mhp-<deck>.pdf`` per deck, the manifest.

    The same sheets, imposition, crop marks, bleed and atomic writing as the game's kit;
    ``root`` is the pack's directory (its cards' pictures are relative to it).
    """
    profile = with_back_offset(load_profile(layout), back_offset)
    sections = plan_decks(pack, profile, lang, only, ink, root)
    title = pack.title.get(lang)
    subject = f"{title}: print-and-play" if lang == "en" else f"{title}: набор для печати"
    return _write_kit(sections, out_dir, title, subject, lang, colour, None, profile)
