"""Level 1: a mission finished within the turn by sales to the Bank and Warehouse purchases."""

from __future__ import annotations

import random

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import GameState, deal, view
from mhp_cards.referee import apply, legal_actions
from mhp_cards.referee.actions import BuyRaw, Claim, SellRaw
from mhp_cards.sim.finish import finishing_plan, finishing_step
from mhp_cards.sim.search import SearchBot

# Mission M1 asks for C2 H8 O8: two CO2 and four H2O hold exactly that.
ALMOST_M1 = ("carbon-dioxide#1", "carbon-dioxide#2", "water-ice#1", "water-ice#2", "water-ice#3")
SPARE = ("halite#1", "halite#3", "sulfur#1", "sulfur#2", "silica#1")


def _level_1(
    catalog: Catalog, hand: tuple[str, ...], money: int, warehouse: tuple[str, ...]
) -> GameState:
    """A level-1 deal where the first player holds ``hand`` and ``money``."""
    state = deal(catalog, "1", players=2, seed=1)
    me = state.current.model_copy(update={"raw_cards": hand, "money": money})
    players = tuple(me if p.id == me.id else p for p in state.players)
    return state.model_copy(update={"players": players, "warehouse": warehouse})


def _play_out(state: GameState, catalog: Catalog) -> tuple[GameState, list[str]]:
    """The finishing steps applied by the referee until none is left; the kinds played."""
    played: list[str] = []
    for _ in range(12):
        step = finishing_step(view(state, state.current.id), legal_actions(state, catalog), catalog)
        if step is None:
            break
        state, _ = apply(state, step, catalog)  # the referee refuses an illegal step
        played.append(step.kind)
    return state, played


def test_spare_cards_pay_for_the_missing_card_and_the_mission_is_claimed(
    catalog: Catalog,
) -> None:
    state = _level_1(catalog, ALMOST_M1 + SPARE[:3], 1, ("halite#2", "water-ice#9"))
    assert not [a for a in legal_actions(state, catalog) if isinstance(a, Claim)]
    after, played = _play_out(state, catalog)
    # Three spare cards sold (1 мР to 4 мР), the H2O bought: the referee now lists the claim.
    assert played == ["sell", "sell", "sell", "warehouse"]
    assert "water-ice#9" in after.current.raw_cards
    assert set(ALMOST_M1) <= set(after.current.raw_cards)
    claims = [a for a in legal_actions(after, catalog) if isinstance(a, Claim)]
    assert [c.mission for c in claims] == ["M1"]
    claimed, _ = apply(after, claims[0], catalog)
    assert claimed.claims == ((state.current.id, "M1"),)


def test_no_plan_when_the_spare_cards_cannot_pay(catalog: Catalog) -> None:
    state = _level_1(catalog, ALMOST_M1 + SPARE[:2], 1, ("water-ice#9",))
    assert finishing_plan(view(state, state.current.id), catalog) is None
    # One more coin and the plan exists.
    richer = _level_1(catalog, ALMOST_M1 + SPARE[:2], 2, ("water-ice#9",))
    plan = finishing_plan(view(richer, richer.current.id), catalog)
    assert plan is not None
    assert plan.buy == ("water-ice#9",)
    assert len(plan.sell) == 2


def test_the_cards_a_mission_uses_are_never_sold(catalog: Catalog) -> None:
    # Only four of the five mission cards are spare if one H2O is sold: the plan must sell
    # the five spare cards, never a card of the mission.
    state = _level_1(catalog, ALMOST_M1 + SPARE, 0, ("water-ice#9",))
    plan = finishing_plan(view(state, state.current.id), catalog)
    assert plan is not None
    assert set(plan.sell) <= set(SPARE)
    assert len(plan.sell) == 4


def test_two_warehouse_cards_when_one_is_not_enough(catalog: Catalog) -> None:
    hand = ("carbon-dioxide#1", "carbon-dioxide#2", "water-ice#1", "water-ice#2")
    state = _level_1(catalog, hand + SPARE, 3, ("water-ice#8", "water-ice#9", "halite#2"))
    after, played = _play_out(state, catalog)
    assert played == ["sell"] * 5 + ["warehouse"] * 2
    assert [a.mission for a in legal_actions(after, catalog) if isinstance(a, Claim)] == ["M1"]


def test_no_plan_away_from_level_1_or_with_nothing_that_fits(catalog: Catalog) -> None:
    state = _level_1(catalog, ALMOST_M1 + SPARE, 9, ("halite#2",))
    assert finishing_plan(view(state, state.current.id), catalog) is None
    level_2 = deal(catalog, "2", players=2, seed=1)
    assert finishing_plan(view(level_2, level_2.current.id), catalog) is None


def test_the_search_bot_finishes_unsearched(catalog: Catalog) -> None:
    state = _level_1(catalog, ALMOST_M1 + SPARE[:3], 1, ("water-ice#9",))
    bot = SearchBot(catalog)
    me = state.current.id
    choice = bot.choose(view(state, me), legal_actions(state, catalog), random.Random(3))
    assert isinstance(choice, SellRaw)
    assert choice.card in SPARE
    assert bot.searched == 0
    assert bot.rollouts == 0
    rich = state.model_copy(
        update={
            "players": tuple(
                p.model_copy(update={"money": 4}) if p.id == me else p for p in state.players
            )
        }
    )
    choice = bot.choose(view(rich, me), legal_actions(rich, catalog), random.Random(3))
    assert choice == BuyRaw(card="water-ice#9")


def test_under_whole_hand_every_spare_card_is_sold(catalog: Catalog) -> None:
    state = _level_1(catalog, ALMOST_M1 + SPARE, 0, ("water-ice#9",))
    whole = state.model_copy(
        update={"house_rules": state.house_rules.model_copy(update={"mission_match": "whole-hand"})}
    )
    after, played = _play_out(whole, catalog)
    # Four sales pay for the card; the fifth spare card would spoil the whole hand.
    assert played == ["sell"] * 5 + ["warehouse"]
    assert sorted(after.current.raw_cards) == sorted((*ALMOST_M1, "water-ice#9"))
    assert [a.mission for a in legal_actions(after, catalog) if isinstance(a, Claim)] == ["M1"]
