"""A small seeded random generator whose whole state is one integer.

The game state stores the generator's state, so a saved game continues exactly — the same dice,
the same shuffles — after a JSON round trip. SplitMix64 is tiny, fast and well distributed,
and unlike :mod:`random` its state fits in a JSON number.

>>> rng = Rng(7)
>>> [rng.randrange(6) + 1 for _ in range(5)]
[4, 1, 1, 4, 5]
>>> rng.state == Rng(7).advanced(5).state
True
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

__all__ = ["Rng"]

_MASK: Final = (1 << 64) - 1
T = TypeVar("T")


class Rng:
    """SplitMix64: ``state`` is all there is to save."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        """The next 64-bit number."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randrange(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if not 0 < n <= 1 << 64:
            raise ValueError(f"randrange needs a positive bound of at most 2**64, not {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        """One of ``items``, uniformly."""
        return items[self.randrange(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher–Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def die(self, sides: int = 6) -> int:
        """A roll of a die: 1..sides."""
        return self.randrange(sides) + 1

    def advanced(self, draws: int) -> Rng:
        """A copy moved on by ``draws`` numbers."""
        copy = Rng(self.state)
        for _ in range(draws):
            copy.next64()
        return copy
