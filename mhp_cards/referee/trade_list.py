"""The one-item trades a player may offer another, listed for :func:`legal_actions`.

A raw card sold, bought or swapped, a product sold, bought or swapped, or a product for a raw
card. Raw cards of one kind are interchangeable, so each kind is listed once; a verdict that
reads only how many cards go each way, or only the product, is judged once and kept for the
listings that read the same (:data:`RAW_VERDICTS`, the state's facts).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mhp_cards.game.state import GameState, Player
from mhp_cards.referee.actions import Action, ProductRef, Trade
from mhp_cards.referee.common import CHEMISTRY_LEVELS
from mhp_cards.referee.interned import MADE, action_of, kind_of, new_action, place_of
from mhp_cards.referee.table import INSTALLATIONS_READ
from mhp_cards.referee.trade import PRODUCT_TRADE_FIELDS, product_trade_reads, raw_trade_reads

__all__ = ["RAW_VERDICTS", "product_refs", "token_places", "trades"]


def trades(
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
            verdict = RAW_VERDICTS.get(key)
            if verdict is None:
                verdict = RAW_VERDICTS[key] = allowed_now(shape[0])
            if verdict:
                listed += shape
    if state.level in CHEMISTRY_LEVELS:
        singles, groups = _product_trades(state, player.id, partner.id, mine, theirs)
        if not singles and not any(groups):
            return listed  # no product to trade: nothing to judge (most listings at level 3)
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
RAW_VERDICTS: dict[tuple[int, tuple[object, ...]], bool] = {}


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
        own = product_refs(state, player)
        others = product_refs(state, partner)
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
    key = (_product_row, partner, place_of(ref), cards, giving)
    row: tuple[Action, ...] | None = MADE.get(key)
    if row is None:
        row = MADE[key] = tuple(
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
    """The trade :func:`action_of` would make with these fields, found by the products' places.

    A product place is a model, slow to hash; its fields are plain values.
    """
    key = (
        _product_trade,
        partner,
        None if give_product is None else place_of(give_product),
        None if get_product is None else place_of(get_product),
        give,
        receive,
    )
    trade: Action | None = MADE.get(key)
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
        trade = MADE[key] = new_action(Trade, fields)
    return trade


def _raw_trade_shapes(
    partner: str, mine: tuple[str, ...], theirs: tuple[str, ...]
) -> tuple[list[Action], list[Action], list[Action]]:
    """The one-card sales, purchases and swaps with ``partner``, made once per pair of hands.

    A step changes one hand or two: the purchases and each card's swaps are kept by the hand
    they read, so a new pair of hands reuses what the hand that stayed gives.
    """
    key = (_raw_trade_shapes, partner, mine, theirs)
    shapes: tuple[list[Action], list[Action], list[Action]] | None = MADE.get(key)
    if shapes is None:
        sales = [_raw_trade(partner, card, None) for card in mine]
        purchases = list(_swap_row(partner, None, theirs))
        swaps: list[Action] = []
        for card in mine:
            swaps += _swap_row(partner, card, theirs)
        shapes = MADE[key] = (sales, purchases, swaps)
    return shapes


def _swap_row(partner: str, give: str | None, theirs: tuple[str, ...]) -> tuple[Action, ...]:
    """``give`` swapped for each of ``theirs`` of another kind; each bought when it is None."""
    key = (_swap_row, partner, give, theirs)
    row: tuple[Action, ...] | None = MADE.get(key)
    if row is None:
        kind = None if give is None else kind_of(give)
        row = MADE[key] = tuple(
            _raw_trade(partner, give, card) for card in theirs if kind_of(card) != kind
        )
    return row


def _raw_trade(partner: str, give: str | None, receive: str | None) -> Action:
    """The trade of one card given, one received, or one of each, made once (kept by its cards)."""
    key = (_raw_trade, partner, give, receive)
    trade: Action | None = MADE.get(key)
    if trade is None:
        fields: dict[str, Any] = {"partner": partner}
        if give is not None:
            fields["give"] = (give,)
        if receive is not None:
            fields["receive"] = (receive,)
        trade = MADE[key] = new_action(Trade, fields)
    return trade


def _first_of_each_kind(cards: tuple[str, ...]) -> tuple[str, ...]:
    """The first card of each kind, in the order of ``cards`` (worked out once per hand)."""
    key = (_first_of_each_kind, cards)
    firsts: tuple[str, ...] | None = MADE.get(key)
    if firsts is None:
        seen: dict[str, str] = {}
        for card in cards:
            seen.setdefault(card.partition("#")[0], card)
        firsts = MADE[key] = tuple(seen.values())
    return firsts


def product_refs(state: GameState, player_id: str) -> list[ProductRef]:
    """A place of each product container on which the player has a token (one per container)."""
    return [ref for ref, product in token_places(state, player_id) if product]


def token_places(state: GameState, player_id: str) -> tuple[tuple[ProductRef, bool], ...]:
    """Each container on which the player has a token, and whether it is a product container.

    A fact of the installations, kept for the states that share them.
    """
    key = ("token-places", player_id)
    facts = state.facts(INSTALLATIONS_READ)
    places: tuple[tuple[ProductRef, bool], ...] | None = facts.get(key)
    if places is None:
        places = facts[key] = tuple(
            (
                action_of(
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
