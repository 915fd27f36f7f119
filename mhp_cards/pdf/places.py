"""Places for chemist tokens on reactor cards and the Mission card.

Their size comes from the sheet profile's chemist token; each place drawn is marked for the
kit's manifest.
"""

from __future__ import annotations

from typing import Final

from mhp_cards.pdf.faces import Face, blend
from mhp_cards.pdf.layout import SheetProfile
from mhp_cards.pdf.style import WHITE, t
from mhp_cards.pdf.typeset import (
    fit_lines,
    text_runs,
)

#: Play between a chemist token and the rim of its place, in mm: a place is the token's diameter
#: plus this (at least 1 mm, so that a token cut by hand a little large still sits inside).
PLACE_CLEARANCE: Final = 1.5
#: Space between neighbouring places, and between neighbouring containers, in mm.
PLACE_GAP: Final = 1.0


def place_diameter(token: float) -> float:
    """The diameter of a place on a card for a chemist token ``token`` mm across."""
    return token + PLACE_CLEARANCE


def token_diameter(profile: SheetProfile) -> float:
    """The chemist token's diameter in a sheet profile: the one number places are sized from."""
    return profile.card_sizes["chemist"].width


def place_size(face: Face) -> float:
    """The diameter of the places on this face (its chemist token's, plus the clearance)."""
    if face.token is None:
        raise ValueError("a face with token places needs Face.token (the chemist token's size)")
    return place_diameter(face.token)


def draw_places(
    face: Face, x: float, y: float, count: int, columns: int, piece: str, substance: str
) -> None:
    """Places for chemist tokens in a grid from (x, y), each marked for the kit's manifest."""
    place = place_size(face)
    accent = face.template.accent
    r = place / 2
    for index in range(count):
        row, column = divmod(index, columns)
        left = x + column * (place + PLACE_GAP)
        top = y + row * (place + PLACE_GAP)
        face.sketch.circle(left + r, top + r, r, fill=WHITE, stroke=accent, line_width=0.4)
        face.sketch.circle(
            left + r,
            top + r,
            r - 0.9,
            stroke=blend(accent, WHITE, 0.7),
            line_width=0.25,
            dash=(0.8, 0.6),
        )
        face.sketch.mark(
            "place",
            left,
            top,
            place,
            place,
            piece=piece,
            substance=substance,
            diameter=f"{place:g}",
        )


def place_legend(face: Face, card: str, key: str = "place_legend") -> None:
    """What a place means, in a corner of the card: a place drawn small, and one sentence."""
    region = face.region("legend")
    accent = face.template.accent
    r = 1.6
    cy = region.y + region.height / 2
    face.sketch.circle(region.x + r, cy, r, fill=WHITE, stroke=accent, line_width=0.4)
    text = region.model_copy(
        update={"x": region.x + 2 * r + 1.0, "width": region.width - 2 * r - 1}
    )
    fit_lines(face.sketch, [text_runs(t(key, face.lang))], text, card, "legend", "#4A5560")
