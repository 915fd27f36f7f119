"""The safe zone of a card: no text within 3 mm of its cut line.

A guillotine or a hand-held knife cuts within a millimetre or two of the line, and a duplex
printer shifts a back by as much; text nearer the edge than :data:`SAFE_ZONE` is cut into or
looks crooked. The kit checks every card face as it draws it (like the text-fit check), and
the build stops naming the card and the text. Tokens are punched or cut round, at their own
size, and are not cards: they are not held to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from mhp_cards.pdf.fonts import MM_PER_POINT, fonts
from mhp_cards.pdf.sketch import Op, Text

__all__ = ["CARD_KINDS", "SAFE_ZONE", "Intrusion", "intrusions", "text_box"]

#: How far from the cut line every text of a card stays, in mm.
SAFE_ZONE: Final = 3.0
#: The kinds of card (sheet-profile ``card_sizes``) held to the safe zone.
CARD_KINDS: Final = frozenset({"raw", "fate", "base", "warehouse", "reactor", "mission", "aid"})


def text_box(op: Text) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a run of text in mm.

    Its advance width, the font's ascent above the baseline and its descent below: what a PDF
    reader reports as the glyphs' box.
    """
    font = fonts()
    em = op.size * MM_PER_POINT
    width = font.width(op.text, op.bold, op.size)
    return (op.x, op.y - font.ascent * em, op.x + width, op.y + font.descent * em)


@dataclass(frozen=True, slots=True)
class Intrusion:
    """A text nearer a cut line than the safe zone."""

    text: str
    edge: str
    distance: float
    """From the text's box to that edge, in mm (negative: past the edge)."""


def intrusions(
    ops: Iterable[Op], width: float, height: float, margin: float = SAFE_ZONE
) -> Iterator[Intrusion]:
    """Every text of a face drawn at (0, 0) nearer than ``margin`` mm to an edge.

    The face is ``width`` × ``height`` mm; each text is reported once, with its nearest edge.
    """
    for op in ops:
        if not isinstance(op, Text) or not op.text.strip():
            continue
        left, top, right, bottom = text_box(op)
        edge, distance = min(
            (("left", left), ("top", top), ("right", width - right), ("bottom", height - bottom)),
            key=lambda item: item[1],
        )
        if distance < margin - 1e-6:
            yield Intrusion(op.text, edge, distance)
