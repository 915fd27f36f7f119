"""What reactions are worth at printed prices, and how many production steps make a substance.

One definition of a *production step* serves the whole toolkit (the price check, the header of
``substances.yaml``, the value checks): a step is one run of one card reaction, the water
electrolyser's included. A raw card's substance takes 0 steps; a product takes one more step
than the slowest input of the quickest card reaction that makes it.

>>> from mhp_cards.catalog.models import formula_of, reaction_of
>>> steps = production_steps(
...     [formula_of("H2O"), formula_of("N2")],
...     [reaction_of("2 H2O -> 2 H2 + O2"), reaction_of("N2 + 3 H2 -> 2 NH3")],
... )
>>> steps[formula_of("H2")], steps[formula_of("NH3")]
(1, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from mhp_cards.chem.formula import Formula
from mhp_cards.chem.linalg import nullspace
from mhp_cards.chem.reaction import Reaction

__all__ = ["Cycle", "Worth", "cycle_of", "production_steps", "worth"]


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


def production_steps(raw: Iterable[Formula], reactions: Iterable[Reaction]) -> dict[Formula, int]:
    """Fewest production steps to each substance that can be made (raw cards: 0).

    ``reactions`` are card reactions (each run is one step), not installations' overall ones.
    """
    steps = dict.fromkeys(raw, 0)
    processes = list(reactions)
    changed = True
    while changed:
        changed = False
        for reaction in processes:
            inputs = [f for _, f in reaction.reactants]
            if not all(f in steps for f in inputs):
                continue
            depth = 1 + max((steps[f] for f in inputs), default=0)
            for _, product in reaction.products:
                if depth < steps.get(product, depth + 1):
                    steps[product] = depth
                    changed = True
    return steps


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
