"""What the current player may do: every action the rules allow now, cheap to list.

Moves come from the path rule itself; an action whose ruling does not depend on the card it
names is judged once per kind; the others are judged one by one, through the refusal chains of
their judges (no next state is built for an action that may not be chosen). The actions are
shared values made once; ``apply`` recognises those it was handed from the last listing and
computes their effect alone.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState, Position
from mhp_cards.referee import trade_list
from mhp_cards.referee.actions import (
    Action,
    BuyRaw,
    BuyUpgrade,
    Claim,
    EndTurn,
    FreeToken,
    KeepInstallation,
    Move,
    PickDrawn,
    ProductRef,
    React,
    SellRaw,
    TakeRaw,
    Trade,
)
from mhp_cards.referee.common import (
    CHEMISTRY_LEVELS,
    FIELD_LEVELS,
    Outcome,
)
from mhp_cards.referee.engine import JUDGES, LISTED, REFUSALS, is_legal, refuse_end
from mhp_cards.referee.fight import fight_choices
from mhp_cards.referee.interned import (
    MADE,
    MADE_LIMIT,
    action_of,
    construct,
    kind_of,
    new_action,
    per_card,
    place_of,
)
from mhp_cards.referee.keep import choosing, owned
from mhp_cards.referee.market import buy_reads, refuse_buy, refuse_sell, refuse_warehouse
from mhp_cards.referee.mission import completes, could_complete, deciding_kinds
from mhp_cards.referee.move import path_list
from mhp_cards.referee.react import free_mission_places
from mhp_cards.referee.reaction_list import reactions
from mhp_cards.referee.tokens import FREE_FIELDS, find_container, free_reads
from mhp_cards.referee.trade_list import token_places

__all__ = ["legal_actions", "listed_by_kind", "mission_choices", "price_range"]


def price_range(state: GameState, action: Action, catalog: Catalog) -> range | None:
    """The prices an action may name where the rules leave the price open; None elsewhere.

    A sale to the Bank at level 2 is at the nominal price or less, as far as the Bank can pay
    (L2.T5), at level 3 at the printed price (L3.T3); a sale to a player or a trade is for any
    whole number of мР the payer holds (Ruling L2.T2-one-trade, "Trades at the table"). For a
    trade the range is what the acting player pays: negative numbers are paid to them.
    :func:`legal_actions` lists such an action once, with a price from this range.
    """
    if isinstance(action, FreeToken):
        if action.how == "dump":
            return None
        ref = action.product
        found = find_container(state, ref.installation, ref.card, ref.container)
        if found is None:
            return range(0)
        nominal = catalog.substance(found[2].substance).price
        if action.how == "sell-bank":
            if state.level == "3":
                return range(nominal, nominal + 1) if state.bank >= nominal else range(0)
            return range(0, min(nominal, state.bank) + 1)
        buyer = next((p for p in state.players if p.id == action.partner), None)
        return range(0, buyer.money + 1) if buyer is not None else range(0)
    if isinstance(action, Trade):
        partner = next((p for p in state.players if p.id == action.partner), None)
        if partner is None:
            return range(0)
        return range(-partner.money, state.current.money + 1)
    return None


def mission_choices(state: GameState, reaction: React) -> list[React]:
    """The other places a reaction's products may take on the Mission card (L2.M1-choice).

    The reaction as given puts each product on the first mission with a free place; each
    variant here names another choice for at least one product. Made once for a reaction
    and the copies of the state that leave the installations and the Mission card alone.
    """
    key = ("mission-choices", id(reaction))
    facts = state.facts(_CHOICES_READ)
    known: tuple[React, tuple[React, ...]] | None = facts.get(key)
    if known is None or known[0] is not reaction:
        known = facts[key] = (reaction, tuple(_mission_choices(state, reaction)))
    return list(known[1])


#: The fields of a state the choices of places on the Mission card read.
_CHOICES_READ: Final = frozenset({"installations", "missions"})


def _mission_choices(state: GameState, reaction: React) -> list[React]:
    installation = next(i for i in state.installations if i.number == reaction.installation)
    options = [
        [state.missions[m].id for m, _, _ in free_mission_places(state, container.substance)]
        for container in installation.containers
        if container.role == "product"
    ]
    options = [ids for ids in options if ids]
    if all(len(ids) < 2 for ids in options):
        return []
    firsts = tuple(ids[0] for ids in options)
    return [
        construct(
            React,
            {"installation": reaction.installation, "cards": reaction.cards, "missions": choice},
        )
        for choice in itertools.product(*options)
        if choice != firsts
    ]


def legal_actions(state: GameState, catalog: Catalog, *, trades: bool = True) -> list[Action]:
    """What the current player may do now: every kind of action the rules allow.

    ``trades=False`` leaves out the trades with other players (a caller that will propose
    none, such as a bot that offers one only in a given position): the other actions are
    listed as they would be, in the same order.

    Moves come from the same path rule :func:`judge_move` applies, so they are legal as
    listed; actions whose ruling cannot depend on which card they name (a sale to the Bank, a
    Warehouse purchase, a pile) are judged once per kind; the rest are judged one by one. An
    action with an open price is listed once (:func:`price_range`). The actions are values
    made once and shared: their fields come from the state, so they are not validated again.
    While a fight is pending, the actions are its next step, by whoever takes it: the dice,
    the winner's spoils or the loser's retreat (Ruling L1.T4.R4).
    """
    if state.ended:
        return []
    if state.fight is not None:
        # Asked as is_legal asks (the spoils by their refusals alone, without their next
        # states), and listed, so that apply makes only the chosen step's state.
        steps = [action for action in fight_choices(state) if is_legal(state, action, catalog)]
        LISTED.clear()
        LISTED[id(state)] = (state, catalog, {}, tuple(steps))
        _LAST[:] = (None, (), ())
        return steps
    player = state.current
    listed: list[Action] = []
    # Where each kind's run of actions ends: the kinds are listed one run each, in this order.
    runs: list[tuple[str, int]] = []
    outcomes: dict[int, Outcome] = {}  # by the id of the listed action (kept in LISTED)
    if state.drawn:
        # Ruling V1.3-draw-two: one of the cards drawn is picked before anything else.
        listed = [action_of(PickDrawn, card=card) for card in state.drawn]
        LISTED.clear()
        LISTED[id(state)] = (state, catalog, outcomes, tuple(listed))
        _LAST[:] = (listed, tuple(listed), [("pick", len(listed))])
        return listed

    # The current player's own actions, in a game that goes on with no fight pending: judge()'s
    # first refusals cannot apply, so each action goes straight to its rule's judge.
    def allowed_now(action: Action) -> bool:
        guard = REFUSALS.get(type(action))
        try:
            if guard is not None:  # the judge's own refusals, without building the next state
                return guard(state, action, catalog) is None
            outcome = JUDGES[type(action)](state, action, catalog)
        except (KeyError, IndexError):  # judge() refuses what names nothing in the game
            return False
        if outcome.state is None:
            return False
        outcomes[id(action)] = outcome
        return True

    level = state.level
    done = state.done_this_turn
    if level in FIELD_LEVELS:
        # The judges' own refusal chains, asked directly: these actions are made from the
        # state, so they name nothing the game lacks.
        if "move" not in done:
            repairing = player.combine is not None and (
                player.combine.repair_turn == state.turn_number
            )
            listed += [_move(path) for path in path_list(state, player, attacks=not repairing)]
        runs.append(("move", len(listed)))
        listed += _upgrades(state, catalog)
        runs.append(("buy", len(listed)))
        sales = per_card(SellRaw, player.raw_cards)
        if sales and refuse_sell(state, sales[0], catalog) is None:
            listed += sales
        runs.append(("sell", len(listed)))
        purchases = per_card(BuyRaw, state.warehouse)
        if purchases and refuse_warehouse(state, purchases[0], catalog) is None:
            listed += purchases
        runs.append(("warehouse", len(listed)))
    if level == "1":
        listed += _claims(state, catalog, allowed_now)
        runs.append(("claim", len(listed)))
    if level == "1v1" and choosing(state, player):
        # Ruling V1.2-choose: the first turn starts with keeping one installation dealt.
        listed += [action_of(KeepInstallation, installation=n) for n in owned(state, player)]
        runs.append(("keep", len(listed)))
    if level in ("2", "1v1"):
        # Which pile a card is taken from does not change the verdict: one judgement.
        piles = state.piles
        takes = [_TAKES[n] for n in (1, 2, 3) if piles[n - 1]]
        if takes and allowed_now(takes[0]):
            listed += takes
        runs.append(("take", len(listed)))
    if level in CHEMISTRY_LEVELS:
        # One reaction and one freed token a turn (L2.T4, L2.T5): once done, every other is
        # refused by the judges' first refusal, so none is worked out.
        if "react" not in done:
            for reaction in reactions(state, catalog, player):
                if allowed_now(reaction):
                    listed.append(reaction)
                    listed += [
                        variant
                        for variant in mission_choices(state, reaction)
                        if allowed_now(variant)
                    ]
            runs.append(("react", len(listed)))
        if "free" not in done:
            listed += _freeings(state, catalog, allowed_now)
            runs.append(("free", len(listed)))
    if trades and level != "1v1" and "trade" not in done:
        for partner in state.players:
            if partner.id != player.id:
                listed += trade_list.trades(state, player, partner, allowed_now)
        runs.append(("trade", len(listed)))
    if refuse_end(state, _END, catalog) is None:
        listed.append(_END)
    runs.append(("end", len(listed)))
    actions = tuple(listed)
    LISTED.clear()
    LISTED[id(state)] = (state, catalog, outcomes, actions)
    _LAST[:] = (listed, actions, runs)
    return listed


def listed_by_kind(legal: list[Action]) -> dict[str, list[Action]] | None:
    """The actions of ``legal`` by kind, kinds in the order listed; None if it is not a listing.

    Only for the very list :func:`legal_actions` returned last, as it was returned (else None):
    its kinds are listed one run each, so the groups are slices of it, found without reading
    every action's kind.
    """
    listed, actions, runs = _LAST
    if listed is not legal or len(legal) != len(actions) or tuple(legal) != actions:
        return None
    by_kind: dict[str, list[Action]] = {}
    start = 0
    for kind, end in runs:
        if end > start:
            by_kind[kind] = legal[start:end]
            start = end
    return by_kind


#: The last listing outside a fight: the list returned, its actions then, the end of each kind's
#: run (:func:`listed_by_kind`).
_LAST: list[Any] = [None, (), ()]


def _move(path: tuple[Position, ...]) -> Action:
    """The move along ``path``, made once."""
    move: Action | None = _MOVES.get(path)
    if move is None:
        if len(_MOVES) >= MADE_LIMIT:
            _MOVES.clear()
        move = _MOVES[path] = construct(Move, {"path": path})
    return move


_MOVES: dict[tuple[Position, ...], Action] = {}

#: The actions that name nothing of the state: made once.
_UPGRADES: tuple[BuyUpgrade, ...] = (
    BuyUpgrade.model_construct(upgrade="solar-battery"),
    BuyUpgrade.model_construct(upgrade="armour"),
)
_END: EndTurn = EndTurn.model_construct()
_TAKES: dict[int, Action] = {n: TakeRaw.model_construct(pile=n) for n in (1, 2, 3)}


def _upgrades(state: GameState, catalog: Catalog) -> tuple[BuyUpgrade, ...]:
    """The upgrades :func:`refuse_buy` lets the current player buy now.

    Judged once for what the verdicts read (:func:`buy_reads`) and the catalog: a turn's
    listings, before and after the move, mostly read the same.
    """
    key = buy_reads(state)
    known = UPGRADE_VERDICTS.get(key)
    if known is not None and known[0] is catalog:
        return known[1]
    allowed = tuple(upgrade for upgrade in _UPGRADES if refuse_buy(state, upgrade, catalog) is None)
    if len(UPGRADE_VERDICTS) >= MADE_LIMIT:
        UPGRADE_VERDICTS.clear()
    UPGRADE_VERDICTS[key] = (catalog, allowed)
    return allowed


#: The upgrades allowed by what their verdicts read (:func:`buy_reads`), with the catalog.
UPGRADE_VERDICTS: dict[tuple[object, ...], tuple[Catalog, tuple[BuyUpgrade, ...]]] = {}


def _freeings(
    state: GameState, catalog: Catalog, allowed_now: Callable[[Action], bool]
) -> tuple[Action, ...]:
    """The current player's tokens that :func:`judge_free` lets them free, each way allowed.

    Dumped, sold to the Bank at the best price it allows, or sold to each other player (the
    price open). Judged once for what the verdicts read (:func:`free_reads`), kept with the
    facts of the state's fields they read besides, for the copies that leave them alone.
    """
    player = state.current
    places = token_places(state, player.id)
    if not places:
        return ()  # no token placed: nothing to judge (most listings at level 3)
    facts = state.facts(FREE_FIELDS)
    key = ("freeings", free_reads(state))
    known: tuple[Catalog, tuple[Action, ...]] | None = facts.get(key)
    if known is not None and known[0] is catalog:
        return known[1]
    allowed: list[Action] = []
    for ref, _ in places:
        to_bank = _freeing(ref, "sell-bank", price=0)
        prices = price_range(state, to_bank, catalog)
        offers: list[Action] = [_freeing(ref, "dump")]
        if prices:
            offers.append(_freeing(ref, "sell-bank", price=prices[-1]))
        for buyer in state.players:
            if buyer.id != player.id and state.level != "1v1":
                offers.append(_freeing(ref, "sell-player", partner=buyer.id, price=0))
        allowed += [action for action in offers if allowed_now(action)]
    freeings = tuple(allowed)
    facts[key] = (catalog, freeings)
    return freeings


def _freeing(ref: ProductRef, how: str, **fields: Any) -> Action:
    """The :class:`FreeToken` :func:`action_of` would make with these fields, found by the place.

    A product place is a model, slow to hash; its fields are plain values.
    """
    key = (_freeing, place_of(ref), how, *fields.items())
    freeing: Action | None = MADE.get(key)
    if freeing is None:
        freeing = MADE[key] = new_action(FreeToken, {"product": ref, "how": how, **fields})
    return freeing


def _claims(
    state: GameState, catalog: Catalog, allowed_now: Callable[[Action], bool]
) -> list[Action]:
    """The level-1 claims of the whole hand that :func:`judge_claim` allows.

    A claim's verdict depends only on the kinds in the hand and how many of each, the
    catalog's missions and the house rule on matching (its judge reads nothing else but
    whether the player has announced one already), so the claims are judged once per
    multiset of kinds, whatever the cards' numbers and order.
    """
    player = state.current
    if any(claimer == player.id for claimer, _ in state.claims):
        return []  # one announcement each (L2.E1-round)
    kinds = _kinds_held(player.raw_cards)
    match = state.house_rules.mission_match
    key = (kinds, match)
    memo = catalog.memo("referee.legal-claims")
    claims: list[Action] | None = memo.get(key)
    if claims is None:
        if len(memo) >= MADE_LIMIT:
            memo.clear()
        counts = Counter(kinds)
        # The judge is asked only where the hand may hold enough: most hands do not. A claim
        # refused for the kinds that decide it is refused for every hand with those kinds.
        refused = catalog.memo("referee.legal-claim-refusals")
        if len(refused) >= MADE_LIMIT:
            refused.clear()
        claims = []
        for mission in catalog.missions:
            if not could_complete(catalog, mission, counts, match):
                continue
            deciding = deciding_kinds(catalog, mission, counts, match)
            if deciding is not None and (mission.id, deciding) in refused:
                continue
            # The verdict alone first: judging a claim the hand does not complete would work
            # out the closest selection and its words, to be thrown away.
            try:
                complete = completes(catalog, mission, counts, match)
            except KeyError:  # a kind the catalog lacks: the judge refuses the claim
                complete = False
            claim = action_of(Claim, mission=mission.id)
            if complete and allowed_now(claim):
                claims.append(claim)
            elif deciding is not None:
                refused[(mission.id, deciding)] = True
        memo[key] = claims
    return claims


def _kinds_held(cards: tuple[str, ...]) -> tuple[str, ...]:
    """The kinds of ``cards``, sorted (a multiset), worked out once per hand."""
    key = (_kinds_held, cards)
    kinds: tuple[str, ...] | None = MADE.get(key)
    if kinds is None:
        kinds = MADE[key] = tuple(sorted(kind_of(card) for card in cards))
    return kinds
