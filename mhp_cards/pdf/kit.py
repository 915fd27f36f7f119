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
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Final, Literal

from mhp_cards.assembly.solver import solve_installation
from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import KitError
from mhp_cards.fileio import write_files_atomic
from mhp_cards.pdf import faces
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.impose import Imposition, crop_marks, impose, pack
from mhp_cards.pdf.layout import Region, SheetProfile, Templates, load_profile, load_templates
from mhp_cards.pdf.render import render_pdf
from mhp_cards.pdf.sketch import Mark, PageSketch, Sketch
from mhp_cards.pdf.style import CUT, INK, LEVEL_TITLES, MARS, RED, SECTION_TITLES, STRIPE, WHITE, t
from mhp_cards.pdf.typeset import (
    Run,
    TypesetError,
    fit_lines,
    formula_runs,
    place_line,
    reaction_runs,
    text_runs,
)
from mhp_cards.rules.rulebook import load_rulebook

__all__ = [
    "SECTIONS",
    "KitError",
    "KitFile",
    "KitResult",
    "Section",
    "build_kit",
    "plan_cards",
    "plan_kit",
]

SECTIONS: Final = (
    "cover",
    "calibration",
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


Draw = Callable[[Face], None]
#: A card to impose: (front template, front drawing, back template, back drawing or None).
Item = tuple[str, Draw, str, Draw | None]


@dataclass(slots=True)
class _Context:
    catalog: Catalog
    profile: SheetProfile
    templates: Templates
    lang: str
    problems: list[TypesetError] = field(default_factory=list)

    def face(self, sketch: Sketch, template: str, kind: str) -> Face:
        return Face(
            sketch,
            self.templates[template],
            self.profile.card_sizes[kind],
            self.lang,
            self.profile.bleed,
            faces.token_diameter(self.profile),
        )

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


def _cut_outline(sketch: Sketch, profile: SheetProfile, kind: str) -> None:
    if not profile.cut_lines:
        return
    size = profile.card_sizes[kind]
    if size.shape == "circle":
        sketch.circle(size.width / 2, size.height / 2, size.width / 2, stroke=CUT, line_width=0.15)
    else:
        sketch.rect(
            0, 0, size.width, size.height, stroke=CUT, line_width=0.15, radius=size.corner_radius
        )


def _marks(
    sketch: Sketch, profile: SheetProfile, imposition: Imposition, used: int, back: bool
) -> None:
    for x1, y1, x2, y2 in crop_marks(profile, imposition, used, back=back):
        sketch.line(x1, y1, x2, y2, stroke=INK, line_width=0.2)


def _card_sheets(ctx: _Context, section: Section, kind: str, items: Sequence[Item]) -> None:
    """Impose cards of one size: a front page, then the mirrored back page, sheet by sheet."""
    profile = ctx.profile
    imposition = impose(profile, kind)
    for start in range(0, len(items), imposition.per_page):
        chunk = items[start : start + imposition.per_page]
        sheet = start // imposition.per_page + 1
        sketch = Sketch()
        label = f"{section.name}-{sheet}"
        front = sketch.new_page(imposition.page_width, imposition.page_height, label, "front")
        front.trim, front.bleed = imposition.trim_box, profile.bleed
        for slot, (template, draw, _, _) in zip(imposition.fronts, chunk, strict=False):
            with sketch.at(slot.x, slot.y):
                ctx.draw(draw, sketch, template, kind)
                _cut_outline(sketch, profile, kind)
        _marks(sketch, profile, imposition, len(chunk), back=False)
        section.pages.append(front)
        if all(back is None for _, _, _, back in chunk):
            continue
        back_page = sketch.new_page(imposition.page_width, imposition.page_height, label, "back")
        back_page.trim, back_page.bleed = imposition.trim_box, profile.bleed
        for slot, (_, _, template, back) in zip(imposition.backs, chunk, strict=False):
            if back is not None:
                with sketch.at(slot.x, slot.y):
                    ctx.draw(back, sketch, template, kind)
        _marks(sketch, profile, imposition, len(chunk), back=True)
        section.pages.append(back_page)
    section.pieces += len(items)


# Sections ----------------------------------------------------------------------------------------


def _raw(ctx: _Context) -> Section:
    section = Section("raw")
    items: list[Item] = []
    for raw in ctx.catalog.raw_materials:
        for copy in range(1, raw.copies + 1):
            items.append(
                ("raw", partial(faces.raw_front, raw=raw, copy=copy), "raw-back", faces.raw_back)
            )
        section.contents.append((raw.name.get(ctx.lang), raw.formula, raw.copies))
    _card_sheets(ctx, section, "raw", items)
    return section


def _fate(ctx: _Context) -> Section:
    section = Section("fate")
    count = ctx.catalog.components.fate_cards.count
    items: list[Item] = [
        ("fate", partial(faces.fate_front, number=n), "fate-back", faces.mars_surface)
        for n in range(1, count + 1)
    ]
    _card_sheets(ctx, section, "fate", items)
    section.contents.append((t("fate_item", ctx.lang), None, count))
    return section


def _field(ctx: _Context) -> Section:
    section = Section("field")
    items: list[Item] = [
        ("base", faces.base_card, "fate-back", faces.mars_surface),
        ("warehouse", partial(faces.base_card, warehouse=True), "fate-back", faces.mars_surface),
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
        (
            "reactor",
            partial(faces.reactor_front, catalog=catalog, card=card),
            "reactor-back",
            faces.reactor_back,
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
        (
            "mission",
            partial(faces.mission_front, missions=ctx.catalog.missions),
            "mission-back",
            partial(faces.plain_back, key="missions", card="Mission card back"),
        ),
    ]
    _card_sheets(ctx, section, "mission", items)
    section.contents.append((t("missions_item", ctx.lang), None, 1))
    return section


def _tokens(ctx: _Context) -> Section:
    """Coins, chemist tokens, combines and upgrades, shelf-packed; the same design both sides."""
    section = Section("tokens")
    components = ctx.catalog.components
    draws: list[tuple[str, Draw]] = [("coin", faces.coin)] * components.coins.count
    for colour in components.colours:
        draws += [("chemist", partial(faces.chemist, colour=colour))] * (
            components.chemist_tokens.per_player
        )
    for colour in components.colours[: components.combines.count]:
        draws.append(("combine", partial(faces.combine, colour=colour)))
    for upgrade in components.upgrades:
        token = partial(
            faces.upgrade,
            upgrade_id=upgrade.id,
            name=upgrade.name.get(ctx.lang),
            price=upgrade.price,
        )
        draws += [("upgrade", token)] * upgrade.count
    counts: dict[str, int] = {}
    for kind, _ in draws:
        counts[kind] = counts.get(kind, 0) + 1
    width, height = ctx.profile.page.dimensions
    queue = list(draws)
    for number, page in enumerate(pack(ctx.profile, list(counts.items())), start=1):
        chunk, queue = queue[: len(page)], queue[len(page) :]
        sketch = Sketch()
        for side in ("front", "back"):
            sheet = sketch.new_page(width, height, f"tokens-{number}", side)
            for (kind, front, back), (_, draw) in zip(page, chunk, strict=True):
                slot = front if side == "front" else back
                with sketch.at(slot.x, slot.y):
                    ctx.draw(draw, sketch, kind, kind)
                    if side == "front":
                        _cut_outline(sketch, ctx.profile, kind)
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
    ]
    return section


def _aids(ctx: _Context) -> Section:
    section = Section("aids")
    rulebook = load_rulebook()
    lang: Literal["ru", "en"] = "en" if ctx.lang == "en" else "ru"
    items: list[Item] = []
    for level, title in LEVEL_TITLES.items():
        lines = [(rule.id, summary[lang]) for rule, summary in rulebook.player_aid(level)]
        front = partial(faces.aid_front, title=title[lang], lines=lines, card=f"player aid {level}")
        back = partial(faces.plain_back, key="aid_back", card="player aid back")
        items.append(("aid", front, "aid-back", back))
        section.contents.append((title[lang], None, 1))
    _card_sheets(ctx, section, "aid", items)
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
    return Region(
        x=x,
        y=y,
        width=width,
        height=height,
        size=size,
        min_size=min_size,
        align=align,
        valign="top",
    )


def _guides(ctx: _Context) -> Section:
    """One page per installation: its cards assembled, drawn to scale, with the reactions."""
    section = Section("guides", duplex=False)
    profile = ctx.profile
    width, height = profile.page.dimensions
    m = profile.margins
    card = profile.card_sizes["reactor"].width
    usable_w = width - m.left - m.right
    for installation in ctx.catalog.installations:
        solution = solve_installation(ctx.catalog, installation.number)
        sketch = Sketch()
        page = sketch.new_page(width, height, f"guide-{installation.number}")
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
        arrangement = solution.canonical
        if arrangement is not None:
            grid = arrangement.grid()
            rows, columns = len(grid), len(grid[0])
            top = m.top + 24
            room_h = height - top - m.bottom - 10
            scale = min(1.0, usable_w / (columns * card), room_h / (rows * card))
            left = m.left + (usable_w - columns * card * scale) / 2
            for r, row in enumerate(grid):
                for c, token in enumerate(row):
                    if token is None:
                        continue
                    reactor = ctx.catalog.electrolyser if token == "Э" else ctx.catalog.card(token)
                    assert reactor is not None
                    with sketch.at(left + c * card * scale, top + r * card * scale, scale):
                        ctx.draw(
                            partial(faces.reactor_front, catalog=ctx.catalog, card=reactor),
                            sketch,
                            "reactor",
                            "reactor",
                        )
            ratio = f"1:{1 / scale:.2g}" if scale < 1 else "1:1"
            note = (
                f"Масштаб {ratio}. Электролизёров: {solution.electrolysers}."
                if ctx.lang == "ru"
                else f"Scale {ratio}. Electrolysers: {solution.electrolysers}."
            )
            ctx.typeset(
                place_line,
                sketch,
                text_runs(note),
                _page_region(m.left, top + rows * card * scale + 3, usable_w, 6, 9),
                label,
                "note",
                INK,
            )
        # cards drawn to a reduced scale: nobody puts a token on a guide, so it has no places
        page.ops = [op for op in page.ops if not (isinstance(op, Mark) and op.kind == "place")]
        section.pages.append(page)
        section.pieces += 1
        section.contents.append((title, None, 1))
    return section


def _calibration(ctx: _Context) -> Section:
    """Front: crosses at known places. Back: rulers where the crosses should show through."""
    section = Section("calibration")
    profile = ctx.profile
    width, height = profile.page.dimensions
    m = profile.margins
    points = [(width / 2, height / 2), (width / 4, height / 4), (3 * width / 4, 3 * height / 4)]
    sketch = Sketch()
    front = sketch.new_page(width, height, "calibration", "front")
    heading = t("calibration", ctx.lang)
    ctx.typeset(
        fit_lines,
        sketch,
        [text_runs(heading)],
        _page_region(m.left, m.top, width - m.left - m.right, 24, 10),
        "calibration page",
        "heading",
        INK,
    )
    for x, y in points:
        sketch.line(x - 8, y, x + 8, y, stroke=INK, line_width=0.25)
        sketch.line(x, y - 8, x, y + 8, stroke=INK, line_width=0.25)
        sketch.circle(x, y, 2, stroke=INK, line_width=0.2)
    section.pages.append(front)
    sketch.new_page(width, height, "calibration", "back")
    for x, y in points:
        bx = width - x if profile.duplex.mode == "long-edge" else x
        by = height - y if profile.duplex.mode == "short-edge" else y
        bx += profile.duplex.back_offset.x
        by += profile.duplex.back_offset.y
        for tick in range(-10, 11):
            length = 4 if tick % 5 == 0 else 2
            sketch.line(
                bx + tick, by - length / 2, bx + tick, by + length / 2, stroke=INK, line_width=0.15
            )
            sketch.line(
                bx - length / 2, by + tick, bx + length / 2, by + tick, stroke=INK, line_width=0.15
            )
        sketch.line(bx - 10, by, bx + 10, by, stroke=RED, line_width=0.15)
        sketch.line(bx, by - 10, bx, by + 10, stroke=RED, line_width=0.15)
    section.pages.append(sketch.page)
    section.pieces = 1
    return section


def _cover(ctx: _Context, sections: Sequence[Section]) -> Section:
    """The cover: title, how to print, and the contents with pages and counts to cut."""
    section = Section("cover", duplex=False)
    width, height = ctx.profile.page.dimensions
    m = ctx.profile.margins
    usable = width - m.left - m.right
    sketch = Sketch()
    page = sketch.new_page(width, height, "cover")
    sketch.rect(0, 0, width, 46, fill=MARS)
    ctx.typeset(
        place_line,
        sketch,
        text_runs(t("company", ctx.lang), bold=True),
        _page_region(m.left, 12, usable, 16, 30, align="center"),
        "cover",
        "title",
        WHITE,
    )
    ctx.typeset(
        place_line,
        sketch,
        text_runs(t("kit_subtitle", ctx.lang)),
        _page_region(m.left, 30, usable, 9, 12, align="center"),
        "cover",
        "subtitle",
        "#FBE3D0",
    )
    ctx.typeset(
        fit_lines,
        sketch,
        [text_runs(t("how_to_print", ctx.lang))],
        _page_region(m.left, 52, usable, 14, 10),
        "cover",
        "how",
        INK,
    )
    rows: list[tuple[list[Run], str, str]] = []
    page_number = 1
    for other in sections:
        first = page_number
        page_number += len(_with_blank_backs(other))
        pages = f"{first}–{page_number - 1}" if page_number - first > 1 else f"{first}"
        rows.append((text_runs(SECTION_TITLES[other.name][ctx.lang], bold=True), pages, ""))
        for what, formula, count in other.contents:
            runs = text_runs(f"   {what}")
            if formula:
                runs += [Run(" ("), *formula_runs(formula), Run(")")]
            rows.append((runs, "", f"×{count}"))
    header = t("contents_header", ctx.lang).split("|")
    top = 70.0
    line = min(4.1, (height - top - m.bottom) / (len(rows) + 1))
    size = min(8.0, line / 0.52)
    for index, (cell_runs, page_text, count_text) in enumerate(
        [(text_runs(header[0], bold=True), header[1], header[2]), *rows]
    ):
        bold = index == 0 or bool(page_text)
        row_y = top + index * line
        if index % 2 == 1:
            sketch.rect(m.left, row_y - 0.2, usable, line, fill=STRIPE)
        cells: tuple[tuple[list[Run], float, float, Literal["left", "right"]], ...] = (
            (cell_runs, m.left + 1, usable - 62, "left"),
            (text_runs(page_text, bold=bold), m.left + usable - 60, 38, "right"),
            (text_runs(count_text, bold=bold), m.left + usable - 20, 19, "right"),
        )
        for runs, x, cell_w, align in cells:
            if any(run.text for run in runs):
                ctx.typeset(
                    place_line,
                    sketch,
                    runs,
                    _page_region(x, row_y, cell_w, line, size, align=align, min_size=4.5),
                    "cover",
                    "contents",
                    INK,
                )
    section.pages.append(page)
    section.pieces = 1
    return section


def plan_kit(
    catalog: Catalog,
    profile: SheetProfile,
    templates: Templates,
    lang: str = "ru",
    only: Iterable[str] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[Section]:
    """Lay out the kit as sketches, section by section; KitError lists every problem."""
    wanted = list(SECTIONS) if only is None else [name for name in SECTIONS if name in set(only)]
    ctx = _Context(catalog, profile, templates, lang)
    builders: dict[str, Callable[[_Context], Section]] = {
        "calibration": _calibration,
        "raw": _raw,
        "fate": _fate,
        "field": _field,
        "reactors": _reactors,
        "mission": _mission,
        "tokens": _tokens,
        "aids": _aids,
        "guides": _guides,
    }
    sections: list[Section] = []
    steps = [name for name in wanted if name != "cover"]
    for index, name in enumerate(steps, start=1):
        sections.append(builders[name](ctx))
        if progress is not None:
            progress(name, index, len(steps) + ("cover" in wanted))
    if "cover" in wanted:
        placeholder = Section("cover", [PageSketch(0, 0, "")], duplex=False)
        sections.insert(0, _cover(ctx, [placeholder, *sections]))
        if progress is not None:
            progress("cover", len(steps) + 1, len(steps) + 1)
    if ctx.problems:
        raise KitError(ctx.problems)
    return sections


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
    ctx = _Context(catalog, profile, templates, lang)
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


def build_kit(
    catalog: Catalog,
    layout: str = "a4",
    lang: str = "ru",
    only: Iterable[str] | None = None,
    out_dir: Path = Path("output"),
    progress: Callable[[str, int, int], None] | None = None,
) -> KitResult:
    """Write the kit: ``mhp-kit.pdf`` and one ``mhp-<section>.pdf`` per section, atomically.

    The set is replaced all together: a build that fails half-way leaves every previous file
    as it was, and no temporary file.
    """
    profile = load_profile(layout)
    layout_path = Path(layout)
    templates = load_templates(profile, layout_path.parent if layout_path.suffix else None)
    sections = plan_kit(catalog, profile, templates, lang, only, progress)
    files = []
    subject = "МАРСХИМПРОМ print-and-play kit" if lang == "en" else "МАРСХИМПРОМ: набор для печати"
    combined = [page for section in sections for page in _with_blank_backs(section)]
    documents = [("kit", combined)] + [(section.name, section.pages) for section in sections]
    rendered: dict[Path, bytes] = {}
    for name, pages in documents:
        title = f"МАРСХИМПРОМ — {name}"
        path = out_dir / f"mhp-{name}.pdf"
        rendered[path] = render_pdf(pages, title, subject, lang)
        files.append(KitFile(path, name, len(pages)))
    # All or nothing: every PDF is rendered before the first one replaces its previous version.
    write_files_atomic(rendered)
    return KitResult(tuple(files), sum(section.pieces for section in sections))
