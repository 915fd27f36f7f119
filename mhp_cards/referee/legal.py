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
from typing import Any, Final, TypeVar

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState, Player, Position
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
from mhp_cards.referee.engine import JUDGES, LISTED, REFUSALS, judge, refuse_end
from mhp_cards.referee.fight import fight_choices
from mhp_cards.referee.keep import choosing, owned
from mhp_cards.referee.market import refuse_buy, refuse_sell, refuse_warehouse
from mhp_cards.referee.mission import could_complete, deciding_kinds
from mhp_cards.referee.move import path_list
from mhp_cards.referee.react import free_mission_places, reactions
from mhp_cards.referee.table import INSTALLATIONS_READ
from mhp_cards.referee.tokens import find_container
from mhp_cards.referee.trade import PRODUCT_TRADE_FIELDS, product_trade_reads, raw_trade_reads

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
        React.model_construct(
            installation=reaction.installation, cards=reaction.cards, missions=choice
        )
        for choice in itertools.product(*options)
        if choice != firsts
    ]


def legal_actions(state: GameState, catalog: Catalog) -> list[Action]:
    """What the current player may do now: every kind of action the rules allow.

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
        _LAST[:] = (None, (), ())
        return [action for action in fight_choices(state) if judge(state, action, catalog).state]
    player = state.current
    listed: list[Action] = []
    # Where each kind's run of actions ends: the kinds are listed one run each, in this order.
    runs: list[tuple[str, int]] = []
    outcomes: dict[int, Outcome] = {}  # by the id of the listed action (kept in LISTED)
    if state.drawn:
        # Ruling V1.3-draw-two: one of the cards drawn is picked before anything else.
        listed = [_made(PickDrawn, card=card) for card in state.drawn]
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

    def each_if_one(actions: list[Action]) -> list[Action]:
        return actions if actions and allowed_now(actions[0]) else []

    level = state.level
    if level in FIELD_LEVELS:
        # The judges' own refusal chains, asked directly: these actions are made from the
        # state, so they name nothing the game lacks.
        if "move" not in state.done_this_turn:
            repairing = player.combine is not None and (
                player.combine.repair_turn == state.turn_number
            )
            listed += [_move(path) for path in path_list(state, player, attacks=not repairing)]
        runs.append(("move", len(listed)))
        for upgrade in _UPGRADES:
            if refuse_buy(state, upgrade, catalog) is None:
                listed.append(upgrade)
        runs.append(("buy", len(listed)))
        sales = _each_card(SellRaw, player.raw_cards)
        if sales and refuse_sell(state, sales[0], catalog) is None:
            listed += sales
        runs.append(("sell", len(listed)))
        purchases = _each_card(BuyRaw, state.warehouse)
        if purchases and refuse_warehouse(state, purchases[0], catalog) is None:
            listed += purchases
        runs.append(("warehouse", len(listed)))
    if level == "1":
        listed += _claims(state, catalog, allowed_now)
        runs.append(("claim", len(listed)))
    if state.level == "1v1" and choosing(state, player):
        # Ruling V1.2-choose: the first turn starts with keeping one installation dealt.
        listed += [_made(KeepInstallation, installation=n) for n in owned(state, player)]
        runs.append(("keep", len(listed)))
    if state.level in ("2", "1v1"):
        listed += each_if_one([_TAKES[n] for n in (1, 2, 3) if state.piles[n - 1]])
        runs.append(("take", len(listed)))
    # One reaction and one freed token a turn (L2.T4, L2.T5): once done, every other is
    # refused by the judges' first refusal, so none is worked out.
    done = state.done_this_turn
    if state.level in CHEMISTRY_LEVELS and "react" not in done:
        for reaction in reactions(state, catalog, player):
            if allowed_now(reaction):
                listed.append(reaction)
                listed += [
                    variant for variant in mission_choices(state, reaction) if allowed_now(variant)
                ]
        runs.append(("react", len(listed)))
    if state.level in CHEMISTRY_LEVELS and "free" not in done:
        for ref, _ in _token_places(state, player.id):
            to_bank = _freeing(ref, "sell-bank", price=0)
            prices = price_range(state, to_bank, catalog)
            offers: list[Action] = [_freeing(ref, "dump")]
            if prices:
                offers.append(_freeing(ref, "sell-bank", price=prices[-1]))
            for buyer in state.players:
                if buyer.id != player.id and state.level != "1v1":
                    offers.append(_freeing(ref, "sell-player", partner=buyer.id, price=0))
            listed += [action for action in offers if allowed_now(action)]
        runs.append(("free", len(listed)))
    if state.level != "1v1" and "trade" not in state.done_this_turn:
        for partner in state.players:
            if partner.id != player.id:
                listed += _trades(state, player, partner, allowed_now)
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


#: Actions already made, by class and fields: an action is a frozen value, so one can be shared.
_MADE: dict[tuple[Any, ...], Any] = {}
_MADE_LIMIT: Final = 200_000

M = TypeVar("M", bound=BaseModel)
C = TypeVar("C", SellRaw, BuyRaw)


def _each_card(kind: type[C], cards: tuple[str, ...]) -> tuple[C, ...]:
    """One action per card, made once per tuple of cards."""
    key = (kind, cards)
    made: tuple[C, ...] | None = _MADE.get(key)
    if made is None:
        made = _MADE[key] = tuple(_made(kind, card=card) for card in cards)
    return made


def _made(kind: type[M], **fields: Any) -> M:
    """The action (or product place) ``kind(**fields)``, made once without validation."""
    key = (kind, *fields.items())
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= _MADE_LIMIT:
            _MADE.clear()
        made = _MADE[key] = _construct(kind, fields)
    return made


def _fresh(kind: type[M], fields: dict[str, Any]) -> M:
    """The action made anew, for a caller that keeps it under its own key.

    :func:`_made`'s key would hold the product place, a model slow to hash.
    """
    if len(_MADE) >= _MADE_LIMIT:
        _MADE.clear()
    return _construct(kind, fields)


def _construct(kind: type[M], fields: dict[str, Any]) -> M:
    """What ``kind.model_construct(**fields)`` makes, made the quick way where it can be.

    For a model with plain defaults (no aliases, factories or post-init hook) and every
    required field given, the instance is set up directly: the same fields in the same order,
    the same fields set; pydantic's general construction costs several times more.
    """
    plan = _PLANS.get(kind)
    if plan is None:
        plan = _PLANS[kind] = _plan_of(kind)
    defaults, required = plan
    if defaults is None or not required <= fields.keys():
        return kind.model_construct(**fields)
    made = kind.__new__(kind)
    object.__setattr__(made, "__dict__", defaults | fields)  # in the order of the fields
    object.__setattr__(made, "__pydantic_fields_set__", set(fields))
    object.__setattr__(made, "__pydantic_extra__", None)
    object.__setattr__(made, "__pydantic_private__", None)
    return made


def _plan_of(kind: type[BaseModel]) -> tuple[dict[str, Any] | None, frozenset[str]]:
    """Each field with its default (None for a required one), and the required fields.

    The defaults are None when the model is not plain enough to be made without pydantic.
    """
    if kind.__pydantic_post_init__ or kind.model_config.get("extra") == "allow":
        return None, frozenset()
    defaults: dict[str, Any] = {}
    required = set()
    for name, field in kind.model_fields.items():
        if field.alias is not None or field.validation_alias is not None:
            return None, frozenset()
        if field.default_factory is not None:
            return None, frozenset()
        if field.default is PydanticUndefined:
            required.add(name)
            defaults[name] = None  # a place in the order, always given
        else:
            defaults[name] = field.default
    return defaults, frozenset(required)


_PLANS: dict[type[BaseModel], tuple[dict[str, Any] | None, frozenset[str]]] = {}


def _move(path: tuple[Position, ...]) -> Action:
    """The move along ``path``, made once."""
    move: Action | None = _MOVES.get(path)
    if move is None:
        if len(_MOVES) >= _MADE_LIMIT:
            _MOVES.clear()
        move = _MOVES[path] = _construct(Move, {"path": path})
    return move


_MOVES: dict[tuple[Position, ...], Action] = {}

#: The actions that name nothing of the state: made once.
_UPGRADES: tuple[BuyUpgrade, ...] = (
    BuyUpgrade.model_construct(upgrade="solar-battery"),
    BuyUpgrade.model_construct(upgrade="armour"),
)
_END: EndTurn = EndTurn.model_construct()
_TAKES: dict[int, Action] = {n: TakeRaw.model_construct(pile=n) for n in (1, 2, 3)}


def _trades(
    state: GameState, player: Player, partner: Player, allowed_now: Callable[[Action], bool]
) -> list[Action]:
    """The one-item trades with ``partner``: sell, buy or swap a raw card or a product.

    Listed with no money paid; :func:`price_range` gives the payments the partner may agree
    to. Raw cards of one kind are interchangeable, so each kind is listed once; at level 1,
    where a trade may move several cards, any such trade is a series of these.
    """
    mine, theirs = _first_of_each_kind(player.raw_cards), _first_of_each_kind(partner.raw_cards)
    # The verdict on a raw trade depends on how many cards go each way (the combine's room at
    # level 3), never on which held cards it names: one judgement per shape, kept for every
    # listing where what it reads (raw_trade_reads) is the same.
    listed: list[Action] = []
    reads = raw_trade_reads(state, partner)
    for number, shape in enumerate(_raw_trade_shapes(partner.id, mine, theirs)):
        if shape:
            key = (number, reads)  # the shape names how many cards go each way
            verdict = _RAW_VERDICTS.get(key)
            if verdict is None:
                verdict = _RAW_VERDICTS[key] = allowed_now(shape[0])
            if verdict:
                listed += shape
    if state.level in CHEMISTRY_LEVELS:
        singles, groups = _product_trades(state, player.id, partner.id, mine, theirs)
        judged = _product_verdicts(state, partner, allowed_now)
        listed += [action for action in singles if judged(action)]
        # A product for a raw card, or a raw card for a product: the verdict depends on the
        # product, never on which card of the other side it names — one judgement per product.
        for group in groups:
            if group and judged(group[0]):
                listed += group
    return listed


def _product_verdicts(
    state: GameState, partner: Player, allowed_now: Callable[[Action], bool]
) -> Callable[[Action], bool]:
    """``allowed_now`` for the product trades with ``partner``, each judged once.

    Once for what its verdict reads (:func:`product_trade_reads`), kept with the facts of the
    state's fields that it reads besides, for the copies of the state that leave them alone.
    """
    facts = state.facts(PRODUCT_TRADE_FIELDS)
    key = ("product-trade-verdicts", partner.id, product_trade_reads(state, partner))
    verdicts: dict[int, tuple[Action, bool]] | None = facts.get(key)
    if verdicts is None:
        verdicts = facts[key] = {}

    def judged(action: Action) -> bool:
        known = verdicts.get(id(action))
        if known is not None and known[0] is action:
            return known[1]
        verdict = allowed_now(action)
        verdicts[id(action)] = (action, verdict)  # the action kept, so its id stays its own
        return verdict

    return judged


#: The verdicts on raw trades by shape (sales, purchases, swaps) and what else they read
#: (a few dozen values at most).
_RAW_VERDICTS: dict[tuple[int, tuple[object, ...]], bool] = {}


def _product_trades(
    state: GameState, player: str, partner: str, mine: tuple[str, ...], theirs: tuple[str, ...]
) -> tuple[tuple[Action, ...], tuple[tuple[Action, ...], ...]]:
    """The one-item trades with ``partner`` that move a product, to be judged.

    The trades judged one by one (a product bought, or swapped for one), then the groups
    judged by their first (a product for each raw card, each raw card for a product). The
    first are made once for the installations' tokens, each group once for its product and
    the hand it reads.
    """
    facts = state.facts(INSTALLATIONS_READ)
    key = ("product-trades", player, partner, mine, theirs)
    trades: tuple[tuple[Action, ...], tuple[tuple[Action, ...], ...]] | None = facts.get(key)
    if trades is not None:
        return trades
    key_of_singles = ("product-trades", player, partner)
    found: tuple[list[ProductRef], list[ProductRef], tuple[Action, ...]] | None
    found = facts.get(key_of_singles)
    if found is None:
        own = _product_refs(state, player)
        others = _product_refs(state, partner)
        singles = (
            *(_product_trade(partner, get_product=ref) for ref in others),
            *(_product_trade(partner, give_product=a, get_product=b) for a in own for b in others),
        )
        found = facts[key_of_singles] = (own, others, singles)
    own, others, singles = found
    groups = (
        *(_product_row(partner, ref, theirs, giving=True) for ref in own),
        *(_product_row(partner, ref, mine, giving=False) for ref in others),
    )
    trades = facts[key] = (singles, groups)
    return trades


def _product_row(
    partner: str, ref: ProductRef, cards: tuple[str, ...], *, giving: bool
) -> tuple[Action, ...]:
    """The product given for each of ``cards`` (``giving``), or got for each of them."""
    key = (_product_row, partner, _place_of(ref), cards, giving)
    row: tuple[Action, ...] | None = _MADE.get(key)
    if row is None:
        row = _MADE[key] = tuple(
            _product_trade(partner, give_product=ref, receive=(card,))
            if giving
            else _product_trade(partner, give=(card,), get_product=ref)
            for card in cards
        )
    return row


def _product_trade(
    partner: str,
    *,
    give_product: ProductRef | None = None,
    get_product: ProductRef | None = None,
    give: tuple[str, ...] = (),
    receive: tuple[str, ...] = (),
) -> Action:
    """The trade :func:`_made` would make with these fields, found by the products' places.

    A product place is a model, slow to hash; its fields are plain values.
    """
    key = (
        _product_trade,
        partner,
        None if give_product is None else _place_of(give_product),
        None if get_product is None else _place_of(get_product),
        give,
        receive,
    )
    trade: Action | None = _MADE.get(key)
    if trade is None:
        fields: dict[str, Any] = {"partner": partner}
        if give_product is not None:
            fields["give_product"] = give_product
        if receive:
            fields["receive"] = receive
        if give:
            fields["give"] = give
        if get_product is not None:
            fields["get_product"] = get_product
        trade = _MADE[key] = _fresh(Trade, fields)
    return trade


def _freeing(ref: ProductRef, how: str, **fields: Any) -> Action:
    """The :class:`FreeToken` :func:`_made` would make with these fields, found by the place.

    A product place is a model, slow to hash; its fields are plain values.
    """
    key = (_freeing, _place_of(ref), how, *fields.items())
    freeing: Action | None = _MADE.get(key)
    if freeing is None:
        freeing = _MADE[key] = _fresh(FreeToken, {"product": ref, "how": how, **fields})
    return freeing


def _place_of(ref: ProductRef) -> tuple[int, str, int]:
    return ref.installation, ref.card, ref.container


def _raw_trade_shapes(
    partner: str, mine: tuple[str, ...], theirs: tuple[str, ...]
) -> tuple[list[Action], list[Action], list[Action]]:
    """The one-card sales, purchases and swaps with ``partner``, made once per pair of hands.

    A step changes one hand or two: the purchases and each card's swaps are kept by the hand
    they read, so a new pair of hands reuses what the hand that stayed gives.
    """
    key = (_raw_trade_shapes, partner, mine, theirs)
    shapes: tuple[list[Action], list[Action], list[Action]] | None = _MADE.get(key)
    if shapes is None:
        sales = [_raw_trade(partner, card, None) for card in mine]
        purchases = list(_swap_row(partner, None, theirs))
        swaps: list[Action] = []
        for card in mine:
            swaps += _swap_row(partner, card, theirs)
        shapes = _MADE[key] = (sales, purchases, swaps)
    return shapes


def _swap_row(partner: str, give: str | None, theirs: tuple[str, ...]) -> tuple[Action, ...]:
    """``give`` swapped for each of ``theirs`` of another kind; each bought when it is None."""
    key = (_swap_row, partner, give, theirs)
    row: tuple[Action, ...] | None = _MADE.get(key)
    if row is None:
        kind = None if give is None else _kind_of(give)
        row = _MADE[key] = tuple(
            _raw_trade(partner, give, card) for card in theirs if _kind_of(card) != kind
        )
    return row


def _raw_trade(partner: str, give: str | None, receive: str | None) -> Action:
    """The trade :func:`_made` makes of one card given, one received, or one of each."""
    key = (_raw_trade, partner, give, receive)
    trade: Action | None = _MADE.get(key)
    if trade is None:
        if give is None:
            trade = _made(Trade, partner=partner, receive=(receive,))
        elif receive is None:
            trade = _made(Trade, partner=partner, give=(give,))
        else:
            trade = _made(Trade, partner=partner, give=(give,), receive=(receive,))
        _MADE[key] = trade
    return trade


def _kind_of(card: str) -> str:
    return card.partition("#")[0]


def _first_of_each_kind(cards: tuple[str, ...]) -> tuple[str, ...]:
    """The first card of each kind, in the order of ``cards`` (worked out once per hand)."""
    key = (_first_of_each_kind, cards)
    firsts: tuple[str, ...] | None = _MADE.get(key)
    if firsts is None:
        seen: dict[str, str] = {}
        for card in cards:
            seen.setdefault(card.partition("#")[0], card)
        firsts = _MADE[key] = tuple(seen.values())
    return firsts


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
        if len(memo) >= _MADE_LIMIT:
            memo.clear()
        counts = Counter(kinds)
        # The judge is asked only where the hand may hold enough: most hands do not. A claim
        # refused for the kinds that decide it is refused for every hand with those kinds.
        refused = catalog.memo("referee.legal-claim-refusals")
        if len(refused) >= _MADE_LIMIT:
            refused.clear()
        claims = []
        for mission in catalog.missions:
            if not could_complete(catalog, mission, counts, match):
                continue
            deciding = deciding_kinds(catalog, mission, counts, match)
            if deciding is not None and (mission.id, deciding) in refused:
                continue
            claim = _made(Claim, mission=mission.id)
            if allowed_now(claim):
                claims.append(claim)
            elif deciding is not None:
                refused[(mission.id, deciding)] = True
        memo[key] = claims
    return claims


def _kinds_held(cards: tuple[str, ...]) -> tuple[str, ...]:
    """The kinds of ``cards``, sorted (a multiset), worked out once per hand."""
    key = (_kinds_held, cards)
    kinds: tuple[str, ...] | None = _MADE.get(key)
    if kinds is None:
        kinds = _MADE[key] = tuple(sorted(_kind_of(card) for card in cards))
    return kinds


def _product_refs(state: GameState, player_id: str) -> list[ProductRef]:
    """A place of each product container on which the player has a token (one per container)."""
    return [ref for ref, product in _token_places(state, player_id) if product]


def _token_places(state: GameState, player_id: str) -> tuple[tuple[ProductRef, bool], ...]:
    """Each container on which the player has a token, and whether it is a product container.

    A fact of the installations, kept for the states that share them.
    """
    key = ("token-places", player_id)
    facts = state.facts(INSTALLATIONS_READ)
    places: tuple[tuple[ProductRef, bool], ...] | None = facts.get(key)
    if places is None:
        places = facts[key] = tuple(
            (
                _made(
                    ProductRef,
                    installation=installation.number,
                    card=container.card,
                    container=container.index,
                ),
                container.role == "product",
            )
            for installation in state.installations
            for container in installation.containers
            if player_id in container.places
        )
    return places
