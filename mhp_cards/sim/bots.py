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
from mhp_cards.game.state import GameState, Player
from mhp_cards.referee.actions import Action, BuyRaw, FreeToken, Move, TakeRaw
from mhp_cards.referee.mission import closest_below
from mhp_cards.referee.table import card_formula, usable_installations

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
    trade; end the turn. Levels 2, head to head and 3: react whenever a reaction is listed;
    free a token by selling to the Bank when no token is free; take the pile card that fits an
    own installation (else any: the piles must run out for the game to end); on the field of
    level 3, move to collect as at level 1; end the turn. A pending fight is resolved with the
    first choice listed.
    """

    name: Final = "greedy"

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._targets: dict[str, Counter[str]] = {
            mission.id: mission_elements(mission) for mission in catalog.missions
        }

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
        if "react" in by_kind:
            return by_kind["react"][0]
        if "free" in by_kind and view.free_tokens(me.id) == 0:
            to_bank = [a for a in by_kind["free"] if isinstance(a, FreeToken)]
            sales = [a for a in to_bank if a.how == "sell-bank"]
            if sales:
                return max(sales, key=lambda a: a.price)
        if "take" in by_kind:
            return self._take(view, me, by_kind["take"], rng)
        if "warehouse" in by_kind:
            useful = self._useful_purchases(view, me, by_kind["warehouse"])
            if useful:
                return useful[0]
        if "move" in by_kind:
            move = _best_move(view, by_kind["move"], rng, peaceful="end" in by_kind)
            if move is not None:
                return move
        if "end" in by_kind:
            return by_kind["end"][0]
        # Nothing greedy to do and the turn cannot end yet: anything but a trade, if possible.
        others = [a for a in legal if a.kind != "trade"]
        return rng.choice(others or legal)

    def _fits(self, view: GameState, me: Player) -> set[Formula]:
        """The raw inputs of the installations the player can use."""
        return {
            formula_of_container
            for installation in usable_installations(view, me.id)
            for container in installation.containers
            if container.role == "raw-input"
            for formula_of_container in (_parse(container.substance),)
        }

    def _take(self, view: GameState, me: Player, takes: list[Action], rng: random.Random) -> Action:
        fits = self._fits(view, me)
        for action in takes:
            assert isinstance(action, TakeRaw)
            pile = view.piles[action.pile - 1]
            if pile and card_formula(self.catalog, pile[-1]) in fits:
                return action
        return rng.choice(takes)

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
        fits = self._fits(view, me)
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


def _serves(elements: Mapping[str, int], missing: Mapping[str, int]) -> bool:
    return bool(elements) and all(missing.get(e, 0) >= n for e, n in elements.items())


def _best_move(
    view: GameState, moves: list[Action], rng: random.Random, *, peaceful: bool = True
) -> Action | None:
    """The move collecting the most raw cards, never onto another combine; None if none.

    When the combine must move (the referee lists no end of the turn before the move) and
    every move meets another combine, ``peaceful`` is False and the best of them is taken.
    """
    field = view.field
    if field is None:
        return None
    occupied = {
        p.combine.position
        for p in view.players
        if p.combine is not None and p.id != view.current.id
    }
    with_raw = {cell.position for cell in field.cells if cell.raw is not None}
    calm = [m for m in moves if isinstance(m, Move) and not occupied & set(m.path)]
    if not calm:
        if peaceful:
            return None
        calm = [m for m in moves if isinstance(m, Move)]
    gains = {m: sum(1 for cell in m.path if cell in with_raw) for m in calm}
    best = max(gains.values())
    return rng.choice([m for m in calm if gains[m] == best])
