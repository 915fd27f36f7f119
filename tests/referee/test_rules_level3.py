"""Level 3 «Профи»: one test per rule the referee judges (RULES.md L3.S3, L3.S5, L3.T1–T4,
L3.E1, L3.P1 and their Rulings), allowed and forbidden.

The table: a dealt level-3 game for two players (seed 3, Base at (4, 3)) where red owns
installation 1 (CaCO3 + H2O → CO2 + Ca(OH)2) and blue owns installation 7; every other
installation is shared and stands at the Base.
"""

from __future__ import annotations

import pytest

from mhp_cards.referee import apply, legal_actions, score
from mhp_cards.referee.actions import BuyRaw, FreeToken, ProductRef, React, SellRaw, Trade

BASE = (4, 3)


def price(kit, formula: str) -> int:
    return kit.catalog.substance(formula).price


@pytest.fixture
def pro(kit):
    """Level 3, both combines on the Base, red to play; red owns installation 1, blue 7."""
    return kit.owners(kit.deal("3", 2, 3), {1: "red", 7: "blue"})


@pytest.fixture
def afield(kit, pro):
    """Red has left the Base and stands on (4, 1); blue on (6, 3)."""
    state = kit.combine(pro, "red", position=(4, 1), moved=True)
    return kit.combine(state, "blue", position=(6, 3), moved=True)


FIVE = ("hematite", "halite", "sulfur", "hydrogen-peroxide", "nitrogen")


# --- L3.S3 six raw cards at most ------------------------------------------------------------------


def test_L3_S3_a_full_combine_stops_collecting(kit, afield) -> None:
    state = kit.combine(kit.give(afield, "red", *FIVE), "red", solar_battery=True)
    first, second = kit.raw_at(state, (4, 0)), kit.raw_at(state, (3, 0))
    assert first
    assert second
    ruling = kit.expect(state, "move 4,0 3,0", "allowed", "L1.T1")
    assert len(ruling.facts["collected"]) == 1
    new, events = kit.play(state, "move 4,0 3,0")
    assert len(new.player("red").raw_cards) == 6
    assert [e.kind for e in events] == ["move", "capacity"]
    assert "L3.S3" in events[1].en
    # The card left behind stays on the field.
    left = [kit.raw_at(new, (4, 0)), kit.raw_at(new, (3, 0))]
    assert sum(card is not None for card in left) == 1


def test_L3_S3_a_player_holding_six_unloads_before_the_turn_ends(kit, afield) -> None:
    five = kit.give(afield, "red", *FIVE)
    moved, _ = kit.play(five, "move 4,0")
    assert len(moved.player("red").raw_cards) == 6
    ruling = kit.expect(moved, "end", "forbidden", "L3.S3", "L3.S3.R1")
    assert "6 cards" in ruling.reason_en
    sold, _ = kit.play(moved, SellRaw(card=moved.player("red").raw_cards[0]))
    kit.expect(sold, "end", "allowed")
    # With five cards the turn ends as usual.
    empty = kit.put(five, (4, 0), None)
    kit.expect(kit.play(empty, "move 4,0")[0], "end", "allowed")


def test_L3_S3_with_an_empty_bank_a_full_combine_unloads_unpaid(kit, afield) -> None:
    five = kit.give(afield, "red", *FIVE)
    moved, _ = kit.play(five, "move 4,0")
    broke = kit.money(moved, "blue", moved.bank)
    assert broke.bank == 0
    assert len(broke.player("red").raw_cards) == 6
    kit.expect(broke, "end", "forbidden", "L3.S3.R1")
    card = broke.player("red").raw_cards[0]
    ruling = kit.expect(broke, SellRaw(card=card), "allowed", "L3.S3.R1")
    assert "unpaid" in ruling.reason["en"]
    unloaded, events = apply(broke, SellRaw(card=card), kit.catalog)
    assert unloaded.player("red").money == broke.player("red").money, "the Bank pays nothing"
    assert unloaded.bank == 0
    assert unloaded.warehouse[-1] == card
    assert card not in unloaded.player("red").raw_cards
    assert [e.kind for e in events] == ["sell"]
    kit.expect(unloaded, "end", "allowed")


def test_L3_S3_quiet_round_ends_house_rule_keeps_six_with_an_empty_bank(kit, afield) -> None:
    five = kit.give(afield, "red", *FIVE)
    moved, _ = kit.play(five, "move 4,0")
    broke = kit.money(moved, "blue", moved.bank)
    second = broke.model_copy(
        update={"house_rules": broke.house_rules.model_copy(update={"quiet_round_ends": True})}
    )
    kit.expect(second, SellRaw(card=second.player("red").raw_cards[0]), "forbidden", "L1.T8.R1")
    kit.expect(second, "end", "allowed")


def test_L3_S3_a_combine_with_room_may_not_sell_to_an_empty_bank(kit, afield) -> None:
    four = kit.give(afield, "red", *FIVE[:4])
    broke = kit.money(four, "blue", four.bank)
    kit.expect(broke, SellRaw(card=broke.player("red").raw_cards[0]), "forbidden", "L1.T8.R1")


def test_L3_S3_no_seventh_card_from_the_warehouse_or_a_trade(kit, afield) -> None:
    six = kit.money(kit.give(afield, "red", *FIVE, "oxygen"), "red", 4)
    kit.expect(six, BuyRaw(card=six.warehouse[0]), "forbidden", "L3.S3")
    five = kit.money(kit.give(afield, "red", *FIVE), "red", 4)
    kit.expect(five, BuyRaw(card=five.warehouse[0]), "allowed", "L3.T4")
    state = kit.give(six, "blue", "calcite")
    calcite = state.player("blue").raw_cards[0]
    kit.expect(state, Trade(partner="blue", receive=(calcite,), pay=1), "forbidden", "L3.S3")
    swap = Trade(partner="blue", give=(state.player("red").raw_cards[0],), receive=(calcite,))
    kit.expect(state, swap, "allowed", "L3.T2")


def test_L3_S3_the_winner_of_a_fight_takes_only_what_fits(kit, afield) -> None:
    state = kit.give(afield, "red", *FIVE)
    state = kit.give(state, "blue", "calcite", "oxygen", "water-ice")
    state = kit.fight(state, "red", "blue", (4, 0))
    state, _ = kit.play(state, "fight 6:1")
    blue = state.player("blue").raw_cards
    ruling = kit.expect(state, f"spoils {' '.join(blue[:2])}", "forbidden", "L3.S3")
    assert "room for 1" in ruling.reason_en
    kit.expect(state, f"spoils {blue[0]}", "allowed", "L1.T4", facts={"taken": [blue[0]]})


def test_L3_S3_the_spoils_listed_fit_the_combine(kit, afield) -> None:
    state = kit.give(afield, "red", *FIVE)
    state = kit.give(state, "blue", "calcite", "oxygen", "water-ice", "halite", "sulfur")
    state = kit.fight(state, "red", "blue", (4, 0))
    # Whoever the dice favour, the spoils listed fit the winner's combine.
    for dice, room in (("fight 6:1", 1), ("fight 1:6", 1)):
        rolled, _ = kit.play(state, dice)
        listed = legal_actions(rolled, kit.catalog)
        assert listed
        assert max(len(a.cards) for a in listed) == room
        for action in listed:
            kit.expect(rolled, action, "allowed", "L1.T4")


# --- L3.S5 shared installations at the Base -------------------------------------------------------


def test_L3_S5_shared_installations_only_at_the_base(kit, pro) -> None:
    at_base = kit.give(pro, "red", "calcium-perchlorate")  # shared installation 9's input
    card = at_base.player("red").raw_cards[0]
    kit.expect(at_base, React(installation=9, cards=(card,)), "allowed", "L2.T4")
    away = kit.combine(at_base, "red", position=(4, 1), moved=True)
    ruling = kit.expect(away, React(installation=9, cards=(card,)), "forbidden", "L3.S5")
    assert "Base" in ruling.reason_en


def test_L3_S5_own_installations_ride_on_the_combine(kit, afield) -> None:
    state = kit.give(afield, "red", "calcite", "water-ice")
    cards = state.player("red").raw_cards
    kit.expect(state, React(installation=1, cards=cards), "allowed", "L2.T4")
    new, _ = kit.play(state, React(installation=1, cards=cards))
    assert new.player("red").raw_cards == ()
    # Blue's own installation is blue's, wherever red stands.
    state = kit.give(afield, "red", "halite", "water-ice")
    kit.expect(state, React(installation=7, cards=state.player("red").raw_cards), "forbidden")


def test_L3_S5_eight_chemist_tokens_each(kit, pro) -> None:
    # Ruling L2.S7-two: two players take 10 each; three and more 8 (L3.S5).
    assert all(p.tokens == 10 for p in pro.players)
    assert all(pro.free_tokens(p.id) == 10 for p in pro.players)
    three = kit.deal("3", 3, 3)
    assert all(three.free_tokens(p.id) == 8 for p in three.players)


# --- L3.T1 / L3.T2 moving and trading as at levels 1 and 2 ----------------------------------------


def test_L3_T1_moving_fighting_as_at_level_1(kit, pro, afield) -> None:
    kit.expect(pro, "move 4,2 4,1", "allowed", "L1.T1", "L1.T2")
    kit.expect(pro, "move 4,2", "forbidden", "L1.T2")
    kit.expect(afield, "move 4,0", "allowed", "L1.T1")
    kit.expect(afield, "move 5,0", "forbidden", "L1.T1.R1")
    fight = kit.fight(kit.give(afield, "blue", "halite"), "red", "blue", (4, 0))
    kit.expect(fight, "fight 3:3 5:4", "allowed", "L1.T4", facts={"winner": "red"})


def test_L3_T2_one_trade_a_turn(kit, afield) -> None:
    state = kit.give(afield, "red", "hematite", "halite")
    state = kit.give(state, "blue", "calcite")
    red = state.player("red").raw_cards
    kit.expect(state, Trade(partner="blue", give=(red[0],)), "allowed", "L3.T2", "L1.T7")
    new, _ = kit.play(state, Trade(partner="blue", give=(red[0],)))
    kit.expect(new, Trade(partner="blue", give=(red[1],)), "forbidden", "L2.T2")
    kit.expect(state, Trade(partner="blue", give=red), "forbidden", "L2.T2")


# --- L3.T3 selling to the Bank --------------------------------------------------------------------


@pytest.fixture
def stocked(kit, afield):
    """Red's token on Ca(OH)2 of red's installation 1; red holds a hematite card."""
    state = kit.token(afield, "red", 1, "1Б", 1)
    return kit.give(state, "red", "hematite")


CAOH2 = ProductRef(installation=1, card="1Б", container=1)


def test_L3_T3_sell_a_substance_at_its_printed_price(kit, stocked) -> None:
    nominal = price(kit, "Ca(OH)2")
    sale = FreeToken(product=CAOH2, how="sell-bank", price=nominal)
    kit.expect(stocked, sale, "allowed", "L3.T3", facts={"nominal": nominal})
    new, _ = kit.play(stocked, sale)
    assert new.player("red").money == nominal
    assert new.bank == stocked.bank - nominal
    assert kit.container(new, 1, "1Б", 1).places == (None,)
    ruling = kit.expect(
        stocked, FreeToken(product=CAOH2, how="sell-bank", price=nominal + 1), "forbidden", "L3.T3"
    )
    assert f"exactly {nominal}" in ruling.reason_en
    kit.expect(stocked, FreeToken(product=CAOH2, how="sell-bank", price=1), "forbidden", "L3.T3")


def test_L3_T3_sell_a_raw_card_for_one_coin_to_the_warehouse(kit, stocked) -> None:
    card = stocked.player("red").raw_cards[0]
    kit.expect(stocked, SellRaw(card=card), "allowed", "L3.T3")
    new, _ = kit.play(stocked, SellRaw(card=card))
    assert new.player("red").money == 1
    assert new.warehouse[-1] == card
    broke = kit.money(stocked, "blue", stocked.bank)
    kit.expect(broke, SellRaw(card=card), "forbidden", "L3.T3", "L1.T8.R1")
    nominal = price(kit, "Ca(OH)2")
    sale = FreeToken(product=CAOH2, how="sell-bank", price=nominal)
    kit.expect(broke, sale, "forbidden", "L3.T3", "L1.T8.R1")
    kit.expect(stocked, SellRaw(card="hematite#99"), "forbidden", "L3.T3")


# --- L3.T4 buying from the Warehouse --------------------------------------------------------------


def test_L3_T4_buy_from_the_warehouse_for_four(kit, afield) -> None:
    rich = kit.money(afield, "red", 4)
    card = rich.warehouse[-1]
    kit.expect(rich, BuyRaw(card=card), "allowed", "L3.T4")
    new, _ = kit.play(rich, BuyRaw(card=card))
    assert new.player("red").raw_cards == (card,)
    assert new.bank == rich.bank + 4
    poor = kit.money(afield, "red", 3)
    kit.expect(poor, BuyRaw(card=card), "forbidden", "L3.T4")
    kit.expect(rich, BuyRaw(card="hydrogen-peroxide#42"), "forbidden", "L3.T4")


# --- L3.E1 the end of the game --------------------------------------------------------------------


def test_L3_E1_a_completed_mission_ends_the_game(kit, pro) -> None:
    # M1 lacks its one CH4, which shared installation 2 makes.
    state = kit.mission_tokens(pro, "M1", "CH4", "blue", None)
    state = kit.mission_tokens(state, "M1", "O2", "red", "blue", "red", None)
    state = kit.owners(state, {1: "red", 7: "blue"})  # installation 2 shared, at the Base
    state = kit.give(state, "red", "carbon-dioxide", "water-ice")
    action = React(installation=2, cards=state.player("red").raw_cards)
    kit.expect(state, action, "allowed", "L2.M1")
    new, events = kit.play(state, action)
    assert next(m for m in new.missions if m.id == "M1").complete
    # The round is played out (Ruling L2.E1-round); with "ends-at-once" the game ends here.
    assert not new.ended
    assert events[-1].kind == "mission"
    at_once = state.model_copy(
        update={"house_rules": state.house_rules.model_copy(update={"ends_at_once": True})}
    )
    over, events = kit.play(at_once, action)
    assert over.ended
    assert events[-1].kind == "end"
    kit.expect(over, "move 4,2 4,1", "forbidden", "L3.E1")
    # Two O2 places free as well: the reaction fills one, one place is short, nothing ends.
    short = kit.mission_tokens(state, "M1", "O2", "red", None, None, None)
    new, events = kit.play(short, action)
    assert not new.ended
    assert events[-1].kind == "react"


def test_L3_E1_R1_the_game_ends_when_the_field_is_bare(kit, afield) -> None:
    # Level 3's raw supply is the field: the Warehouse and the reactions left do not keep a
    # bare field's game going.
    bare = kit.clear_field(afield)
    last = kit.put(bare, (4, 0), "hydrogen-peroxide")
    able = kit.give(kit.to_warehouse(last, "halite"), "red", "calcite", "water-ice")
    over, events = kit.play(able, "move 4,0", "end")
    assert over.ended
    assert over.end_code == "field-empty"
    assert "the field has no raw cards left" in over.end_reason
    assert events[-1].kind == "end"
    kit.expect(over, "move 5,0", "forbidden", "L3.E1")
    # A card left on the field keeps the game going.
    two = kit.put(last, (8, 6), "hydrogen-peroxide")
    assert not kit.play(two, "move 4,0", "end")[0].ended


# --- L3.P1 scoring --------------------------------------------------------------------------------


def test_L3_P1_scoring_as_level_2(kit, pro) -> None:
    state = kit.token(pro, "red", 1, "1Б", 1)
    state = kit.token(state, "blue", 9, "9Б", 0)  # CaCl2 on a shared installation
    state = kit.mission_tokens(state, "M3", "CO2", "red")
    state = kit.mission_tokens(state, "M3", "CO(NH2)2", "blue")
    state = kit.mission_tokens(state, "M3", "O2", "red", "red")  # M3 complete: doubled
    state = kit.money(state, "red", 3)
    result = score(state, kit.catalog)
    red = price(kit, "Ca(OH)2") + 2 * (price(kit, "CO2") + 2 * price(kit, "O2")) + 3
    blue = price(kit, "CaCl2") + 2 * price(kit, "CO(NH2)2")
    assert result.totals == {"red": red, "blue": blue}
    assert "L3.P1" in result.ruling.rules
    assert {line.rule for line in result.lines} == {"L3.P1"}
    assert result.winners == (("red",) if red > blue else ("blue",))
    kit.assert_well_formed(result.ruling)
