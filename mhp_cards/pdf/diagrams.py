"""Diagrams shared by the rulebook and the assembly guides: a field with its Base, an installation.

Both draw into a box of the caller's choosing on a :class:`Sketch` and report what they drew;
the installation is made of the real card faces (scaled), so a diagram always shows the cards
the kit prints.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from mhp_cards.assembly.solver import solve_installation
from mhp_cards.catalog.models import Catalog, formula_of
from mhp_cards.game.dealer import field_positions
from mhp_cards.game.rng import Rng
from mhp_cards.pdf import reactor_face
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.sketch import Sketch
from mhp_cards.pdf.style import BASE, SAND, WHITE

__all__ = [
    "DrawFace",
    "FieldDiagram",
    "Input",
    "InstallationDiagram",
    "draw_field",
    "draw_installation",
    "field_extent",
    "installation_inputs",
]

#: Draws one face at the sketch's current origin: (draw, sketch, template, card kind) -> None.
DrawFace = Callable[[Callable[[Face], None], Sketch, str, str], None]


@dataclass(frozen=True, slots=True)
class Input:
    """A raw input of an installation and where it comes from."""

    substance: str
    #: The raw-material cards of this substance, with their copies in the box.
    raw_cards: tuple[tuple[str, int], ...]
    #: The installations whose products include it.
    made_by: tuple[int, ...]


def installation_inputs(catalog: Catalog, number: int, lang: str) -> list[Input]:
    """Each raw input of installation ``number`` once, with its raw cards or its makers."""
    installation = catalog.installation(number)
    found: dict[str, Input] = {}
    for card in installation.cards:
        for container in card.containers:
            if container.role != "raw-input" or container.substance in found:
                continue
            formula = formula_of(container.substance)
            raws = tuple(
                (raw.name.get(lang), raw.copies)
                for raw in catalog.raw_materials
                if formula_of(raw.formula) == formula
            )
            makers = tuple(
                other.number
                for other in catalog.installations
                if other.number != number
                and any(
                    formula_of(c.substance) == formula
                    for part in other.cards
                    for c in part.containers
                    if c.role == "product"
                )
            )
            found[container.substance] = Input(container.substance, raws, makers)
    return list(found.values())


@dataclass(frozen=True, slots=True)
class FieldDiagram:
    """What :func:`draw_field` drew: the size of the field and of one cell, in mm."""

    cells: int
    width: float
    height: float
    cell: float


@dataclass(frozen=True, slots=True)
class InstallationDiagram:
    """What :func:`draw_installation` drew: its size in mm, its scale and its electrolysers."""

    width: float
    height: float
    scale: float
    electrolysers: int


def field_extent(cells: int) -> tuple[int, int]:
    """Columns and rows of the rectangular field of ``cells`` Fate cards with its Base."""
    (bx, by), positions = field_positions(cells, "rectangle", Rng(0))
    columns = max(bx, *(px for px, _ in positions)) + 1
    rows = max(by, *(py for _, py in positions)) + 1
    return columns, rows


def draw_field(
    sketch: Sketch, x: float, y: float, width: float, height: float, cells: int
) -> FieldDiagram:
    """A rectangular field of ``cells`` Fate cards around the Base, centred in the box.

    The field is the dealer's own rectangle (seed 0), so the picture is a field the rules
    allow; each cell shows the raw card lying on it.
    """
    (bx, by), positions = field_positions(cells, "rectangle", Rng(0))
    columns, rows = field_extent(cells)
    cell = min(width / columns, height / rows)
    left = x + (width - columns * cell) / 2
    top = y + (height - rows * cell) / 2
    gap = cell * 0.08
    for px, py in positions:
        cx, cy = left + px * cell, top + py * cell
        sketch.rect(cx + gap, cy + gap, cell - 2 * gap, cell - 2 * gap, fill="#8C3B26", radius=0.3)
        inner = cell * 0.22
        sketch.rect(
            cx + inner, cy + inner, cell - 2 * inner, cell - 2 * inner, fill=SAND, radius=0.2
        )
    cx, cy = left + bx * cell, top + by * cell
    sketch.rect(cx + gap, cy + gap, cell - 2 * gap, cell - 2 * gap, fill=BASE, radius=0.3)
    sketch.circle(cx + cell / 2, cy + cell / 2, cell * 0.18, fill=WHITE)
    return FieldDiagram(len(positions), columns * cell, rows * cell, cell)


def draw_installation(
    sketch: Sketch,
    catalog: Catalog,
    number: int,
    card_size: float,
    x: float,
    y: float,
    width: float,
    height: float,
    draw_face: DrawFace,
    max_scale: float = 1.0,
) -> InstallationDiagram | None:
    """Installation ``number`` assembled from its card faces, scaled to fit and centred in the box.

    ``draw_face`` draws one face at the sketch's current origin (the kit's and the rulebook's
    own, which collect typesetting problems). None when the installation has no arrangement.
    """
    solution = solve_installation(catalog, number)
    arrangement = solution.canonical
    if arrangement is None:
        return None
    grid = arrangement.grid()
    rows, columns = len(grid), len(grid[0])
    scale = min(max_scale, width / (columns * card_size), height / (rows * card_size))
    left = x + (width - columns * card_size * scale) / 2
    top = y
    for r, row in enumerate(grid):
        for c, token in enumerate(row):
            if token is None:
                continue
            reactor = catalog.electrolyser if token == "Э" else catalog.card(token)
            if reactor is None:
                continue
            with sketch.at(left + c * card_size * scale, top + r * card_size * scale, scale):
                front = partial(reactor_face.reactor_front, catalog=catalog, card=reactor)
                draw_face(front, sketch, "reactor", "reactor")
    return InstallationDiagram(
        columns * card_size * scale, rows * card_size * scale, scale, solution.electrolysers
    )
