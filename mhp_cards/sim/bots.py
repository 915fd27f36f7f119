"""Bots: policies that choose one of the legal actions, seeing only their player's view.

A policy is given the player's view (:func:`mhp_cards.game.view`: every card the player cannot
see is a ``hidden#N`` placeholder), the actions the referee lists for the full state, and the
game's seeded random generator. It never sees the full state: the simulator lists the actions
on the full state (the referee needs the real dice of a fight) and hands the bot only the view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Final, Protocol

from mhp_cards.catalog.models import Catalog, Mission, formula_of
from mhp_cards.chem.formula import Formula
from mhp_cards.game.state import FieldState, GameState, InstallationState, Player, Position
from mhp_cards.referee.actions import (
    Action,
    BuyRaw,
    BuyUpgrade,
    FreeToken,
    Move,
    React,
    SellRaw,
    TakeRaw,
)
from mhp_cards.referee.mission import closest_below
from mhp_cards.referee.move import steps_allowed
from mhp_cards.referee.react import mission_places
from mhp_cards.referee.table import card_formula
from mhp_cards.rules.numbers import COMBINE_CAPACITY, WAREHOUSE_PRICE

__all__ = ["GreedyBot", "Policy", "RandomBot", "mission_elements"]


class Policy(Protocol):
    """Something that chooses an action from a player's view."""

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        """One of ``legal`` (never empty), decided from ``view`` and ``rng`` only."""
        ...


class RandomBot:
    """Uniform over the kinds of action listed, then uniform among the actions of that kind.

    Plain uniform choice over the actions would mostly trade: the referee lists a one-item
    trade with every partner for every card, so trades outnumber everything else many times
    over, and a game of such choices hardly moves. Choosing the kind first gives a move, a
    reaction or the end of the turn a fair chance.
    """

    name: Final = "random"

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        """A uniform kind, then a uniform action of that kind."""
        by_kind: dict[str, list[Action]] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)
        kind = rng.choice(list(by_kind))
        return rng.choice(by_kind[kind])


class GreedyBot:
    """What a sensible human does, cheaply, one look ahead at most.

    Level 1: claim a mission as soon as the referee lists the claim; buy from the Warehouse a
    card that serves the closest reachable mission; move so as to collect the most raw cards
    (whose faces are hidden until collected), never onto another combine (no attacks); never
    trade; end the turn.

    Levels 2, head to head and 3: run a reaction whenever one is listed, the one that puts
    the most products on the Mission card, each on the mission closest to completion (Ruling
    L2.M1-choice); before that, free a token by selling to the Bank a product worth keeping
    for no reaction (one no raw card could replace), when fewer tokens are free than the
    hungriest installation needs (at level 3 always: the sale scores what the product
    would); take the pile card that brings an installation nearest to running (else any:
    the piles must run out for the game to end).

    Level 3 adds the field: sell to the Bank every raw card no installation takes (a card
    in hand scores nothing) and, with a full combine, any; buy the solar battery; buy from
    the Warehouse a card an installation takes, keeping the last 4 мР; head for the Base
    when the cards held can run a shared installation there, else for the nearest raw card,
    collecting on the way; and when nobody after it in the round could collect or buy
    (Ruling L3.E1-no-progress), collect, or else buy any Warehouse card. A pending fight is
    resolved with the first choice listed.
    """

    name: Final = "greedy"

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._targets: dict[str, Counter[str]] = {
            mission.id: mission_elements(mission) for mission in catalog.missions
        }
        self._raw_formulas = {kind.parsed for kind in catalog.raw_materials}

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        """The greedy choice (see the class)."""
        by_kind: dict[str, list[Action]] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)
        if "fight" in by_kind:
            return by_kind["fight"][0]
        if "claim" in by_kind:
            return by_kind["claim"][0]
        me = view.current
        if "free" in by_kind:
            sale = self._token_to_free(view, me, by_kind["free"])
            if sale is not None:
                return sale
        if "react" in by_kind:
            return _best_reaction(view, by_kind["react"], rng)
        if "take" in by_kind:
            return self._take(view, me, by_kind["take"], rng)
        if view.level == "1" and "sell" in by_kind:
            # At level 1 a card and a coin score alike (L1.E3): a card that serves no
            # mission is sold, and its coin goes towards a Warehouse card that does.
            sale = self._no_mission_sale(by_kind["sell"])
            if sale is not None:
                return sale
        on_the_field = view.level == "3"
        if on_the_field and "sell" in by_kind:
            # A raw card in hand scores nothing at the end (L3.P1): one no installation takes
            # is worth its 1 мР from the Bank at once; a full combine sells one of the others.
            sale = self._useless_sale(view, by_kind["sell"])
            if sale is None and len(me.raw_cards) >= COMBINE_CAPACITY:
                sale = rng.choice(by_kind["sell"])
            if sale is not None:
                return sale
        if on_the_field and "buy" in by_kind and me.combine and not me.combine.solar_battery:
            battery = [a for a in by_kind["buy"] if isinstance(a, BuyUpgrade)]
            battery = [a for a in battery if a.upgrade == "solar-battery"]
            if battery:
                return battery[0]
        # Level 3 ends after a whole round without progress (Ruling L3.E1-no-progress): a
        # player whom nobody after them in that round could rescue collects or buys if they
        # can, whatever else they meant.
        last_chance = view.level == "3" and not _others_can_progress(view)
        if "warehouse" in by_kind:
            useful = self._useful_purchases(view, me, by_kind["warehouse"])
            if useful:
                return useful[0]
            if last_chance and not _can_collect(view, by_kind.get("move", [])):
                return by_kind["warehouse"][0]
        if "move" in by_kind:
            goal = None if last_chance else self._goal(view, me)
            move = _best_move(view, by_kind["move"], rng, peaceful="end" in by_kind, goal=goal)
            if move is not None:
                return move
        if "end" in by_kind:
            return by_kind["end"][0]
        # Nothing greedy to do and the turn cannot end yet: anything but a trade, if possible.
        others = [a for a in legal if a.kind != "trade"]
        return rng.choice(others or legal)

    def _token_to_free(self, view: GameState, me: Player, frees: list[Action]) -> Action | None:
        """A sale to the Bank of a product worth keeping for no reaction, when tokens run short.

        Kept: a product that an installation takes and that no raw card supplies (ammonia);
        water or CO2 in a container is worth no more than the raw card it saves. At level 3 a
        sale at the printed price scores what the product would (L3.P1), so it is always made.
        """
        if view.level != "3" and view.free_tokens(me.id) >= self._tokens_wanted(view):
            return None
        inputs = self._all_inputs(view) - self._raw_formulas
        sales = [
            a
            for a in frees
            if isinstance(a, FreeToken)
            and a.how == "sell-bank"
            and _product_formula(view, a) not in inputs
        ]
        return max(sales, key=lambda a: a.price) if sales else None

    def _tokens_wanted(self, view: GameState) -> int:
        """The product containers of the hungriest installation on the table."""
        return max(
            (
                sum(1 for c in installation.containers if c.role == "product")
                for installation in view.installations
            ),
            default=0,
        )

    def _all_inputs(self, view: GameState) -> set[Formula]:
        """The inputs of every installation on the table (own and shared)."""
        return {
            _parse(container.substance)
            for installation in view.installations
            if installation.owner in (None, view.current.id)
            for container in installation.containers
            if container.role == "raw-input"
        }

    def _useless_sale(self, view: GameState, sales: list[Action]) -> Action | None:
        """The sale of a raw card that no installation on the table takes, if one is held."""
        inputs = self._all_inputs(view)
        return next(
            (
                a
                for a in sales
                if isinstance(a, SellRaw) and card_formula(self.catalog, a.card) not in inputs
            ),
            None,
        )

    def _goal(self, view: GameState, me: Player) -> Position | None:
        """Level 3: the Base when a shared installation can run there, else None (raw cards)."""
        field = view.field
        if view.level != "3" or field is None or me.combine is None:
            return None
        if me.combine.position != field.base and self._can_run_shared(view, me):
            return field.base
        return None

    def _can_run_shared(self, view: GameState, me: Player) -> bool:
        have = self._holdings(view, me)
        return any(
            _gap(installation, have) == Counter()
            for installation in view.installations
            if installation.owner is None
        )

    def _take(self, view: GameState, me: Player, takes: list[Action], rng: random.Random) -> Action:
        """The pile card that brings an installation nearest to running; else any."""
        shared_too = view.level == "2"
        options = [
            installation
            for installation in view.installations
            if installation.owner == me.id or (shared_too and installation.owner is None)
        ]
        have = self._holdings(view, me)
        gaps = [_gap(installation, have) for installation in options]
        wanted = [
            (installation, gap)
            for installation, gap in zip(options, gaps, strict=True)
            if gap is not None
        ]

        def worth(action: Action) -> float:
            assert isinstance(action, TakeRaw)
            pile = view.piles[action.pile - 1]
            formula = card_formula(self.catalog, pile[-1]) if pile else None
            best = 0.0
            for installation, gap in wanted:
                if formula in gap:
                    bonus = 2.0 if _serves_missions(view, installation) else 1.0
                    best = max(best, bonus / sum(gap.values()))
            return best

        scores = {action: worth(action) for action in takes}
        top = max(scores.values())
        return rng.choice([action for action in takes if scores[action] == top])

    def _holdings(self, view: GameState, me: Player) -> Counter[Formula | None]:
        """The player's raw cards and the products under their tokens, by formula."""
        have: Counter[Formula | None] = Counter(
            card_formula(self.catalog, card) for card in me.raw_cards
        )
        for installation in view.installations:
            for container in installation.containers:
                if container.role == "product":
                    have[_parse(container.substance)] += container.places.count(me.id)
        return have

    def _useful_purchases(self, view: GameState, me: Player, buys: list[Action]) -> list[Action]:
        if view.level == "1":
            missing = self.missing(me)
            if missing is None:
                return []
            return [
                a
                for a in buys
                if isinstance(a, BuyRaw) and _serves(self._elements(a.card), missing)
            ]
        if view.level == "3" and me.money < 2 * WAREHOUSE_PRICE:
            return []  # the last 4 мР are kept for a round that would end without progress
        fits = self._all_inputs(view)
        return [
            a for a in buys if isinstance(a, BuyRaw) and card_formula(self.catalog, a.card) in fits
        ]

    def _elements(self, card: str) -> Mapping[str, int]:
        formula = card_formula(self.catalog, card)
        return {} if formula is None else formula.elements

    def missing(self, me: Player) -> dict[str, int] | None:
        """What the closest reachable mission still lacks, by element; None if none is."""
        kinds = Counter(card.rsplit("#", 1)[0] for card in me.raw_cards)
        hand = [(self.catalog.raw_material(kind), count) for kind, count in sorted(kinds.items())]
        best: dict[str, int] | None = None
        for target in self._targets.values():
            _, missing = closest_below(hand, target)
            if not self._reachable(missing, target):
                continue
            if best is None or sum(missing.values()) < sum(best.values()):
                best = missing
        return best

    def _no_mission_sale(self, sales: list[Action]) -> Action | None:
        """The sale of a raw card with an element no mission has, if one is held."""
        return next(
            (
                a
                for a in sales
                if isinstance(a, SellRaw)
                and not any(set(self._elements(a.card)) <= set(t) for t in self._targets.values())
            ),
            None,
        )

    def _reachable(self, missing: Mapping[str, int], target: Mapping[str, int]) -> bool:
        """Some raw kind without foreign elements supplies each missing element."""
        allowed = set(target)
        return all(
            any(
                element in raw.parsed.elements and set(raw.parsed.elements) <= allowed
                for raw in self.catalog.raw_materials
            )
            for element in missing
        )


def _parse(text: str) -> Formula:
    return formula_of(text)


def mission_elements(mission: Mission) -> Counter[str]:
    """The elements of a mission's products, all places counted."""
    total: Counter[str] = Counter()
    for place in mission.places:
        for element, count in _parse(place.formula).elements.items():
            total[element] += count * place.count
    return total


def _gap(installation: InstallationState, have: Counter[Formula | None]) -> Counter[Formula] | None:
    """What the installation's inputs lack beyond ``have``; None for one without inputs."""
    needed = Counter(_parse(c.substance) for c in installation.containers if c.role == "raw-input")
    if not needed:
        return None
    return Counter({f: n - have[f] for f, n in needed.items() if n > have[f]})


def _serves(elements: Mapping[str, int], missing: Mapping[str, int]) -> bool:
    return bool(elements) and all(missing.get(e, 0) >= n for e, n in elements.items())


def _best_move(
    view: GameState,
    moves: list[Action],
    rng: random.Random,
    *,
    peaceful: bool = True,
    goal: Position | None = None,
) -> Action | None:
    """The move collecting the most raw cards, never onto another combine; None if none.

    Among equal moves, the one ending nearest ``goal`` (default: the nearest raw card). When
    the combine must move (the referee lists no end of the turn before the move) and every
    move meets another combine, ``peaceful`` is False and the best of them is taken.
    """
    field = view.field
    if field is None:
        return None
    occupied = {
        p.combine.position
        for p in view.players
        if p.combine is not None and p.id != view.current.id
    }
    with_raw = _raw_cells(field)
    calm = [m for m in moves if isinstance(m, Move) and not occupied & set(m.path)]
    if not calm:
        if peaceful:
            return None
        calm = [m for m in moves if isinstance(m, Move)]
    full = view.level == "3" and len(view.current.raw_cards) >= COMBINE_CAPACITY
    targets = {goal} if goal is not None else with_raw
    distance = _distances(field.neighbours(view.house_rules.diagonal_adjacency), targets)
    far = len(field.positions)

    now = distance.get(view.current.combine.position, far) if view.current.combine else far

    def worth(move: Move) -> tuple[int, ...]:
        gain = 0 if full else sum(1 for c in move.path if c in with_raw)
        after = distance.get(move.path[-1], far)
        if goal is None:
            return gain, -after
        # On the way to the goal, collect what lies on a path that still gets closer.
        return int(after < now), gain, -after

    scores = {m: worth(m) for m in calm if isinstance(m, Move)}
    best = max(scores.values())
    return rng.choice([m for m in calm if scores[m] == best])


def _others_can_progress(view: GameState) -> bool:
    """Whether a player still to play before a quiet round ends could collect or buy.

    Seen from the table: a raw card within the combine's reach (one cell, two with a solar
    battery), or the money for a Warehouse card while the Warehouse has one. Hands are hidden,
    so a reaction is not counted on.
    """
    field = view.field
    if field is None:
        return True
    players = len(view.players)
    after = players - view.quiet_turns - 1
    if after <= 0:
        return False
    neighbours = field.neighbours(view.house_rules.diagonal_adjacency)
    with_raw = _raw_cells(field)
    for step in range(1, after + 1):
        other = view.players[(view.turn + step) % players]
        if other.combine is None:
            continue
        if view.warehouse and other.money >= WAREHOUSE_PRICE:
            return True
        if len(other.raw_cards) >= COMBINE_CAPACITY:
            continue
        reach = {other.combine.position}
        for _ in range(steps_allowed(other)):
            reach |= {near for cell in reach for near in neighbours.get(cell, ())}
        if reach & with_raw:
            return True
    return False


def _raw_cells(field: FieldState) -> set[Position]:
    """The cells that still hold a raw card."""
    return {cell.position for cell in field.cells if cell.raw is not None}


def _can_collect(view: GameState, moves: list[Action]) -> bool:
    """Whether one of the moves collects a raw card."""
    if view.field is None or (
        view.level == "3" and len(view.current.raw_cards) >= COMBINE_CAPACITY
    ):
        return False
    with_raw = _raw_cells(view.field)
    return any(isinstance(m, Move) and with_raw & set(m.path) for m in moves)


def _distances(
    neighbours: Mapping[Position, tuple[Position, ...]], targets: set[Position]
) -> dict[Position, int]:
    """Steps from every position to the nearest of ``targets`` (breadth first)."""
    distance = dict.fromkeys(targets, 0)
    frontier = list(targets)
    while frontier:
        following = []
        for position in frontier:
            for near in neighbours.get(position, ()):
                if near not in distance:
                    distance[near] = distance[position] + 1
                    following.append(near)
        frontier = following
    return distance


def _product_formula(view: GameState, action: FreeToken) -> Formula | None:
    for installation in view.installations:
        if installation.number == action.product.installation:
            for container in installation.containers:
                if (
                    container.card == action.product.card
                    and container.index == action.product.container
                ):
                    return _parse(container.substance)
    return None


def _best_reaction(view: GameState, reacts: list[Action], rng: random.Random) -> Action:
    """The reaction placing the most products on missions, each nearest completion."""
    free_places = {m.id: sum(t.count(None) for _, t in m.places) for m in view.missions}

    def worth(action: React) -> tuple[int, float]:
        installation = next(i for i in view.installations if i.number == action.installation)
        free = dict(free_places)
        choices = list(action.missions)
        placed, closeness = 0, 0.0
        for container in installation.containers:
            if container.role != "product":
                continue
            options = _missions_with_place(view, container.substance)
            if not options:
                continue
            # Without a choice the referee takes the first mission in card order (L2.M1).
            chosen = choices.pop(0) if choices else options[0]
            placed += 1
            closeness += 1.0 / free[chosen]
            free[chosen] -= 1
        return placed, closeness

    scored = [(worth(a), a) for a in reacts if isinstance(a, React)]
    best = max(score for score, _ in scored)
    return rng.choice([a for score, a in scored if score == best])


def _serves_missions(view: GameState, installation: InstallationState) -> bool:
    """Whether one of the installation's products has a free place on the Mission card."""
    return any(
        _missions_with_place(view, c.substance)
        for c in installation.containers
        if c.role == "product"
    )


def _missions_with_place(view: GameState, substance: str) -> list[str]:
    """The missions with a free place for the substance, in card order (the referee's list)."""
    return [view.missions[m].id for m, _, _ in mission_places(view.missions, substance)]
