"""Level 1: a mission finished within the turn through the Bank and the Warehouse.

A player whose hand lacks a card or two of a mission may find them face up in the Warehouse
(L1.T9, 4 мР a card), and pay for them with cards it holds beyond the mission's (L1.T8, 1 мР
a card sold to the Bank): the mission is then claimed on the same turn (L1.E2 wins the game).
:func:`finishing_step` finds such a plan from what the player sees and gives its next action:
a sale while the money is short, then the purchases; the claim is listed by the referee once
the hand completes the mission. Whether a hand completes a mission is the referee's judgement
(:func:`mhp_cards.referee.mission.decide_mission`, under the game's house rule on matching).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Final

from mhp_cards.catalog.models import Catalog, Mission, RawMaterial
from mhp_cards.game.state import GameState
from mhp_cards.referee.actions import Action, BuyRaw, SellRaw
from mhp_cards.referee.mission import could_complete, decide_mission
from mhp_cards.rules.numbers import BANK_SALE_PRICE, WAREHOUSE_PRICE
from mhp_cards.sim.fights import kind_of

__all__ = ["MAX_PURCHASES", "FinishPlan", "finishing_plan", "finishing_step"]

#: Warehouse cards a plan buys at most (each costs WAREHOUSE_PRICE): two already ask for the
#: sale of up to eight cards the mission does not take.
MAX_PURCHASES: Final = 2


@dataclass(frozen=True, slots=True)
class FinishPlan:
    """Cards to sell to the Bank, then Warehouse cards to buy, to complete ``mission``."""

    mission: str
    sell: tuple[str, ...]
    buy: tuple[str, ...]


def finishing_plan(state: GameState, catalog: Catalog) -> FinishPlan | None:
    """The cheapest plan that completes a mission on the current player's turn, if any.

    Cheapest: the fewest Warehouse cards, then the fewest sales. Only the current player's
    hand, money, the Bank and the Warehouse are read (all of them in that player's view).
    None away from level 1, in a fight, or when the player has announced a claim already.
    """
    if state.level != "1" or state.fight is not None or state.field is None:
        return None
    me = state.current
    if any(claimer == me.id for claimer, _ in state.claims):
        return None
    match = state.house_rules.mission_match
    house: list[str] = [match] if match != "exact-subset" else []
    hand = Counter(kind_of(card) for card in me.raw_cards)
    on_sale: dict[str, list[str]] = {}
    for card in state.warehouse:
        on_sale.setdefault(kind_of(card), []).append(card)
    kinds = sorted(on_sale)
    everything = hand + Counter(kind_of(card) for card in state.warehouse)
    # A plan's cards are some of the hand's and the Warehouse's: a mission that no subset of
    # all of them completes (none covers it, under at-least) is out of reach whatever is
    # bought (one judgement each).
    loose: list[str] = house if match == "at-least" else []
    missions = [
        m
        for m in catalog.missions
        if could_complete(catalog, m, everything, "at-least" if loose else "exact-subset")
        and decide_mission(catalog, m, _raws(catalog, everything), loose).verdict == "complete"
    ]
    if not missions:
        return None
    for size in range(MAX_PURCHASES + 1):
        # The sales that pay for ``size`` cards (each brings BANK_SALE_PRICE).
        short = -(-max(0, size * WAREHOUSE_PRICE - me.money) // BANK_SALE_PRICE)
        if short > len(me.raw_cards) or short * BANK_SALE_PRICE > state.bank:
            break
        best: FinishPlan | None = None
        for bought in combinations_with_replacement(kinds, size):
            extra = Counter(bought)
            if any(extra[k] > len(on_sale[k]) for k in extra):
                continue
            plan = _plan(
                catalog, missions, me.raw_cards, hand, extra, on_sale, short, (loose, house)
            )
            if plan is not None and (best is None or len(plan.sell) < len(best.sell)):
                best = plan
        if best is not None:
            return best
    return None


def _plan(
    catalog: Catalog,
    missions: Sequence[Mission],
    cards: Sequence[str],
    hand: Counter[str],
    bought: Counter[str],
    on_sale: dict[str, list[str]],
    short: int,
    rules: tuple[list[str], list[str]],
) -> FinishPlan | None:
    """The plan buying ``bought`` (kinds), selling ``short`` cards the mission does not use.

    ``rules``: the house rules that find the cards a mission uses (a subset of the hand), and
    those of the game, which judge the hand left (under whole-hand, every spare card sold).
    """
    loose, house = rules
    after = hand + bought
    for mission in missions:
        if not could_complete(catalog, mission, after, "at-least" if loose else "exact-subset"):
            continue
        ruling = decide_mission(catalog, mission, _raws(catalog, after), loose)
        if ruling.verdict != "complete":
            continue
        used = Counter(ruling.facts.get("cards_used", ()))
        spare = hand - (used - bought)
        spare_cards = [c for c in cards if _take(spare, kind_of(c))]
        if len(spare_cards) < short:
            continue
        for sell in (spare_cards[:short], spare_cards):
            kept = hand - Counter(kind_of(c) for c in sell)
            final = decide_mission(catalog, mission, _raws(catalog, kept + bought), house)
            if final.verdict == "complete":
                buy = tuple(on_sale[k][i] for k, n in sorted(bought.items()) for i in range(n))
                return FinishPlan(mission.id, tuple(sell), buy)
    return None


def _raws(catalog: Catalog, kinds: Counter[str]) -> list[RawMaterial]:
    return [catalog.raw_material(k) for k in sorted(kinds.elements())]


def _take(spare: Counter[str], kind: str) -> bool:
    if spare[kind] > 0:
        spare[kind] -= 1
        return True
    return False


def finishing_step(state: GameState, legal: Sequence[Action], catalog: Catalog) -> Action | None:
    """The next action of :func:`finishing_plan` (its sales first) if the referee lists it."""
    plan = finishing_plan(state, catalog)
    if plan is None:
        return None
    if plan.sell:
        card = plan.sell[0]
        return next((a for a in legal if isinstance(a, SellRaw) and a.card == card), None)
    if plan.buy:
        card = plan.buy[0]
        return next((a for a in legal if isinstance(a, BuyRaw) and a.card == card), None)
    return None  # the hand completes the mission: the claim is listed
