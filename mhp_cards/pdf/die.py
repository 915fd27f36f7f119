"""A printable six-sided die: a cross-shaped net with pips, fold lines and glue flaps.

The rules need one die for attacks (L1.T4); a table without one cuts this net from the token
sheet, folds it along the dashed lines and glues the grey flaps inside. Opposite faces add up
to seven, as on a real die. The net is symmetric left to right, so its mirrored back on a
long-edge duplex sheet lines up with the front.
"""

from __future__ import annotations

from typing import Final

from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.style import CUT, INK, RED, WHITE

__all__ = ["FLAP", "NET", "die_net", "net_size"]

#: The depth of a glue flap, as a share of the die's edge.
FLAP: Final = 0.3
#: The faces of the net: (column, row) in edges from the top-left of the cross -> pips.
NET: Final = {(1, 0): 1, (0, 1): 3, (1, 1): 2, (2, 1): 4, (1, 2): 6, (1, 3): 5}
#: The glued edges: (column, row, side) of the face that carries the flap.
_FLAPS: Final = (
    (0, 1, "top"),
    (0, 1, "bottom"),
    (0, 1, "left"),
    (2, 1, "top"),
    (2, 1, "bottom"),
    (2, 1, "right"),
    (1, 3, "bottom"),
)
#: Pip positions on a face, in thirds of the edge from its top-left corner.
_PIPS: Final = {
    1: ((1, 1),),
    2: ((0.5, 0.5), (1.5, 1.5)),
    3: ((0.5, 0.5), (1, 1), (1.5, 1.5)),
    4: ((0.5, 0.5), (1.5, 0.5), (0.5, 1.5), (1.5, 1.5)),
    5: ((0.5, 0.5), (1.5, 0.5), (1, 1), (0.5, 1.5), (1.5, 1.5)),
    6: ((0.5, 0.5), (1.5, 0.5), (0.5, 1), (1.5, 1), (0.5, 1.5), (1.5, 1.5)),
}


def net_size(edge: float) -> tuple[float, float]:
    """Width and height in mm of the net of a die with this edge, flaps included."""
    return edge * (3 + 2 * FLAP), edge * (4 + FLAP)


def _edge(width: float, height: float) -> float:
    return min(width / (3 + 2 * FLAP), height / (4 + FLAP))


def die_net(face: Face) -> None:
    """The net in the card size of the layout's ``die`` kind, centred in it."""
    face.background()  # the sheet's paper: white, so only the net shows
    width, height = face.size.width, face.size.height
    edge = _edge(width, height)
    net_w, net_h = net_size(edge)
    left = (width - net_w) / 2 + edge * FLAP
    top = (height - net_h) / 2
    sketch = face.sketch
    flap = edge * FLAP
    for column, row, side in _FLAPS:
        x, y = left + column * edge, top + row * edge
        inset = flap * 0.9
        points = {
            "top": [(x, y), (x + inset, y - flap), (x + edge - inset, y - flap), (x + edge, y)],
            "bottom": [
                (x, y + edge),
                (x + inset, y + edge + flap),
                (x + edge - inset, y + edge + flap),
                (x + edge, y + edge),
            ],
            "left": [(x, y), (x - flap, y + inset), (x - flap, y + edge - inset), (x, y + edge)],
            "right": [
                (x + edge, y),
                (x + edge + flap, y + inset),
                (x + edge + flap, y + edge - inset),
                (x + edge, y + edge),
            ],
        }[side]
        sketch.polygon(points, fill="#D9D9D9", stroke=CUT, line_width=0.2)
    for (column, row), pips in NET.items():
        x, y = left + column * edge, top + row * edge
        sketch.rect(x, y, edge, edge, fill=WHITE, stroke=CUT, line_width=0.2)
        third = edge / 3
        radius = edge * (0.12 if pips == 1 else 0.085)
        colour = RED if pips == 1 else INK
        for px, py in _PIPS[pips]:
            sketch.circle(x + third * (px + 0.5), y + third * (py + 0.5), radius, fill=colour)
    # Fold lines: every edge two faces (or a face and its flap) share, dashed over the outline.
    folds = [
        (left + edge, top + edge, left + 2 * edge, top + edge),
        (left + edge, top + 2 * edge, left + 2 * edge, top + 2 * edge),
        (left + edge, top + 3 * edge, left + 2 * edge, top + 3 * edge),
        (left + edge, top + edge, left + edge, top + 2 * edge),
        (left + 2 * edge, top + edge, left + 2 * edge, top + 2 * edge),
    ]
    for column, row, side in _FLAPS:
        x, y = left + column * edge, top + row * edge
        folds.append(
            {
                "top": (x, y, x + edge, y),
                "bottom": (x, y + edge, x + edge, y + edge),
                "left": (x, y, x, y + edge),
                "right": (x + edge, y, x + edge, y + edge),
            }[side]
        )
    for x1, y1, x2, y2 in folds:
        sketch.line(x1, y1, x2, y2, stroke=INK, line_width=0.25, dash=(1.2, 0.8))
