"""Exact element sums: which cards of a hand add up to exactly a mission's element counts.

At level 1 (RULES.md L1.E1) a mission is complete when some of a player's raw cards together
hold exactly the elements the mission asks for. This is a bounded multi-dimensional subset sum;
it is solved exactly by searches over the sums reachable below the target, whose number is
bounded by the product of (count + 1) over the mission's elements, not by the number of
subsets of the hand: a depth-first search over card kinds with memoised dead ends for the
selections (the first, or all of them), a breadth-first walk for the bare verdict and for the
closest sum below. Each packs a sum of element counts into one integer (:class:`_Packed`).

>>> water, co2 = {"H": 2, "O": 1}, {"C": 1, "O": 2}
>>> find_exact_sum([(water, 5), (co2, 3)], {"C": 1, "H": 4, "O": 4})
[2, 1]
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TypeAlias

__all__ = [
    "ElementCounts",
    "add_counts",
    "all_exact_sums",
    "closest_sum_below",
    "find_exact_sum",
    "has_exact_sum",
]

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
    """Each exact selection, depth first, as it is found (the one search of selections).

    Big cards first, the most of each first; what is left of the target is packed
    (:class:`_Packed`), and a dead end is remembered by the position and what is left.
    """
    goal, usable = _usable(items, target)
    # Big cards first: they cut the search soonest.
    usable.sort(key=lambda item: -sum(item[1]))
    packed = _Packed(goal)
    guards = packed.guards  # also the slack of a target met: every field its guard bit alone
    steps = [(packed.pack(vector), available) for _, vector, available in usable]
    dead: set[tuple[int, int]] = set()
    chosen = [0] * len(usable)
    last = len(usable)

    def search(position: int, slack: int) -> Iterator[tuple[int, ...]]:
        if slack == guards:
            result = [0] * len(items)
            for (index, _, _), take in zip(usable, chosen, strict=True):
                result[index] = take
            yield tuple(result)
            return
        if position == last or (position, slack) in dead:
            return
        step, available = steps[position]
        # What is left after taking 0, 1, 2… of this item, as long as each element lasts.
        after = [slack]
        while len(after) <= available:
            left = after[-1] - step
            if left & guards != guards:
                break
            after.append(left)
        found = False
        for take in range(len(after) - 1, -1, -1):  # the most first
            chosen[position] = take
            for solution in search(position + 1, after[take]):
                found = True
                yield solution
        chosen[position] = 0
        if not found:  # a dead end depends only on the position and what is left
            dead.add((position, slack))

    yield from search(0, packed.start)


def has_exact_sum(items: Sequence[tuple[ElementCounts, int]], target: ElementCounts) -> bool:
    """Whether some selection of the items sums exactly to ``target``, without building it.

    The same answer as ``find_exact_sum(items, target) is not None``. The sums reached are
    walked breadth first, each packed into one integer (see :class:`_Packed`), which is what
    makes this the fast question: the referee asks it of every mission whenever a hand
    changes.

    >>> water, co2 = {"H": 2, "O": 1}, {"C": 1, "O": 2}
    >>> has_exact_sum([(water, 5), (co2, 3)], {"C": 1, "H": 4, "O": 4})
    True
    >>> has_exact_sum([(water, 1), (co2, 3)], {"C": 1, "H": 4, "O": 4})
    False
    """
    goal, usable = _usable(items, target)
    packed = _Packed(goal)
    done = packed.guards  # every element's slack used up
    reached = {packed.start}
    if done in reached:
        return True
    for _, vector, available in usable:
        step = packed.pack(vector)
        for before in list(reached):
            slack = before
            for _ in range(available):
                slack -= step
                if slack & packed.guards != packed.guards:
                    break  # this element's slack went below zero: no more of this item
                if slack == done:
                    return True
                reached.add(slack)
    return False


def closest_sum_below(
    items: Sequence[tuple[ElementCounts, int]], target: ElementCounts
) -> tuple[list[int], dict[str, int]]:
    """The selection that covers the most of ``target`` without exceeding it, and what it lacks.

    The selection is the number taken of each item, in the order given; only items whose
    elements all belong to the target can take part. Of the sums reached (at most the product
    of (count + 1) over the target's elements) the one with the most atoms wins, then the
    greatest in the order of the target's sorted elements; its selection is the first found,
    taking the items in order. What it lacks: each element still short, with how many.

    >>> water, co2 = {"H": 2, "O": 1}, {"C": 1, "O": 2}
    >>> closest_sum_below([(water, 1), (co2, 3)], {"C": 1, "H": 4, "O": 4})
    ([1, 1], {'H': 2, 'O': 1})
    """
    keys = sorted(target)
    goal = tuple(target[k] for k in keys)
    packed = _Packed(goal, slack=False)
    usable = []
    for index, (vector, available) in enumerate(items):
        if not vector.keys() <= target.keys():
            continue
        as_tuple = tuple(vector.get(k, 0) for k in keys)
        if any(n > g for n, g in zip(as_tuple, goal, strict=True)):
            continue  # not one of it fits
        usable.append((index, packed.pack(as_tuple), sum(as_tuple), available))
    guards = packed.guards
    # Each sum reached, packed, with its atoms and the items taken (indices) to reach it.
    best: dict[int, tuple[int, tuple[int, ...]]] = {packed.start: (0, ())}
    for index, step, atoms, available in usable:
        frontier = dict(best)
        for before, (total, taken) in best.items():
            reached = before
            for count in range(1, available + 1):
                reached += step
                if reached & guards:
                    break  # an element above the target's count
                if reached not in frontier:
                    frontier[reached] = (total + count * atoms, (*taken, *([index] * count)))
        best = frontier
    closest = max(best, key=lambda reached: (best[reached][0], reached))
    selection = [0] * len(items)
    for index in best[closest][1]:
        selection[index] += 1
    counts = packed.unpack(closest)
    missing = {k: g - r for k, g, r in zip(keys, goal, counts, strict=True) if g > r}
    return selection, missing


class _Packed:
    """Vectors of element counts bounded by a goal, packed into one integer each.

    Each element has a field of its own, wide enough for its goal and a guard bit above it,
    the first element's field the highest (so packed sums compare as their tuples do). With
    ``slack`` (the default) a field holds the guard bit plus what is still lacking: it starts
    at the goal, and taking more of an element than is left clears its guard bit. Without, a
    field holds the count reached, offset so that going above the goal sets its guard bit.
    Either way one subtraction or addition and one mask test take or refuse a whole card.
    """

    __slots__ = ("_offset", "_shifts", "guards", "start")

    def __init__(self, goal: tuple[int, ...], *, slack: bool = True) -> None:
        shifts: list[int] = []
        guards = slack_of_goal = offset = shift = 0
        for g in reversed(goal):
            guard = 1 << g.bit_length()  # above g, and above any one card's count that fits
            shifts.append(shift)
            guards |= guard << shift
            slack_of_goal |= (guard + g) << shift
            offset |= (guard - 1 - g) << shift
            shift += g.bit_length() + 1
        shifts.reverse()
        self._shifts = tuple(shifts)
        self._offset = offset
        self.guards = guards
        self.start = slack_of_goal if slack else offset
        """The packed sum of nothing taken: the whole goal lacking, or no count reached."""

    def pack(self, vector: tuple[int, ...]) -> int:
        """One card's counts, to add to (or subtract from) a packed sum."""
        return sum(n << shift for n, shift in zip(vector, self._shifts, strict=True))

    def unpack(self, reached: int) -> tuple[int, ...]:
        """The counts of a packed sum made from :attr:`start` by additions."""
        value = reached - self._offset
        fields = []
        # The fields run from the highest: each ends where the one above it starts.
        for shift, above in zip(self._shifts, (None, *self._shifts), strict=False):
            field = value >> shift
            fields.append(field if above is None else field & ((1 << (above - shift)) - 1))
        return tuple(fields)
