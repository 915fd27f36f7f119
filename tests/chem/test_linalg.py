from fractions import Fraction

from mhp_cards.chem.linalg import nullspace, smallest_integers


def test_nullspace_of_sabatier() -> None:
    # columns CO2, H2, CH4, H2O (products negated); rows C, O, H
    rows = [[1, 0, -1, 0], [2, 0, 0, -1], [0, 2, -4, -2]]
    assert nullspace(rows) == [(1, 4, 1, 2)]


def test_nullspace_full_rank_is_empty() -> None:
    assert nullspace([[1, 0], [0, 1]]) == []


def test_nullspace_two_dimensional() -> None:
    basis = nullspace([[1, 1, -1, -1]])
    assert len(basis) == 3
    for vector in basis:
        assert sum(vector[:2]) - sum(vector[2:]) == 0


def test_smallest_integers() -> None:
    assert smallest_integers([Fraction(2, 3), Fraction(4, 3)]) == (1, 2)
    assert smallest_integers([0, 0]) == (0, 0)
    assert smallest_integers([Fraction(-1, 2), 1]) == (-1, 2)
