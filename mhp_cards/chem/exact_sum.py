"""Exact element sums: which cards of a hand add up to exactly a mission's element counts.

At level 1 (RULES.md L1.E1) a mission is complete when some of a player's raw cards together
hold exactly the elements the mission asks for. This is a bounded multi-dimensional subset sum;
it is solved exactly by a depth-first search over card kinds with memoised dead ends, whose
state space is bounded by the product of (count + 1) over the mission's elements, not by the
number of subsets of the hand.

>>> water, co2 = {"H": 2, "O": 1}, {"C": 1, "O": 2}
>>> find_exact_sum([(water, 5), (co2, 3)], {"C": 1, "H": 4, "O": 4})
[2, 1]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TypeAlias

__all__ = ["ElementCounts", "add_counts", "all_exact_sums", "find_exact_sum"]

ElementCounts: TypeAlias = Mapping[str, int]


def add_counts(vectors: Sequence[tuple[ElementCounts, int]]) -> dict[str, int]:
    """Sum of ``count × vector`` over the pairs, without zero entries."""
    total: dict[str, int] = {}
    for vector, count in vectors:
        for symbol, n in vector.items():
            total[symbol] = total.get(symbol, 0) + n * count
    return {symbol: n for symbol, n in total.items() if n}


def _usable(
    items: Sequence[tuple[ElementCounts, int]], target: ElementCounts
) -> tuple[tuple[int, ...], list[tuple[int, tuple[int, ...], int]]]:
    """The target as a vector over its elements, and the items that can be part of a sum.

    Each usable item is (its index, its counts as a vector over the target's elements, how
    many are available); an item with an element the target lacks, or more of one than the
    target asks, can never be taken.
    """
    keys = sorted(symbol for symbol, n in target.items() if n)
    goal = tuple(target[symbol] for symbol in keys)
    usable: list[tuple[int, tuple[int, ...], int]] = []
    for index, (vector, available) in enumerate(items):
        # A zero count names no element: {"C": 0} in a target or a card means "no carbon".
        if available <= 0 or any(n and symbol not in keys for symbol, n in vector.items()):
            continue
        as_tuple = tuple(vector.get(symbol, 0) for symbol in keys)
        if any(n > g for n, g in zip(as_tuple, goal, strict=True)) or not any(as_tuple):
            continue
        usable.append((index, as_tuple, available))
    return goal, usable


def find_exact_sum(
    items: Sequence[tuple[ElementCounts, int]], target: ElementCounts
) -> list[int] | None:
    """How many of each item to take so that the counts sum exactly to ``target``.

    ``items`` are (element counts, how many are available) pairs — one per card kind. Returns
    the number taken of each item, in the order given, or None when no selection works.
    """
    first = next(_exact_sums(items, target), None)
    return None if first is None else list(first)


def all_exact_sums(
    items: Sequence[tuple[ElementCounts, int]], target: ElementCounts
) -> list[tuple[int, ...]]:
    """Every selection of the items whose counts sum exactly to ``target``.

    Each is the number taken of each item, in the order given; the list is in a fixed order.

    >>> water, co2, o2 = {"H": 2, "O": 1}, {"C": 1, "O": 2}, {"O": 2}
    >>> all_exact_sums([(water, 5), (co2, 3), (o2, 2)], {"C": 1, "H": 4, "O": 6})
    [(2, 1, 1)]
    """
    return sorted(_exact_sums(items, target), reverse=True)


def _exact_sums(
    items: Sequence[tuple[ElementCounts, int]], target: ElementCounts
) -> Iterator[tuple[int, ...]]:
    """Each exact selection, depth first, as it is found (the one search of this module)."""
    goal, usable = _usable(items, target)
    # Big cards first: they cut the search soonest.
    usable.sort(key=lambda item: -sum(item[1]))
    dead: set[tuple[int, tuple[int, ...]]] = set()
    chosen = [0] * len(usable)

    def search(position: int, remaining: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if not any(remaining):
            result = [0] * len(items)
            for (index, _, _), take in zip(usable, chosen, strict=True):
                result[index] = take
            yield tuple(result)
            return
        if position == len(usable) or (position, remaining) in dead:
            return
        _, vector, available = usable[position]
        most = available
        for n, r in zip(vector, remaining, strict=True):
            if n:
                most = min(most, r // n)
        found = False
        for take in range(most, -1, -1):
            chosen[position] = take
            after = tuple(r - take * n for r, n in zip(remaining, vector, strict=True))
            for solution in search(position + 1, after):
                found = True
                yield solution
        chosen[position] = 0
        if not found:  # a dead end depends only on the position and what remains
            dead.add((position, remaining))

    yield from search(0, goal)
