"""The print-and-play kit: every card and component of the game, imposed on double-sided sheets.

:func:`plan_kit` lays the kit out as sketches (no PDF yet): a cover with the contents and a
checklist, a calibration page for the printer's front/back offset, then each kind of card on
sheets whose back pages mirror the fronts, the tokens, the player aids and an assembly guide per
installation. :func:`build_kit` renders the sketches and writes one combined PDF and one PDF per
section, each atomically. Problems found while laying out — text that does not fit, a glyph
the font lacks — are collected for the whole kit and reported together.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple

from mhp_cards.catalog.models import Catalog
from mhp_cards.decks.models import Deck, DeckPack
from mhp_cards.errors import KitError
from mhp_cards.fileio import write_files_atomic
from mhp_cards.pdf import faces, mission_face, places, raw_face, reactor_face, token_faces
from mhp_cards.pdf.aids import AID_SIDES, aid_side, common_size, side_groups
from mhp_cards.pdf.cover import CoverSection, plan_cover
from mhp_cards.pdf.cutting import plan_cutting
from mhp_cards.pdf.deck_faces import deck_side
from mhp_cards.pdf.diagrams import draw_installation, installation_inputs
from mhp_cards.pdf.die import die_net
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.impose import (
    Imposition,
    Slot,
    crop_marks,
    impose,
    moved,
    pack,
    run_into_bleed,
)
from mhp_cards.pdf.ink import InkMode, save_ink, save_ink_ops
from mhp_cards.pdf.layout import (
    Offset,
    Region,
    SheetProfile,
    Templates,
    load_profile,
    load_templates,
)
from mhp_cards.pdf.manifest import MANIFEST_FILE, build_manifest
from mhp_cards.pdf.pack_cards import PackSource, pack_sheets
from mhp_cards.pdf.pdfx import IccProfile, find_icc, to_pdfx
from mhp_cards.pdf.render import ColourMode, render_pdf
from mhp_cards.pdf.rulebook import plan_rulebook
from mhp_cards.pdf.safezone import CARD_KINDS, SAFE_ZONE, intrusions
from mhp_cards.pdf.sketch import Mark, Op, PageSketch, Sketch
from mhp_cards.pdf.style import (
    CUT,
    CUT_CONTOUR,
    INK,
    RED,
    t,
)
from mhp_cards.pdf.typeset import (
    Run,
    TypesetError,
    fit_lines,
    formula_runs,
    place_line,
    reaction_runs,
    text_runs,
)

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

#: The ID of a catalog's own deck that gives the Fate cards their fronts.
FATE_DECK: Final = "fate"

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


@dataclass(slots=True)
class Section:
    """One part of the kit: its pages, and how many pieces it holds."""

    name: str
    pages: list[PageSketch] = field(default_factory=list)
    pieces: int = 0
    duplex: bool = True
    contents: list[tuple[str, str | None, int]] = field(default_factory=list)
    """What to cut from it, for the cover's checklist: (what, its formula or None, how many)."""


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


Draw = Callable[[Face], None]


class Item(NamedTuple):
    """A card to impose: its two faces, and what the kit's manifest calls it."""

    front_template: str
    front: Draw
    back_template: str
    back: Draw | None
    piece: str = ""
    """The piece's ID in the manifest (``water-ice#3``, ``4А``); default: kind and number."""
    piece_kind: str = ""
    """The manifest's kind (``electrolyser``, ``warehouse``); default: the card size's name."""


@dataclass(slots=True)
class _Sheets:
    """What imposing cards needs: the sheet, the face templates, the language, the problems."""

    profile: SheetProfile
    templates: Templates
    lang: str
    ink: InkMode = "full"
    problems: list[TypesetError] = field(default_factory=list)
    #: Each distinct face drawn once at (0, 0): its operations, by what draws it.
    faces: dict[Hashable, tuple[Op, ...]] = field(default_factory=dict)

    def face(self, sketch: Sketch, template: str, kind: str) -> Face:
        return Face(
            sketch,
            self.templates[template],
            self.profile.card_sizes[kind],
            self.lang,
            self.reach,
            places.token_diameter(self.profile),
            self.profile.where("card_sizes", "chemist"),
        )

    @property
    def reach(self) -> float:
        """How far art runs past the cut: the bleed, or the spill.

        The ink-saving kit has no spill: its light tints show no edge.
        """
        return self.profile.bleed if self.ink == "save" else self.profile.reach

    def draw(self, draw: Draw, sketch: Sketch, template: str, kind: str) -> None:
        """Draw one face, keeping any typesetting problem for the final report."""
        try:
            draw(self.face(sketch, template, kind))
        except TypesetError as problem:
            self.problems.append(problem)

    def typeset(self, function: Callable[..., object], *args: Any) -> None:
        """Run a typesetting call, keeping any problem for the final report."""
        try:
            function(*args)
        except TypesetError as problem:
            self.problems.append(problem)


@dataclass(slots=True)
class _Context(_Sheets):
    """The game's kit: the sheets and the catalog its sections draw."""

    catalog: Catalog = field(kw_only=True)
    #: The catalog's own decks (its ``decks.yaml``), printed after the game's sections; a deck
    #: called ``fate`` gives the Fate cards their fronts.
    extra: PackSource | None = field(default=None, kw_only=True)
    #: The catalog's directory, which its cards' pictures (``art``) are relative to.
    art_root: Path | None = field(default=None, kw_only=True)


def _safe_zone_problems(
    ops: Sequence[Op], width: float, height: float, piece: str
) -> list[TypesetError]:
    """A problem for each text of a card face within the safe zone of its cut line."""
    return [
        TypesetError(
            piece,
            "safe zone",
            f"{found.text!r} is {found.distance:.2f} mm from the {found.edge} edge; every text "
            f"keeps {SAFE_ZONE:g} mm from the cut line (move its region in the template)",
        )
        for found in intrusions(ops, width, height)
    ]


def _cut_outline(sketch: Sketch, profile: SheetProfile, kind: str, contour: bool = False) -> None:
    """The cut line of a card: a grey hairline when the profile asks for cut lines.

    With ``contour`` (token sheets: round and small pieces no guillotine cuts) the outline is
    drawn even without cut lines, as a hairline in the ``CutContour`` spot colour that cutting
    plotters follow and presses do not print.
    """
    if kind == "die":  # the die's net is its own cut contour
        return
    if profile.cut_lines:
        colour, width = CUT, 0.15
    elif contour:
        colour, width = CUT_CONTOUR, 0.1
    else:
        return
    size = profile.card_sizes[kind]
    if size.shape == "circle":
        centre = size.width / 2
        sketch.circle(centre, centre, centre, stroke=colour, line_width=width)
    else:
        radius = size.corner_radius
        sketch.rect(0, 0, size.width, size.height, stroke=colour, line_width=width, radius=radius)


def _marks(
    sketch: Sketch, profile: SheetProfile, imposition: Imposition, used: int, back: bool
) -> None:
    for x1, y1, x2, y2 in crop_marks(profile, imposition, used, back=back):
        sketch.line(x1, y1, x2, y2, stroke=INK, line_width=0.2)


def _piece(
    ctx: _Sheets,
    sketch: Sketch,
    slot: Slot,
    draw: Draw,
    template: str,
    kind: str,
    piece: str,
    piece_kind: str,
) -> None:
    """Draw one face in its slot, run it into the bleed, and mark it for the manifest."""
    page = sketch.page
    start = len(page.ops)
    size = ctx.profile.card_sizes[kind]
    key = _face_key(draw, template, kind)
    ops = ctx.faces.get(key)
    if ops is None:
        # Drawn once (its typesetting problems reported once), then placed in every slot.
        scratch = Sketch()
        scratch.new_page(size.width, size.height, "face")
        ctx.draw(draw, scratch, template, kind)
        drawn = scratch.page.ops if ctx.ink == "full" else save_ink_ops(scratch.page.ops)
        ops = ctx.faces[key] = tuple(drawn)
        if kind in CARD_KINDS:
            ctx.problems += _safe_zone_problems(ops, size.width, size.height, piece)
    page.ops += moved(ops, slot.x, slot.y)
    page.ops[start:] = run_into_bleed(
        page.ops[start:], slot, ctx.reach, circle=size.shape == "circle"
    )
    x, y, width, height = slot.x, slot.y, slot.width, slot.height
    sketch.mark("piece", x, y, width, height, id=piece, what=piece_kind, shape=size.shape)


#: Keyword arguments of a face that only name it in a problem report, not change what it shows
#: (``tests/pdf/test_kit.py`` checks that the faces stay so): faces differing only in these
#: are drawn once. The 72 raw fronts are then 27 faces.
_LABEL_ONLY: Final[dict[Callable[..., None], frozenset[str]]] = {
    raw_face.raw_front: frozenset({"copy"}),
}


def _identity(value: object) -> Hashable:
    """A key part for one argument of a face: a plain value itself, any other object its id.

    Catalog objects outlive the plan, so an id names one object for as long as the cache lives.
    """
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return ("object", id(value))


def _face_key(draw: Draw, template: str, kind: str) -> Hashable:
    """What makes a face: its drawing function with its arguments, its template and size."""
    if isinstance(draw, partial):
        ignored = _LABEL_ONLY.get(draw.func, frozenset())
        keywords = tuple(
            (name, _identity(value))
            for name, value in sorted(draw.keywords.items())
            if name not in ignored
        )
        arguments = tuple(_identity(value) for value in draw.args)
        return (draw.func, arguments, keywords, template, kind)
    return (draw, template, kind)


def _card_sheets(ctx: _Sheets, section: Section, kind: str, items: Sequence[Item]) -> None:
    """Impose cards of one size: a front page, then the mirrored back page, sheet by sheet."""
    profile = ctx.profile
    imposition = impose(profile, kind)
    numbered = [
        (item.piece or f"{kind}#{index}", item.piece_kind or kind, item)
        for index, item in enumerate(items, start=1)
    ]
    for start in range(0, len(items), imposition.per_page):
        chunk = numbered[start : start + imposition.per_page]
        sheet = start // imposition.per_page + 1
        sketch = Sketch()
        label = f"{section.name}-{sheet}"
        front = sketch.new_page(imposition.page_width, imposition.page_height, label, "front")
        front.trim, front.bleed = imposition.trim_box, profile.bleed
        for slot, (piece, piece_kind, item) in zip(imposition.fronts, chunk, strict=False):
            _piece(ctx, sketch, slot, item.front, item.front_template, kind, piece, piece_kind)
            with sketch.at(slot.x, slot.y):
                _cut_outline(sketch, profile, kind)
        _marks(sketch, profile, imposition, len(chunk), back=False)
        section.pages.append(front)
        if all(item.back is None for _, _, item in chunk):
            continue
        back_page = sketch.new_page(imposition.page_width, imposition.page_height, label, "back")
        back_page.trim, back_page.bleed = _mirrored_trim(imposition), profile.bleed
        for slot, (piece, piece_kind, item) in zip(imposition.backs, chunk, strict=False):
            if item.back is not None:
                _piece(ctx, sketch, slot, item.back, item.back_template, kind, piece, piece_kind)
        _marks(sketch, profile, imposition, len(chunk), back=True)
        section.pages.append(back_page)
    section.pieces += len(items)


def _mirrored_trim(imposition: Imposition) -> tuple[float, float, float, float]:
    """The TrimBox of a back page: around the backs of a full sheet, where they are printed."""
    return _bounds(imposition.backs)


# Sections ----------------------------------------------------------------------------------------


def _raw(ctx: _Context) -> Section:
    section = Section("raw")
    items: list[Item] = []
    for raw in ctx.catalog.raw_materials:
        for copy in range(1, raw.copies + 1):
            front = partial(
                raw_face.raw_front, raw=raw, copy=copy, catalog=ctx.catalog, root=ctx.art_root
            )
            items.append(Item("raw", front, "raw-back", raw_face.raw_back, f"{raw.id}#{copy}"))
        section.contents.append((raw.name.get(ctx.lang), raw.formula, raw.copies))
    _card_sheets(ctx, section, "raw", items)
    return section


def _fate(ctx: _Context) -> Section:
    """The Fate cards as field tiles: the surface of Mars, printed on one side only.

    No rule of levels 1–3 turns a Fate card over, and the default catalog defines no fronts, so
    the kit prints no placeholder fronts on card stock: each tile is the Mars surface (the face
    the field shows), and the other side of the sheet stays blank. A catalog whose
    ``decks.yaml`` has a deck called ``fate`` gives the cards their fronts: they are printed
    double-sided, the front from the deck and the Mars surface on the back.
    """
    count = ctx.catalog.components.fate_cards.count
    deck = None if ctx.extra is None else ctx.extra.pack.deck(FATE_DECK)
    if deck is not None:
        section = Section("fate")
        root = ctx.extra.root if ctx.extra is not None else None
        # The deck's fronts over the field's face: the Mars surface is the Fate cards' back.
        fronts = _deck_items(deck, root, back=("fate-back", faces.mars_surface), piece_kind="fate")
        _card_sheets(ctx, section, "fate", fronts)
        section.contents.append((t("fate_item", ctx.lang), None, len(fronts)))
        return section
    section = Section("fate", duplex=False)
    items = [
        Item("fate-back", faces.mars_surface, "", None, f"fate-{n}", "fate")
        for n in range(1, count + 1)
    ]
    _card_sheets(ctx, section, "fate", items)
    for page in section.pages:
        page.side = "single"  # the kit gives each sheet a blank back (``_with_blank_backs``)
    section.contents.append((t("fate_item", ctx.lang), None, count))
    return section


def _extra_deck(ctx: _Context, deck: Deck) -> Section:
    """One of the catalog's own decks, as a deck pack's deck is printed."""
    assert ctx.extra is not None
    return _deck_section(ctx, deck, ctx.extra.root)


def _deck_section(ctx: _Sheets, deck: Deck, root: Path | None) -> Section:
    """A deck from data as a section: its cards' sheets, and what to cut from them."""
    section = Section(deck.id)
    _card_sheets(ctx, section, f"deck:{deck.id}", _deck_items(deck, root))
    for card in deck.cards:
        section.contents.append((card.shown("name", ctx.lang) or card.id, None, card.copies))
    return section


def _deck_items(
    deck: Deck,
    root: Path | None,
    back: tuple[str, Draw] | None = None,
    piece_kind: str = "card",
) -> list[Item]:
    """Every printed card of a deck, its copies counted, with the deck's shared back.

    ``back``: another back (its template and drawing) than the deck's own.
    """
    kind = f"deck:{deck.id}"
    if back is None:
        own = partial(deck_side, side=deck.back, card=None, label=f"{deck.id} back", root=root)
        back = (f"{kind}-back", own)
    return [
        Item(
            kind,
            partial(deck_side, side=deck.front, card=card, label=f"{deck.id}/{card.id}", root=root),
            back[0],
            back[1],
            f"{deck.id}/{card.id}#{copy}",
            piece_kind,
        )
        for card in deck.cards
        for copy in range(1, card.copies + 1)
    ]


def _field(ctx: _Context) -> Section:
    section = Section("field")
    items: list[Item] = [
        Item("base", faces.base_card, "fate-back", faces.mars_surface, "base", "base"),
        Item(
            "warehouse",
            partial(faces.base_card, warehouse=True),
            "fate-back",
            faces.mars_surface,
            "warehouse",
            "warehouse",
        ),
    ]
    _card_sheets(ctx, section, "base", items)
    section.contents += [
        (t("base_item", ctx.lang), None, 1),
        (t("warehouse_item", ctx.lang), None, 1),
    ]
    return section


def _reactors(ctx: _Context) -> Section:
    section = Section("reactors")
    catalog = ctx.catalog
    cards = [card for installation in catalog.installations for card in installation.cards]
    cards += list(catalog.electrolysers)
    items: list[Item] = [
        Item(
            "reactor",
            partial(reactor_face.reactor_front, catalog=catalog, card=card, root=ctx.art_root),
            "reactor-back",
            reactor_face.reactor_back,
            card.id,
            "electrolyser" if card.group == "electrolyser" else "reactor",
        )
        for card in cards
    ]
    _card_sheets(ctx, section, "reactor", items)
    for installation in catalog.installations:
        name = f"{installation.number}. {installation.name.get(ctx.lang)}"
        section.contents.append((name, None, len(installation.cards)))
    section.contents.append((t("electrolyser_item", ctx.lang), None, len(catalog.electrolysers)))
    return section


def _mission(ctx: _Context) -> Section:
    section = Section("mission")
    items: list[Item] = [
        Item(
            "mission",
            partial(mission_face.mission_front, missions=ctx.catalog.missions, root=ctx.art_root),
            "mission-back",
            partial(faces.plain_back, key="missions", card="Mission card back"),
            "mission",
        ),
    ]
    _card_sheets(ctx, section, "mission", items)
    section.contents.append((t("missions_item", ctx.lang), None, 1))
    return section


def _tokens(ctx: _Context) -> Section:
    """Coins, chemist tokens, combines and upgrades, shelf-packed; the same design both sides."""
    section = Section("tokens")
    components = ctx.catalog.components
    #: (card size, manifest kind, piece ID, drawing), in the order of the sheets.
    draws: list[tuple[str, str, str, Draw]] = [
        ("coin", "coin", f"coin#{n}", token_faces.coin)
        for n in range(1, components.coins.count + 1)
    ]
    for colour in components.colours:
        chemist = partial(token_faces.chemist, colour=colour)
        draws += [
            ("chemist", "chemist", f"chemist-{colour.id}#{n}", chemist)
            for n in range(1, components.chemist_tokens.per_player + 1)
        ]
    for colour in components.colours[: components.combines.count]:
        draws.append(
            (
                "combine",
                "combine",
                f"combine-{colour.id}",
                partial(token_faces.combine, colour=colour),
            )
        )
    for upgrade in components.upgrades:
        token = partial(
            token_faces.upgrade,
            upgrade_id=upgrade.id,
            name=upgrade.name.get(ctx.lang),
            price=upgrade.price,
        )
        kind = _UPGRADE_KINDS.get(upgrade.id, upgrade.id)
        draws += [
            ("upgrade", kind, f"{upgrade.id}#{n}", token) for n in range(1, upgrade.count + 1)
        ]
    draws.append(("die", "die", "die#1", die_net))
    counts: dict[str, int] = {}
    for size_kind, *_ in draws:
        counts[size_kind] = counts.get(size_kind, 0) + 1
    width, height = ctx.profile.page.dimensions
    queue = list(draws)
    for number, page in enumerate(pack(ctx.profile, list(counts.items())), start=1):
        chunk, queue = queue[: len(page)], queue[len(page) :]
        sketch = Sketch()
        for side in ("front", "back"):
            sheet = sketch.new_page(width, height, f"tokens-{number}", side)
            slots = [front if side == "front" else back for _, front, back in page]
            sheet.trim, sheet.bleed = _bounds(slots), ctx.profile.bleed
            for slot, (kind, piece_kind, piece, draw) in zip(slots, chunk, strict=True):
                _piece(ctx, sketch, slot, draw, kind, kind, piece, piece_kind)
                if side == "front":
                    with sketch.at(slot.x, slot.y):
                        _cut_outline(sketch, ctx.profile, kind, contour=True)
            section.pages.append(sheet)
    section.pieces = len(draws)
    per_player = components.chemist_tokens.per_player
    section.contents += [
        (t("coin", ctx.lang), None, components.coins.count),
        (
            t("chemist_tokens", ctx.lang).format(per=per_player, colours=len(components.colours)),
            None,
            per_player * len(components.colours),
        ),
        (t("combines", ctx.lang), None, min(components.combines.count, len(components.colours))),
        *((u.name.get(ctx.lang), None, u.count) for u in components.upgrades),
        (t("die_item", ctx.lang), None, 1),
    ]
    return section


#: The manifest's kinds of the upgrade tokens, by their catalog IDs.
_UPGRADE_KINDS: Final = {"solar-battery": "battery", "armour": "armour"}


def _bounds(slots: Sequence[Slot]) -> tuple[float, float, float, float]:
    """(x, y, width, height) around the cut lines of ``slots``: a sheet's TrimBox."""
    left, top = min(s.x for s in slots), min(s.y for s in slots)
    right = max(s.x + s.width for s in slots)
    bottom = max(s.y + s.height for s in slots)
    return left, top, right - left, bottom - top


def _aids(ctx: _Context) -> Section:
    """One player aid per player colour, both sides used (levels 1 and 3; 2 and head to head)."""
    section = Section("aids")
    lang: Literal["ru", "en"] = "en" if ctx.lang == "en" else "ru"
    front, back = (side_groups(ctx.catalog, levels, lang) for levels in AID_SIDES)
    # One type size for both sides, as a printed aid has; a side too long to fit at all is
    # reported by its own face.
    size = common_size([front, back], ctx.templates["aid"].regions["body"])
    title = t("aid_back", lang)
    draw_front = partial(aid_side, title=title, groups=front, card="player aid front", size=size)
    draw_back = partial(aid_side, title=title, groups=back, card="player aid back", size=size)
    count = len(ctx.catalog.components.colours)
    items = [Item("aid", draw_front, "aid", draw_back, f"aid#{n}") for n in range(1, count + 1)]
    _card_sheets(ctx, section, "aid", items)
    section.contents.append((t("aid_item", lang), None, count))
    return section


def _rules(ctx: _Context) -> Section:
    """The rulebook (mhp-rules.pdf): read, not cut; printed double-sided like a booklet."""
    section = Section("rules")
    section.pages = plan_rulebook(ctx.catalog, ctx.profile, ctx.templates, ctx.lang, ctx.problems)
    section.pieces = 0
    section.contents.append(
        (t("rulebook_item", ctx.lang).format(pages=len(section.pages)), None, 1)
    )
    return section


def _page_region(
    x: float,
    y: float,
    width: float,
    height: float,
    size: float,
    *,
    align: Literal["left", "center", "right"] = "left",
    min_size: float = 6.0,
) -> Region:
    return Region.text_block(x, y, width, height, size, min_size=min_size, align=align)


def _guides(ctx: _Context) -> Section:
    """One page per installation: its cards assembled, drawn to scale, with the reactions.

    The guides are read at the table, never cut, so they are printed back to back (guide 1 on
    the front of a sheet, guide 2 on its back): half the paper, no blank pages, and nothing on
    a back has to line up with its front. An odd last guide gets a blank back.
    """
    section = Section("guides")
    profile = ctx.profile
    width, height = profile.page.dimensions
    m = profile.margins
    card = profile.card_sizes["reactor"].width
    usable_w = width - m.left - m.right

    for index, installation in enumerate(ctx.catalog.installations):
        sketch = Sketch()
        side: Literal["front", "back"] = "front" if index % 2 == 0 else "back"
        page = sketch.new_page(width, height, f"guide-{installation.number}", side)
        label = f"assembly guide {installation.number}"
        title = f"{installation.number}. {installation.name.get(ctx.lang)}"
        ctx.typeset(
            place_line,
            sketch,
            text_runs(title, bold=True),
            _page_region(m.left, m.top, usable_w, 10, 16),
            label,
            "title",
            INK,
        )
        ctx.typeset(
            place_line,
            sketch,
            reaction_runs(installation.parsed_reaction),
            _page_region(m.left, m.top + 11, usable_w, 8, 12),
            label,
            "reaction",
            INK,
        )
        top = m.top + 24
        # the note and up to four lines of inputs stay below the diagram
        room_h = height - top - m.bottom - 28
        diagram = draw_installation(
            sketch, ctx.catalog, installation.number, card, m.left, top, usable_w, room_h, ctx.draw
        )
        if diagram is not None:
            scale = diagram.scale
            ratio = f"1:{1 / scale:.2g}" if scale < 1 else "1:1"
            note = (
                # Russian writes the decimal comma: 1:2,3.
                f"Масштаб {ratio.replace('.', ',')}. Электролизёров: {diagram.electrolysers}."
                if ctx.lang == "ru"
                else f"Scale {ratio}. Electrolysers: {diagram.electrolysers}."
            )
            ctx.typeset(
                place_line,
                sketch,
                text_runs(note),
                _page_region(m.left, top + diagram.height + 3, usable_w, 6, 9),
                label,
                "note",
                INK,
            )
            below = top + diagram.height + 12
            ctx.typeset(
                fit_lines,
                sketch,
                _input_lines(ctx, installation.number),
                _page_region(m.left, below, usable_w, height - m.bottom - below, 10, min_size=8),
                label,
                "inputs",
                INK,
            )
        # cards drawn to a reduced scale: nobody puts a token on a guide, so it has no places
        page.ops = [
            op for op in page.ops if not (isinstance(op, Mark) and op.kind in ("place", "input"))
        ]
        section.pages.append(page)
        section.pieces += 1
        section.contents.append((title, None, 1))
    if len(section.pages) % 2:
        last = section.pages[-1]
        section.pages.append(PageSketch(width, height, f"{last.label}-blank", "back"))
    return section


#: Half the length of the calibration rulers, in mm: a printer's duplex error is a few mm.
_RULER: Final = 20


def _input_lines(ctx: _Context, number: int) -> list[list[Run]]:
    """Where each raw input of an installation comes from: raw cards, other installations."""
    ru = ctx.lang == "ru"
    lines = [text_runs("Откуда берётся сырьё" if ru else "Where the inputs come from", bold=True)]
    for found in installation_inputs(ctx.catalog, number, ctx.lang):
        parts = []
        if found.raw_cards:
            cards = ", ".join(f"«{name}» ({copies})" for name, copies in found.raw_cards)
            parts.append(("карточки сырья " if ru else "raw cards ") + cards)
        if found.made_by:
            makers = ", ".join(map(str, found.made_by))
            one = len(found.made_by) == 1
            if found.raw_cards and ru:
                made = "его производит и установка " if one else "его производят и установки "
            elif found.raw_cards:
                made = "also made by installation " if one else "also made by installations "
            elif ru:
                made = "только из установки " if one else "только из установок "
            else:
                made = "only from installation " if one else "only from installations "
            parts.append(made + makers)
        text = "; ".join(parts) if parts else ("нет в наборе" if ru else "not in the box")
        lines.append([Run("•  "), *formula_runs(found.substance), *text_runs(f" — {text}")])
    return lines


def _cutting(ctx: _Context) -> Section:
    """One page: in what order to cut, with what tools, what to glue (its back stays blank)."""
    section = Section("cutting", duplex=False)
    section.pages = plan_cutting(ctx.profile, ctx.lang, ctx.problems)
    return section


def _calibration(ctx: _Context) -> Section:
    """Front: crosses A, B, C at known places. Back: numbered rulers where they should show.

    The rulers run from −20 to +20 mm, numbered every 5 mm, plus to the right and down as one
    looks at the back: the reading is what to add to ``duplex.back_offset``, sign included.
    """
    section = Section("calibration")
    profile = ctx.profile
    width, height = profile.page.dimensions
    m = profile.margins
    usable = width - m.left - m.right
    points = [
        ("A", width / 2, height / 2),
        ("B", width / 4, height / 4 + 12),
        ("C", 3 * width / 4, 3 * height / 4),
    ]
    flip = t(f"flip_{profile.duplex.mode}", ctx.lang)
    sketch = Sketch()
    front = sketch.new_page(width, height, "calibration", "front")
    ctx.typeset(
        fit_lines,
        sketch,
        [text_runs(t("calibration", ctx.lang).format(flip=flip))],
        _page_region(m.left, m.top, usable, 30, 11, min_size=8),
        "calibration page",
        "heading",
        INK,
    )
    for name, x, y in points:
        sketch.line(x - 8, y, x + 8, y, stroke=INK, line_width=0.25)
        sketch.line(x, y - 8, x, y + 8, stroke=INK, line_width=0.25)
        sketch.circle(x, y, 2, stroke=INK, line_width=0.2)
        sketch.text(x + 2.5, y - 3, name, bold=True, size=11, colour=INK)
    section.pages.append(front)
    sketch.new_page(width, height, "calibration", "back")
    offset = profile.duplex.back_offset
    note = t("calibration_back", ctx.lang).format(x=_n(offset.x), y=_n(offset.y))
    ctx.typeset(
        fit_lines,
        sketch,
        [text_runs(note)],
        _page_region(m.left, height - m.bottom - 30, usable, 30, 10, min_size=8),
        "calibration page",
        "note",
        INK,
    )
    for name, x, y in points:
        bx = width - x if profile.duplex.mode == "long-edge" else x
        by = height - y if profile.duplex.mode == "short-edge" else y
        _rulers(sketch, name, bx + offset.x, by + offset.y)
    section.pages.append(sketch.page)
    section.pieces = 1
    return section


def _n(value: float) -> str:
    """A length for a sentence: no trailing zeros, a true minus sign."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text.replace("-", "−")


def _rulers(sketch: Sketch, name: str, x: float, y: float) -> None:
    """A horizontal and a vertical ruler crossing at (x, y), numbered every 5 mm."""
    for tick in range(-_RULER, _RULER + 1):
        length = 5.0 if tick % 10 == 0 else (4.0 if tick % 5 == 0 else 2.0)
        sketch.line(x + tick, y - length / 2, x + tick, y + length / 2, stroke=INK, line_width=0.15)
        sketch.line(x - length / 2, y + tick, x + length / 2, y + tick, stroke=INK, line_width=0.15)
        if tick % 5 == 0 and tick != 0:
            label = f"{tick:+d}".replace("-", "−")
            # Horizontal ruler: numbers below it; vertical ruler: numbers to its right, from ±10
            # (a ±5 there would sit on the horizontal ruler's numbers).
            sketch.text(x + tick - 1.4, y + 5.2, label, bold=False, size=6.5, colour=INK)
            if abs(tick) >= 10:
                sketch.text(x + 3.0, y + tick + 0.9, label, bold=False, size=6.5, colour=INK)
    sketch.line(x - _RULER, y, x + _RULER, y, stroke=RED, line_width=0.15)
    sketch.line(x, y - _RULER, x, y + _RULER, stroke=RED, line_width=0.15)
    sketch.text(x - _RULER - 6, y - 2.5, name, bold=True, size=11, colour=INK)
    sketch.text(x + _RULER + 1.5, y + 1, "x", bold=True, size=8, colour=RED)
    sketch.text(x - 1, y + _RULER + 4, "y", bold=True, size=8, colour=RED)


def _cover(ctx: _Context, sections: Sequence[Section]) -> Section:
    """The cover: how to print and on what paper, then a checklist of what to cut (its back)."""
    section = Section("cover")
    listed = []
    page_number = 1
    for other in sections:
        pages = len(_with_blank_backs(other))
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
    ctx = _Context(profile, templates, lang, ink, catalog=catalog, extra=extra, art_root=art_root)
    builders: dict[str, Callable[[_Context], Section]] = {
        "rules": _rules,
        "calibration": _calibration,
        "cutting": _cutting,
        "raw": _raw,
        "fate": _fate,
        "field": _field,
        "reactors": _reactors,
        "mission": _mission,
        "tokens": _tokens,
        "aids": _aids,
        "guides": _guides,
    }
    for deck in decks:
        builders[deck.id] = partial(_extra_deck, deck=deck)
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
    ctx = _Context(profile, templates, lang, catalog=catalog)
    section = Section(name)
    for kind in dict.fromkeys(kind for kind, _ in cards):
        _card_sheets(ctx, section, kind, [item for k, item in cards if k == kind])
    if ctx.problems:
        raise KitError(ctx.problems)
    return section


def _with_blank_backs(section: Section) -> list[PageSketch]:
    """Single-sided pages, each followed by a blank back, so duplex stays aligned in the kit."""
    if section.duplex:
        return section.pages
    pages = []
    for page in section.pages:
        pages.append(page)
        pages.append(PageSketch(page.width, page.height, f"{page.label}-blank", "back"))
    return pages


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
    combined = [page for section in sections for page in _with_blank_backs(section)]
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
            [(section.name, _with_blank_backs(section)) for section in sections],
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
    ctx = _Sheets(with_decks, faces, lang, ink)
    sections = [_deck_section(ctx, deck, root) for deck in decks]
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
