"""What reactions are worth at printed prices, and the cycle in which cards make an overall one.

The value and the production steps of the game *as played* (one portion of each input and
each product a run, Ruling L2.T4-portion) are in :mod:`mhp_cards.assembly.played`; this module
has the chemistry's side: a reaction as printed, coefficients counted.

>>> from mhp_cards.catalog.models import reaction_of
>>> worth(reaction_of("CaCO3 -> CaO + CO2"), {}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from mhp_cards.chem.formula import Formula
from mhp_cards.chem.linalg import nullspace
from mhp_cards.chem.reaction import Reaction

__all__ = ["Cycle", "Worth", "cycle_of", "worth"]


@dataclass(frozen=True, slots=True)
class Worth:
    """The printed value of a reaction's inputs and of its products, in мР."""

    inputs: int
    products: int

    @property
    def added(self) -> int:
        """Products minus inputs (negative: the reaction destroys value)."""
        return self.products - self.inputs

    @property
    def loss_share(self) -> Fraction:
        """The share of the inputs' value lost (0 when nothing is lost)."""
        if self.added >= 0 or self.inputs == 0:
            return Fraction(0)
        return Fraction(-self.added, self.inputs)


def worth(reaction: Reaction, prices: Mapping[Formula, int]) -> Worth | None:
    """The reaction's :class:`Worth`, coefficients counted; None when a species has no price."""
    if any(f not in prices for _, f in (*reaction.reactants, *reaction.products)):
        return None
    return Worth(
        inputs=sum(int(n * prices[f]) for n, f in reaction.reactants),
        products=sum(int(n * prices[f]) for n, f in reaction.products),
    )


@dataclass(frozen=True, slots=True)
class Cycle:
    """The smallest whole cycle of an installation: how often each card reaction runs.

    Running ``runs[i]`` times every distinct reaction ``reactions[i]`` makes ``times`` × the
    overall reaction.
    """

    reactions: tuple[Reaction, ...]
    runs: tuple[int, ...]
    times: int

    @property
    def total_runs(self) -> int:
        """Reaction runs (turns of play) in one cycle."""
        return sum(self.runs)


def cycle_of(reactions: Sequence[Reaction], overall: Reaction) -> Cycle | None:
    """The cycle in which ``reactions`` make ``overall``; None when they do not, or not uniquely.

    Identical reactions (the electrolysers) count as one: only their total runs are known.
    """
    distinct = list({_key(r): r for r in reactions}.values())
    columns = [r.stoichiometry() for r in distinct]
    target = overall.stoichiometry()
    species = list(dict.fromkeys(f for column in [*columns, target] for f in column))
    rows = [
        [column.get(formula, 0) for column in columns] + [-target.get(formula, 0)]
        for formula in species
    ]
    basis = nullspace(rows) if distinct else []
    if len(basis) != 1 or basis[0][-1] == 0:
        return None
    vector = basis[0] if basis[0][-1] > 0 else tuple(-x for x in basis[0])
    if not all(x > 0 for x in vector):
        return None
    return Cycle(tuple(distinct), tuple(vector[:-1]), vector[-1])


def _key(reaction: Reaction) -> tuple[tuple[Formula, Fraction | int], ...]:
    return tuple(sorted(reaction.stoichiometry().items(), key=str))
