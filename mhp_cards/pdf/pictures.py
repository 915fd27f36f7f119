"""The rulebook's pictures, made of the kit's own card and token faces, scaled.

A table laid out from a real deal (the field of Fate cards with raw cards on it, the Base, the
combines), a hand of raw cards, an installation with the cards of a run laid beside its
containers and the chemist tokens on its product places, the Mission card with its tokens, a
die, and the anatomy of a card with numbered callouts. Each picture draws into a box of the
caller's choosing and says how large it came out.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from mhp_cards.catalog.cardid import ELECTROLYSER
from mhp_cards.catalog.models import Catalog, Colour, formula_of
from mhp_cards.game.state import GameState, InstallationState, Position
from mhp_cards.pdf import faces, mission_face, raw_face, token_faces
from mhp_cards.pdf.diagrams import DrawFace, draw_installation
from mhp_cards.pdf.layout import SheetProfile
from mhp_cards.pdf.sketch import Mark, Sketch
from mhp_cards.pdf.style import INK, MARS, WHITE
from mhp_cards.pdf.typeset import draw_runs, runs_width, text_runs

__all__ = [
    "Drawn",
    "badge",
    "draw_die",
    "draw_field_state",
    "draw_hand",
    "draw_mission_tokens",
    "draw_run",
]

#: The colour of arrows and callouts in the pictures.
ARROW = MARS


@dataclass(frozen=True, slots=True)
class Drawn:
    """The size a picture came out, in mm, and where its cells are (a field picture)."""

    width: float
    height: float
    cells: Mapping[Position, tuple[float, float, float]] | None = None
    """Each drawn field position: (x, y) of its top-left corner and the cell's size."""


def _colours(catalog: Catalog) -> dict[str, Colour]:
    return {colour.id: colour for colour in catalog.components.colours}


def _face_at(
    sketch: Sketch,
    draw_face: DrawFace,
    draw: Callable[[faces.Face], None],
    template: str,
    kind: str,
    x: float,
    y: float,
    scale: float,
) -> None:
    with sketch.at(x, y, scale):
        draw_face(draw, sketch, template, kind)


def draw_field_state(
    sketch: Sketch,
    catalog: Catalog,
    profile: SheetProfile,
    state: GameState,
    x: float,
    y: float,
    width: float,
    height: float,
    draw_face: DrawFace,
    window: tuple[int, int, int, int] | None = None,
    cell_max: float = 14.0,
) -> Drawn:
    """The field of ``state`` as it lies on the table, centred in the box.

    Each cell is a Fate card (the Mars surface) with the back of its raw card on it while one
    lies there, the Base is the Base card, and each combine stands on its cell (several on the
    Base side by side). ``window`` (x0, y0, x1, y1, inclusive) draws only part of the field.
    """
    field = state.field
    assert field is not None
    positions = [cell.position for cell in field.cells] + [field.base]
    if window is not None:
        x0, y0, x1, y1 = window
        positions = [p for p in positions if x0 <= p[0] <= x1 and y0 <= p[1] <= y1]
    left_cell = min(p[0] for p in positions)
    top_cell = min(p[1] for p in positions)
    columns = max(p[0] for p in positions) - left_cell + 1
    rows = max(p[1] for p in positions) - top_cell + 1
    card = profile.card_sizes["fate"].width
    cell = min(width / columns, height / rows, cell_max)
    left = x + (width - columns * cell) / 2
    top = y
    scale = cell / card * 0.96
    where: dict[Position, tuple[float, float, float]] = {}
    for position in positions:
        px = left + (position[0] - left_cell) * cell
        py = top + (position[1] - top_cell) * cell
        where[position] = (px, py, cell)
        inset = cell * 0.02
        if position == field.base:
            _face_at(
                sketch, draw_face, faces.base_card, "base", "base", px + inset, py + inset, scale
            )
            continue
        _face_at(
            sketch,
            draw_face,
            faces.mars_surface,
            "fate-back",
            "fate",
            px + inset,
            py + inset,
            scale,
        )
        found = field.cell_at(position)
        if found is not None and found.raw is not None:
            small = scale * 0.78
            shift = (cell - card * small) / 2
            _face_at(
                sketch,
                draw_face,
                raw_face.raw_back,
                "raw-back",
                "raw",
                px + shift,
                py + shift,
                small,
            )
    colours = _colours(catalog)
    at: dict[Position, list[str]] = {}
    for player in state.players:
        if player.combine is not None and player.combine.position in where:
            at.setdefault(player.combine.position, []).append(player.id)
    combine = profile.card_sizes["combine"].width
    for position, ids in at.items():
        px, py, size = where[position]
        token = size * (0.62 if len(ids) == 1 else 0.5)
        for k, player_id in enumerate(ids):
            dx = (size - token) / 2 if len(ids) == 1 else (k % 2) * (size - token)
            dy = (size - token) / 2 if len(ids) == 1 else (k // 2) * (size - token) * 0.9
            draw = partial(token_faces.combine, colour=colours[player_id])
            _face_at(
                sketch, draw_face, draw, "combine", "combine", px + dx, py + dy, token / combine
            )
    return Drawn(columns * cell, rows * cell, where)


def arrow(sketch: Sketch, points: Sequence[tuple[float, float]], colour: str = ARROW) -> None:
    """A path with an arrow head at its end (a move, a retreat)."""
    width = 0.7
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        sketch.line(x0, y0, x1, y1, stroke=colour, line_width=width)
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    dx, dy = (x1 - x0) / length, (y1 - y0) / length
    head = 2.4
    sketch.polygon(
        [
            (x1, y1),
            (x1 - dx * head - dy * head * 0.55, y1 - dy * head + dx * head * 0.55),
            (x1 - dx * head + dy * head * 0.55, y1 - dy * head - dx * head * 0.55),
        ],
        fill=colour,
    )


def centre(drawn: Drawn, position: Position) -> tuple[float, float]:
    """The centre of a drawn field cell."""
    assert drawn.cells is not None
    x, y, size = drawn.cells[position]
    return x + size / 2, y + size / 2


def draw_hand(
    sketch: Sketch,
    catalog: Catalog,
    profile: SheetProfile,
    cards: Sequence[str],
    x: float,
    y: float,
    width: float,
    draw_face: DrawFace,
    card_max: float = 22.0,
) -> Drawn:
    """Raw cards face up in a row (a hand, the spoils of a fight), scaled to fit the width."""
    card = profile.card_sizes["raw"].width
    gap = 1.5
    size = min(card_max, (width - gap * (len(cards) - 1)) / max(1, len(cards)))
    left = x + (width - (size * len(cards) + gap * (len(cards) - 1))) / 2
    for index, instance in enumerate(cards):
        raw = catalog.raw_material(instance.split("#")[0])
        draw = partial(raw_face.raw_front, raw=raw, copy=1, catalog=catalog)
        _face_at(sketch, draw_face, draw, "raw", "raw", left + index * (size + gap), y, size / card)
    return Drawn(width, size)


def _norm(card: str) -> str:
    return ELECTROLYSER if card.startswith(ELECTROLYSER) else card


def _marks(sketch: Sketch, start: int, kind: str) -> list[Mark]:
    return [op for op in sketch.page.ops[start:] if isinstance(op, Mark) and op.kind == kind]


def _mark_data(mark: Mark) -> dict[str, str]:
    return dict(mark.data)


def draw_run(
    sketch: Sketch,
    catalog: Catalog,
    profile: SheetProfile,
    before: InstallationState,
    after: InstallationState,
    cards: Sequence[str],
    player: str,
    x: float,
    y: float,
    width: float,
    height: float,
    draw_face: DrawFace,
) -> Drawn | None:
    """An installation during a run, drawn with its cards and tokens.

    Each card of the run lies beside its raw-input container, and the player's chemist token
    stands on each product place the run filled (``before`` → ``after``).
    """
    start = len(sketch.page.ops)
    diagram = draw_installation(
        sketch,
        catalog,
        after.number,
        profile.card_sizes["reactor"].width,
        x,
        y,
        width,
        height,
        draw_face,
        max_scale=0.62,
    )
    if diagram is None:
        return None
    places = _marks(sketch, start, "place")
    inputs = _marks(sketch, start, "input")
    # the cards of the run, beside their containers (matched by substance, in order)
    card = profile.card_sizes["raw"].width
    small = diagram.scale * 0.42
    used: set[int] = set()
    for instance in cards:
        raw = catalog.raw_material(instance.split("#")[0])
        for index, mark in enumerate(inputs):
            if index in used or raw.parsed != formula_of(_mark_data(mark)["substance"]):
                continue
            used.add(index)
            mx, my, mw, _ = mark.box
            draw = partial(raw_face.raw_front, raw=raw, copy=1, catalog=catalog)
            _face_at(
                sketch,
                draw_face,
                draw,
                "raw",
                "raw",
                mx + mw - card * small * 0.55,
                my - card * small * 0.45,
                small,
            )
            break
    # the player's tokens on the places the run filled
    colours = _colours(catalog)
    chemist = profile.card_sizes["chemist"].width
    for old, new in zip(before.containers, after.containers, strict=True):
        for place, (was, now) in enumerate(zip(old.places, new.places, strict=True)):
            if was is None and now == player:
                spots = [
                    m
                    for m in places
                    if _norm(_mark_data(m)["piece"]) == _norm(new.card)
                    and _mark_data(m)["substance"] == new.substance
                ]
                if place < len(spots):
                    _token_on(sketch, draw_face, spots[place], colours[player], chemist)
    return Drawn(diagram.width, diagram.height)


def _token_on(
    sketch: Sketch, draw_face: DrawFace, place: Mark, colour: Colour, chemist: float
) -> None:
    """A chemist token of ``colour`` standing on a token place (its mark), a little inside it."""
    mx, my, mw, _ = place.box
    token = mw * 0.86
    draw = partial(token_faces.chemist, colour=colour)
    offset = (mw - token) / 2
    _face_at(
        sketch, draw_face, draw, "chemist", "chemist", mx + offset, my + offset, token / chemist
    )


def draw_mission_tokens(
    sketch: Sketch,
    catalog: Catalog,
    profile: SheetProfile,
    before: GameState,
    after: GameState,
    player: str,
    x: float,
    y: float,
    width: float,
    draw_face: DrawFace,
) -> Drawn:
    """The Mission card, scaled to ``width``, with the tokens ``player`` put on it."""
    size = profile.card_sizes["mission"]
    scale = width / size.width
    start = len(sketch.page.ops)
    draw = partial(mission_face.mission_front, missions=catalog.missions)
    _face_at(sketch, draw_face, draw, "mission", "mission", x, y, scale)
    places = _marks(sketch, start, "place")
    colours = _colours(catalog)
    chemist = profile.card_sizes["chemist"].width
    by_substance: dict[str, list[Mark]] = {}
    for mark in places:
        by_substance.setdefault(_mark_data(mark)["substance"], []).append(mark)
    # the marks are drawn mission by mission, product by product, place by place
    cursor: dict[str, int] = {}
    for old, new in zip(before.missions, after.missions, strict=True):
        for (substance, was), (_, now) in zip(old.places, new.places, strict=True):
            for a, b in zip(was, now, strict=True):
                index = cursor.get(substance, 0)
                cursor[substance] = index + 1
                spots = by_substance.get(substance, [])
                token_owner = b if b is not None else a
                if token_owner is None or index >= len(spots):
                    continue
                mx, my, mw, _ = spots[index].box
                _token_on(sketch, draw_face, spots[index], colours[token_owner], chemist)
                if a is None and b == player:
                    sketch.circle(
                        mx + mw / 2, my + mw / 2, mw / 2 + 0.5, stroke=ARROW, line_width=0.5
                    )
    return Drawn(width, size.height * scale)


def draw_die(
    sketch: Sketch, x: float, y: float, size: float, value: int, colour: str = INK
) -> None:
    """A die showing ``value`` (1–6) as pips."""
    sketch.rect(x, y, size, size, fill=WHITE, stroke=colour, line_width=0.4, radius=size * 0.15)
    spots = {
        1: [(1, 1)],
        2: [(0, 0), (2, 2)],
        3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)],
        5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    }[value]
    step = size / 4
    for column, row in spots:
        sketch.circle(x + step * (column + 1), y + step * (row + 1), size * 0.09, fill=colour)


def badge(sketch: Sketch, x: float, y: float, number: int, colour: str = ARROW) -> None:
    """A numbered callout: a filled circle with the number in white, centred on (x, y)."""
    radius = 2.1
    sketch.circle(x, y, radius, fill=colour, stroke=WHITE, line_width=0.3)
    runs = text_runs(str(number), bold=True)
    size = 7.0
    draw_runs(sketch, x - runs_width(runs, size) / 2, y + 0.85, runs, size, WHITE)
