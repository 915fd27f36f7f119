"""Chemistry at the table: trades, raw piles, reactions, chemist tokens, the Mission card.

Levels 2, head to head and 3 (L1.T7, L2.T1–T6, L2.M1, L2.E1, V1.3–V1.4, L3.S5, L3.T2–T3).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from mhp_cards.catalog.models import Catalog, formula_of
from mhp_cards.chem.formula import Formula
from mhp_cards.game.state import ContainerState, GameState, InstallationState, MissionState, Player
from mhp_cards.referee.actions import FreeToken, ProductRef, React, TakeRaw, Trade
from mhp_cards.referee.common import (
    CHEMISTRY_LEVELS,
    Event,
    Judge,
    Outcome,
    capacity_left,
    event,
    guarded,
    mark_done,
    once_a_turn,
    only_at_levels,
    updated,
)
from mhp_cards.referee.ruling import Ruling, allowed, forbidden, refused
from mhp_cards.referee.table import (
    card_formula,
    containers_for,
    raw_kind,
    replace_player,
    usable_installations,
)
from mhp_cards.rules.numbers import COMBINE_CAPACITY

__all__ = [
    "can_react",
    "judge_free",
    "judge_react",
    "judge_take",
    "judge_trade",
    "mission_end",
    "reactions",
]


# Trades (L1.T7, L2.T2, L2.T3, V1.4, L3.T2) -------------------------------------------------------


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


# Level 2: raw piles, reactions, tokens (L2.T1, L2.T4–T6, L2.M1, V1.3, V1.4, L3.S5, L3.T3) --------


def judge_take(state: GameState, action: TakeRaw, catalog: Catalog) -> Outcome:
    """Take the top card of a pile (L2.T1; head to head V1.3 discards what does not fit)."""
    rules = ("V1.3",) if state.level == "1v1" else ("L2.T1",)
    refusal = only_at_levels(
        state, ("2", "1v1"), rules, "сырьё добывают комбайны", "raw cards come from the field"
    )
    if refusal:
        return Outcome(refusal)
    refusal = once_a_turn(
        state,
        "take",
        rules,
        "Карточку сырья в этот ход уже взяли.",
        "A raw card has been taken this turn already.",
    )
    if refusal:
        return Outcome(refusal)
    pile = state.piles[action.pile - 1]
    if not pile:
        return Outcome(
            forbidden(
                rules,
                f"Стопка {action.pile} пуста.",
                f"Pile {action.pile} is empty.",
                piles=[len(p) for p in state.piles],
            )
        )
    card = pile[-1]
    piles = list(state.piles)
    piles[action.pile - 1] = pile[:-1]
    player = state.current
    new = state.model_copy(update={"piles": tuple(piles)})
    events = []
    if state.level == "1v1" and not _fits_own_installation(state, catalog, player.id, card):
        new = new.model_copy(update={"discard": (*state.discard, card)})
        events.append(
            event(
                "discard",
                f"{card} не подходит к установке {player.id}: в сброс.",
                f"{card} does not fit {player.id}'s installation: discarded.",
                card=card,
            )
        )
    else:
        new = replace_player(new, updated(player, raw_cards=(*player.raw_cards, card)))
        events.append(
            event(
                "take",
                f"{player.id} взял {card} из стопки {action.pile}.",
                f"{player.id} took {card} from pile {action.pile}.",
                card=card,
            )
        )
    new = mark_done(new, "take")
    ruling = allowed(rules, events[0].ru, events[0].en, card=card)
    return Outcome(ruling, new, tuple(events))


def _fits_own_installation(state: GameState, catalog: Catalog, player_id: str, card: str) -> bool:
    formula = card_formula(catalog, card)
    if formula is None:
        return True  # a face-down card in a player's view: what it fits is not known there
    return any(
        container.role == "raw-input" and formula_of(container.substance) == formula
        for installation in state.installations
        if installation.owner == player_id
        for container in installation.containers
    )


def mission_places(
    missions: Sequence[MissionState], formula_text: str
) -> list[tuple[int, int, int]]:
    """The free Mission-card places for a product, one per mission, in the card's order.

    Each is (mission index, place index, slot index): the first free slot of the first
    place of that product on that mission.
    """
    formula = formula_of(formula_text)
    found: list[tuple[int, int, int]] = []
    for m, mission in enumerate(missions):
        for p, (place_formula, tokens) in enumerate(mission.places):
            if formula_of(place_formula) == formula and None in tokens:
                found.append((m, p, tokens.index(None)))
                break
    return found


def judge_react(state: GameState, action: React, catalog: Catalog) -> Outcome:
    """Run an installation with raw cards from the hand (L2.T4, L2.M1, L3.S5)."""
    rules: tuple[str, ...] = ("L2.T4", "L2.T4.R1")
    refusal = only_at_levels(
        state,
        CHEMISTRY_LEVELS,
        rules,
        "установок на уровне 1 нет",
        "there are no installations at level 1",
    )
    if refusal:
        return Outcome(refusal)
    refusal = once_a_turn(
        state,
        "react",
        rules,
        "Реакцию в этот ход уже проводили.",
        "A reaction has been run this turn already.",
    )
    if refusal:
        return Outcome(refusal)
    player = state.current
    index = next(
        (i for i, inst in enumerate(state.installations) if inst.number == action.installation),
        None,
    )
    if index is None:
        return Outcome(
            forbidden(
                rules,
                f"Установки {action.installation} нет на столе.",
                f"Installation {action.installation} is not on the table.",
            )
        )
    installation = state.installations[index]
    usable = {inst.number for inst in usable_installations(state, player.id)}
    if installation.number not in usable:
        if state.level == "3" and installation.owner is None:
            return Outcome(
                forbidden(
                    ("L3.S5",),
                    "Общими установками пользуются только на базе.",
                    "Shared installations are used only at the Base.",
                )
            )
        if state.level == "1v1":
            return Outcome(
                forbidden(
                    ("V1.2",),
                    "Один на один — только своя установка.",
                    "Head to head: your own installation only.",
                )
            )
        return Outcome(
            forbidden(
                ("L2.T4",),
                f"Установка {installation.number} принадлежит {installation.owner}.",
                f"Installation {installation.number} belongs to {installation.owner}.",
            )
        )
    if len(set(action.cards)) != len(action.cards):
        return Outcome(
            forbidden(rules, "Одна и та же карточка названа дважды.", "A card is named twice.")
        )
    missing = [c for c in action.cards if c not in player.raw_cards]
    if missing:
        return Outcome(forbidden(rules, f"У игрока нет {missing}.", f"The player lacks {missing}."))
    inputs = [c for c in installation.containers if c.role == "raw-input"]
    remaining = list(action.cards)
    unmatched = []
    for container in inputs:
        formula = formula_of(container.substance)
        match = next((c for c in remaining if raw_kind(catalog, c).parsed == formula), None)
        if match is None:
            unmatched.append(container.substance)
        else:
            remaining.remove(match)
    # L2.T6: a substance the player holds in a container may feed the reaction instead.
    sources = product_sources(state, player.id)
    used_products: list[tuple[int, int, int]] = []
    lacking = []
    for substance in unmatched:
        pool = sources.get(formula_of(substance), [])
        if pool:
            used_products.append(pool.pop(0))
        else:
            lacking.append(substance)
    if lacking:
        return Outcome(
            forbidden(
                (*rules, "L2.T6"),
                f"Для реакции нужны ещё: {lacking} (карточка сырья или своё вещество в ёмкости).",
                f"The reaction also needs {lacking} (a raw card, or a substance of yours in a "
                "container).",
                needed=[c.substance for c in inputs],
            )
        )
    if remaining:
        return Outcome(
            forbidden(
                rules,
                f"Лишние карточки: {remaining}.",
                f"Cards the installation does not take: {remaining}.",
                needed=[c.substance for c in inputs],
            )
        )
    products = [k for k, c in enumerate(installation.containers) if c.role == "product"]
    free = state.free_tokens(player.id) + len(used_products)
    if free < len(products):
        return Outcome(
            forbidden(
                (*rules, "L2.T5"),
                f"Нужно {len(products)} свободных фишек, есть {free}: освободите фишку.",
                f"It needs {len(products)} free tokens; {free} are free: free a token first.",
                free_tokens=free,
            )
        )
    missions = list(state.missions)
    installations = list(state.installations)
    consumed = []
    for i, k, slot in used_products:
        container = installations[i].containers[k]
        slots = list(container.places)
        slots[slot] = None
        moved = list(installations[i].containers)
        moved[k] = container.model_copy(update={"places": tuple(slots)})
        installations[i] = installations[i].model_copy(update={"containers": tuple(moved)})
        consumed.append(f"{container.substance} ← {container.card}")
    installation = installations[index]
    containers = list(installation.containers)
    placed: list[str] = []
    choices = list(action.missions)
    for k in products:
        container = containers[k]
        options = mission_places(missions, container.substance)
        if options:
            spot = options[0]
            if choices:
                wanted = choices.pop(0)
                chosen = next((o for o in options if missions[o[0]].id == wanted), None)
                if chosen is None:
                    offered = [missions[o[0]].id for o in options]
                    return Outcome(
                        forbidden(
                            ("L2.M1", "L2.M1-choice"),
                            f"У миссии {wanted} нет свободного места для {container.substance}; "
                            f"есть у {', '.join(offered)}.",
                            f"Mission {wanted} has no free place for {container.substance}; "
                            f"{', '.join(offered)} has.",
                            missions=offered,
                        )
                    )
                spot = chosen
            m, p, slot = spot
            formula_text, tokens = missions[m].places[p]
            new_tokens = list(tokens)
            new_tokens[slot] = player.id
            places = list(missions[m].places)
            places[p] = (formula_text, tuple(new_tokens))
            missions[m] = missions[m].model_copy(update={"places": tuple(places)})
            placed.append(f"{container.substance} → {missions[m].id}")
            continue
        if None not in container.places:
            return Outcome(
                forbidden(
                    (*rules, "L2.T5"),
                    f"Ёмкость {container.substance} на "
                    f"{container.card} заполнена: освободите место.",
                    f"The {container.substance} container on {container.card} "
                    "is full: free a place first.",
                )
            )
        slots = list(container.places)
        slots[slots.index(None)] = player.id
        containers[k] = container.model_copy(update={"places": tuple(slots)})
        placed.append(f"{container.substance} → {container.card}")
    if choices:
        return Outcome(
            forbidden(
                ("L2.M1", "L2.M1-choice"),
                f"Лишний выбор миссии: {choices} — продуктов для карты Миссий меньше.",
                f"A mission chosen too many: {choices}; fewer products go to the Mission card.",
            )
        )
    installations[index] = installation.model_copy(update={"containers": tuple(containers)})
    new_player = updated(
        player, raw_cards=tuple(c for c in player.raw_cards if c not in action.cards)
    )
    new = replace_player(state, new_player).model_copy(
        update={
            "installations": tuple(installations),
            "missions": tuple(missions),
            "discard": (*state.discard, *action.cards),
        }
    )
    new = mark_done(new, "react")
    used_rules = (*rules, "L2.M1") if any("→ M" in p for p in placed) else rules
    if action.missions:
        used_rules = (*used_rules, "L2.M1-choice")
    if consumed:
        used_rules = (*used_rules, "L2.T6")
    taken = f" (в дело пошли {', '.join(consumed)})" if consumed else ""
    taken_en = f" (using {', '.join(consumed)})" if consumed else ""
    ruling = allowed(
        used_rules,
        f"Реакция на установке {installation.number}: {', '.join(placed)}{taken}.",
        f"Reaction on installation {installation.number}: {', '.join(placed)}{taken_en}.",
        products=placed,
        cards=list(action.cards),
        substances_used=consumed,
    )
    events = [event("react", ruling.reason_ru, ruling.reason_en, products=placed)]
    new, end = mission_end(new)
    if end:
        events.append(end)
    return Outcome(ruling, new, tuple(events))


def product_sources(state: GameState, player_id: str) -> dict[Formula, list[tuple[int, int, int]]]:
    """Where the player's tokens stand on product containers, by substance (L2.T6).

    Each entry is (installation index, container index, place index); only installations the
    player may use now count.
    """
    usable = {installation.number for installation in usable_installations(state, player_id)}
    sources: dict[Formula, list[tuple[int, int, int]]] = {}
    for i, installation in enumerate(state.installations):
        if installation.number not in usable:
            continue
        for k, container in enumerate(installation.containers):
            for slot, token in enumerate(container.places):
                if token == player_id and container.role == "product":
                    formula = formula_of(container.substance)
                    sources.setdefault(formula, []).append((i, k, slot))
    return sources


def mission_end(state: GameState) -> tuple[GameState, Event | None]:
    """End the game when a mission is complete (L2.E1, L3.E1; not head to head, V1.5)."""
    if state.level == "1v1":
        return state, None
    done = [m.id for m in state.missions if m.complete]
    if not done:
        return state, None
    reason = f"mission {done[0]} complete"
    new = state.model_copy(update={"ended": True, "end_code": "mission", "end_reason": reason})
    return new, event(
        "end",
        f"Миссия {done[0]} выполнена — игра окончена.",
        f"Mission {done[0]} is complete: the game is over.",
        mission=done[0],
    )


def judge_free(state: GameState, action: FreeToken, catalog: Catalog) -> Outcome:
    """Free a chemist token: sell, sell to the Bank, or dump (L2.T5, L3.T3, V1.4)."""
    rules: tuple[str, ...] = (
        ("L3.T3",) if state.level == "3" and action.how == "sell-bank" else ("L2.T5",)
    )
    refusal = only_at_levels(
        state,
        CHEMISTRY_LEVELS,
        rules,
        "фишек химиков на уровне 1 нет",
        "there are no chemist tokens at level 1",
    )
    if refusal:
        return Outcome(refusal)
    refusal = once_a_turn(
        state,
        "free",
        rules,
        "Фишку в этот ход уже освобождали.",
        "A token has been freed this turn already.",
    )
    if refusal is None and action.how == "sell-player":
        # Ruling L2.T2-one-trade: selling a product to a player is also the turn's one trade.
        refusal = once_a_turn(
            state,
            "trade",
            ("L2.T2", "L2.T2-one-trade"),
            "Сделка в этот ход уже была: продажа продукта игроку — тоже сделка.",
            "There has been a trade this turn already: selling a product to a player is one.",
        )
    if refusal:
        return Outcome(refusal)
    player = state.current
    ref = action.product
    found = find_container(state, ref.installation, ref.card, ref.container)
    if found is None:
        return Outcome(
            forbidden(
                rules,
                f"Нет такой ёмкости {ref.installation}:{ref.card}:{ref.container}.",
                f"No container {ref.installation}:{ref.card}:{ref.container}.",
            )
        )
    i, k, container = found
    if player.id not in container.places:
        return Outcome(
            forbidden(
                rules,
                f"На {container.substance} ({container.card}) нет фишки {player.id}.",
                f"{player.id} has no token on {container.substance} ({container.card}).",
            )
        )
    price = catalog.substance(container.substance).price
    slots = list(container.places)
    slot = slots.index(player.id)
    money, bank, partner_money = player.money, state.bank, None
    if state.level == "1v1" and action.how == "sell-player":
        return Outcome(
            forbidden(
                ("V1.4",),
                "Один на один продавать вещества другому игроку нельзя.",
                "Head to head forbids selling to the other player.",
            )
        )
    if state.level == "1v1" and action.how == "sell-bank" and state.free_tokens(player.id) > 0:
        return Outcome(
            forbidden(
                ("V1.4",),
                "Один на один Банку продают, только когда свободных фишек нет.",
                "Head to head: sell to the Bank only when no token is free.",
            )
        )
    if action.how == "sell-bank":
        limit_ok = action.price == price if state.level == "3" else action.price <= price
        if not limit_ok:
            wording_ru = (
                f"ровно по цене {price} мР" if state.level == "3" else f"не дороже {price} мР"
            )
            wording_en = (
                f"at exactly {price} мР" if state.level == "3" else f"for {price} мР or less"
            )
            return Outcome(
                forbidden(
                    rules,
                    f"Банк покупает {container.substance} {wording_ru}.",
                    f"The Bank buys {container.substance} {wording_en}.",
                    price=action.price,
                    nominal=price,
                )
            )
        if state.bank < action.price:
            return Outcome(
                forbidden(
                    (*rules, "L1.T8.R1"),
                    f"В Банке {state.bank} мР.",
                    f"The Bank holds {state.bank} мР.",
                    bank=state.bank,
                )
            )
        money, bank = money + action.price, bank - action.price
        slots[slot] = None
    elif action.how == "dump":
        if player.money < price:
            return Outcome(
                forbidden(
                    rules,
                    f"Штраф за выброс — {price} мР, у игрока {player.money}.",
                    f"Dumping costs a fine of {price} мР; the player has {player.money}.",
                )
            )
        money, bank = money - price, bank + price
        slots[slot] = None
    else:
        if (
            action.partner is None
            or action.partner == player.id
            or action.partner not in {p.id for p in state.players}
        ):
            return Outcome(
                forbidden(
                    rules, "Укажите другого игрока-покупателя.", "Name another player as the buyer."
                )
            )
        partner = state.player(action.partner)
        if state.free_tokens(partner.id) < 1:
            return Outcome(
                forbidden(
                    rules,
                    f"У {partner.id} нет свободных фишек.",
                    f"{partner.id} has no free token.",
                )
            )
        if partner.money < action.price:
            return Outcome(
                forbidden(
                    rules,
                    f"У {partner.id} только {partner.money} мР.",
                    f"{partner.id} has only {partner.money} мР.",
                )
            )
        # L2.T3: the buyer needs a container for the substance on an installation they use.
        shared_here = state.installations[i].number in {
            inst.number for inst in usable_installations(state, partner.id)
        }
        if shared_here:
            target = (i, k, slot)
        else:
            found = next(containers_for(state, partner.id, formula_of(container.substance)), None)
            if found is None:
                return Outcome(
                    forbidden(
                        ("L2.T3",),
                        f"У {partner.id} нет свободной ёмкости для {container.substance} ни на "
                        "своей, ни на общей установке.",
                        f"{partner.id} has no free {container.substance} container on their own "
                        "or a shared installation.",
                    )
                )
            target = (found[0], found[1], found[2].places.index(None))
        money, partner_money = money + action.price, partner.money - action.price
        slots[slot] = None
    containers = list(state.installations[i].containers)
    containers[k] = container.model_copy(update={"places": tuple(slots)})
    installations = list(state.installations)
    installations[i] = state.installations[i].model_copy(update={"containers": tuple(containers)})
    if action.how == "sell-player" and action.partner is not None:
        ti, tk, tslot = target
        buyer_container = installations[ti].containers[tk]
        buyer_slots = list(buyer_container.places)
        buyer_slots[tslot] = action.partner
        moved = list(installations[ti].containers)
        moved[tk] = buyer_container.model_copy(update={"places": tuple(buyer_slots)})
        installations[ti] = installations[ti].model_copy(update={"containers": tuple(moved)})
    new = replace_player(state, updated(player, money=money)).model_copy(
        update={"bank": bank, "installations": tuple(installations)}
    )
    if partner_money is not None and action.partner is not None:
        new = replace_player(new, updated(new.player(action.partner), money=partner_money))
    new = mark_done(new, "free")
    if action.how == "sell-player":
        new = mark_done(new, "trade")
        rules = (*rules, "L2.T2", "L2.T2-one-trade")
    how_ru = {
        "sell-bank": f"продано Банку за {action.price} мР",
        "dump": f"выброшено, штраф {price} мР",
        "sell-player": f"продано {action.partner} за {action.price} мР",
    }[action.how]
    how_en = {
        "sell-bank": f"sold to the Bank for {action.price} мР",
        "dump": f"dumped, fine {price} мР",
        "sell-player": f"sold to {action.partner} for {action.price} мР",
    }[action.how]
    ruling = allowed(
        rules,
        f"Фишка освобождена: {container.substance} {how_ru}.",
        f"Token freed: {container.substance} {how_en}.",
        nominal=price,
    )
    return Outcome(ruling, new, (event("free", ruling.reason_ru, ruling.reason_en),))


def find_container(
    state: GameState, number: int, card: str, index: int
) -> tuple[int, int, ContainerState] | None:
    """The container ``card``:``index`` of installation ``number``, with its two indices."""
    for i, installation in enumerate(state.installations):
        if installation.number != number:
            continue
        for k, container in enumerate(installation.containers):
            if container.card == card and container.index == index:
                return i, k, container
    return None


def can_react(state: GameState, catalog: Catalog, player_id: str) -> bool:
    """True when the player can run some installation now."""
    return any(True for _ in reactions(state, catalog, state.player(player_id)))


def reactions(state: GameState, catalog: Catalog, player: Player) -> Iterator[React]:
    """One way (the first raw cards that fit) to run each installation the player can feed.

    An input with no raw card may come from a substance the player holds (L2.T6); whether the
    reaction is then allowed (tokens, room) is for the referee to judge.
    """
    for installation in usable_installations(state, player.id):
        if not any(c.role == "raw-input" for c in installation.containers):
            continue
        hand = list(player.raw_cards)
        held = {f: len(places) for f, places in product_sources(state, player.id).items()}
        chosen = []
        for container in installation.containers:
            if container.role != "raw-input":
                continue
            formula = formula_of(container.substance)
            match = next((c for c in hand if card_formula(catalog, c) == formula), None)
            if match is not None:
                hand.remove(match)
                chosen.append(match)
            elif held.get(formula, 0) > 0:
                held[formula] -= 1
            else:
                break
        else:
            yield React(installation=installation.number, cards=tuple(chosen))
