"""An installation as it is played: what one run lays down, and what it puts tokens on.

Two rulings of ``rules.yaml`` say how the cards' chemistry is played:

- **L2.T4-portion**: one run of an installation lays one raw card (or one substance the player
  holds) beside each raw-input container and puts one chemist token on each product container.
  A card is a portion; the coefficients printed on the cards are the chemistry, not a count of
  cards.
- **L2.T4-transit**: a substance that leaves its card by a pipe to another card of the same
  installation is consumed there. Its container on the card it leaves (the electrolyser's H₂
  when the electrolyser is piped into installation 2, 3 or 8) takes no token and scores
  nothing; it plays as a transit container.

Everything that plays an installation reads it from here: the dealer lays the containers out,
the referee runs them, the state check compares a saved game with them, and the validator's
value and step checks price them. So a design figure is a figure of the game as played.

>>> from mhp_cards.validate import load_catalog
>>> played = played_installation(load_catalog(), 2)
>>> played.inputs, played.outputs
(('CO2', 'H2O'), ('CH4', 'H2O', 'O2'))
>>> str(played.summed_reaction)
'CO2 + 4 H2O -> CH4 + 2 H2O + 2 O2'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import gcd
from typing import Literal

from mhp_cards.assembly.arrangement import OPPOSITE, STEP, Arrangement, Cell
from mhp_cards.assembly.solver import solve_installation
from mhp_cards.catalog.cardid import ELECTROLYSER
from mhp_cards.catalog.models import Catalog, ReactorCard, formula_of
from mhp_cards.catalog.value import cycle_of
from mhp_cards.chem.formula import Formula
from mhp_cards.chem.reaction import Reaction

__all__ = [
    "Pipe",
    "PlayedContainer",
    "PlayedInstallation",
    "card_at",
    "pipes_of",
    "played_containers",
    "played_installation",
]

Role = Literal["raw-input", "product", "transit"]


@dataclass(frozen=True, slots=True)
class Pipe:
    """A pipe joining two cards of an installation: an out-port meeting an in-port."""

    source: str
    """The card the substance leaves (its ID as laid: ``Э`` or ``Э2`` for an electrolyser)."""
    target: str
    """The card it enters."""
    substance: str


@dataclass(frozen=True, slots=True)
class PlayedContainer:
    """A container of a laid installation, with the role it has in play."""

    card: str
    """The card's ID as laid (an electrolyser as ``Э`` in a solved arrangement)."""
    index: int
    """The container's index on its card (catalog order)."""
    substance: str
    role: Role
    """The role in play: a product container whose substance leaves by a pipe is ``transit``
    (Ruling L2.T4-transit), otherwise the role printed on the card."""
    places: int
    """Token places: the printed places of a product container, 0 for the others."""
    piped: bool = False
    """True for a product container that plays as transit because its substance is piped."""


def card_at(catalog: Catalog, card_id: str) -> ReactorCard:
    """The catalog card of a laid card ID (``Э`` is the electrolyser design); KeyError if none."""
    if card_id == ELECTROLYSER:
        electrolyser = catalog.electrolyser
        if electrolyser is None:
            raise KeyError(card_id)
        return electrolyser
    return catalog.card(card_id)


def pipes_of(catalog: Catalog, arrangement: Arrangement) -> tuple[Pipe, ...]:
    """Every pipe of a laid installation: each out-port that meets an in-port of its neighbour."""
    placed: Mapping[Cell, str] = arrangement.as_dict()
    pipes = []
    for (row, column), card_id in sorted(placed.items()):
        card = card_at(catalog, card_id)
        for port in card.ports:
            if port.direction != "out":
                continue
            d_row, d_column = STEP[port.edge]
            other_id = placed.get((row + d_row, column + d_column))
            if other_id is None:
                continue
            other = card_at(catalog, other_id).port_at(OPPOSITE[port.edge], port.position)
            if other is not None and other.direction == "in" and other.parsed == port.parsed:
                pipes.append(Pipe(card_id, other_id, port.substance))
    return tuple(pipes)


def played_containers(catalog: Catalog, arrangement: Arrangement) -> tuple[PlayedContainer, ...]:
    """The containers of a laid installation in play, card by card in the arrangement's order."""
    piped = {(pipe.source, formula_of(pipe.substance)) for pipe in pipes_of(catalog, arrangement)}
    containers = []
    for _, _, card_id in arrangement.cells:
        for index, container in enumerate(card_at(catalog, card_id).containers):
            leaves = container.role == "product" and (card_id, container.parsed) in piped
            role: Role = "transit" if leaves else container.role
            containers.append(
                PlayedContainer(
                    card=card_id,
                    index=index,
                    substance=container.substance,
                    role=role,
                    places=container.places if role == "product" else 0,
                    piped=leaves,
                )
            )
    return tuple(containers)


@dataclass(frozen=True, slots=True)
class PlayedInstallation:
    """An installation laid in its canonical arrangement, as the game plays it."""

    number: int
    arrangement: Arrangement
    containers: tuple[PlayedContainer, ...]
    pipes: tuple[Pipe, ...]
    summed_reaction: Reaction | None
    """The cards' reactions added up over one whole cycle with the substances that flow
    through pipes cancelled, and nothing else: a species that is both laid and made (the water
    of installation 2) stays on both sides. None when the cards do not add up to the overall
    reaction (the validator's ``assembly`` check reports that)."""

    @property
    def inputs(self) -> tuple[str, ...]:
        """What one run lays down: one portion per raw-input container (L2.T4-portion)."""
        return tuple(c.substance for c in self.containers if c.role == "raw-input")

    @property
    def outputs(self) -> tuple[str, ...]:
        """What one run puts tokens on: one per product container (L2.T4-portion)."""
        return tuple(c.substance for c in self.containers if c.role == "product")

    @property
    def piped_products(self) -> tuple[PlayedContainer, ...]:
        """Product containers that play as transit because their substance is piped away."""
        return tuple(c for c in self.containers if c.piped)


def played_installation(catalog: Catalog, number: int) -> PlayedInstallation:
    """Installation ``number`` laid as the dealer lays it (its canonical arrangement).

    Worked out once per catalog value. KeyError when the catalog has no such installation or
    it cannot be laid (the validator's ``assembly`` check reports why).
    """
    memo = catalog.memo("assembly.played_installation")
    played: PlayedInstallation | None = memo.get(number)
    if played is None:
        arrangement = solve_installation(catalog, number).canonical
        if arrangement is None:
            raise KeyError(f"installation {number} cannot be assembled")
        pipes = pipes_of(catalog, arrangement)
        played = memo[number] = PlayedInstallation(
            number=number,
            arrangement=arrangement,
            containers=played_containers(catalog, arrangement),
            pipes=pipes,
            summed_reaction=_summed(catalog, number, arrangement, pipes),
        )
    return played


def _summed(
    catalog: Catalog, number: int, arrangement: Arrangement, pipes: tuple[Pipe, ...]
) -> Reaction | None:
    """The cards' reactions over one cycle, pipe substances cancelled (see PlayedInstallation)."""
    cards = [card_at(catalog, card_id) for _, _, card_id in arrangement.cells]
    reactions = [reaction for card in cards for reaction in card.parsed_reactions]
    cycle = cycle_of(reactions, catalog.installation(number).parsed_reaction)
    if cycle is None:
        return None
    left: dict[Formula, int] = {}
    right: dict[Formula, int] = {}
    for reaction, runs in zip(cycle.reactions, cycle.runs, strict=True):
        for side, terms in ((left, reaction.reactants), (right, reaction.products)):
            for coefficient, formula in terms:
                side[formula] = side.get(formula, 0) + runs * coefficient
    for formula in {formula_of(pipe.substance) for pipe in pipes}:
        cancelled = min(left.get(formula, 0), right.get(formula, 0))
        for side in (left, right):
            if formula in side:
                side[formula] -= cancelled
                if not side[formula]:
                    del side[formula]
    divisor = 0
    for amount in (*left.values(), *right.values()):
        divisor = gcd(divisor, amount)
    divisor = divisor or 1
    return Reaction(
        reactants=tuple((n // divisor, f) for f, n in left.items()),
        products=tuple((n // divisor, f) for f, n in right.items()),
    )
