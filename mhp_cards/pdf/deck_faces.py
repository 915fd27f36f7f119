"""The faces of a deck from data: its regions drawn in order, each a field of the card or a text.

A region's text starts at its size and shrinks down to its ``min_size``; text that does not fit
even then is a build problem naming the card and the region, as on every face of the kit. A
badge is drawn behind its region's text: a disc as wide as the region's shorter side, or a
rounded box filling the region. A picture (PNG or JPEG) is fitted to its region whole
(``contain``), filling it and cut at its edges (``cover``) or stretched (``fill``); a missing
one prints as a grey placeholder naming the file. A PDF stores each picture once.
"""

from __future__ import annotations

from pathlib import Path

from mhp_cards.catalog.art import art_path
from mhp_cards.decks.models import DeckCard, DeckFace
from mhp_cards.pdf.art import draw_picture
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.layout import Region, Template
from mhp_cards.pdf.typeset import text_runs

__all__ = ["deck_side", "face_template"]


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
                fit=region.fit,
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
                draw_picture(face, face.region(name), art_path(root or Path("."), value), name)
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
