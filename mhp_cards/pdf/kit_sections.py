"""The sections of the kit: each kind of card, the tokens, the aids, the rulebook, the guides.

Besides the cards cut from sheets, the pages read at the table: the assembly guides, the
cutting page and the printer's calibration page.

Each function lays out one section as sketches, with :mod:`mhp_cards.pdf.kit_sheets`;
:func:`mhp_cards.pdf.kit.plan_kit` puts them in the kit's order.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Final, Literal

from mhp_cards.decks.models import Deck
from mhp_cards.pdf import faces, mission_face, raw_face, reactor_face, token_faces
from mhp_cards.pdf.aids import AID_SIDES, aid_side, common_size, side_groups
from mhp_cards.pdf.cutting import plan_cutting
from mhp_cards.pdf.deck_faces import deck_side
from mhp_cards.pdf.diagrams import draw_installation, installation_inputs
from mhp_cards.pdf.die import die_net
from mhp_cards.pdf.impose import pack
from mhp_cards.pdf.kit_sheets import (
    Draw,
    Item,
    KitContext,
    Section,
    Sheets,
    card_sheets,
    cut_outline,
    draw_piece,
    sheet_bounds,
)
from mhp_cards.pdf.layout import Region
from mhp_cards.pdf.rulebook import plan_rulebook
from mhp_cards.pdf.sketch import Mark, PageSketch, Sketch
from mhp_cards.pdf.style import INK, RED, t
from mhp_cards.pdf.typeset import Run, fit_lines, formula_runs, place_line, reaction_runs, text_runs

__all__ = [
    "FATE_DECK",
    "aids_section",
    "calibration_section",
    "cutting_section",
    "deck_section",
    "extra_deck_section",
    "fate_section",
    "field_section",
    "guides_section",
    "mission_section",
    "raw_section",
    "reactors_section",
    "rules_section",
    "tokens_section",
]

#: The ID of a catalog's own deck that gives the Fate cards their fronts.
FATE_DECK: Final = "fate"


def raw_section(ctx: KitContext) -> Section:
    """Every copy of every raw-material card, each with the raw cards' back."""
    section = Section("raw")
    items: list[Item] = []
    for raw in ctx.catalog.raw_materials:
        for copy in range(1, raw.copies + 1):
            front = partial(
                raw_face.raw_front, raw=raw, copy=copy, catalog=ctx.catalog, root=ctx.art_root
            )
            items.append(Item("raw", front, "raw-back", raw_face.raw_back, f"{raw.id}#{copy}"))
        section.contents.append((raw.name.get(ctx.lang), raw.formula, raw.copies))
    card_sheets(ctx, section, "raw", items)
    return section


def fate_section(ctx: KitContext) -> Section:
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
        card_sheets(ctx, section, "fate", fronts)
        section.contents.append((t("fate_item", ctx.lang), None, len(fronts)))
        return section
    section = Section("fate", duplex=False)
    items = [
        Item("fate-back", faces.mars_surface, "", None, f"fate-{n}", "fate")
        for n in range(1, count + 1)
    ]
    card_sheets(ctx, section, "fate", items)
    for page in section.pages:
        page.side = "single"  # the kit gives each sheet a blank back (``with_blank_backs``)
    section.contents.append((t("fate_item", ctx.lang), None, count))
    return section


def extra_deck_section(ctx: KitContext, deck: Deck) -> Section:
    """One of the catalog's own decks, as a deck pack's deck is printed."""
    assert ctx.extra is not None
    return deck_section(ctx, deck, ctx.extra.root)


def deck_section(ctx: Sheets, deck: Deck, root: Path | None) -> Section:
    """A deck from data as a section: its cards' sheets, and what to cut from them."""
    section = Section(deck.id)
    card_sheets(ctx, section, f"deck:{deck.id}", _deck_items(deck, root))
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


def field_section(ctx: KitContext) -> Section:
    """The Base and the Warehouse card, each with the Mars-surface back of the field."""
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
    card_sheets(ctx, section, "base", items)
    section.contents += [
        (t("base_item", ctx.lang), None, 1),
        (t("warehouse_item", ctx.lang), None, 1),
    ]
    return section


def reactors_section(ctx: KitContext) -> Section:
    """Every reactor card of every installation, and the electrolysers."""
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
    card_sheets(ctx, section, "reactor", items)
    for installation in catalog.installations:
        name = f"{installation.number}. {installation.name.get(ctx.lang)}"
        section.contents.append((name, None, len(installation.cards)))
    section.contents.append((t("electrolyser_item", ctx.lang), None, len(catalog.electrolysers)))
    return section


def mission_section(ctx: KitContext) -> Section:
    """The Mission card with the four missions, and its back."""
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
    card_sheets(ctx, section, "mission", items)
    section.contents.append((t("missions_item", ctx.lang), None, 1))
    return section


def tokens_section(ctx: KitContext) -> Section:
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
            sheet.trim, sheet.bleed = sheet_bounds(slots), ctx.profile.bleed
            for slot, (kind, piece_kind, piece, draw) in zip(slots, chunk, strict=True):
                draw_piece(ctx, sketch, slot, draw, kind, kind, piece, piece_kind)
                if side == "front":
                    with sketch.at(slot.x, slot.y):
                        cut_outline(sketch, ctx.profile, kind, contour=True)
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


def aids_section(ctx: KitContext) -> Section:
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
    card_sheets(ctx, section, "aid", items)
    section.contents.append((t("aid_item", lang), None, count))
    return section


def rules_section(ctx: KitContext) -> Section:
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


def guides_section(ctx: KitContext) -> Section:
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


def _input_lines(ctx: KitContext, number: int) -> list[list[Run]]:
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


def cutting_section(ctx: KitContext) -> Section:
    """One page: in what order to cut, with what tools, what to glue (its back stays blank)."""
    section = Section("cutting", duplex=False)
    section.pages = plan_cutting(ctx.profile, ctx.lang, ctx.problems)
    return section


def calibration_section(ctx: KitContext) -> Section:
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
