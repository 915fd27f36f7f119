"""Upgrades, the Bank and the Warehouse (L1.T3, L1.T6, L1.T8, L1.T9, L3.T3, L3.T4)."""

from __future__ import annotations

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState
from mhp_cards.referee.actions import BuyRaw, BuyUpgrade, SellRaw
from mhp_cards.referee.common import (
    FIELD_LEVELS,
    Judge,
    Outcome,
    capacity_left,
    event,
    guarded,
    mark_done,
    only_at_levels,
    shared_refusal,
    updated,
    updated_combine,
)
from mhp_cards.referee.reasons import said
from mhp_cards.referee.ruling import allowed, refused
from mhp_cards.referee.table import replace_player
from mhp_cards.rules.numbers import (
    BANK_SALE_PRICE,
    COMBINE_CAPACITY,
    UPGRADE_PRICE,
    UPGRADE_RULES,
    WAREHOUSE_PRICE,
)


def refuse_buy(state: GameState, action: BuyUpgrade, catalog: Catalog) -> Outcome | None:
    """Why an upgrade may not be bought now (L1.T3, L1.T6, L1.T6.R2); None when it may."""
    battery = action.upgrade == "solar-battery"
    rule = UPGRADE_RULES[action.upgrade]
    refusal = only_at_levels(state, FIELD_LEVELS, (rule,), "buy.combines-only")
    if refusal:
        return Outcome(refusal)
    player = state.current
    assert player.combine is not None
    if player.combine.solar_battery if battery else player.combine.armour:
        return shared_refusal((rule,), "buy.has-it")
    upgrade = catalog.components.upgrade(action.upgrade)
    if upgrade is not None and not (
        upgrade.sold_at(state.level) or state.house_rules.every_upgrade
    ):
        return shared_refusal(
            (rule, "L1.T6.R2"), "buy.not-sold-here", {"levels": " and ".join(upgrade.levels)}
        )
    if upgrade is not None:
        bought = 0
        for other in state.players:
            combine = other.combine
            if combine is not None and (combine.solar_battery if battery else combine.armour):
                bought += 1
        if bought >= upgrade.count:
            return shared_refusal((rule,), "buy.none-left")
    price = upgrade.price if upgrade else UPGRADE_PRICE
    if player.money < price:
        return shared_refusal((rule, "L1.T8.R1"), "buy.no-money", price=price, money=player.money)
    return None


def buy_reads(state: GameState) -> tuple[object, ...]:
    """All that :func:`refuse_buy` reads of a state, besides the catalog and the upgrade named.

    The level (L1.T6.R2), the house rule ``every-upgrade``, whose turn it is, their money
    (L1.T8.R1) and which upgrades every combine has (L1.T6: one each, and how many are left).
    The listing judges the upgrades once per value of these and reuses the verdicts.
    """
    return (
        state.level,
        state.house_rules.every_upgrade,
        state.turn,
        state.current.money,
        tuple(
            None if p.combine is None else (p.combine.solar_battery, p.combine.armour)
            for p in state.players
        ),
    )


def buy_effect(state: GameState, action: BuyUpgrade, catalog: Catalog) -> Outcome:
    """The consequences of ``BuyUpgrade`` once refuse_buy has allowed it."""
    rule = UPGRADE_RULES[action.upgrade]
    player = state.current
    upgrade = catalog.components.upgrade(action.upgrade)
    price = upgrade.price if upgrade else UPGRADE_PRICE
    field_name = "solar_battery" if action.upgrade == "solar-battery" else "armour"
    new_player = updated_combine(updated(player, money=player.money - price), **{field_name: True})
    new = replace_player(state, new_player).model_copy(update={"bank": state.bank + price})
    ruling = allowed((rule, "L1.T8.R1"), "buy.bought", price=price)
    if upgrade is not None and not upgrade.sold_at(state.level):
        ruling = ruling.replace(rules=(*ruling.rules, "L1.T6.R2"), house_rules=("every-upgrade",))
    return Outcome(
        ruling,
        new,
        (event("buy", "event.buy", player=player.id, upgrade=action.upgrade),),
    )


judge_buy: Judge[BuyUpgrade] = guarded(
    refuse_buy, buy_effect, "Buy a solar battery or armour (L1.T3, L1.T6)."
)


def refuse_sell(state: GameState, action: SellRaw, catalog: Catalog) -> Outcome | None:
    """Why a raw card may not be sold to the Bank now (L1.T8, L3.T3); None when it may."""
    rule = "L3.T3" if state.level == "3" else "L1.T8"
    refusal = only_at_levels(
        state,
        FIELD_LEVELS,
        (rule,),
        "sell.no-bank-sales",
    )
    if refusal:
        return Outcome(refusal)
    player = state.current
    if action.card not in player.raw_cards:
        return Outcome(
            refused((rule,), "sell.not-held", {"card": action.card}, hand=list(player.raw_cards))
        )
    if state.bank < BANK_SALE_PRICE and not unloads_unpaid(state):
        return shared_refusal((rule, "L1.T8.R1"), "sell.bank-empty", bank=state.bank)
    return None


def must_unload(state: GameState) -> bool:
    """Whether the current player's combine is full and must unload before the turn ends.

    At level 3 a full combine sells a raw card to the Bank, or puts one on the Warehouse
    unpaid when the Bank cannot pay (L3.S3, L3.S3.R1); under the house rule quiet-round-ends
    a full combine facing an empty Bank keeps its six cards.
    """
    return (
        state.level == "3"
        and len(state.current.raw_cards) >= COMBINE_CAPACITY
        and (state.bank >= BANK_SALE_PRICE or not state.house_rules.quiet_round_ends)
    )


def unloads_unpaid(state: GameState) -> bool:
    """Whether the current player's full combine unloads into the Warehouse unpaid (L3.S3.R1)."""
    return state.bank < BANK_SALE_PRICE and must_unload(state)


def sell_effect(state: GameState, action: SellRaw, catalog: Catalog) -> Outcome:
    """The consequences of ``SellRaw`` once refuse_sell has allowed it."""
    rule = "L3.T3" if state.level == "3" else "L1.T8"
    player = state.current
    unpaid = unloads_unpaid(state)
    price = 0 if unpaid else BANK_SALE_PRICE
    new_player = updated(
        player,
        money=player.money + price,
        raw_cards=tuple(c for c in player.raw_cards if c != action.card),
    )
    new = replace_player(state, new_player).model_copy(
        update={"bank": state.bank - price, "warehouse": (*state.warehouse, action.card)}
    )
    words = {"card": action.card, "price": price}
    if unpaid:
        ruling = allowed(("L3.S3", "L3.S3.R1"), "sell.unloaded", words)
        return Outcome(ruling, new, (event("sell", "sell.unloaded", words),))
    ruling = allowed((rule,), "sell.sold", words)
    return Outcome(ruling, new, (event("sell", "sell.sold", words),))


judge_sell: Judge[SellRaw] = guarded(
    refuse_sell, sell_effect, "Sell a raw card to the Bank (L1.T8, L3.T3)."
)


def refuse_warehouse(state: GameState, action: BuyRaw, catalog: Catalog) -> Outcome | None:
    """Why a Warehouse card may not be bought now (L1.T9, L3.T4); None when it may."""
    rule = "L3.T4" if state.level == "3" else "L1.T9"
    refusal = only_at_levels(
        state,
        FIELD_LEVELS,
        (rule,),
        "warehouse.none-here",
    )
    if refusal:
        return Outcome(refusal)
    player = state.current
    if action.card not in state.warehouse:
        return Outcome(
            refused(
                (rule,),
                "warehouse.not-there",
                {"card": action.card},
                warehouse=list(state.warehouse),
            )
        )
    if player.money < WAREHOUSE_PRICE:
        return shared_refusal(
            (rule,), "warehouse.no-money", {"price": WAREHOUSE_PRICE, "money": player.money}
        )
    room = capacity_left(state, player)
    if room == 0:
        return shared_refusal(("L3.S3",), "warehouse.combine-full", {"capacity": COMBINE_CAPACITY})
    return None


def warehouse_effect(state: GameState, action: BuyRaw, catalog: Catalog) -> Outcome:
    """The consequences of ``BuyRaw`` once refuse_warehouse has allowed it."""
    rule = "L3.T4" if state.level == "3" else "L1.T9"
    player = state.current
    new_player = updated(
        player, money=player.money - WAREHOUSE_PRICE, raw_cards=(*player.raw_cards, action.card)
    )
    new = replace_player(state, new_player).model_copy(
        update={
            "bank": state.bank + WAREHOUSE_PRICE,
            "warehouse": tuple(c for c in state.warehouse if c != action.card),
        }
    )
    new = mark_done(new, "warehouse")
    words = {"card": action.card, "price": WAREHOUSE_PRICE}
    ruling = allowed((rule,), "warehouse.bought", words)
    return Outcome(ruling, new, (event("warehouse", "warehouse.bought", words),))


judge_warehouse: Judge[BuyRaw] = guarded(
    refuse_warehouse, warehouse_effect, "Buy a raw card from the Warehouse (L1.T9, L3.T4)."
)


said("buy.combines-only", "улучшения есть только у комбайнов", "upgrades belong to combines")
said("buy.has-it", "Это улучшение у комбайна уже есть.", "The combine already has it.")
said("buy.none-left", "В коробке таких больше нет.", "None left in the box.")
said(
    "buy.not-sold-here",
    "На этом уровне коробка его не продаёт, только на уровне {levels}.",
    "The box does not sell it at this level, only at level {levels}.",
)
said(
    "buy.no-money",
    "Нужно {price} мР, а у игрока {money} мР.",
    "It costs {price} мР; the player has {money} мР.",
)
said("buy.bought", "Куплено ({price} мР в Банк).", "Bought ({price} мР to the Bank).")
said("event.buy", "{player} купил {upgrade}.", "{player} bought {upgrade}.")
said("sell.no-bank-sales", "Банк не покупает карточки сырья", "the Bank does not buy raw cards")
said("sell.not-held", "У игрока нет карточки {card}.", "The player does not hold {card}.")
said(
    "sell.bank-empty",
    "В Банке нет денег: продажа отклонена.",
    "The Bank has no money: the sale is refused.",
)
said(
    "sell.sold",
    "Карточка {card} продана Банку за {price} мР и ушла на Склад.",
    "{card} sold to the Bank for {price} мР; it goes to the Warehouse.",
)
said(
    "sell.unloaded",
    "Банку нечем платить: карточка {card} ушла на Склад без оплаты, комбайн разгружен.",
    "The Bank cannot pay: {card} goes to the Warehouse unpaid, and the combine is unloaded.",
)
said("warehouse.none-here", "Склада на этом уровне нет", "there is no Warehouse at this level")
said("warehouse.not-there", "На Складе нет карточки {card}.", "{card} is not in the Warehouse.")
said(
    "warehouse.no-money",
    "Карточка со Склада стоит {price} мР, у игрока {money} мР.",
    "A Warehouse card costs {price} мР; the player has {money} мР.",
)
said(
    "warehouse.combine-full",
    "Комбайн полон: в нём уже {capacity:карточка|карточки|карточек}.",
    "The combine is full: it holds {capacity} cards.",
)
said(
    "warehouse.bought",
    "{card} куплена со Склада за {price} мР.",
    "{card} bought from the Warehouse for {price} мР.",
)
