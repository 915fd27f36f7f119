"""Trades between players: raw cards and products, sold, bought or swapped.

L1.T7, L2.T2, L2.T3, V1.4, L3.T2 and Ruling L2.T2-one-trade.
"""

from __future__ import annotations

from collections.abc import Sequence

from mhp_cards.catalog.models import Catalog, formula_of
from mhp_cards.game.state import GameState, InstallationState
from mhp_cards.referee.actions import ProductRef, Trade
from mhp_cards.referee.common import (
    Judge,
    Outcome,
    capacity_left,
    event,
    guarded,
    mark_done,
    once_a_turn,
    updated,
)
from mhp_cards.referee.ruling import Ruling, allowed, forbidden, refused
from mhp_cards.referee.table import (
    containers_for,
    replace_player,
    usable_installations,
)
from mhp_cards.referee.tokens import find_container
from mhp_cards.rules.numbers import COMBINE_CAPACITY


def refuse_trade(state: GameState, action: Trade, catalog: Catalog) -> Outcome | None:
    """Why a trade may not be made now (L1.T7, L2.T2, L2.T3, V1.4, L3.S3); None when it may."""
    rules: tuple[str, ...] = {
        "1": ("L1.T7",),
        "2": ("L2.T2",),
        "1v1": ("V1.4",),
        "3": ("L3.T2", "L1.T7"),
    }[state.level]
    if state.level == "1v1":
        return Outcome(
            refused(
                ("V1.4",),
                lambda: (
                    "В игре один на один обмены и сделки между игроками запрещены.",
                    "Head to head forbids trades between players.",
                ),
            )
        )
    if state.level in ("2", "3"):
        refusal = once_a_turn(
            state,
            "trade",
            (*rules, "L2.T2", "L2.T2-one-trade"),
            "Сделка в этот ход уже была.",
            "There has been a trade this turn already.",
        )
        if refusal:
            return Outcome(refusal)
        gives = len(action.give) + (action.give_product is not None)
        gets = len(action.receive) + (action.get_product is not None)
        if gives > 1 or gets > 1:
            return Outcome(
                refused(
                    ("L2.T2",),
                    lambda: (
                        "За ход — одна сделка с ОДНОЙ карточкой в каждую сторону.",
                        "One trade a turn, with ONE card each way.",
                    ),
                )
            )
    player = state.current
    if len(set(action.give)) != len(action.give) or len(set(action.receive)) != len(action.receive):
        return Outcome(
            refused(
                rules, lambda: ("Одна и та же карточка названа дважды.", "A card is named twice.")
            )
        )
    if action.partner == player.id or action.partner not in {p.id for p in state.players}:
        return Outcome(
            refused(
                rules,
                lambda: (
                    f"Партнёра {action.partner!r} нет в игре.",
                    f"There is no other player {action.partner!r}.",
                ),
            )
        )
    partner = state.player(action.partner)
    missing = [card for card in action.give if card not in player.raw_cards]
    if missing:
        return Outcome(
            refused(rules, lambda: (f"У игрока нет {missing}.", f"The player lacks {missing}."))
        )
    missing = [card for card in action.receive if card not in partner.raw_cards]
    if missing:
        return Outcome(
            refused(rules, lambda: (f"У партнёра нет {missing}.", f"The partner lacks {missing}."))
        )
    if not (action.give or action.receive or action.give_product or action.get_product):
        return Outcome(refused(rules, lambda: ("Сделка без карточек.", "A trade needs a card.")))
    products = (action.give_product, action.get_product)
    if state.level == "1" and any(products):
        return Outcome(
            refused(
                rules,
                lambda: (
                    "На уровне 1 веществ нет: меняются только карточки сырья.",
                    "Level 1 has no substances: only raw cards change hands.",
                ),
            )
        )
    moves: list[tuple[tuple[int, int, int], tuple[int, int, int], str]] = []
    for ref, seller, buyer in (
        (action.give_product, player, partner),
        (action.get_product, partner, player),
    ):
        if ref is None:
            continue
        found = product_transfer(state, ref, seller.id, buyer.id)
        if isinstance(found, Ruling):
            return Outcome(found)
        moves.append((*found, buyer.id))
    if action.give_product is not None:
        refusal = once_a_turn(
            state,
            "free",
            ("L2.T5", "L2.T2-one-trade"),
            "Фишку в этот ход уже освобождали: продажа продукта её освобождает.",
            "A token has been freed this turn already: selling a product frees one.",
        )
        if refusal:
            return Outcome(refusal)
    for someone, product_in, product_out in (
        (player, action.get_product, action.give_product),
        (partner, action.give_product, action.get_product),
    ):
        if product_in is not None and product_out is None and state.free_tokens(someone.id) < 1:
            return Outcome(
                forbidden(
                    (*rules, "L2.T5"),
                    f"У {someone.id} нет свободной фишки для продукта.",
                    f"{someone.id} has no free token for the product.",
                )
            )
    if action.pay > player.money or -action.pay > partner.money:
        return Outcome(
            refused(rules, lambda: ("Не хватает денег на оплату.", "Not enough money to pay."))
        )
    for someone, incoming, outgoing in (
        (player, action.receive, action.give),
        (partner, action.give, action.receive),
    ):
        room = capacity_left(state, someone)
        if room is not None and len(incoming) - len(outgoing) > room:
            return Outcome(
                forbidden(
                    ("L3.S3",),
                    f"Комбайн {someone.id} переполнится.",
                    f"{someone.id}'s combine would hold more than {COMBINE_CAPACITY} cards.",
                )
            )
    return None


def trade_effect(state: GameState, action: Trade, catalog: Catalog) -> Outcome:
    """The consequences of ``Trade`` once refuse_trade has allowed it."""
    rules: tuple[str, ...] = {"1": ("L1.T7",), "2": ("L2.T2",), "3": ("L3.T2", "L1.T7")}[
        state.level
    ]
    player = state.current
    partner = state.player(action.partner)
    moves: list[tuple[tuple[int, int, int], tuple[int, int, int], str]] = []
    for ref, seller, buyer in (
        (action.give_product, player, partner),
        (action.get_product, partner, player),
    ):
        if ref is not None:
            found = product_transfer(state, ref, seller.id, buyer.id)
            assert not isinstance(found, Ruling), "refuse_trade allowed it"
            moves.append((*found, buyer.id))
    new_player = updated(
        player,
        money=player.money - action.pay,
        raw_cards=(*(c for c in player.raw_cards if c not in action.give), *action.receive),
    )
    new_partner = updated(
        partner,
        money=partner.money + action.pay,
        raw_cards=(*(c for c in partner.raw_cards if c not in action.receive), *action.give),
    )
    new = replace_player(replace_player(state, new_player), new_partner)
    if moves:
        new = new.model_copy(update={"installations": _moved_tokens(new, moves)})
        rules = (*rules, "L2.T3", "L2.T2-one-trade")
    if action.give_product is not None:
        new = mark_done(new, "free")
    if state.level != "1":
        new = mark_done(new, "trade")
    gave = [*action.give, *_named(state, action.give_product)]
    got = [*action.receive, *_named(state, action.get_product)]
    ruling = allowed(
        rules,
        f"Сделка с {partner.id}: отдано {gave}, получено {got}, оплата {action.pay} мР.",
        f"Trade with {partner.id}: gave {gave}, got {got}, paid {action.pay} мР.",
    )
    return Outcome(ruling, new, (event("trade", ruling.reason_ru, ruling.reason_en),))


judge_trade: Judge[Trade] = guarded(
    refuse_trade,
    trade_effect,
    "A trade of raw cards or products with another player (L1.T7, L2.T2, L2.T3, V1.4).",
)


def product_transfer(
    state: GameState, ref: ProductRef, seller: str, buyer: str
) -> tuple[tuple[int, int, int], tuple[int, int, int]] | Ruling:
    """Where a product moves when ``seller`` sells it to ``buyer``: (from, to) places, or why not.

    The seller's token stands on the product; the buyer needs a container for it with a free
    place on an installation they may use (L2.T3) — the same container when they may use it.
    Places are (installation index, container index, slot).
    """
    found = find_container(state, ref.installation, ref.card, ref.container)
    place = f"{ref.installation}:{ref.card}:{ref.container}"
    if found is None or found[2].role != "product":
        return forbidden(("L2.T2",), f"Нет продукта {place}.", f"There is no product {place}.")
    i, k, container = found
    if seller not in container.places:
        return forbidden(
            ("L2.T2",),
            f"На {container.substance} ({place}) нет фишки {seller}.",
            f"{seller} has no token on {container.substance} ({place}).",
        )
    source = (i, k, container.places.index(seller))
    if state.installations[i].number in {
        installation.number for installation in usable_installations(state, buyer)
    }:
        return source, source
    target = next(containers_for(state, buyer, formula_of(container.substance)), None)
    if target is None:
        return forbidden(
            ("L2.T3",),
            f"У {buyer} нет свободной ёмкости для {container.substance} ни на своей, ни на "
            "общей установке.",
            f"{buyer} has no free {container.substance} container on their own or a shared "
            "installation.",
        )
    return source, (target[0], target[1], target[2].places.index(None))


def _moved_tokens(
    state: GameState, moves: Sequence[tuple[tuple[int, int, int], tuple[int, int, int], str]]
) -> tuple[InstallationState, ...]:
    """The installations with each token lifted from its place and the buyer's put down."""
    installations = list(state.installations)

    def put(place: tuple[int, int, int], token: str | None) -> None:
        i, k, slot = place
        containers = list(installations[i].containers)
        places = list(containers[k].places)
        places[slot] = token
        containers[k] = containers[k].model_copy(update={"places": tuple(places)})
        installations[i] = installations[i].model_copy(update={"containers": tuple(containers)})

    for source, _, _ in moves:
        put(source, None)
    for _, target, buyer in moves:
        put(target, buyer)
    return tuple(installations)


def _named(state: GameState, ref: ProductRef | None) -> list[str]:
    """A product as a trade's ruling names it: substance and place."""
    if ref is None:
        return []
    found = find_container(state, ref.installation, ref.card, ref.container)
    substance = found[2].substance if found else "?"
    return [f"{substance} ({ref.installation}:{ref.card}:{ref.container})"]
