"""Exact linear algebra over the rationals: the null space of a small integer matrix.

Balancing a reaction and checking the net reaction of an installation both ask the same
question: which combinations of columns sum to zero? Floats would answer "almost", so this
module answers with :class:`fractions.Fraction` and integer vectors.

>>> nullspace([[1, -2, 0], [0, 1, -1]])
[(2, 1, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import gcd, lcm

__all__ = ["nullspace", "smallest_integers"]


def nullspace(rows: Sequence[Sequence[int | Fraction]]) -> list[tuple[int, ...]]:
    """A basis of the null space of ``rows``, each vector scaled to coprime integers.

    The basis is the one read off the reduced row echelon form: one vector per free column,
    in column order, with that column's entry positive.
    """
    if not rows:
        return []
    width = len(rows[0])
    matrix = [[Fraction(value) for value in row] for row in rows]
    pivots: list[int] = []
    rank = 0
    for column in range(width):
        pivot_row = next((r for r in range(rank, len(matrix)) if matrix[r][column] != 0), None)
        if pivot_row is None:
            continue
        matrix[rank], matrix[pivot_row] = matrix[pivot_row], matrix[rank]
        pivot_value = matrix[rank][column]
        matrix[rank] = [value / pivot_value for value in matrix[rank]]
        for r in range(len(matrix)):
            if r != rank and matrix[r][column] != 0:
                factor = matrix[r][column]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[rank], strict=True)]
        pivots.append(column)
        rank += 1
        if rank == len(matrix):
            break
    free = [column for column in range(width) if column not in pivots]
    basis = []
    for free_column in free:
        vector = [Fraction(0)] * width
        vector[free_column] = Fraction(1)
        for row, pivot_column in enumerate(pivots):
            vector[pivot_column] = -matrix[row][free_column]
        basis.append(smallest_integers(vector))
    return basis


def smallest_integers(vector: Sequence[Fraction | int]) -> tuple[int, ...]:
    """Scale a rational vector to the coprime integer vector pointing the same way.

    >>> smallest_integers([Fraction(1, 2), Fraction(3, 4), 0])
    (2, 3, 0)
    """
    fractions = [Fraction(value) for value in vector]
    denominator = lcm(*(value.denominator for value in fractions)) if fractions else 1
    integers = [int(value * denominator) for value in fractions]
    divisor = gcd(*integers) if integers else 1
    if divisor == 0:
        return tuple(integers)
    return tuple(value // divisor for value in integers)
