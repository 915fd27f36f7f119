"""The greedy bot's level-3 economy: the Warehouse, sales towards it, the Base, the round.

At level 3 the field runs out, money is scarce and a round without progress ends the game
(Ruling L3.E1-no-progress). :class:`FieldEconomy` holds the greedy bot's answers to that: which
Warehouse card to work towards and what to sell for it, when to head for the Base, what to
offer other players on a bare field, and which move keeps the round alive.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.chem.formula import Formula
from mhp_cards.game.state import GameState, InstallationState, Player, Position
from mhp_cards.referee.actions import Action, BuyRaw, Move, SellRaw, Trade
from mhp_cards.referee.table import card_formula
from mhp_cards.rules.numbers import BANK_SALE_PRICE, COMBINE_CAPACITY, WAREHOUSE_PRICE
from mhp_cards.sim.holdings import (
    all_inputs,
    gap_of,
    inputs_held,
    is_card_sale,
    needed,
    open_to,
    serves_missions,
    shared_holdings,
    stock,
    tokens_needed,
)
from mhp_cards.sim.reach import best_move, can_collect, progressed, round_survives

__all__ = ["FieldEconomy", "keep_the_round_alive", "offer_on_bare_field"]

#: The most cards an installation may lack for the bot to buy them from the Warehouse (two
#: purchases: two turns without other progress, 8 мР).
_WAREHOUSE_GAP: Final = 2
#: How many installations nearest running keep their input cards from a sale.
_PLANS_KEPT: Final = 2


class FieldEconomy:
    """The level-3 decisions of the greedy bot, on the player's view and the catalog."""

    catalog: Catalog

    def _warehouse_step(
        self, view: GameState, me: Player, by_kind: Mapping[str, list[Action]]
    ) -> Action | None:
        """Level 3: a step towards the Warehouse card that lets an installation run.

        The installation nearest running (missions first) that lacks at most two cards, all
        in the Warehouse, and has the free tokens for its products: buy one when the money
        is there, else sell a card that installation does not take (one no installation
        takes first) towards the price. A purchase is progress (Ruling L3.E1-no-progress):
        under 8 мР it waits for a turn that makes no other progress.
        """
        if not view.warehouse or "warehouse" in view.done_this_turn:
            return None
        # Under 8 мР the step waits for a turn that makes no other progress, whatever the
        # plan: asked first, it spares working out the plans (most of this bot's time).
        if me.money < 2 * WAREHOUSE_PRICE and (
            progressed(view) or can_collect(view, by_kind.get("move", []))
        ):
            return None
        stocked = stock(self.catalog, view)
        have = shared_holdings(self.catalog, view, me)
        tokens = view.free_tokens(me.id)
        # The first plan (in the order of _plans) that passes; the order is a stable sort, so
        # sorting only the plans that pass gives the same first one, for less work.
        plans = self._plans(
            view,
            me,
            have,
            lambda installation, gap: (
                bool(gap)
                and sum(gap.values()) <= _WAREHOUSE_GAP
                and all(stocked[f] >= n for f, n in gap.items())
                and tokens_needed(installation) <= tokens
            ),
        )
        if not plans:
            return None
        installation, gap = plans[0]
        room = len(me.raw_cards) < COMBINE_CAPACITY
        if me.money >= WAREHOUSE_PRICE and room:
            buys = [
                a
                for a in by_kind.get("warehouse", [])
                if isinstance(a, BuyRaw) and card_formula(self.catalog, a.card) in gap
            ]
            return buys[0] if buys else None
        if me.money >= WAREHOUSE_PRICE:
            return None  # a full combine: the ordinary sale below makes room
        inputs = needed(installation)
        spare = [
            a
            for a in by_kind.get("sell", [])
            if isinstance(a, SellRaw) and card_formula(self.catalog, a.card) not in inputs
        ]
        if me.money + len(spare) < WAREHOUSE_PRICE:
            return None
        everyone = all_inputs(view)
        spare.sort(key=lambda a: card_formula(self.catalog, a.card) in everyone)
        return spare[0]

    def _rescue_sale(self, view: GameState, me: Player, sales: list[Action]) -> Action | None:
        """A raw card sold towards a Warehouse card when that purchase is the round's last hope.

        Sold when the cards held make up the price: first one held beyond what the
        installations nearest running take, else the first listed.
        """
        if me.money >= WAREHOUSE_PRICE or not view.warehouse:
            return None
        if "warehouse" in view.done_this_turn:
            return None
        raw_sales = [a for a in sales if isinstance(a, SellRaw)]
        if not raw_sales or me.money + len(raw_sales) < WAREHOUSE_PRICE:
            return None
        return self._spare_sale(view, me, raw_sales) or raw_sales[0]

    def _rescue_purchase(self, view: GameState, me: Player, buys: list[Action]) -> Action:
        """The round's last-hope Warehouse card: one the installation nearest running lacks."""
        have = shared_holdings(self.catalog, view, me)
        for _, gap in self._plans(view, me, have):
            for action in buys:
                if isinstance(action, BuyRaw) and card_formula(self.catalog, action.card) in gap:
                    return action
        return buys[0]

    def _plans(
        self,
        view: GameState,
        me: Player,
        have: Counter[Formula | None],
        keep: Callable[[InstallationState, Counter[Formula]], bool] | None = None,
    ) -> list[tuple[InstallationState, Counter[Formula]]]:
        """The installations open to the player that take raw inputs, with what each lacks.

        Nearest running first; among equals, those with a product a mission still wants.
        ``keep``: only the installations it accepts, with their gaps.
        """
        gaps = [
            (installation, gap)
            for installation in open_to(view, me.id)
            if (gap := gap_of(installation, have)) is not None
            and (keep is None or keep(installation, gap))
        ]
        return sorted(
            gaps,
            key=lambda entry: (
                sum(entry[1].values()),
                0 if serves_missions(view, entry[0]) else 1,
            ),
        )

    def _spare_sale(self, view: GameState, me: Player, sales: Sequence[Action]) -> Action | None:
        """The sale of a raw card held beyond what the installations nearest running take."""
        have = shared_holdings(self.catalog, view, me)
        keep: Counter[Formula | None] = Counter()
        for installation, _ in self._plans(view, me, have)[:_PLANS_KEPT]:
            keep |= needed(installation)
        held = Counter(card_formula(self.catalog, card) for card in me.raw_cards)
        for action in sales:
            if isinstance(action, SellRaw):
                kind = card_formula(self.catalog, action.card)
                if held[kind] > keep[kind]:
                    return action
        return None

    def _useless_sale(self, view: GameState, sales: list[Action]) -> Action | None:
        """The sale of a raw card that no installation on the table takes, if one is held."""
        inputs = all_inputs(view)
        return next(
            (
                a
                for a in sales
                if isinstance(a, SellRaw) and card_formula(self.catalog, a.card) not in inputs
            ),
            None,
        )

    def _goal(self, view: GameState, me: Player) -> Position | None:
        """Level 3: the Base when a shared installation can run there, else None (raw cards)."""
        field = view.field
        if view.level != "3" or field is None or me.combine is None:
            return None
        if me.combine.position != field.base and self._can_run_shared(view, me):
            return field.base
        return None

    def _can_run_shared(self, view: GameState, me: Player) -> bool:
        have = shared_holdings(self.catalog, view, me)
        tokens = view.free_tokens(me.id)
        return any(
            inputs_held(installation, have) and tokens_needed(installation) <= tokens
            for installation in view.installations
            if installation.owner is None
        )


def offer_on_bare_field(view: GameState, trades: list[Action]) -> Action | None:
    """A raw card held, offered to the next player in turn order for what the Bank pays.

    1 мР, or nothing from a player with none; the first such sale listed to the nearest
    player after this one.
    """
    players = len(view.players)
    order = {view.players[(view.turn + step) % players].id: step for step in range(1, players)}
    sales = [
        a
        for a in trades
        if is_card_sale(a) and isinstance(a, Trade) and len(a.give) == 1 and a.partner in order
    ]
    if not sales:
        return None
    sale = min(sales, key=lambda a: order[a.partner] if isinstance(a, Trade) else 0)
    assert isinstance(sale, Trade)
    buyer = view.player(sale.partner)
    return sale.model_copy(update={"pay": -min(BANK_SALE_PRICE, buyer.money)})


def keep_the_round_alive(
    view: GameState,
    moves: list[Action],
    chosen: Move,
    goal: Position | None,
    rng: random.Random,
    peaceful: bool,
) -> Action | None:
    """The chosen move, unless it leaves a quiet round to players who cannot progress.

    Then (Ruling L3.E1-no-progress) the best move that does not; the chosen one if none does.
    """

    def survives(move: Move) -> bool:
        progress = (
            progressed(view)
            or can_collect(view, [move])
            or (goal is not None and move.path[-1] == goal)
        )
        return round_survives(view, move, progress=progress)

    if survives(chosen):
        return chosen
    alive: list[Action] = [m for m in moves if isinstance(m, Move) and survives(m)]
    if not alive:
        return chosen
    return best_move(view, alive, rng, peaceful=peaceful, goal=goal) or chosen
