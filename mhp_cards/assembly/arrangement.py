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

import pathlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from mhp_cards.assembly.cardflow import net_reaction_problem
from mhp_cards.assembly.problems import AssemblyProblem, port_name
from mhp_cards.catalog.cardid import ELECTROLYSER, CardIdError, read_card_id
from mhp_cards.catalog.models import Catalog, Installation, Port, ReactorCard
from mhp_cards.errors import AssemblyError, InputFileError
from mhp_cards.fileio import read_text_limited
from mhp_cards.yamldoc import read_yaml

__all__ = [
    "EDGES",
    "Arrangement",
    "AssemblyProblem",
    "AssemblyReport",
    "check_arrangement",
    "check_placement",
    "port_name",
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
class AssemblyReport:
    """The verdict on an arrangement: every problem found, and how card IDs were read."""

    arrangement: Arrangement
    installation: int | None
    problems: tuple[AssemblyProblem, ...]
    notes: tuple[str, ...] = ()

    def is_valid(self) -> bool:
        """True when the arrangement has no problem."""
        return not self.problems

    def to_json(self) -> dict[str, object]:
        """The report as a JSON-ready mapping: arrangement, installation, valid, problems."""
        return {
            "arrangement": self.arrangement.text(),
            "installation": self.installation,
            "valid": self.is_valid(),
            "notes": list(self.notes),
            "problems": [problem.to_json() for problem in self.problems],
        }


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
                            f"{port_name(card_id, port)} is left open: no card touches that "
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
                            f"{port_name(other_id, other_port)} meets {card_id}'s {edge} edge "
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
                f"{port_name(card_id, port)} meets {other_id}'s {facing} edge at position "
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
                f"{port_name(card_id, port)} meets {port_name(other_id, other)}: the pipe "
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
                f"{port_name(card_id, port)} meets {port_name(other_id, other)}: both are "
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


def read_arrangement(source: str) -> Arrangement:
    """An arrangement from the inline form, or from a YAML/JSON file if ``source`` is a path.

    The file form is a mapping with ``rows``: a list of inline rows (``"2А 2Б"``) or of lists
    of card IDs (``null`` or ``"."`` for an empty cell).
    """
    path = pathlib.Path(source)
    if not source.endswith((".yaml", ".yml", ".json")):
        if "/" in source and path.exists():
            # "/tmp/x" would read as rows split at its slashes: name what it is instead.
            kind = "a directory" if path.is_dir() else "a file that is not .yaml, .yml or .json"
            raise AssemblyError(
                f"{source!r} is {kind}, not an arrangement; give an inline arrangement such as "
                "'2А 2Б / Э .' or a YAML/JSON file with 'rows:'",
                source,
                0,
            )
        return Arrangement.parse(source)
    if not path.is_file():
        raise AssemblyError(
            f"no arrangement file {source!r}; give an existing YAML/JSON file or an inline "
            "arrangement such as '2А 2Б / Э .'",
            source,
            0,
        )
    text = read_text_limited(path, path.name)
    document, problems = read_yaml(text, path.name)
    if document is None:
        problem = problems[0]
        if problem.check == "limits":
            raise InputFileError(problem)
        lines = text.splitlines(keepends=True)[: (problem.line or 1) - 1]
        position = sum(map(len, lines)) + (problem.column or 1) - 1
        raise AssemblyError(f"{path.name}: not YAML: {problem}", text, position)
    data = document.data
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
