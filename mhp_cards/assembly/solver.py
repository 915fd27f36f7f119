"""Finding every valid arrangement of an installation's cards, up to translation.

The search places cards one by one, each joined by a pipe to one already placed and fitting
every neighbour's edges, and remembers the partial arrangements it has seen (translated to the
origin), so the same placement reached in another order is explored once. Identical
electrolysers are one kind of card. An installation is solved with as few electrolysers as its
ports can take; when none works, the answer says why (the chemistry, or a port no card could
ever meet).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from mhp_cards.assembly.arrangement import EDGES, OPPOSITE, STEP, Arrangement, Cell, port_name
from mhp_cards.assembly.cardflow import net_reaction_problem
from mhp_cards.catalog.cardid import ELECTROLYSER
from mhp_cards.catalog.models import PORT_POSITIONS, Catalog, ReactorCard
from mhp_cards.chem.reaction import Reaction
from mhp_cards.rules.numbers import ELECTROLYSERS

__all__ = ["Solution", "solve", "solve_installation", "unmatched_ports"]


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

    def to_json(self) -> dict[str, object]:
        """The solution as a JSON-ready mapping: count, canonical, every arrangement, reason."""
        return {
            "installation": self.installation,
            "electrolysers": self.electrolysers,
            "count": len(self.arrangements),
            "canonical": self.canonical.text() if self.canonical else None,
            "arrangements": [a.text() for a in self.arrangements],
            "reason": self.reason or None,
        }


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
    return min(demand, ELECTROLYSERS)


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
                    f"{port_name(card.id, port)} has no partner: no card has {port.substance} "
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
    """Every valid arrangement of installation ``number`` of the catalog.

    Solved once per catalog value: every deal of levels 2 and 3 assembles the installations.
    """
    solutions = catalog.memo("assembly.solve_installation")
    solution: Solution | None = solutions.get(number)
    if solution is None:
        installation = catalog.installation(number)
        solved = solve(installation.cards, catalog.electrolyser, installation.parsed_reaction)
        solution = solutions[number] = dataclasses.replace(solved, installation=number)
    return solution
