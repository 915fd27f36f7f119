"""Freeing a chemist token: selling the substance under it, or dumping it (L2.T5, L3.T3, V1.4)."""

from __future__ import annotations

from typing import Final

from mhp_cards.catalog.models import Catalog, formula_of
from mhp_cards.game.state import ContainerState, GameState
from mhp_cards.referee.actions import FreeToken
from mhp_cards.referee.common import (
    CHEMISTRY_LEVELS,
    Outcome,
    event,
    mark_done,
    once_a_turn,
    only_at_levels,
    refuse_after_discard,
    updated,
)
from mhp_cards.referee.reasons import said
from mhp_cards.referee.ruling import Ruling, allowed, forbidden
from mhp_cards.referee.table import (
    INSTALLATIONS_READ,
    containers_for,
    replace_player,
    usable_numbers,
    user,
)

#: The ruling refuse_free stands on when the token may be freed (its effect is not computed).
_FREEABLE = Ruling("allowed", ("L2.T5",), "free.may")


def refuse_free(state: GameState, action: FreeToken, catalog: Catalog) -> Outcome | None:
    """Why the token may not be freed so now (L2.T5, L3.T3, V1.4, L2.T3); None when it may."""
    outcome = judge_free(state, action, catalog, effect=False)
    return None if outcome.state is not None else outcome


def judge_free(
    state: GameState, action: FreeToken, catalog: Catalog, *, effect: bool = True
) -> Outcome:
    """Free a chemist token: sell, sell to the Bank, or dump (L2.T5, L3.T3, V1.4)."""
    rules: tuple[str, ...] = (
        ("L3.T3",) if state.level == "3" and action.how == "sell-bank" else ("L2.T5",)
    )
    refusal = only_at_levels(
        state,
        CHEMISTRY_LEVELS,
        rules,
        "free.no-tokens-here",
    )
    if refusal:
        return Outcome(refusal)
    refusal = once_a_turn(
        state,
        "free",
        rules,
        "free.once",
    ) or refuse_after_discard(state)
    one_act = action.how == "sell-player" and state.house_rules.sale_counts_once
    if refusal is None and action.how == "sell-player" and not one_act:
        # Ruling L2.T2-one-trade: selling a product to a player is also the turn's one trade.
        refusal = once_a_turn(
            state,
            "trade",
            ("L2.T2", "L2.T2-one-trade"),
            "free.sale-is-a-trade",
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
                "free.no-container",
                {"ref": f"{ref.installation}:{ref.card}:{ref.container}"},
            )
        )
    i, k, container = found
    if player.id not in container.places:
        return Outcome(
            forbidden(
                rules,
                "free.no-token",
                {"substance": container.substance, "card": container.card, "player": player.id},
            )
        )
    price = catalog.substance(container.substance).price
    slots = list(container.places)
    slot = slots.index(player.id)
    money, bank, partner_money = player.money, state.bank, None
    if state.level == "1v1" and action.how == "sell-player":
        return Outcome(forbidden(("V1.4",), "free.head-to-head-no-sale"))
    head_to_head_sale = state.level == "1v1" and action.how == "sell-bank"
    as_written = head_to_head_sale and state.house_rules.sell_when_out
    if as_written and state.free_tokens(player.id) > 0:
        refusal = forbidden(("V1.4",), "free.head-to-head-bank")
        return Outcome(refusal.replace(house_rules=("sell-when-out",)))
    if head_to_head_sale and not as_written:
        rules = (*rules, "V1.4", "V1.4-sell")  # Ruling V1.4-sell: as at level 2 (L2.T5)
    if action.how == "sell-bank":
        limit_ok = action.price == price if state.level == "3" else action.price <= price
        if not limit_ok:
            return Outcome(
                forbidden(
                    rules,
                    "free.bank-exact-price" if state.level == "3" else "free.bank-at-most",
                    {"substance": container.substance},
                    price=action.price,
                    nominal=price,
                )
            )
        if state.bank < action.price:
            return Outcome(forbidden((*rules, "L1.T8.R1"), "free.bank-short", bank=state.bank))
        money, bank = money + action.price, bank - action.price
        slots[slot] = None
    elif action.how == "dump":
        if player.money < price:
            return Outcome(
                forbidden(
                    (*rules, "L2.T5.R1"),
                    "free.fine-unpaid",
                    {"price": price, "money": player.money},
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
            return Outcome(forbidden(rules, "free.name-a-buyer"))
        partner = state.player(action.partner)
        if state.free_tokens(partner.id) < 1:
            return Outcome(forbidden(rules, "free.buyer-no-token", {"partner": partner.id}))
        if partner.money < action.price:
            return Outcome(
                forbidden(
                    rules, "free.buyer-short", {"partner": partner.id, "money": partner.money}
                )
            )
        # L2.T3: the buyer needs a container for the substance on an installation they use.
        shared_here = state.installations[i].number in usable_numbers(state, partner.id)
        if shared_here:
            target = (i, k, slot)
        else:
            found = next(containers_for(state, partner.id, formula_of(container.substance)), None)
            if found is None:
                return Outcome(
                    forbidden(
                        ("L2.T3",),
                        "free.buyer-no-container",
                        {"partner": partner.id, "substance": container.substance},
                    )
                )
            target = (found[0], found[1], found[2].places.index(None))
        money, partner_money = money + action.price, partner.money - action.price
        slots[slot] = None
    if not effect:  # every refusal is above: the verdict is known, the consequences unasked
        return Outcome(_FREEABLE, state)
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
    if action.how == "sell-player" and not one_act:
        new = mark_done(new, "trade")
        rules = (*rules, "L2.T2", "L2.T2-one-trade")
    code = f"free.freed.{action.how}"
    words = {
        "substance": container.substance,
        "price": action.price,
        "fine": price,
        "partner": action.partner,
    }
    ruling = allowed(rules, code, words, nominal=price)
    if one_act:
        ruling = ruling.replace(house_rules=("sale-counts-once",))
    elif as_written:
        ruling = ruling.replace(rules=(*rules, "V1.4"), house_rules=("sell-when-out",))
    return Outcome(ruling, new, (event("free", code, words),))


def free_reads(state: GameState) -> tuple[object, ...]:
    """All that :func:`judge_free` reads for the current player's freeing, but the fields it names.

    Besides the level, the house rules, the installations and the Mission card
    (:data:`FREE_FIELDS`, kept by the caller with the state's facts of those fields) and the
    action itself, the verdict turns on these alone: what the turn has done (L2.T5, L2.T2,
    V1.3.R2), the player and their money (a fine, L2.T5.R1), the Bank (L1.T8.R1), the
    player's free tokens (V1.4 under ``sell-when-out``) and, for each buyer, their money,
    free tokens (L2.T5) and where they stand (L2.T3, through :func:`user`).
    """
    player = state.current
    done = state.done_this_turn
    return (
        "free" in done,
        "trade" in done,
        "discard" in done,
        player.id,
        player.money,
        state.bank,
        state.free_tokens(player.id),
        tuple(
            (other.id, other.money, state.free_tokens(other.id), user(state, other.id))
            for other in state.players
            if other is not player
        ),
    )


#: The fields of a state that :func:`free_reads` leaves to the caller's keeping.
FREE_FIELDS: Final = frozenset({"level", "house_rules", "installations", "missions"})


said("free.may", "Фишку можно освободить.", "The token may be freed.")
said(
    "free.no-tokens-here", "фишек химиков на уровне 1 нет", "there are no chemist tokens at level 1"
)
said("free.once", "Фишку в этот ход уже освобождали.", "A token has been freed this turn already.")
said(
    "free.sale-is-a-trade",
    "Сделка в этот ход уже была: продажа продукта игроку — тоже сделка.",
    "There has been a trade this turn already: selling a product to a player is one.",
)
said("free.no-container", "Нет такой ёмкости {ref}.", "No container {ref}.")
said(
    "free.no-token",
    "На {substance} ({card}) нет фишки {player:gen}.",
    "{player} has no token on {substance} ({card}).",
)
said(
    "free.head-to-head-no-sale",
    "Один на один продавать вещества другому игроку нельзя.",
    "Head to head forbids selling to the other player.",
)
said(
    "free.head-to-head-bank",
    "Один на один Банку продают, только когда свободных фишек нет.",
    "Head to head: sell to the Bank only when no token is free.",
)
said(
    "free.bank-exact-price",
    "Банк покупает {substance} ровно по цене {nominal} мР.",
    "The Bank buys {substance} at exactly {nominal} мР.",
)
said(
    "free.bank-at-most",
    "Банк покупает {substance} не дороже {nominal} мР.",
    "The Bank buys {substance} for {nominal} мР or less.",
)
said("free.bank-short", "В Банке {bank} мР.", "The Bank holds {bank} мР.")
said(
    "free.fine-unpaid",
    "Штраф за выброс — {price} мР, у игрока {money}.",
    "Dumping costs a fine of {price} мР; the player has {money}.",
)
said("free.name-a-buyer", "Укажите другого игрока-покупателя.", "Name another player as the buyer.")
said("free.buyer-no-token", "У {partner:gen} нет свободных фишек.", "{partner} has no free token.")
said("free.buyer-short", "У {partner:gen} только {money} мР.", "{partner} has only {money} мР.")
said(
    "free.buyer-no-container",
    "У {partner:gen} нет свободной ёмкости для {substance} ни на своей, ни на общей установке.",
    "{partner} has no free {substance} container on their own or a shared installation.",
)
said(
    "free.freed.sell-bank",
    "Фишка освобождена: {substance} продано Банку за {price} мР.",
    "Token freed: {substance} sold to the Bank for {price} мР.",
)
said(
    "free.freed.dump",
    "Фишка освобождена: {substance} выброшено, штраф {fine} мР.",
    "Token freed: {substance} dumped, fine {fine} мР.",
)
said(
    "free.freed.sell-player",
    "Фишка освобождена: {substance} продано {partner:dat} за {price} мР.",
    "Token freed: {substance} sold to {partner} for {price} мР.",
)


def find_container(
    state: GameState, number: int, card: str, index: int
) -> tuple[int, int, ContainerState] | None:
    """The container ``card``:``index`` of installation ``number``, with its two indices."""
    facts = state.facts(INSTALLATIONS_READ)
    where: dict[tuple[int, str, int], tuple[int, int]] | None = facts.get("container-index")
    if where is None:
        where = {}
        for i, installation in enumerate(state.installations):
            for k, container in enumerate(installation.containers):
                # The first of the same name, as a search in order finds it.
                where.setdefault((installation.number, container.card, container.index), (i, k))
        facts["container-index"] = where
    found = where.get((number, card, index))
    if found is None:
        return None
    i, k = found
    return i, k, state.installations[i].containers[k]
