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
from mhp_cards.catalog.value import Worth, cycle_of
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
    "production_steps",
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

    def run_worth(self, prices: Mapping[Formula, int]) -> Worth | None:
        """What one run lays down and makes, at printed prices; None when one has no price."""
        inputs = [formula_of(s) for s in self.inputs]
        outputs = [formula_of(s) for s in self.outputs]
        if any(f not in prices for f in (*inputs, *outputs)):
            return None
        return Worth(
            inputs=sum(prices[f] for f in inputs), products=sum(prices[f] for f in outputs)
        )

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


def production_steps(catalog: Catalog) -> dict[Formula, int]:
    """Fewest production steps to each substance the game makes, along the routes play takes.

    A step is one card reaction; a raw card's substance takes 0. A card's reaction runs one step
    after the latest of its inputs, and an input reaches a card only as play lets it: beside a
    raw-input container of that card (a raw card, or a substance the player holds — then its own
    steps), or down a pipe from another card of the installation (the steps of the card it comes
    from; a pipe-only card passes them on). A substance takes the steps of the quickest product
    container that receives it. Magnetite as a raw card, say, does not shorten iron: the final
    reduction card takes its Fe₃O₄ only by pipe.
    """
    steps: dict[Formula, int] = {raw.parsed: 0 for raw in catalog.raw_materials}
    laid = []
    for installation in catalog.installations:
        try:
            laid.append(played_installation(catalog, installation.number))
        except KeyError:
            continue  # an installation that cannot be laid makes nothing in play
    changed = True
    while changed:
        changed = False
        for played in laid:
            depth = _card_depths(catalog, played, steps)
            for container in played.containers:
                if container.role != "product" or depth.get(container.card) is None:
                    continue
                formula = formula_of(container.substance)
                found = depth[container.card]
                if found is not None and found < steps.get(formula, found + 1):
                    steps[formula] = found
                    changed = True
    return steps


def _card_depths(
    catalog: Catalog, played: PlayedInstallation, steps: Mapping[Formula, int]
) -> dict[str, int | None]:
    """The step at which each card of a laid installation delivers (None: it cannot yet)."""
    cards = [card_id for _, _, card_id in played.arrangement.cells]
    feeds: dict[str, dict[Formula, list[str]]] = {card: {} for card in cards}
    for pipe in played.pipes:
        feeds[pipe.target].setdefault(formula_of(pipe.substance), []).append(pipe.source)
    laid_inputs = {
        (c.card, formula_of(c.substance)) for c in played.containers if c.role == "raw-input"
    }
    depth: dict[str, int | None] = dict.fromkeys(cards)
    # Pipes may loop (a recycle): the quickest source of each input counts. An input that only
    # a recycle brings back (the water 4Г returns to the absorber 4В) circulates once the plant
    # runs, so a second pass lets a card start without it when nothing else could.
    for recycled in (False, True):
        changed = True
        while changed:
            changed = False
            for card_id in cards:
                card = card_at(catalog, card_id)
                wanted = [f for r in card.parsed_reactions for _, f in r.reactants]
                if not card.parsed_reactions:  # a pipe-only card passes on what it receives
                    wanted = list(feeds[card_id])
                arrival = []
                for formula in dict.fromkeys(wanted):
                    sources = feeds[card_id].get(formula, [])
                    options = [depth[source] for source in sources]
                    if (card_id, formula) in laid_inputs and formula in steps:
                        options.append(steps[formula])
                    known = [o for o in options if o is not None]
                    if not known:
                        if recycled and sources and (card_id, formula) not in laid_inputs:
                            continue
                        break
                    arrival.append(min(known))
                else:
                    found = max(arrival, default=0) + (1 if card.parsed_reactions else 0)
                    if depth[card_id] is None or found < depth[card_id]:  # type: ignore[operator]
                        depth[card_id] = found
                        changed = True
        if all(value is not None for value in depth.values()):
            break
    return depth
