"""Trades between players: raw cards and products, sold, bought or swapped.

L1.T7, L2.T2, L2.T3, V1.4, L3.T2 and Ruling L2.T2-one-trade.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Final

from mhp_cards.catalog.models import Catalog, formula_of
from mhp_cards.game.state import GameState, InstallationState, MissionState, Player
from mhp_cards.referee.actions import ProductRef, Trade
from mhp_cards.referee.common import (
    Judge,
    Outcome,
    capacity_left,
    event,
    guarded,
    once_a_turn,
    updated,
)
from mhp_cards.referee.react import free_mission_places, mission_end
from mhp_cards.referee.reasons import said
from mhp_cards.referee.ruling import Ruling, allowed, forbidden, refused
from mhp_cards.referee.table import (
    INSTALLATIONS_READ,
    containers_for,
    player_index,
    usable_numbers,
    user,
)
from mhp_cards.referee.tokens import find_container
from mhp_cards.rules.numbers import COMBINE_CAPACITY


def refuse_trade(state: GameState, action: Trade, catalog: Catalog) -> Outcome | None:
    """Why a trade may not be made now (L1.T7, L2.T2, L2.T3, V1.4, L3.S3); None when it may."""
    rules = _TRADE_RULES[state.level]
    if state.level == "1v1":
        return Outcome(refused(("V1.4",), "trade.head-to-head"))
    if state.level in ("2", "3"):
        refusal = once_a_turn(state, "trade", _ONCE_RULES[state.level], "trade.once")
        if refusal:
            return Outcome(refusal)
        gives = len(action.give) + (action.give_product is not None)
        gets = len(action.receive) + (action.get_product is not None)
        if gives > 1 or gets > 1:
            return Outcome(refused(("L2.T2",), "trade.one-card-each-way"))
    player = state.current
    give, receive = action.give, action.receive
    if (len(give) > 1 and len(set(give)) != len(give)) or (
        len(receive) > 1 and len(set(receive)) != len(receive)
    ):
        return Outcome(refused(rules, "cards.named-twice"))
    partner = None
    for someone in state.players:
        if someone.id == action.partner:
            partner = someone
            break
    if partner is None or partner is player:
        return Outcome(refused(rules, "trade.no-partner", {"partner": action.partner}))
    if give:
        missing = [card for card in give if card not in player.raw_cards]
        if missing:
            return Outcome(refused(rules, "cards.player-lacks", {"missing": missing}))
    if receive:
        missing = [card for card in receive if card not in partner.raw_cards]
        if missing:
            return Outcome(refused(rules, "trade.partner-lacks", {"missing": missing}))
    if not (action.give or action.receive or action.give_product or action.get_product):
        return Outcome(refused(rules, "trade.no-cards"))
    product_moves = action.give_product is not None or action.get_product is not None
    if product_moves:
        if state.level == "1":
            return Outcome(refused(rules, "trade.no-substances"))
        if action.give_product is not None and not (action.get_product or action.receive):
            # One act, one form: a product sold for money frees its token (L2.T5), and the
            # sale is the turn's trade too (L2.T2-one-trade); it is written as freeing.
            sold = action.give_product
            return Outcome(
                refused(
                    ("L2.T5", "L2.T2-one-trade"),
                    "trade.sale-is-freeing",
                    {"place": f"{sold.installation}:{sold.card}:{sold.container}"},
                    partner=action.partner,
                    price=max(0, -action.pay),  # the partner pays the seller
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
        if action.give_product is not None and not state.house_rules.sale_counts_once:
            refusal = once_a_turn(
                state,
                "free",
                ("L2.T5", "L2.T2-one-trade"),
                "trade.token-freed-already",
            )
            if refusal:
                return Outcome(refusal)
        if action.get_product is not None:
            spot = mission_spot(state, action, moves[-1][0])
            if isinstance(spot, Ruling):
                return Outcome(spot)
    if action.mission is not None and action.get_product is None:
        return Outcome(refused(("L2.M1-obtained",), "trade.mission-no-product"))
    if product_moves:  # whoever receives a product without giving one needs a free token
        for someone, product_in, product_out in (
            (player, action.get_product, action.give_product),
            (partner, action.give_product, action.get_product),
        ):
            if product_in is not None and product_out is None and state.free_tokens(someone.id) < 1:
                return Outcome(
                    forbidden((*rules, "L2.T5"), "trade.no-free-token", {"someone": someone.id})
                )
    if action.pay > player.money or -action.pay > partner.money:
        return Outcome(refused(rules, "trade.no-money"))
    if state.level == "3":  # L3.S3: only a level-3 combine has a capacity
        for someone, incoming, outgoing in (
            (player, action.receive, action.give),
            (partner, action.give, action.receive),
        ):
            room = capacity_left(state, someone)
            if room is not None and len(incoming) - len(outgoing) > room:
                return Outcome(
                    forbidden(
                        ("L3.S3",),
                        "trade.combine-overflows",
                        {"someone": someone.id, "capacity": COMBINE_CAPACITY},
                    )
                )
    return None


def raw_trade_reads(state: GameState, partner: Player) -> tuple[object, ...]:
    """All that :func:`refuse_trade` reads for a trade of raw cards alone at no price, but them.

    For such a trade between the current player and ``partner``, each holding the cards it
    names, the verdict turns on how many cards go each way and these alone: the level,
    whether the turn's trade is made (L2.T2) and, at level 3, the room left in both combines
    (L3.S3). The listing judges one such trade per value of these and reuses the verdict.
    """
    done = "trade" in state.done_this_turn
    if state.level != "3":
        return (state.level, done)
    return (state.level, done, capacity_left(state, state.current), capacity_left(state, partner))


def product_trade_reads(state: GameState, partner: Player) -> tuple[object, ...]:
    """All that :func:`refuse_trade` reads for a listed product trade, but the fields it names.

    A trade the listing makes (one item each way at most, at no price, for no named mission,
    each raw card held by its side) between the current player and ``partner``: besides the
    level, the house rules, the installations and the Mission card (kept by the caller with
    the state's facts of those fields), the verdict turns on these alone: whether the turn's
    trade or freeing is made (L2.T2, L2.T5), where both players stand (L3.S5, through
    :func:`user`), whether each has a free token (L2.T5) and, at level 3, the room left in
    both combines (L3.S3).
    """
    player = state.current
    done = state.done_this_turn
    return (
        "trade" in done,
        "free" in done,
        user(state, player.id),
        user(state, partner.id),
        state.free_tokens(player.id) >= 1,
        state.free_tokens(partner.id) >= 1,
        capacity_left(state, player),
        capacity_left(state, partner),
    )


#: The fields of a state that :func:`product_trade_reads` leaves to the caller's keeping.
PRODUCT_TRADE_FIELDS: Final = frozenset({"level", "house_rules", "installations", "missions"})


#: The rules a trade rests on, by level (head to head forbids trades: V1.4).
_TRADE_RULES: dict[str, tuple[str, ...]] = {
    "1": ("L1.T7",),
    "2": ("L2.T2",),
    "1v1": ("V1.4",),
    "3": ("L3.T2", "L1.T7"),
}


#: The rules of the once-a-turn trade (L2.T2, Ruling L2.T2-one-trade), by level.
_ONCE_RULES: dict[str, tuple[str, ...]] = {
    level: (*rules, "L2.T2", "L2.T2-one-trade") for level, rules in _TRADE_RULES.items()
}


def trade_effect(state: GameState, action: Trade, catalog: Catalog) -> Outcome:
    """The consequences of ``Trade`` once refuse_trade has allowed it."""
    rules = _TRADE_RULES[state.level]
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
    players = list(state.players)
    players[state.turn] = updated(
        player,
        money=player.money - action.pay,
        raw_cards=(*(c for c in player.raw_cards if c not in action.give), *action.receive),
    )
    players[player_index(state, partner.id)] = updated(
        partner,
        money=partner.money + action.pay,
        raw_cards=(*(c for c in partner.raw_cards if c not in action.receive), *action.give),
    )
    done = state.done_this_turn
    one_act = state.house_rules.sale_counts_once
    if action.give_product is not None and not one_act:
        done = (*done, "free")
    if state.level != "1":
        done = (*done, "trade")
    # One copy of the state with every change.
    changes: dict[str, Any] = {"players": tuple(players), "done_this_turn": done}
    placed = None
    if moves:
        # Ruling L2.M1-obtained: a product the player obtains on their turn goes to a free
        # place of the Mission card, as one they make would.
        spot = mission_spot(state, action, moves[-1][0]) if action.get_product else None
        assert not isinstance(spot, Ruling), "refuse_trade allowed it"
        to_mission = [move for move in moves if spot is not None and move[2] == player.id]
        changes["installations"] = _moved_tokens(
            state, moves, into_mission={id(move) for move in to_mission}
        )
        rules = (*rules, "L2.T3", "L2.T2-one-trade")
        if spot is not None:
            m, p, slot = spot
            changes["missions"] = _with_token(state, m, p, slot, player.id)
            placed = changes["missions"][m].id
            rules = (*rules, "L2.M1", "L2.M1-obtained")
            if action.mission is not None:
                rules = (*rules, "L2.M1-choice")
    new = state.model_copy(update=changes)
    gave = [*action.give, *_named(state, action.give_product)]
    got = [*action.receive, *_named(state, action.get_product)]
    words = {"partner": partner.id, "gave": gave, "got": got, "pay": action.pay}
    ruling = allowed(rules, "trade.made", words, mission=placed)
    if one_act and action.give_product is not None:
        ruling = ruling.replace(house_rules=("sale-counts-once",))
    events = [event("trade", "trade.made", words, mission=placed)]
    new, end = mission_end(state, new)
    if end:
        events.append(end)
    return Outcome(ruling, new, tuple(events))


def mission_spot(
    state: GameState, action: Trade, source: tuple[int, int, int]
) -> tuple[int, int, int] | Ruling | None:
    """The Mission-card place the product the acting player obtains goes to, or why it cannot.

    None when the product has no free place (it goes into a container). Rulings L2.M1-obtained
    and L2.M1-choice: the player chooses among the missions with a free place for it.
    """
    i, k, _ = source
    substance = state.installations[i].containers[k].substance
    options = free_mission_places(state, substance)
    if action.mission is None:
        return options[0] if options else None
    chosen = next((o for o in options if state.missions[o[0]].id == action.mission), None)
    if chosen is None:
        return forbidden(
            ("L2.M1", "L2.M1-obtained", "L2.M1-choice"),
            "react.mission-no-place",
            {"wanted": action.mission, "substance": substance},
            missions=[state.missions[o[0]].id for o in options],
        )
    return chosen


def _with_token(
    state: GameState, m: int, p: int, slot: int, player: str
) -> tuple[MissionState, ...]:
    missions = list(state.missions)
    formula, tokens = missions[m].places[p]
    marked = list(tokens)
    marked[slot] = player
    places = list(missions[m].places)
    places[p] = (formula, tuple(marked))
    missions[m] = missions[m].model_copy(update={"places": tuple(places)})
    return tuple(missions)


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
    Places are (installation index, container index, slot). The answer reads the
    installations and where the buyer stands (:func:`user`): it is kept with the state for
    the copies that leave those alone.
    """
    key = (
        "product-transfer",
        ref.installation,
        ref.card,
        ref.container,
        seller,
        *user(state, buyer),
    )
    facts = state.facts(INSTALLATIONS_READ)
    known: tuple[tuple[int, int, int], tuple[int, int, int]] | Ruling | None = facts.get(key)
    if known is None:
        known = facts[key] = _product_transfer(state, ref, seller, buyer)
    return known


def _product_transfer(
    state: GameState, ref: ProductRef, seller: str, buyer: str
) -> tuple[tuple[int, int, int], tuple[int, int, int]] | Ruling:
    found = find_container(state, ref.installation, ref.card, ref.container)
    place = f"{ref.installation}:{ref.card}:{ref.container}"
    if found is None or found[2].role != "product":
        return forbidden(("L2.T2",), "trade.no-product", {"place": place})
    i, k, container = found
    if seller not in container.places:
        return forbidden(
            ("L2.T2",),
            "free.no-token",
            {"substance": container.substance, "card": place, "player": seller},
        )
    source = (i, k, container.places.index(seller))
    if state.installations[i].number in usable_numbers(state, buyer):
        return source, source
    target = next(containers_for(state, buyer, formula_of(container.substance)), None)
    if target is None:
        return forbidden(
            ("L2.T3",),
            "free.buyer-no-container",
            {"partner": buyer, "substance": container.substance},
        )
    return source, (target[0], target[1], target[2].places.index(None))


def _moved_tokens(
    state: GameState,
    moves: Sequence[tuple[tuple[int, int, int], tuple[int, int, int], str]],
    into_mission: Collection[int] = (),
) -> tuple[InstallationState, ...]:
    """The installations with each token lifted from its place and the buyer's put down.

    A move whose ``id`` is in ``into_mission`` puts no token down here: it goes on the Mission
    card.
    """
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
    for move in moves:
        if id(move) not in into_mission:
            put(move[1], move[2])
    return tuple(installations)


def _named(state: GameState, ref: ProductRef | None) -> list[str]:
    """A product as a trade's ruling names it: substance and place."""
    if ref is None:
        return []
    found = find_container(state, ref.installation, ref.card, ref.container)
    substance = found[2].substance if found else "?"
    return [f"{substance} ({ref.installation}:{ref.card}:{ref.container})"]


said(
    "trade.head-to-head",
    "В игре один на один обмены и сделки между игроками запрещены.",
    "Head to head forbids trades between players.",
)
said("trade.once", "Сделка в этот ход уже была.", "There has been a trade this turn already.")
said(
    "trade.one-card-each-way",
    "За ход — одна сделка с ОДНОЙ карточкой в каждую сторону.",
    "One trade a turn, with ONE card each way.",
)
said(
    "trade.no-partner", "Партнёра {partner!r} нет в игре.", "There is no other player {partner!r}."
)
said("trade.partner-lacks", "У партнёра нет {missing}.", "The partner lacks {missing}.")
said("trade.no-cards", "Сделка без карточек.", "A trade needs a card.")
said(
    "trade.no-substances",
    "На уровне 1 веществ нет: меняются только карточки сырья.",
    "Level 1 has no substances: only raw cards change hands.",
)
said(
    "trade.token-freed-already",
    "Фишку в этот ход уже освобождали: продажа продукта её освобождает.",
    "A token has been freed this turn already: selling a product frees one.",
)
said(
    "trade.no-free-token",
    "У {someone} нет свободной фишки для продукта.",
    "{someone} has no free token for the product.",
)
said("trade.no-money", "Не хватает денег на оплату.", "Not enough money to pay.")
said(
    "trade.combine-overflows",
    "Комбайн {someone} переполнится.",
    "{someone}'s combine would hold more than {capacity} cards.",
)
said(
    "trade.made",
    "Сделка с {partner:ins}: отдано {gave}, получено {got}, оплата {pay} мР.",
    "Trade with {partner}: gave {gave}, got {got}, paid {pay} мР.",
)
said("trade.no-product", "Нет продукта {place}.", "There is no product {place}.")
said(
    "trade.mission-no-product",
    "Миссию выбирают для полученного продукта, а в этой сделке его нет.",
    "A mission is chosen for a product obtained, and this trade obtains none.",
)
said(
    "trade.sale-is-freeing",
    "Продажа продукта другому игроку освобождает фишку: это ход «free {place} to {partner:id} "
    "{price}».",
    "Selling a product to another player frees its token: make it as "
    "'free {place} to {partner:id} {price}'.",
)
