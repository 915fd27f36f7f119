"""Reactor cards: the body, its containers, reaction and places; pipes; transit cards; backs."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mhp_cards.catalog.art import art_path
from mhp_cards.catalog.cardid import ELECTROLYSER, printed_card_id
from mhp_cards.catalog.models import (
    Catalog,
    Container,
    Port,
    ReactorCard,
    formula_of,
)
from mhp_cards.errors import PlacesError
from mhp_cards.pdf.art import draw_picture
from mhp_cards.pdf.faces import PIPE, PORT_OFFSETS, Face, blend, formula_width
from mhp_cards.pdf.layout import Region
from mhp_cards.pdf.places import (
    PLACE_CLEARANCE,
    PLACE_GAP,
    draw_places,
    place_legend,
    place_size,
)
from mhp_cards.pdf.safezone import SAFE_ZONE
from mhp_cards.pdf.sketch import Sketch
from mhp_cards.pdf.style import PURPLE, RED, WHITE, t
from mhp_cards.pdf.typeset import (
    Run,
    fit_lines,
    formula_runs,
    place_line,
    reaction_runs,
    runs_width,
    text_runs,
)

#: Space between neighbouring containers, in mm.
CONTAINER_GAP: Final = 1.5
#: Inner padding of a container and of the reactor body, in mm.
PAD: Final = 1.0
#: Thickness of a pipe's wall, in mm.
WALL: Final = 0.55
#: Height of a container's formula line, of an input's source note, of a product's price (mm).
FORMULA_H: Final = 5.6
SOURCE_H: Final = 5.6
PRICE_H: Final = 3.4
REACTION_H: Final = 6.4


def input_source(catalog: Catalog, substance: str, lang: str) -> str:
    """Where the substance of a raw-input container comes from: a raw card, or installations.

    A substance that is on a raw card comes from the card (a product of the same formula may
    stand in for it, L2.T6); any other comes from the installations that make it as a product.
    """
    formula = formula_of(substance)
    if any(raw.parsed == formula for raw in catalog.raw_materials):
        return t("from_raw_card", lang)
    numbers = sorted(
        {
            installation.number
            for installation in catalog.installations
            for card in installation.cards
            for container in card.containers
            if container.role == "product" and container.parsed == formula
        }
    )
    if not numbers:
        return ""
    key = "from_installation" if len(numbers) == 1 else "from_installations"
    return t(key, lang).format(numbers=", ".join(str(n) for n in numbers))


def display_id(card: ReactorCard, lang: str = "ru") -> str:
    """The ID printed on a reactor card: the five electrolysers are identical, so plain «Э».

    The English edition prints the letter by its place in the alphabet (4В as 4C, Э as E:
    :func:`mhp_cards.catalog.cardid.english_card_id`).
    """
    return printed_card_id(ELECTROLYSER if card.group == "electrolyser" else card.id, lang)


def _port_centre(port: Port, size: float) -> tuple[float, float]:
    along = PORT_OFFSETS[port.position] * size
    return {
        "top": (along, 0.0),
        "bottom": (along, size),
        "left": (0.0, along),
        "right": (size, along),
    }[port.edge]


Point = tuple[float, float]


def _pipe_path(sketch: Sketch, points: Sequence[Point], colour: str, optional: bool) -> None:
    """A pipe along axis-parallel segments: a wall of ``colour``, a light bore, clean elbows.

    The first point of a pipe that leaves the card lies on the cut line: there the pipe is
    exactly PIPE wide and centred on the port, as its partner's on the next card.
    """
    wall = blend(colour, WHITE, 0.45) if optional else colour
    bore = blend(colour, WHITE, 0.78)
    for width, fill in ((PIPE, wall), (PIPE - 2 * WALL, bore)):
        half = width / 2
        for index, ((x0, y0), (x1, y1)) in enumerate(itertools.pairwise(points)):
            # at an elbow each segment runs on by half its width, so that the corner is filled
            start = 0.0 if index == 0 else half
            end = 0.0 if index == len(points) - 2 else half
            if y0 == y1:
                sign = 1 if x1 >= x0 else -1
                left, right = sorted((x0 - sign * start, x1 + sign * end))
                sketch.rect(left, y0 - half, right - left, width, fill=fill)
            else:
                sign = 1 if y1 >= y0 else -1
                top, bottom = sorted((y0 - sign * start, y1 + sign * end))
                sketch.rect(x0 - half, top, width, bottom - top, fill=fill)
    if optional:
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            sketch.line(x0, y0, x1, y1, stroke=colour, line_width=0.3, dash=(1.0, 0.8))


def _chevron(sketch: Sketch, x: float, y: float, dx: float, dy: float, colour: str) -> None:
    """A flow arrow head at (x, y) pointing along (dx, dy), drawn inside a pipe."""
    length, half = 2.0, 1.25
    tip = (x + dx * length / 2, y + dy * length / 2)
    back = (x - dx * length / 2, y - dy * length / 2)
    sketch.polygon(
        [
            tip,
            (back[0] - dy * half, back[1] + dx * half),
            (back[0] + dy * half, back[1] - dx * half),
        ],
        fill=colour,
    )


def _flow(sketch: Sketch, points: Sequence[Point], colour: str, outward: bool) -> None:
    """Chevrons along the longest segment of a pipe, pointing the way the substance flows."""
    (x0, y0), (x1, y1) = max(
        itertools.pairwise(points), key=lambda s: abs(s[1][0] - s[0][0]) + abs(s[1][1] - s[0][1])
    )
    length = abs(x1 - x0) + abs(y1 - y0)
    dx, dy = (x1 - x0) / length, (y1 - y0) / length
    if outward:
        dx, dy = -dx, -dy
    count = 1 if length < 12 else 2
    for k in range(count):
        share = (k + 1) / (count + 1)
        _chevron(sketch, x0 + (x1 - x0) * share, y0 + (y1 - y0) * share, dx, dy, colour)


def _port_label(face: Face, port: Port, card: str, colour: str, room: float) -> None:
    """The substance of a pipe, beside it near the edge: below a side pipe, right of a top one."""
    size = face.size.width
    cx, cy = _port_centre(port, size)
    style = face.region("port_label")
    half = PIPE / 2
    update: dict[str, object]
    # The label keeps the safe zone from the cut line; the pipe itself runs to the edge.
    if port.edge in ("left", "right"):
        x = SAFE_ZONE if port.edge == "left" else size - SAFE_ZONE - room
        align = "left" if port.edge == "left" else "right"
        update = {"x": x, "y": cy + half + 0.3, "width": room, "align": align}
    else:
        y = SAFE_ZONE + 0.1 if port.edge == "top" else size - SAFE_ZONE - 0.3 - style.height
        update = {"x": cx + half + 0.6, "y": y, "width": 17.0, "align": "left"}
    place_line(
        face.sketch,
        formula_runs(port.substance, bold=True),
        style.model_copy(update=update),
        card,
        f"port {port.edge} {port.position}",
        colour,
    )


def _port_pipe(face: Face, port: Port, body: Region, card: str) -> None:
    """A pipe from an edge port straight to the reactor body, with its flow and its substance."""
    accent = face.template.accent
    size = face.size.width
    cx, cy = _port_centre(port, size)
    end = {
        "top": (cx, body.y),
        "bottom": (cx, body.y + body.height),
        "left": (body.x, cy),
        "right": (body.x + body.width, cy),
    }[port.edge]
    points = [(cx, cy), end]
    _pipe_path(face.sketch, points, accent, port.optional)
    _flow(face.sketch, points, accent, outward=port.direction == "out")
    room = (body.x if port.edge == "left" else size - body.x - body.width) - SAFE_ZONE - 0.8
    _port_label(face, port, card, accent, room)


@dataclass(frozen=True, slots=True)
class _Box:
    """A container laid out in the body: where, and for a product the grid of its places."""

    container: Container
    width: float
    height: float
    columns: int = 0
    rows: int = 0


def _input_width(face: Face, container: Container, source: str) -> float:
    formula = face.region("formula")
    note = face.region("source")
    words = max((runs_width(text_runs(w), note.min_size) for w in source.split()), default=0.0)
    return max(formula_width(container.substance, formula.min_size), words) + 2 * PAD + 1


def _grid(count: int, columns: int, place: float) -> tuple[float, float]:
    rows = math.ceil(count / columns)
    return (
        columns * place + (columns - 1) * PLACE_GAP,
        rows * place + (rows - 1) * PLACE_GAP,
    )


def _product_boxes(
    face: Face, products: Sequence[Container], width: float, height: float, card: str
) -> list[_Box]:
    """Choose a grid for each product's places so that the row fits ``width`` × ``height``.

    Of the arrangements that fit, the one with the fewest rows of places wins (then the
    narrowest); none fitting is a located error naming the card and the container.
    """
    if not products:
        return []
    place = place_size(face)
    formula = face.region("formula")
    text_h = FORMULA_H + PRICE_H + 2 * PAD
    options = []
    for container in products:
        fits = []
        for columns in range(1, container.places + 1):
            grid_w, grid_h = _grid(container.places, columns, place)
            need_w = max(grid_w, formula_width(container.substance, formula.min_size)) + 2 * PAD
            fits.append(
                _Box(
                    container,
                    need_w,
                    grid_h + text_h,
                    columns,
                    math.ceil(container.places / columns),
                )
            )
        options.append(fits)
    room = width - CONTAINER_GAP * (len(products) - 1)
    best: tuple[tuple[float, float], tuple[_Box, ...]] | None = None
    for combination in itertools.product(*options):
        total = sum(box.width for box in combination)
        tallest = max(box.height for box in combination)
        if total <= room + 1e-6 and tallest <= height + 1e-6:
            key = (max(box.rows for box in combination), total)
            if best is None or key < best[0]:
                best = (key, combination)
    if best is None:
        widest = max(products, key=lambda c: c.places)
        narrowest = min(
            (box for box in options[products.index(widest)]),
            key=lambda box: box.width + box.height,
        )
        sizes = f"of {place:g} mm (a {face.token:g} mm chemist token + {PLACE_CLEARANCE:g} mm)"
        if narrowest.width > room + 1e-6 or narrowest.height > height + 1e-6:
            need = (
                f"{widest.places} place(s) {sizes} need at least {narrowest.width:.1f} × "
                f"{narrowest.height:.1f} mm for {widest.substance} alone"
            )
        else:
            smallest = sum(min(box.width for box in fits) for fits in options)
            smallest += CONTAINER_GAP * (len(products) - 1)
            need = (
                f"the {len(products)} products' {sum(c.places for c in products)} places {sizes} "
                f"need at least {smallest:.1f} mm side by side"
            )
        raise PlacesError(
            card,
            f"container {widest.substance}",
            f"{need}, but the card's products have {room:.1f} × {height:.1f} mm; make the "
            "chemist token smaller in the sheet profile (card_sizes: chemist) or the reactor "
            "card larger",
            where=face.token_source,
        )
    return list(best[1])


def _spread(boxes: Sequence[_Box], width: float) -> list[_Box]:
    """Share the spare width of a row among its containers, so that the row fills the body."""
    if not boxes:
        return []
    spare = width - sum(box.width for box in boxes) - CONTAINER_GAP * (len(boxes) - 1)
    extra = max(0.0, spare) / len(boxes)
    return [
        _Box(box.container, box.width + extra, box.height, box.columns, box.rows) for box in boxes
    ]


def _draw_input(
    face: Face, catalog: Catalog, box: _Box, x: float, y: float, height: float, card: str
) -> None:
    sketch = face.sketch
    accent = face.template.accent
    container = box.container
    transit = container.role == "transit"
    sketch.rect(
        x,
        y,
        box.width,
        height,
        fill="#EEF2F6" if transit else "#FFF6E3",
        stroke=accent,
        line_width=0.45,
        radius=1.5,
        dash=() if transit else (1.4, 0.8),
    )
    region = f"container {container.substance}"
    if not transit:  # where a card of a run is laid (the rulebook's pictures lay them there)
        sketch.mark("input", x, y, box.width, height, substance=container.substance)
    note = (
        t("transit", face.lang)
        if transit
        else input_source(catalog, container.substance, face.lang)
    )
    if note:
        fit_lines(
            sketch,
            [text_runs(note)],
            face.region("source").model_copy(
                update={
                    "x": x + PAD,
                    "y": y + PAD,
                    "width": box.width - 2 * PAD,
                    "height": SOURCE_H,
                }
            ),
            card,
            region,
            "#6B5A3A",
        )
    place_line(
        sketch,
        formula_runs(container.substance, bold=True),
        face.region("formula").model_copy(
            update={
                "x": x + PAD,
                "y": y + height - PAD - FORMULA_H,
                "width": box.width - 2 * PAD,
                "height": FORMULA_H,
            }
        ),
        card,
        region,
        face.template.ink,
    )


def _draw_product(
    face: Face,
    catalog: Catalog,
    box: _Box,
    x: float,
    y: float,
    height: float,
    card: str,
    piece: str,
) -> None:
    sketch = face.sketch
    accent = face.template.accent
    container = box.container
    sketch.rect(x, y, box.width, height, fill=WHITE, stroke=accent, line_width=0.55, radius=1.5)
    region = f"container {container.substance}"
    place_line(
        sketch,
        formula_runs(container.substance, bold=True),
        face.region("formula").model_copy(
            update={"x": x + PAD, "y": y + PAD, "width": box.width - 2 * PAD, "height": FORMULA_H}
        ),
        card,
        region,
        face.template.ink,
    )
    price = catalog.substance(container.substance).price
    place_line(
        sketch,
        text_runs(f"{price}\u00a0{t('coin_unit', face.lang)}", bold=True),
        face.region("price").model_copy(
            update={
                "x": x + PAD,
                "y": y + height - PAD - PRICE_H,
                "width": box.width - 2 * PAD,
                "height": PRICE_H,
            }
        ),
        card,
        f"price {container.substance}",
        "#7A5C12",
    )
    place = place_size(face)
    grid_w, grid_h = _grid(container.places, box.columns, place)
    top = y + PAD + FORMULA_H + (height - 2 * PAD - FORMULA_H - PRICE_H - grid_h) / 2
    draw_places(
        face,
        x + (box.width - grid_w) / 2,
        top,
        container.places,
        box.columns,
        piece,
        container.substance,
    )


def _body(face: Face, catalog: Catalog, card: ReactorCard, label: str) -> None:
    """The reactor itself: what goes in (top), the reaction, what comes out (bottom)."""
    sketch = face.sketch
    body = face.region("body")
    accent = face.template.accent
    sketch.rect(
        body.x,
        body.y,
        body.width,
        body.height,
        fill=blend(accent, WHITE, 0.93),
        stroke=accent,
        line_width=0.7,
        radius=2.5,
    )
    inner_w = body.width - 2 * PAD
    inputs = [c for c in card.containers if c.role != "product"]
    products = [c for c in card.containers if c.role == "product"]
    input_h = SOURCE_H + FORMULA_H + 2 * PAD if inputs else 0.0
    reactions: list[list[Run]] = [reaction_runs(reaction) for reaction in card.parsed_reactions]
    reaction_h = REACTION_H if reactions else 0.0
    used = PAD + (input_h + PAD if inputs else 0.0) + (reaction_h + PAD if reactions else 0.0)
    product_h = body.height - used - PAD
    boxes = _product_boxes(face, products, inner_w, product_h, label)
    y = body.y + PAD
    if inputs:
        sources = [input_source(catalog, c.substance, face.lang) for c in inputs]
        row = [
            _Box(c, _input_width(face, c, source), input_h)
            for c, source in zip(inputs, sources, strict=True)
        ]
        needed = sum(box.width for box in row) + CONTAINER_GAP * (len(row) - 1)
        if needed > inner_w + 1e-6:
            raise PlacesError(
                label,
                f"container {inputs[-1].substance}",
                f"the inputs need {needed:.1f} mm but the body is {inner_w:.1f} mm wide; "
                "widen the body region in the template",
            )
        x = body.x + PAD
        for box in _spread(row, inner_w):
            _draw_input(face, catalog, box, x, y, input_h, label)
            x += box.width + CONTAINER_GAP
        y += input_h + PAD
    if reactions:
        height = reaction_h if products else body.y + body.height - PAD - y
        fit_lines(
            sketch,
            reactions,
            face.region("reaction").model_copy(
                update={
                    "x": body.x + PAD,
                    "y": y,
                    "width": inner_w,
                    "height": height,
                    # with no products below, the reaction has the body's room: larger type
                    **({} if products else {"size": face.region("reaction").size * 1.3}),
                }
            ),
            label,
            "reaction",
            face.template.ink,
        )
        y += reaction_h + PAD
    if products:
        x = body.x + PAD
        height = body.y + body.height - PAD - y
        for box in _spread(boxes, inner_w):
            _draw_product(face, catalog, box, x, y, height, label, card.id)
            x += box.width + CONTAINER_GAP


def _transit(face: Face, card: ReactorCard, label: str) -> None:
    """A card that only carries a substance on: pipes from every port into a buffer tank."""
    sketch = face.sketch
    accent = face.template.accent
    size = face.size.width
    tank = face.region("tank")
    left, top = tank.x, tank.y
    right, bottom = tank.x + tank.width, tank.y + tank.height
    for port in card.ports:
        x, y = _port_centre(port, size)
        points: list[Point] = [(x, y)]
        if port.edge in ("left", "right"):
            wall = left if port.edge == "left" else right
            if top + PIPE <= y <= bottom - PIPE:
                points.append((wall, y))
            else:  # pass beside the tank, then turn into its top or bottom
                column = (left + right) / 2 + (PIPE + 2 if port.edge == "right" else -PIPE - 2)
                points += [(column, y), (column, top if y < top else bottom)]
        else:
            points.append((x, top if port.edge == "top" else bottom))
        _pipe_path(sketch, points, accent, port.optional)
        _flow(sketch, points, accent, outward=port.direction == "out")
        room = min(size - right, left) - SAFE_ZONE - 0.8
        _port_label(face, port, label, accent, room)
    sketch.rect(
        left,
        top,
        right - left,
        bottom - top,
        fill=WHITE,
        stroke=accent,
        line_width=0.7,
        radius=min(6.0, (right - left) / 2),
    )
    sketch.line(
        left + 2, top + 4, right - 2, top + 4, stroke=blend(accent, WHITE, 0.6), line_width=0.3
    )
    sketch.line(
        left + 2,
        bottom - 4,
        right - 2,
        bottom - 4,
        stroke=blend(accent, WHITE, 0.6),
        line_width=0.3,
    )
    container = next((c for c in card.containers if c.role == "transit"), None)
    if container is not None:
        place_line(
            sketch,
            formula_runs(container.substance, bold=True),
            face.region("formula").model_copy(
                update={
                    "x": left + 1,
                    "y": top + 5,
                    "width": right - left - 2,
                    "height": 8,
                    "size": 14,
                }
            ),
            label,
            f"container {container.substance}",
            face.template.ink,
        )
    fit_lines(
        sketch,
        [text_runs(t("transit_note", face.lang))],
        face.region("source").model_copy(
            update={
                "x": left + 1.5,
                "y": top + 13.5,
                "width": right - left - 3,
                "height": bottom - top - 18,
                "align": "center",
            }
        ),
        label,
        "tank",
        "#4A5560",
    )


def reactor_front(
    face: Face, catalog: Catalog, card: ReactorCard, root: Path | None = None
) -> None:
    """A reactor card: ID and name, pipes from the edge ports into the reactor, its containers.

    Inputs sit at the top of the reactor and say where they come from (a raw card or another
    installation), the reaction runs below them, the products with their token places and
    prices at the bottom; a card that only carries a substance on is drawn as pipes and a tank.
    """
    label = f"reactor card {card.id}"
    size = face.size.width
    accent = face.template.accent
    face.background(border=accent)
    # A picture of the apparatus, where the template has a place for one (root: the catalog).
    if card.art and root is not None and "art" in face.template.regions:
        draw_picture(face, face.region("art"), art_path(root, card.art), f"{label} art")
    face.line(text_runs(display_id(card, face.lang), bold=True, colour=accent), "id", label)
    name = (
        card.name.get(face.lang)
        if card.name
        else (t("electrolyser", face.lang) if card.group == "electrolyser" else "")
    )
    if name:
        face.lines([text_runs(name)], "name", label)
    if card.containers and all(c.role == "transit" for c in card.containers):
        _transit(face, card, label)
    else:
        body = face.region("body")
        for port in card.ports:
            _port_pipe(face, port, body, label)
        _body(face, catalog, card, label)
    if any(c.role == "product" for c in card.containers):
        place_legend(face, label, "run_legend")
    if card.conditions is not None:
        face.lines([text_runs(card.conditions.get(face.lang))], "note", label)
    elif card.group == "electrolyser":
        # Ruling L2.T4-transit: where the optional pipe is joined, the H2 takes no token.
        face.lines([text_runs(t("piped_hydrogen", face.lang))], "note", label)
    if card.group == "main":
        face.sketch.circle(5.2, size - 5.2, 3.0, fill=RED)
    elif card.group == "electrolyser":
        face.sketch.rect(size - 8.2, size - 8.2, 6, 6, fill=PURPLE)


def reactor_back(face: Face) -> None:
    """The back of reactor cards (installations and electrolysers alike)."""
    size = face.size.width
    face.background()
    light = blend(face.template.paper, WHITE, 0.3)
    cx, cy = size / 2, 26
    for angle in range(0, 360, 45):
        a = math.radians(angle)
        face.sketch.polygon(
            [
                (cx + 13 * math.cos(a - 0.18), cy + 13 * math.sin(a - 0.18)),
                (cx + 17 * math.cos(a - 0.12), cy + 17 * math.sin(a - 0.12)),
                (cx + 17 * math.cos(a + 0.12), cy + 17 * math.sin(a + 0.12)),
                (cx + 13 * math.cos(a + 0.18), cy + 13 * math.sin(a + 0.18)),
            ],
            fill=light,
        )
    face.sketch.circle(cx, cy, 13.5, fill=light)
    face.sketch.circle(cx, cy, 6, fill=face.template.paper)
    face.line(text_runs(t("installation", face.lang), bold=True), "title", "reactor card back")
    face.line(text_runs(t("company", face.lang)), "subtitle", "reactor card back")
