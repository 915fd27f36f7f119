"""A text diagram of an assembled installation: the cards as boxes, their pipes as arrows."""

from __future__ import annotations

from typing import Final

from mhp_cards.assembly.arrangement import Arrangement
from mhp_cards.catalog.cardid import ELECTROLYSER
from mhp_cards.catalog.models import Catalog, ReactorCard

__all__ = ["render_arrangement"]

_WIDTH: Final = 22
_HEIGHT: Final = 7
_ARROW: Final = {
    ("right", "out"): "▶",
    ("right", "in"): "◀",
    ("left", "out"): "◀",
    ("left", "in"): "▶",
    ("top", "out"): "▲",
    ("top", "in"): "▼",
    ("bottom", "out"): "▼",
    ("bottom", "in"): "▲",
}
_MARK: Final = {"main": "●", "electrolyser": "■", "part": " "}


def _box(card_id: str, card: ReactorCard) -> list[list[str]]:
    w, h = _WIDTH, _HEIGHT
    box = [[" "] * w for _ in range(h)]
    for x in range(w):
        box[0][x] = box[h - 1][x] = "─"
    for y in range(h):
        box[y][0] = box[y][w - 1] = "│"
    box[0][0], box[0][w - 1], box[h - 1][0], box[h - 1][w - 1] = "┌", "┐", "└", "┘"

    def put(y: int, x: int, text: str) -> None:
        for i, char in enumerate(text):
            if 0 < x + i < w - 1:
                box[y][x + i] = char

    put(1, 2, f"{card_id} {_MARK[card.group]}".rstrip())
    columns = {1: w // 4, 2: w // 2, 3: 3 * w // 4}
    for port in card.ports:
        arrow = _ARROW[(port.edge, port.direction)]
        label = port.substance
        if port.edge in ("left", "right"):
            y = 1 + port.position + 1
            x = 0 if port.edge == "left" else w - 1
            box[y][x] = arrow
            put(y, 2 if port.edge == "left" else w - 2 - len(label), label)
        else:
            x = columns[port.position]
            y = 0 if port.edge == "top" else h - 1
            box[y][x] = arrow
            put(1 if port.edge == "top" else h - 2, max(1, x - len(label) // 2), label)
    return box


def render_arrangement(catalog: Catalog, arrangement: Arrangement) -> str:
    """A text diagram of the cards with their pipes, and a legend of their reactions."""
    grid = arrangement.grid()
    lines: list[str] = []
    legend: list[str] = []
    seen: set[str] = set()
    for row in grid:
        boxes = []
        for token in row:
            if token is None:
                boxes.append([[" "] * _WIDTH for _ in range(_HEIGHT)])
                continue
            card = catalog.electrolyser if token.startswith(ELECTROLYSER) else catalog.card(token)
            assert card is not None
            boxes.append(_box(token, card))
            if token not in seen:
                seen.add(token)
                for reaction in card.reactions:
                    legend.append(f"  {token}: {reaction}")
                if not card.reactions:
                    legend.append(f"  {token}: (pipes and containers only)")
        for y in range(_HEIGHT):
            lines.append("".join("".join(box[y]) for box in boxes).rstrip())
    return "\n".join([*lines, "", "Reactions:", *legend])
