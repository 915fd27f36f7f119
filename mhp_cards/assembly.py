"""Reactor assembly: checking an arrangement of reactor cards, and finding the valid ones.

Cards lie upright on a grid, edge to edge. Where two cards touch, each port on one edge meets
the port at the same position on the facing edge: same substance, one ``out`` and one ``in``.
A port may not face a card edge with no port at its position, and may stay open only when it
is ``optional``. Every card is joined to the others by pipes, and the cards' reactions, each
taken a positive number of times, add up to the installation's overall reaction with the
intermediates cancelling (DESIGN.md, "Reactor assembly").

Arrangements are written inline with rows separated by ``/`` and ``.`` for an empty cell:

>>> Arrangement.parse("2А 2Б / Э .").grid()
[['2А', '2Б'], ['Э', None]]
"""

from __future__ import annotations

import dataclasses
import pathlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final, Literal

import yaml

from mhp_cards.cardid import ELECTROLYSER, CardIdError, read_card_id
from mhp_cards.catalog.models import PORT_POSITIONS, Catalog, Installation, Port, ReactorCard
from mhp_cards.errors import AssemblyError
from mhp_cards.formula import Formula
from mhp_cards.linalg import nullspace
from mhp_cards.reaction import Reaction

__all__ = [
    "EDGES",
    "Arrangement",
    "AssemblyProblem",
    "AssemblyReport",
    "Solution",
    "card_flow_problems",
    "check_arrangement",
    "check_placement",
    "net_reaction_problem",
    "render_arrangement",
    "solve",
    "solve_installation",
]

Edge = Literal["top", "right", "bottom", "left"]
Cell = tuple[int, int]
EDGES: Final[tuple[Edge, ...]] = ("top", "right", "bottom", "left")
OPPOSITE: Final[dict[Edge, Edge]] = {
    "top": "bottom",
    "bottom": "top",
    "left": "right",
    "right": "left",
}
STEP: Final[dict[Edge, Cell]] = {"top": (-1, 0), "bottom": (1, 0), "left": (0, -1), "right": (0, 1)}
MAX_ELECTROLYSERS: Final = 5


@dataclass(frozen=True, slots=True, order=True)
class Arrangement:
    """Card IDs on grid cells, translated so that the top-left occupied row and column are 0."""

    cells: tuple[tuple[int, int, str], ...]

    @classmethod
    def from_cells(cls, cells: Mapping[Cell, str]) -> Arrangement:
        """Build from ``{(row, column): card_id}`` (any offset)."""
        if not cells:
            return cls(())
        top = min(row for row, _ in cells)
        left = min(column for _, column in cells)
        return cls(tuple(sorted((r - top, c - left, card) for (r, c), card in cells.items())))

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[str | None]]) -> Arrangement:
        """Build from rows of card IDs, None or ``.`` for an empty cell."""
        cells = {
            (r, c): card
            for r, row in enumerate(rows)
            for c, card in enumerate(row)
            if card not in (None, ".")
        }
        return cls.from_cells(cells)

    @classmethod
    def parse(cls, text: str) -> Arrangement:
        """Read the inline form ``"2А 2Б / Э ."``; AssemblyError with a caret when unreadable."""
        if not text.strip():
            raise AssemblyError(
                "empty arrangement; write card IDs in rows separated by '/', '.' for an empty "
                "cell, e.g. '2А 2Б / Э .'",
                text,
                0,
            )
        rows: list[list[str | None]] = []
        position = 0
        for row_text in text.split("/"):
            row: list[str | None] = []
            offset = 0
            for token in row_text.split():
                offset = row_text.index(token, offset)
                if token != "." and not token.isprintable():
                    raise AssemblyError(f"unreadable cell {token!r}", text, position + offset)
                row.append(None if token == "." else token)
                offset += len(token)
            if not row:
                raise AssemblyError(
                    "empty row; every row between '/' needs at least one cell ('.' for empty)",
                    text,
                    position,
                )
            rows.append(row)
            position += len(row_text) + 1
        arrangement = cls.from_rows(rows)
        if not arrangement.cells:
            raise AssemblyError("the arrangement has no card", text, 0)
        return arrangement

    def as_dict(self) -> dict[Cell, str]:
        """``{(row, column): card_id}``."""
        return {(r, c): card for r, c, card in self.cells}

    def grid(self) -> list[list[str | None]]:
        """Rows of card IDs, None for empty cells."""
        if not self.cells:
            return []
        height = max(r for r, _, _ in self.cells) + 1
        width = max(c for _, c, _ in self.cells) + 1
        rows: list[list[str | None]] = [[None] * width for _ in range(height)]
        for r, c, card in self.cells:
            rows[r][c] = card
        return rows

    def text(self) -> str:
        """The inline form, e.g. ``2А 2Б / Э .``."""
        return " / ".join(" ".join(card or "." for card in row) for row in self.grid())

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, slots=True)
class AssemblyProblem:
    """Why an arrangement is not valid: which card, edge and position; expected and found."""

    code: str
    message: str
    card: str | None = None
    edge: str | None = None
    position: int | None = None
    expected: str | None = None
    found: str | None = None

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> dict[str, object]:
        """The problem as a JSON-ready mapping."""
        return {
            "code": self.code,
            "message": self.message,
            "card": self.card,
            "edge": self.edge,
            "position": self.position,
            "expected": self.expected,
            "found": self.found,
        }


@dataclass(frozen=True, slots=True)
class AssemblyReport:
    """The verdict on an arrangement: every problem found, and how card IDs were read."""

    arrangement: Arrangement
    installation: int | None
    problems: tuple[AssemblyProblem, ...]
    notes: tuple[str, ...] = ()

    def is_valid(self) -> bool:
        """True when the arrangement has no problem."""
        return not self.problems


def _describe(port: Port) -> str:
    return f"{port.substance} {port.direction}"


def _port_name(card_id: str, port: Port) -> str:
    return f"{card_id} {port.edge} edge, position {port.position} ({_describe(port)})"


def check_placement(placed: Mapping[Cell, tuple[str, ReactorCard]]) -> list[AssemblyProblem]:
    """Problems of the pipes of cards placed on cells: ports that do not meet, or stay open.

    ``placed`` maps a cell to (display ID, card). Each touching pair is examined once.
    """
    problems: list[AssemblyProblem] = []
    for (row, column), (card_id, card) in sorted(placed.items()):
        for port in card.ports:
            d_row, d_column = STEP[port.edge]
            neighbour = placed.get((row + d_row, column + d_column))
            if neighbour is None:
                if not port.optional:
                    problems.append(
                        AssemblyProblem(
                            "open-port",
                            f"{_port_name(card_id, port)} is left open: no card touches that "
                            "edge; place the card that takes this pipe there",
                            card_id,
                            port.edge,
                            port.position,
                            f"a card with a {port.substance} "
                            f"{'in' if port.direction == 'out' else 'out'} port",
                            "nothing",
                        )
                    )
                continue
            if port.edge in ("left", "top"):
                continue  # the pair is examined from the other card's right or bottom edge
            other_id, other = neighbour
            facing = OPPOSITE[port.edge]
            problems.extend(_meeting(card_id, port, other_id, other.port_at(facing, port.position)))
        for edge in ("right", "bottom"):
            d_row, d_column = STEP[edge]
            neighbour = placed.get((row + d_row, column + d_column))
            if neighbour is None:
                continue
            other_id, other = neighbour
            facing = OPPOSITE[edge]
            for other_port in other.ports:
                if other_port.edge == facing and card.port_at(edge, other_port.position) is None:
                    problems.append(
                        AssemblyProblem(
                            "no-port-opposite",
                            f"{_port_name(other_id, other_port)} meets {card_id}'s {edge} edge "
                            f"at position {other_port.position}, where {card_id} has no port",
                            other_id,
                            other_port.edge,
                            other_port.position,
                            f"a port on {card_id}'s {edge} edge at position {other_port.position}",
                            "no port",
                        )
                    )
    return problems


def _meeting(card_id: str, port: Port, other_id: str, other: Port | None) -> list[AssemblyProblem]:
    facing = OPPOSITE[port.edge]
    wanted = "in" if port.direction == "out" else "out"
    if other is None:
        return [
            AssemblyProblem(
                "no-port-opposite",
                f"{_port_name(card_id, port)} meets {other_id}'s {facing} edge at position "
                f"{port.position}, where {other_id} has no port",
                card_id,
                port.edge,
                port.position,
                f"{port.substance} {wanted} on {other_id}'s {facing} edge",
                "no port",
            )
        ]
    problems = []
    if other.parsed != port.parsed:
        problems.append(
            AssemblyProblem(
                "substance-mismatch",
                f"{_port_name(card_id, port)} meets {_port_name(other_id, other)}: the pipe "
                f"carries {port.substance} on one side and {other.substance} on the other",
                card_id,
                port.edge,
                port.position,
                port.substance,
                other.substance,
            )
        )
    if other.direction == port.direction:
        problems.append(
            AssemblyProblem(
                "direction-mismatch",
                f"{_port_name(card_id, port)} meets {_port_name(other_id, other)}: both are "
                f"'{port.direction}'; one side must be 'out' and the other 'in'",
                card_id,
                port.edge,
                port.position,
                f"{wanted} on {other_id}",
                other.direction,
            )
        )
    return problems


def _pipe_components(placed: Mapping[Cell, tuple[str, ReactorCard]]) -> list[set[Cell]]:
    """Groups of cells joined by pipes (ports that meet a port)."""
    remaining = set(placed)
    components = []
    while remaining:
        start = min(remaining)
        component = {start}
        stack = [start]
        while stack:
            row, column = stack.pop()
            _, card = placed[(row, column)]
            for port in card.ports:
                d_row, d_column = STEP[port.edge]
                cell = (row + d_row, column + d_column)
                if cell in placed and cell not in component:
                    _, other = placed[cell]
                    if other.port_at(OPPOSITE[port.edge], port.position) is not None:
                        component.add(cell)
                        stack.append(cell)
        remaining -= component
        components.append(component)
    return components


def card_flow_problems(card: ReactorCard) -> list[AssemblyProblem]:
    """Problems of one card on its own: what enters is used or passed on, what leaves is made.

    A substance entering through a port is a reactant of one of the card's reactions or is
    passed on (a transit container, or an out-port of the same substance); a substance leaving
    is a product or passed on. Raw-input containers hold reactants; product containers hold
    products.
    """
    reactants: set[Formula] = set()
    products: set[Formula] = set()
    for reaction in card.parsed_reactions:
        reactants.update(f for _, f in reaction.reactants)
        products.update(f for _, f in reaction.products)
    transit = {c.parsed for c in card.containers if c.role == "transit"}
    inflow = {p.parsed for p in card.ports if p.direction == "in"}
    outflow = {p.parsed for p in card.ports if p.direction == "out"}
    inputs = {c.parsed for c in card.containers if c.role == "raw-input"}
    problems = []
    for port in card.ports:
        substance = port.parsed
        if port.direction == "in":
            stored = {c.parsed for c in card.containers if c.role in ("product", "transit")}
            ok = substance in reactants or substance in stored or substance in outflow
            role = "consumed by a reaction of the card, stored in a container or passed on"
        else:
            ok = substance in products or substance in transit or substance in inflow | inputs
            role = "made by a reaction of the card or passed on"
        if not ok:
            problems.append(
                AssemblyProblem(
                    "card-flow",
                    f"{_port_name(card.id, port)}: {port.substance} is not {role}",
                    card.id,
                    port.edge,
                    port.position,
                    role,
                    port.substance,
                )
            )
    for container in card.containers:
        substance = container.parsed
        if container.role == "raw-input" and substance not in reactants:
            problems.append(
                AssemblyProblem(
                    "card-flow",
                    f"{card.id}: the raw-input container of {container.substance} feeds no "
                    "reaction of the card",
                    card.id,
                    expected="a reactant of the card's reactions",
                    found=container.substance,
                )
            )
        if container.role == "product" and substance not in products | inflow:
            problems.append(
                AssemblyProblem(
                    "card-flow",
                    f"{card.id}: the product container of {container.substance} is filled by no "
                    "reaction of the card and no incoming pipe",
                    card.id,
                    expected="a product of the card's reactions",
                    found=container.substance,
                )
            )
    return problems


def net_reaction_problem(
    cards: Sequence[ReactorCard], overall: Reaction, label: str = "the installation"
) -> AssemblyProblem | None:
    """None when the cards' reactions combine (positively) into ``overall``; else the problem.

    Solves Σ xᵢ·(reaction i) = λ·overall exactly for xᵢ > 0, λ > 0 over every species.
    """
    reactions = [reaction for card in cards for reaction in card.parsed_reactions]
    # Identical reactions (two electrolysers) are one column: only their total is determined.
    columns = list(
        {
            tuple(sorted(r.stoichiometry().items(), key=str)): r.stoichiometry() for r in reactions
        }.values()
    )
    target = overall.stoichiometry()
    species = list(dict.fromkeys(f for column in [*columns, target] for f in column))
    rows = [
        [column.get(formula, 0) for column in columns] + [-target.get(formula, 0)]
        for formula in species
    ]
    basis = nullspace(rows) if reactions else []
    with_overall = [vector for vector in basis if vector[-1] != 0]
    if len(basis) == 1 and with_overall:
        vector = with_overall[0]
        if vector[-1] < 0:
            vector = tuple(-x for x in vector)
        if all(x > 0 for x in vector):
            return None
    net = _net_of(reactions, basis)
    found = f"they add up to {net}" if net else "they cannot add up to it"
    if len(basis) > 1:
        found = "their combination is not determined uniquely"
    return AssemblyProblem(
        "net-reaction",
        f"the reactions of {label}'s cards do not combine into its overall reaction "
        f"{overall}: {found}",
        expected=str(overall),
        found=net or None,
    )


def _net_of(reactions: Sequence[Reaction], basis: list[tuple[int, ...]]) -> str:
    """The net reaction when every card reaction runs once (for the message)."""
    net: dict[Formula, Fraction] = {}
    for reaction in reactions:
        for formula, n in reaction.stoichiometry().items():
            net[formula] = net.get(formula, Fraction(0)) + n
    left = [f"{-n} {f}" if n != -1 else str(f) for f, n in net.items() if n < 0]
    right = [f"{n} {f}" if n != 1 else str(f) for f, n in net.items() if n > 0]
    if not left and not right:
        return ""
    return f"{' + '.join(left) or '∅'} -> {' + '.join(right) or '∅'}"


def check_arrangement(catalog: Catalog, arrangement: Arrangement) -> AssemblyReport:
    """Check an arrangement of catalog cards: every problem, with card, edge and position."""
    problems: list[AssemblyProblem] = []
    notes: list[str] = []
    placed: dict[Cell, tuple[str, ReactorCard]] = {}
    numbers: set[int] = set()
    used: dict[str, int] = {}
    electrolyser = catalog.electrolyser
    for row, column, token in arrangement.cells:
        try:
            card_id = read_card_id(token)
        except CardIdError as error:
            problems.append(AssemblyProblem("unknown-card", str(error), token))
            continue
        if card_id.latin_lookalikes:
            notes.append(
                f"read {token!r} as {card_id.text!r} (Latin {card_id.latin_lookalikes!r} for "
                f"Cyrillic {card_id.letter!r})"
            )
        if card_id.is_electrolyser:
            if electrolyser is None:
                problems.append(
                    AssemblyProblem("unknown-card", "the catalog has no electrolyser card", token)
                )
                continue
            if token != ELECTROLYSER and token not in {card.id for card in catalog.electrolysers}:
                known = ", ".join(card.id for card in catalog.electrolysers)
                problems.append(
                    AssemblyProblem(
                        "unknown-card",
                        f"no electrolyser {token!r} in the catalog; the game has {known} "
                        f"(or write {ELECTROLYSER} for any of them)",
                        token,
                        expected=known,
                        found=token,
                    )
                )
                continue
            placed[(row, column)] = (ELECTROLYSER, electrolyser)
            used[ELECTROLYSER] = used.get(ELECTROLYSER, 0) + 1
            if token != ELECTROLYSER:  # a numbered electrolyser is one physical card
                used[token] = used.get(token, 0) + 1
            continue
        try:
            card = catalog.card(card_id.text)
        except KeyError:
            problems.append(
                AssemblyProblem(
                    "unknown-card",
                    f"no card {card_id.text!r} in the catalog",
                    card_id.text,
                    expected="a card of the catalog",
                    found=token,
                )
            )
            continue
        numbers.add(card_id.number)
        used[card.id] = used.get(card.id, 0) + 1
        placed[(row, column)] = (card.id, card)
    installation: Installation | None = None
    if len(numbers) > 1:
        listed = ", ".join(str(n) for n in sorted(numbers))
        problems.append(
            AssemblyProblem(
                "mixed-installations",
                f"the cards belong to installations {listed}; an installation is built from the "
                "cards of one number (plus electrolysers)",
                expected="one installation number",
                found=listed,
            )
        )
    elif numbers:
        installation = catalog.installation(numbers.pop())
    elif placed:
        problems.append(
            AssemblyProblem(
                "no-installation",
                "the arrangement has no card of an installation; electrolysers join an "
                "installation's cards",
                expected="the cards of one installation",
                found=", ".join(card_id for card_id, _ in placed.values()),
            )
        )
    if used.get(ELECTROLYSER, 0) > len(catalog.electrolysers):
        problems.append(
            AssemblyProblem(
                "too-many-electrolysers",
                f"{used[ELECTROLYSER]} electrolysers placed; the game has "
                f"{len(catalog.electrolysers)}",
            )
        )
    if not arrangement.cells:
        problems.append(
            AssemblyProblem(
                "no-installation",
                "the arrangement is empty; place the cards of one installation",
                expected="the cards of one installation",
                found="nothing",
            )
        )
    for used_id, count in used.items():
        if used_id != ELECTROLYSER and count > 1:
            problems.append(
                AssemblyProblem(
                    "duplicate-card",
                    f"{used_id} is placed {count} times; the game has one",
                    used_id,
                )
            )
    if installation is not None:
        for card in installation.cards:
            if card.id not in used:
                problems.append(
                    AssemblyProblem(
                        "missing-card",
                        f"{card.id} is missing; installation {installation.number} is built from "
                        f"{', '.join(c.id for c in installation.cards)}",
                        card.id,
                    )
                )
    problems.extend(check_placement(placed))
    components = _pipe_components(placed)
    if len(components) > 1:
        main = max(components, key=len)
        for component in components:
            if component is main:
                continue
            ids = [placed[cell][0] for cell in sorted(component)]
            verb = "is" if len(ids) == 1 else "are"
            problems.append(
                AssemblyProblem(
                    "not-connected",
                    f"{', '.join(ids)} {verb} not joined to the rest of the installation by any "
                    "pipe",
                    placed[min(component)][0],
                )
            )
    if installation is not None and not any(p.code == "missing-card" for p in problems):
        cards = [card for _, card in placed.values()]
        problem = net_reaction_problem(
            cards, installation.parsed_reaction, f"installation {installation.number}"
        )
        if problem is not None:
            problems.append(problem)
    canonical = {cell: card_id for cell, (card_id, _) in placed.items()}
    for row, column, token in arrangement.cells:
        canonical.setdefault((row, column), token)
    return AssemblyReport(
        Arrangement.from_cells(canonical),
        installation.number if installation else None,
        tuple(problems),
        tuple(dict.fromkeys(notes)),
    )


@dataclass(frozen=True, slots=True)
class Solution:
    """Every valid arrangement of an installation, up to translation."""

    installation: int | None
    electrolysers: int
    arrangements: tuple[Arrangement, ...]
    #: Why there is none, when there is none.
    reason: str = ""
    searched: int = field(default=0, compare=False)
    #: What failed: "" (nothing), "net-reaction" (the chemistry) or "pipes" (the geometry).
    failure: Literal["", "net-reaction", "pipes"] = ""

    @property
    def canonical(self) -> Arrangement | None:
        """The first arrangement in a fixed order (rows, then columns, then IDs)."""
        return self.arrangements[0] if self.arrangements else None


def _electrolyser_demand(cards: Sequence[ReactorCard], electrolyser: ReactorCard | None) -> int:
    """An upper bound on the electrolysers the cards can take: their matching in-ports."""
    if electrolyser is None:
        return 0
    supplied = {(OPPOSITE[p.edge], p.position, p.parsed) for p in electrolyser.ports}
    demand = sum(
        1
        for card in cards
        for port in card.ports
        if port.direction == "in" and (port.edge, port.position, port.parsed) in supplied
    )
    return min(demand, MAX_ELECTROLYSERS)


def solve(
    cards: Sequence[ReactorCard],
    electrolyser: ReactorCard | None = None,
    overall: Reaction | None = None,
    max_electrolysers: int | None = None,
) -> Solution:
    """Every valid arrangement of ``cards`` (plus as few electrolysers as needed).

    Electrolysers are identical, so arrangements differing only by which one stands where are
    the same. The cards' reactions must combine into ``overall`` when it is given.
    """
    limit = _electrolyser_demand(cards, electrolyser)
    if max_electrolysers is not None:
        limit = min(limit, max_electrolysers)
    searched = 0
    chemistry = ""
    geometry_failed = False
    for count in range(limit + 1):
        pieces: list[ReactorCard] = list(cards)
        if electrolyser is not None:
            pieces += [electrolyser] * count
        if overall is not None:
            problem = net_reaction_problem(pieces, overall)
            if problem is not None:
                chemistry = chemistry or problem.message
                continue
        found, visited = _enumerate(pieces)
        searched += visited
        if found:
            return Solution(None, count, tuple(sorted(found)), "", searched)
        geometry_failed = True
    if chemistry and not geometry_failed:
        return Solution(None, 0, (), chemistry, searched, "net-reaction")
    unmatched = unmatched_ports(cards, electrolyser)
    reason = "; ".join(unmatched) if unmatched else "no arrangement joins every pipe"
    return Solution(None, 0, (), reason, searched, "pipes")


def unmatched_ports(
    cards: Sequence[ReactorCard], electrolyser: ReactorCard | None = None
) -> list[str]:
    """Ports no other card could ever meet (same substance, other direction, facing edge)."""
    pool = [*cards, *([electrolyser] if electrolyser is not None else [])]
    found = []
    for card in cards:
        for port in card.ports:
            if port.optional:
                continue
            facing = OPPOSITE[port.edge]
            wanted = "in" if port.direction == "out" else "out"
            partner = any(
                (other_port := other.port_at(facing, port.position)) is not None
                and other_port.parsed == port.parsed
                and other_port.direction == wanted
                for other in pool
                if other is not card
            )
            if not partner:
                found.append(
                    f"{_port_name(card.id, port)} has no partner: no card has {port.substance} "
                    f"{wanted} on its {facing} edge at position {port.position}"
                )
    return found


def _enumerate(pieces: Sequence[ReactorCard]) -> tuple[set[Arrangement], int]:
    """All pipe-connected placements of ``pieces`` with every port met, up to translation."""
    kinds: dict[str, ReactorCard] = {}
    counts: dict[str, int] = {}
    for card in pieces:
        key = ELECTROLYSER if card.group == "electrolyser" else card.id
        kinds[key] = card
        counts[key] = counts.get(key, 0) + 1
    if not kinds:
        return set(), 0
    first = next(iter(kinds))
    placed: dict[Cell, str] = {(0, 0): first}
    counts[first] -= 1
    results: set[Arrangement] = set()
    seen: set[frozenset[tuple[Cell, str]]] = set()
    visited = 0

    def fits(cell: Cell, key: str) -> bool:
        card = kinds[key]
        row, column = cell
        for edge in EDGES:
            d_row, d_column = STEP[edge]
            neighbour_key = placed.get((row + d_row, column + d_column))
            if neighbour_key is None:
                continue
            other = kinds[neighbour_key]
            facing = OPPOSITE[edge]
            for position in range(1, PORT_POSITIONS + 1):
                mine = card.port_at(edge, position)
                theirs = other.port_at(facing, position)
                if mine is None and theirs is None:
                    continue
                if mine is None or theirs is None:
                    return False
                if mine.parsed != theirs.parsed or mine.direction == theirs.direction:
                    return False
        return True

    def frontier() -> Iterator[tuple[Cell, str]]:
        for (row, column), key in list(placed.items()):
            for port in kinds[key].ports:
                d_row, d_column = STEP[port.edge]
                cell = (row + d_row, column + d_column)
                if cell in placed:
                    continue
                for other_key, left in counts.items():
                    if left and kinds[other_key].port_at(OPPOSITE[port.edge], port.position):
                        yield cell, other_key

    def complete() -> bool:
        for (row, column), key in placed.items():
            for port in kinds[key].ports:
                d_row, d_column = STEP[port.edge]
                if not port.optional and (row + d_row, column + d_column) not in placed:
                    return False
        return True

    def search() -> None:
        nonlocal visited
        visited += 1
        if not any(counts.values()):
            if complete():
                results.add(Arrangement.from_cells(placed))
            return
        for cell, key in dict.fromkeys(frontier()):
            if not fits(cell, key):
                continue
            placed[cell] = key
            counts[key] -= 1
            state = frozenset(Arrangement.from_cells(placed).cells)
            state_key = frozenset(((r, c), k) for r, c, k in state)
            if state_key not in seen:
                seen.add(state_key)
                search()
            counts[key] += 1
            del placed[cell]

    search()
    return results, visited


def solve_installation(catalog: Catalog, number: int) -> Solution:
    """Every valid arrangement of installation ``number`` of the catalog."""
    installation = catalog.installation(number)
    solution = solve(installation.cards, catalog.electrolyser, installation.parsed_reaction)
    return dataclasses.replace(solution, installation=number)


# Text diagram ------------------------------------------------------------------------------------

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


def read_arrangement(source: str) -> Arrangement:
    """An arrangement from the inline form, or from a YAML/JSON file if ``source`` is a path.

    The file form is a mapping with ``rows``: a list of inline rows (``"2А 2Б"``) or of lists
    of card IDs (``null`` or ``"."`` for an empty cell).
    """
    path = pathlib.Path(source)
    if not source.endswith((".yaml", ".yml", ".json")):
        return Arrangement.parse(source)
    if not path.is_file():
        raise AssemblyError(
            f"no arrangement file {source!r}; give an existing YAML/JSON file or an inline "
            "arrangement such as '2А 2Б / Э .'",
            source,
            0,
        )
    text = path.read_text(encoding="utf-8")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise AssemblyError(
            f"{path.name}: not YAML: {error}", text, mark.index if mark else 0
        ) from None
    rows = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not rows:
        raise AssemblyError(
            f"{path.name}: expected a mapping with 'rows:', a list of rows such as '2А 2Б'",
            text,
            0,
        )
    if all(isinstance(row, str) for row in rows):
        return Arrangement.parse(" / ".join(rows))
    if all(isinstance(row, list) for row in rows):
        arrangement = Arrangement.from_rows(
            [[None if c is None else str(c) for c in row] for row in rows]
        )
        if not arrangement.cells:
            raise AssemblyError(f"{path.name}: the arrangement has no card", text, 0)
        return arrangement
    raise AssemblyError(f"{path.name}: each row is a string or a list of card IDs", text, 0)
