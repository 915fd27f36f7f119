"""Cards imposed on the kit's sheets: the sections, their items and the context that draws them.

A :class:`Section` is one part of the kit (its pages, the pieces it holds, the cover's
checklist lines); an :class:`Item` is one card with its two faces. :func:`card_sheets` imposes
items front and back, draws each distinct face once, and marks the cut lines, the places and
the manifest's pieces; :class:`Sheets` (and :class:`KitContext`, with the catalog) carries the
sheet profile, the templates, the language and the problems found while drawing.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Final, NamedTuple

from mhp_cards.catalog.models import Catalog
from mhp_cards.pdf import places, raw_face
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.impose import Imposition, Slot, crop_marks, impose, moved, run_into_bleed
from mhp_cards.pdf.ink import InkMode, save_ink_ops
from mhp_cards.pdf.layout import SheetProfile, Templates
from mhp_cards.pdf.pack_cards import PackSource
from mhp_cards.pdf.safezone import CARD_KINDS, SAFE_ZONE, intrusions
from mhp_cards.pdf.sketch import Op, PageSketch, Sketch
from mhp_cards.pdf.style import CUT, CUT_CONTOUR, INK
from mhp_cards.pdf.typeset import TypesetError

__all__ = [
    "Draw",
    "Item",
    "KitContext",
    "Section",
    "Sheets",
    "card_sheets",
    "cut_outline",
    "draw_piece",
    "sheet_bounds",
    "with_blank_backs",
]


@dataclass(slots=True)
class Section:
    """One part of the kit: its pages, and how many pieces it holds."""

    name: str
    pages: list[PageSketch] = field(default_factory=list)
    pieces: int = 0
    duplex: bool = True
    contents: list[tuple[str, str | None, int]] = field(default_factory=list)
    """What to cut from it, for the cover's checklist: (what, its formula or None, how many)."""


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
class Sheets:
    """What imposing cards needs: the sheet, the face templates, the language, the problems."""

    profile: SheetProfile
    templates: Templates
    lang: str
    ink: InkMode = "full"
    problems: list[TypesetError] = field(default_factory=list)
    #: Each distinct face drawn once at (0, 0): its operations, by what draws it.
    faces: dict[Hashable, tuple[Op, ...]] = field(default_factory=dict)

    def face(self, sketch: Sketch, template: str, kind: str) -> Face:
        """A face of ``template`` on a card of size ``kind``, drawn into ``sketch``."""
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
class KitContext(Sheets):
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


def cut_outline(sketch: Sketch, profile: SheetProfile, kind: str, contour: bool = False) -> None:
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


def draw_piece(
    ctx: Sheets,
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


def card_sheets(ctx: Sheets, section: Section, kind: str, items: Sequence[Item]) -> None:
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
            draw_piece(ctx, sketch, slot, item.front, item.front_template, kind, piece, piece_kind)
            with sketch.at(slot.x, slot.y):
                cut_outline(sketch, profile, kind)
        _marks(sketch, profile, imposition, len(chunk), back=False)
        section.pages.append(front)
        if all(item.back is None for _, _, item in chunk):
            continue
        back_page = sketch.new_page(imposition.page_width, imposition.page_height, label, "back")
        back_page.trim, back_page.bleed = _mirrored_trim(imposition), profile.bleed
        for slot, (piece, piece_kind, item) in zip(imposition.backs, chunk, strict=False):
            if item.back is not None:
                draw_piece(
                    ctx, sketch, slot, item.back, item.back_template, kind, piece, piece_kind
                )
        _marks(sketch, profile, imposition, len(chunk), back=True)
        section.pages.append(back_page)
    section.pieces += len(items)


def _mirrored_trim(imposition: Imposition) -> tuple[float, float, float, float]:
    """The TrimBox of a back page: around the backs of a full sheet, where they are printed."""
    return sheet_bounds(imposition.backs)


def sheet_bounds(slots: Sequence[Slot]) -> tuple[float, float, float, float]:
    """(x, y, width, height) around the cut lines of ``slots``: a sheet's TrimBox."""
    left, top = min(s.x for s in slots), min(s.y for s in slots)
    right = max(s.x + s.width for s in slots)
    bottom = max(s.y + s.height for s in slots)
    return left, top, right - left, bottom - top


def with_blank_backs(section: Section) -> list[PageSketch]:
    """Single-sided pages, each followed by a blank back, so duplex stays aligned in the kit."""
    if section.duplex:
        return section.pages
    pages = []
    for page in section.pages:
        pages.append(page)
        pages.append(PageSketch(page.width, page.height, f"{page.label}-blank", "back"))
    return pages
