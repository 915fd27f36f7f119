"""The chemistry of reactor cards: what flows through a card, and what the cards make together.

A card's pipes and containers must agree with its reactions: what enters is consumed, stored or
passed on, what leaves is made or passed on. An installation's cards, each reaction taken a
positive number of times, must add up to the installation's overall reaction with the
intermediates cancelling; that is an exact null-space question over the rationals.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from mhp_cards.assembly.problems import AssemblyProblem, port_name
from mhp_cards.catalog.models import ReactorCard
from mhp_cards.chem.formula import Formula
from mhp_cards.chem.linalg import nullspace
from mhp_cards.chem.reaction import Reaction

__all__ = ["card_flow_problems", "net_reaction_problem"]


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
                    f"{port_name(card.id, port)}: {port.substance} is not {role}",
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
