"""The rulebook's anatomy of the cards: real faces with numbered callouts.

A raw card, an installation card (one of the worked reaction's installation, with a raw
input, a product and a pipe) and the Mission card, each followed by what its numbers mean.
"""

from __future__ import annotations

from functools import partial

from mhp_cards.catalog.models import Catalog, ReactorCard
from mhp_cards.pdf import faces, mission_face, raw_face, reactor_face
from mhp_cards.pdf.book_texts import tr
from mhp_cards.pdf.bookflow import ACCENT, Book
from mhp_cards.pdf.diagrams import DrawFace
from mhp_cards.pdf.examples import Example
from mhp_cards.pdf.layout import SheetProfile, Templates
from mhp_cards.pdf.pictures import badge
from mhp_cards.pdf.sketch import Mark
from mhp_cards.pdf.typeset import Run, text_runs
from mhp_cards.referee.actions import React

__all__ = ["anatomy", "anatomy_card", "callouts"]


def anatomy(
    book: Book,
    catalog: Catalog,
    profile: SheetProfile,
    templates: Templates,
    draw_face: DrawFace,
    examples: dict[str, Example],
) -> None:
    """Three cards with numbered callouts: a raw card, an installation card, the Mission card."""
    lang = book.lang
    book.chapter_page(tr("anatomy", lang))
    book.starts["anatomy"] = len(book.pages)
    sketch = book.sketch
    # the raw card: the first kind a level-1 mission and an installation both use
    figures_raw = next(
        (r for r in catalog.raw_materials if len(r.parsed.elements) > 1), catalog.raw_materials[0]
    )
    size = profile.card_sizes["raw"]
    regions = templates["raw"].regions
    scale = 0.78

    def raw_picture(x: float, y: float, width: float) -> None:
        left = x + 6
        draw = partial(raw_face.raw_front, raw=figures_raw, copy=1, catalog=catalog)
        with sketch.at(left, y, scale):
            draw_face(draw, sketch, "raw", "raw")
        for number, name in enumerate(("formula", "name", "tally", "mars", "use"), start=1):
            region = regions.get(name)
            if region is None:
                continue
            badge(sketch, left - 2.5, y + (region.y + region.height / 2) * scale, number)

    book.heading(tr("anatomy_raw", lang), keep=size.height * scale + 1)
    book.block(size.height * scale + 1, raw_picture)
    callouts(book, tr("a_raw", lang))
    # the installation card: the first card of the reaction example's installation that has a
    # raw input, a product and a pipe
    reactor = anatomy_card(catalog, examples)
    card = profile.card_sizes["reactor"].width
    rscale = min(0.9, (book.column_width - 8) / card)

    def reactor_picture(x: float, y: float, width: float) -> None:
        left = x + 6
        start = len(sketch.page.ops)
        with sketch.at(left, y, rscale):
            draw_face(
                partial(reactor_face.reactor_front, catalog=catalog, card=reactor),
                sketch,
                "reactor",
                "reactor",
            )
        marks = [op for op in sketch.page.ops[start:] if isinstance(op, Mark)]
        inputs = [m for m in marks if m.kind == "input"]
        places = [m for m in marks if m.kind == "place"]
        id_region = templates["reactor"].regions["id"]
        badge(sketch, left - 2.5, y + (id_region.y + id_region.height / 2) * rscale, 1)
        if inputs:
            mx, my, _, mh = inputs[0].box
            badge(sketch, mx - 1, my + mh / 2, 2)
            badge(sketch, mx - 1, my + mh + 4.5 * rscale, 3)
        if places:
            mx, my, mw, _ = places[0].box
            badge(sketch, mx - 1.5, my + mw / 2, 4)
        if reactor.ports:
            port = reactor.ports[0]
            along = faces.PORT_OFFSETS[port.position] * card
            px, py = {
                "top": (along, 2.0),
                "bottom": (along, card - 2.0),
                "left": (2.0, along),
                "right": (card - 2.0, along),
            }[port.edge]
            badge(sketch, left + px * rscale, y + py * rscale, 5)
        badge(sketch, left + 5.2 * rscale, y + (card - 5.2) * rscale, 6)

    book.heading(tr("anatomy_reactor", lang), keep=card * rscale + 1)
    book.block(card * rscale + 1, reactor_picture)
    callouts(book, tr("a_reactor", lang))
    mission = profile.card_sizes["mission"]
    mscale = min(0.5, (book.column_width - 6) / mission.width)
    mission_regions = templates["mission"].regions

    def mission_picture(x: float, y: float, width: float) -> None:
        left = x + 5
        start = len(sketch.page.ops)
        with sketch.at(left, y, mscale):
            draw_face(
                partial(mission_face.mission_front, missions=catalog.missions),
                sketch,
                "mission",
                "mission",
            )
        area = mission_regions["missions"]
        places = [
            op for op in sketch.page.ops[start:] if isinstance(op, Mark) and op.kind == "place"
        ]
        badge(sketch, left - 2.5, y + (area.y + 4.5) * mscale, 1)
        badge(sketch, left - 2.5, y + (area.y + 10.5) * mscale, 2)
        if places:
            mx, my, mw, _ = places[0].box
            badge(sketch, mx + mw / 2, my + mw + 1.5, 3)

    book.heading(tr("anatomy_mission", lang), keep=mission.height * mscale + 3)
    book.block(mission.height * mscale + 3, mission_picture)
    callouts(book, tr("a_mission", lang))


def anatomy_card(catalog: Catalog, examples: dict[str, Example]) -> ReactorCard:
    """The installation card the anatomy shows: a main part with a raw input, a product, a pipe.

    One of the worked reaction's installation when it has one.
    """
    preferred: list[int] = []
    example = examples.get("l2-reaction")
    if example is not None and isinstance(example.action, React):
        preferred.append(example.action.installation)
    numbers = preferred + [i.number for i in catalog.installations]
    # a main-part card (its red circle is callout 6) with a raw input, a product and a pipe
    for main in (True, False):
        for number in numbers:
            for card in catalog.installation(number).cards:
                roles = {c.role for c in card.containers}
                if (
                    {"raw-input", "product"} <= roles
                    and card.ports
                    and (card.group == "main" or not main)
                ):
                    return card
    return catalog.installations[0].cards[0]


def callouts(book: Book, text: str) -> None:
    """The numbered lines under a picture (``text``'s parts, split at ``|``)."""
    for number, line in enumerate(text.split("|"), start=1):
        label = [Run(f"{number}", bold=True, colour=ACCENT)]
        book.paragraph(text_runs(line), size=9.0, indent=5, label=label, after=0.6)
    book.space(1.5)
