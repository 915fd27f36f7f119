"""Level 2 «Химики» and the head-to-head variant: one test per rule the referee judges (RULES.md
L2.T1–T6, L2.M1, L2.E1, L2.P1, V1.3–V1.5, V1.P1 and their Rulings), allowed and forbidden.

The table: a dealt level-2 game for two players (seed 3) where red owns installation 1
(CaCO3 + H2O → CO2 + Ca(OH)2) and blue owns installation 7 (NaCl + H2O → NaOH + HCl); every
other installation is shared. Head to head: seed 288 deals red installation 7 (NaCl, H2O in)
and blue installation 1.
"""

from __future__ import annotations

import pytest

from mhp_cards.game import view
from mhp_cards.referee import format_action, legal_actions, parse_action, price_range, score
from mhp_cards.referee.actions import FreeToken, ProductRef, React, TakeRaw, Trade
from mhp_cards.rules.numbers import HouseRules


def price(kit, formula: str) -> int:
    return kit.catalog.substance(formula).price


@pytest.fixture
def chem(kit):
    """Level 2, red to play; red owns installation 1, blue installation 7, the rest shared."""
    return kit.owners(kit.deal("2", 2, 3), {1: "red", 7: "blue"})


@pytest.fixture
def taken(kit, chem):
    """Red has taken this turn's raw card and holds calcite and water ice besides."""
    state, _ = kit.play(chem, "take 1")
    return kit.give(state, "red", "calcite", "water-ice")


def ref(installation: int, card: str, container: int) -> ProductRef:
    return ProductRef(installation=installation, card=card, container=container)


# --- L2.T1 drawing a raw card ---------------------------------------------------------------------


def test_L2_T1_take_one_of_the_three_top_cards(kit, chem) -> None:
    for pile in (1, 2, 3):
        top = chem.piles[pile - 1][-1]
        kit.expect(chem, TakeRaw(pile=pile), "allowed", "L2.T1", facts={"card": top})
    new, events = kit.play(chem, "take 2")
    assert new.player("red").raw_cards == (chem.piles[1][-1],)
    assert new.piles[1] == chem.piles[1][:-1]
    assert new.piles[0] == chem.piles[0]
    assert events[0].kind == "take"


def test_L2_T1_one_card_a_turn_from_a_pile_that_has_one(kit, chem) -> None:
    new, _ = kit.play(chem, "take 1")
    ruling = kit.expect(new, "take 2", "forbidden", "L2.T1")
    assert "already" in ruling.reason_en
    empty = kit.clear_piles(chem, keep={2: 1, 3: 1})
    kit.expect(empty, "take 1", "forbidden", "L2.T1", facts={"piles": [0, 1, 1]})
    kit.expect(empty, "take 3", "allowed", "L2.T1")


def test_L2_T1_the_card_is_taken_before_the_turn_ends(kit, chem) -> None:
    ruling = kit.expect(chem, "end", "forbidden", "L2.T1")
    assert "Take a raw card" in ruling.reason_en
    new, _ = kit.play(chem, "take 3")
    kit.expect(new, "end", "allowed", "L2.T1")
    after, _ = kit.play(new, "end")
    assert after.current.id == "blue"
    assert after.done_this_turn == ()


# --- L2.T2 one trade a turn -----------------------------------------------------------------------


@pytest.fixture
def market(kit, taken):
    return kit.give(taken, "blue", "halite", "nitrogen")


def test_L2_T2_one_trade_with_one_card(kit, market) -> None:
    calcite = next(c for c in market.player("red").raw_cards if c.startswith("calcite"))
    halite = next(c for c in market.player("blue").raw_cards if c.startswith("halite"))
    sale = Trade(partner="blue", give=(calcite,), pay=-2)
    kit.expect(market, sale, "allowed", "L2.T2")
    new, _ = kit.play(market, sale)
    assert calcite in new.player("blue").raw_cards
    assert new.player("red").money == 10
    assert new.player("blue").money == 6
    swap = Trade(partner="blue", give=(calcite,), receive=(halite,))
    kit.expect(market, swap, "allowed", "L2.T2")
    purchase = Trade(partner="blue", receive=(halite,), pay=3)
    kit.expect(market, purchase, "allowed", "L2.T2")


def test_L2_T2_no_second_trade_and_no_second_card(kit, market) -> None:
    red = market.player("red").raw_cards
    blue = market.player("blue").raw_cards
    new, _ = kit.play(market, Trade(partner="blue", give=(red[0],), pay=-1))
    ruling = kit.expect(new, Trade(partner="blue", give=(red[1],)), "forbidden", "L2.T2")
    assert "already" in ruling.reason_en
    kit.expect(market, Trade(partner="blue", give=red[:2]), "forbidden", "L2.T2")
    kit.expect(market, Trade(partner="blue", receive=blue[:2]), "forbidden", "L2.T2")
    kit.expect(market, Trade(partner="blue", give=(red[0],), pay=9), "forbidden", "L2.T2")
    kit.expect(market, Trade(partner="blue", give=(blue[0],)), "forbidden", "L2.T2")


# --- L2.T3 a container is needed ------------------------------------------------------------------


@pytest.fixture
def seller(kit, chem):
    """Blue to play, having taken a card: blue's tokens stand on NaOH (blue's installation 7)
    and on H2O (shared installation 2)."""
    state = kit.token(chem, "blue", 7, "7А", 2)
    state = kit.token(state, "blue", 2, "2А", 2)
    state = kit.turn(state, "blue")
    return kit.play(state, "take 1")[0]


def test_L2_T3_a_substance_sold_to_a_player_with_a_container(kit, seller) -> None:
    # Red can hold H2O: shared installation 2 has an H2O container.
    sale = FreeToken(product=ref(2, "2А", 2), how="sell-player", partner="red", price=1)
    kit.expect(seller, sale, "allowed", "L2.T5")
    new, _ = kit.play(seller, sale)
    assert kit.container(new, 2, "2А", 2).places == ("red", None)
    assert new.player("red").money == 7
    assert new.player("blue").money == 9


def test_L2_T3_no_container_no_purchase(kit, seller) -> None:
    sale = FreeToken(product=ref(7, "7А", 2), how="sell-player", partner="red", price=3)
    kit.expect(seller, sale, "forbidden", "L2.T3")


# --- L2.T4 running a reaction ---------------------------------------------------------------------


def test_L2_T4_run_a_reaction_on_ones_own_installation(kit, taken) -> None:
    cards = tuple(
        c for c in taken.player("red").raw_cards if c.split("#")[0] in ("calcite", "water-ice")
    )
    action = React(installation=1, cards=cards)
    ruling = kit.expect(taken, action, "allowed", "L2.T4", "L2.T4.R1", facts={"cards": list(cards)})
    # CO2 takes the first free CO2 place in card order: M2's (M1 has none).
    assert ruling.facts["products"] == ["CO2 → M2", "Ca(OH)2 → 1Б"]
    new, events = kit.play(taken, action)
    assert not set(cards) & set(new.player("red").raw_cards)
    assert set(cards) <= set(new.discard)
    assert kit.container(new, 1, "1Б", 1).places == ("red",)
    assert new.free_tokens("red") == 8  # two of ten (two players: Ruling L2.S7-two)
    assert events[0].kind == "react"


def test_L2_T4_run_a_reaction_on_a_shared_installation(kit, chem) -> None:
    # Shared installation 9 takes calcium perchlorate, Ca(ClO4)2·4H2O.
    state = kit.give(chem, "red", "calcium-perchlorate")
    card = state.player("red").raw_cards[0]
    kit.expect(state, React(installation=9, cards=(card,)), "allowed", "L2.T4")
    new, _ = kit.play(state, React(installation=9, cards=(card,)))
    # One portion of each product (L2.T4-portion): its O2 takes M1's first O2 place (L2.M1),
    # its H2O stays on 9А and its CaCl2 on 9Б, all under red's tokens.
    m1 = dict(next(m for m in new.missions if m.id == "M1").places)
    assert m1["O2"] == ("red", None, None, None)
    assert kit.container(new, 9, "9А", 1).places == ("red", None)
    assert kit.container(new, 9, "9Б", 0).places == ("red",)
    assert kit.container(new, 9, "9Б", 1).places == (None,) * 4


def test_L2_T4_forbidden_reactions(kit, taken) -> None:
    hand = taken.player("red").raw_cards
    calcite = next(c for c in hand if c.startswith("calcite"))
    water = next(c for c in hand if c.startswith("water-ice"))
    ruling = kit.expect(taken, React(installation=1, cards=(calcite,)), "forbidden", "L2.T4")
    assert "H2O" in ruling.reason_en
    kit.expect(taken, React(installation=1, cards=(calcite, water, hand[0])), "forbidden", "L2.T4")
    kit.expect(taken, React(installation=1, cards=(calcite, "water-ice#99")), "forbidden", "L2.T4")
    kit.expect(taken, React(installation=42, cards=(calcite, water)), "forbidden", "L2.T4")
    state = kit.give(taken, "red", "halite")
    halite = next(c for c in state.player("red").raw_cards if c.startswith("halite"))
    ruling = kit.expect(state, React(installation=7, cards=(halite, water)), "forbidden", "L2.T4")
    assert "belongs to Blue" in ruling.reason_en
    assert "принадлежит Синему" in ruling.reason_ru
    new, _ = kit.play(taken, React(installation=1, cards=(calcite, water)))
    again = kit.give(new, "red", "calcite", "water-ice")
    cards = again.player("red").raw_cards[-2:]
    ruling = kit.expect(again, React(installation=1, cards=cards), "forbidden", "L2.T4")
    assert "already" in ruling.reason_en


def test_L2_T4_a_card_cannot_feed_two_inputs(kit, chem) -> None:
    state = kit.give(chem, "red", "sulfur", "oxygen", "water-ice")
    sulfur, oxygen, water = state.player("red").raw_cards
    action = React(installation=6, cards=(sulfur, oxygen, oxygen, water))
    kit.expect(state, action, "forbidden", "L2.T4")


def test_L2_T4_R1_one_free_token_per_product(kit, taken) -> None:
    cards = taken.player("red").raw_cards[-2:]
    # Eight of red's ten tokens on the Mission card (two players, Ruling L2.S7-two), no
    # mission complete: two are free, and the reaction makes two products (CO2 for M2,
    # Ca(OH)2 for 1Б), each taking a token.
    state = kit.mission_tokens(taken, "M1", "O2", "red", "red", "red", "red")
    state = kit.mission_tokens(state, "M3", "O2", "red", None)
    state = kit.mission_tokens(state, "M4", "Ca2SiO4", "red")
    state = kit.mission_tokens(state, "M2", "NaOH", "red")
    state = kit.mission_tokens(state, "M2", "HCl", "red")
    assert state.free_tokens("red") == 2
    kit.expect(state, React(installation=1, cards=cards), "allowed", "L2.T4.R1")
    state = kit.mission_tokens(state, "M3", "O2", "red", "red")
    ruling = kit.expect(
        state,
        React(installation=1, cards=cards),
        "forbidden",
        "L2.T4.R1",
        "L2.T5",
        facts={"free_tokens": 1},
    )
    assert "free a token" in ruling.reason_en


def test_L2_T4_a_full_container_takes_no_product(kit, taken) -> None:
    cards = taken.player("red").raw_cards[-2:]
    state = kit.token(taken, "blue", 1, "1Б", 1)  # Ca(OH)2: its one place is taken
    ruling = kit.expect(state, React(installation=1, cards=cards), "forbidden", "L2.T4")
    assert "full" in ruling.reason_en


# --- L2.T5 freeing a token ------------------------------------------------------------------------


@pytest.fixture
def holder(kit, chem):
    """Red has taken a card; red's token stands on Ca(OH)2 (installation 1, 1Б)."""
    state = kit.token(chem, "red", 1, "1Б", 1)
    return kit.play(state, "take 1")[0]


CAOH2 = ref(1, "1Б", 1)


def test_L2_T5_sell_to_the_bank_at_the_nominal_price_or_less(kit, holder) -> None:
    nominal = price(kit, "Ca(OH)2")
    sale = FreeToken(product=CAOH2, how="sell-bank", price=nominal)
    kit.expect(holder, sale, "allowed", "L2.T5", facts={"nominal": nominal})
    new, _ = kit.play(holder, sale)
    assert kit.container(new, 1, "1Б", 1).places == (None,)
    assert new.player("red").money == holder.player("red").money + nominal
    assert new.bank == holder.bank - nominal
    assert new.free_tokens("red") == 10  # all of them (two players, Ruling L2.S7-two)
    kit.expect(holder, FreeToken(product=CAOH2, how="sell-bank", price=1), "allowed", "L2.T5")
    ruling = kit.expect(
        holder,
        FreeToken(product=CAOH2, how="sell-bank", price=nominal + 1),
        "forbidden",
        "L2.T5",
        facts={"price": nominal + 1, "nominal": nominal},
    )
    assert "or less" in ruling.reason_en


def test_L2_T5_the_bank_pays_only_what_it_has(kit, holder) -> None:
    nominal = price(kit, "Ca(OH)2")
    poor = holder.model_copy(
        update={"bank": nominal - 1, "box_coins": holder.box_coins + holder.bank - nominal + 1}
    )
    kit.consistent(poor)
    sale = FreeToken(product=CAOH2, how="sell-bank", price=nominal)
    kit.expect(poor, sale, "forbidden", "L2.T5", "L1.T8.R1", facts={"bank": nominal - 1})
    kit.expect(poor, FreeToken(product=CAOH2, how="sell-bank", price=nominal - 1), "allowed")


def test_L2_T5_dump_and_pay_the_fine(kit, holder) -> None:
    nominal = price(kit, "Ca(OH)2")
    dump = FreeToken(product=CAOH2, how="dump")
    kit.expect(holder, dump, "allowed", "L2.T5")
    new, _ = kit.play(holder, dump)
    assert new.player("red").money == holder.player("red").money - nominal
    assert new.bank == holder.bank + nominal
    assert kit.container(new, 1, "1Б", 1).places == (None,)
    poor = kit.update_player(holder, "red", money=nominal - 1)
    poor = poor.model_copy(
        update={"box_coins": holder.box_coins + holder.player("red").money - nominal + 1}
    )
    kit.consistent(poor)
    ruling = kit.expect(poor, dump, "forbidden", "L2.T5")
    assert "fine" in ruling.reason_en


def test_L2_T5_sell_to_a_player_with_a_free_token(kit, holder) -> None:
    # Red's H2O stands on shared installation 2, where blue may hold H2O too (L2.T3).
    state = kit.token(holder, "red", 2, "2А", 2)
    sale = FreeToken(product=ref(2, "2А", 2), how="sell-player", partner="blue", price=5)
    kit.expect(state, sale, "allowed", "L2.T5")
    new, _ = kit.play(state, sale)
    assert kit.container(new, 2, "2А", 2).places == ("blue", None)
    assert (new.player("red").money, new.player("blue").money) == (13, 3)
    kit.expect(state, sale.model_copy(update={"price": 9}), "forbidden", "L2.T5")
    kit.expect(state, sale.model_copy(update={"partner": "red"}), "forbidden", "L2.T5")
    kit.expect(state, sale.model_copy(update={"partner": None}), "forbidden", "L2.T5")
    # Red's Ca(OH)2 stands on red's own installation 1: blue has no container for it.
    kit.expect(state, sale.model_copy(update={"product": CAOH2}), "forbidden", "L2.T3")
    # All ten of blue's tokens on the Mission card (4 + 2 + 2 + 2), no mission complete.
    busy = kit.mission_tokens(state, "M1", "O2", *["blue"] * 4)
    busy = kit.mission_tokens(busy, "M3", "O2", "blue", "blue")
    busy = kit.mission_tokens(busy, "M2", "NaOH", "blue")
    busy = kit.mission_tokens(busy, "M2", "HCl", "blue")
    busy = kit.mission_tokens(busy, "M4", "CO2", "blue", "blue")
    assert busy.free_tokens("blue") == 0
    ruling = kit.expect(busy, sale, "forbidden", "L2.T5")
    assert "no free token" in ruling.reason_en


def test_L2_T5_one_token_a_turn_and_only_ones_own(kit, holder) -> None:
    state = kit.token(holder, "red", 2, "2А", 2)
    new, _ = kit.play(state, FreeToken(product=CAOH2, how="dump"))
    ruling = kit.expect(new, FreeToken(product=ref(2, "2А", 2), how="dump"), "forbidden", "L2.T5")
    assert "already" in ruling.reason_en
    kit.expect(holder, FreeToken(product=ref(2, "2А", 2), how="dump"), "forbidden", "L2.T5")
    kit.expect(holder, FreeToken(product=ref(2, "2А", 9), how="dump"), "forbidden", "L2.T5")


# --- L2.T6 moving a substance ---------------------------------------------------------------------


def test_L2_T6_a_substance_feeds_another_installation(kit, chem) -> None:
    state = kit.owners(chem, {1: "red", 7: "blue"})  # red's lime kiln made a CO2
    state = kit.token(state, "red", 1, "1А", 1)
    state = kit.give(state, "red", "nitrogen")
    state = kit.give(state, "red", "water-ice")
    cards = state.player("red").raw_cards[-2:]
    # The urea plant (shared installation 5) on a nitrogen and a water card, its CO2 moved
    # from the lime kiln's container on installation 1.
    kit.expect(state, React(installation=5, cards=cards), "allowed", "L2.T6")
    new, _ = kit.play(state, React(installation=5, cards=cards))
    assert kit.container(new, 1, "1А", 1).places == (None,)


# --- L2.M1 the Mission card -----------------------------------------------------------------------


def test_L2_M1_a_mission_product_goes_to_the_mission_card(kit, taken) -> None:
    cards = taken.player("red").raw_cards[-2:]
    ruling = kit.expect(taken, React(installation=1, cards=cards), "allowed", "L2.M1")
    assert "CO2 → M2" in ruling.facts["products"]
    new, _ = kit.play(taken, React(installation=1, cards=cards))
    m2 = next(m for m in new.missions if m.id == "M2")
    assert dict(m2.places)["CO2"] == ("red", None)  # M2's first CO2 place, first in card order
    assert kit.container(new, 1, "1А", 1).places == (None,)


def test_L2_M1_with_no_free_place_the_product_stays(kit, taken) -> None:
    cards = taken.player("red").raw_cards[-2:]
    # Every CO2 place is taken: M2's two, M3's one and M4's two.
    state = kit.mission_tokens(taken, "M2", "CO2", "blue", "blue")
    state = kit.mission_tokens(state, "M3", "CO2", "blue")
    state = kit.mission_tokens(state, "M4", "CO2", "blue", "blue")
    ruling = kit.expect(state, React(installation=1, cards=cards), "allowed", "L2.T4")
    assert "L2.M1" not in ruling.rules
    assert ruling.facts["products"] == ["CO2 → 1А", "Ca(OH)2 → 1Б"]
    new, _ = kit.play(state, React(installation=1, cards=cards))
    assert kit.container(new, 1, "1А", 1).places == ("red",)


# --- L2.E1 the end of the game --------------------------------------------------------------------


def _nearly(kit, game):
    """M1 lacks a CH4 and an O2; red holds CO2 and H2O for shared installation 2 (CH4 among
    its products, O2 from its electrolyser) and has taken this turn's card."""
    state = kit.mission_tokens(game, "M1", "CH4", "red", None)
    state = kit.mission_tokens(state, "M1", "O2", "red", "blue", "blue", None)
    state, _ = kit.play(state, "take 1")
    return kit.give(state, "red", "carbon-dioxide", "water-ice")


@pytest.fixture
def nearly(kit, chem):
    return _nearly(kit, chem)


def test_L2_E1_a_completed_mission_ends_the_game_when_the_round_does(kit, nearly) -> None:
    cards = nearly.player("red").raw_cards[-2:]
    kit.expect(nearly, React(installation=2, cards=cards), "allowed", "L2.T4", "L2.M1")
    new, events = kit.play(nearly, React(installation=2, cards=cards))
    # Tokens of several players stand on the completed mission.
    m1 = next(m for m in new.missions if m.id == "M1")
    assert m1.complete
    assert {t for _, tokens in m1.places for t in tokens} == {"red", "blue"}
    # The round is played out (Ruling L2.E1-round): blue, after red, still has its turn.
    assert not new.ended
    assert [e.kind for e in events] == ["react", "mission"]
    assert "L2.E1-round" in events[-1].en
    last, _ = kit.play(new, "end")
    assert not last.ended
    assert last.current.id == "blue"
    over, events = kit.play(last, "take 2", "end")
    assert over.ended
    assert over.end_code == "mission"
    assert events[-1].kind == "end"
    ruling = kit.expect(over, "end", "forbidden", "L2.E1")
    assert "over" in ruling.reason_en
    kit.expect(over, "take 2", "forbidden", "L2.E1")


def test_L2_E1_round_house_rule_ends_at_once(kit) -> None:
    game = kit.owners(kit.deal("2", 2, 3, house_rules=("ends-at-once",)), {1: "red", 7: "blue"})
    state = _nearly(kit, game)
    cards = state.player("red").raw_cards[-2:]
    new, events = kit.play(state, React(installation=2, cards=cards))
    assert new.ended
    assert new.end_reason == "mission M1 complete"
    assert [e.kind for e in events] == ["react", "end"]
    kit.expect(new, "end", "forbidden", "L2.E1")


def test_L2_E1_an_incomplete_mission_does_not(kit, nearly) -> None:
    # Three O2 places free: the reaction fills the CH4 place and one of them.
    state = kit.mission_tokens(nearly, "M1", "O2", "blue", None, None, None)
    cards = state.player("red").raw_cards[-2:]
    new, events = kit.play(state, React(installation=2, cards=cards))
    assert not new.ended
    assert [e.kind for e in events] == ["react"]


def test_L2_E1_the_game_ends_when_the_piles_run_out(kit, chem) -> None:
    last = kit.clear_piles(chem, keep={2: 1})
    new, events = kit.play(last, "take 2", "end")
    assert new.ended
    assert "piles" in new.end_reason
    assert events[-1].kind == "end"
    kit.expect(new, "take 1", "forbidden", "L2.E1")
    two = kit.clear_piles(chem, keep={2: 1, 3: 1})
    going, _ = kit.play(two, "take 2", "end")
    assert not going.ended


def test_L2_E1_R1_a_mission_is_complete_when_every_place_holds_a_token(kit, chem) -> None:
    # M3: CO(NH2)2 ×1, CO2 ×1, O2 ×2; one O2 place still free.
    state = kit.mission_tokens(chem, "M3", "CO2", "blue")
    state = kit.mission_tokens(state, "M3", "CO(NH2)2", "red")
    state = kit.mission_tokens(state, "M3", "O2", "red", None)
    m3 = next(m for m in state.missions if m.id == "M3")
    assert not m3.complete
    state = kit.mission_tokens(state, "M3", "O2", "red", "blue")
    assert next(m for m in state.missions if m.id == "M3").complete


# --- L2.P1 scoring --------------------------------------------------------------------------------


def test_L2_P1_substances_under_tokens_missions_and_money(kit, chem) -> None:
    state = kit.token(chem, "red", 1, "1Б", 1)  # Ca(OH)2 on red's own installation
    state = kit.token(state, "red", 2, "2А", 2)  # H2O on a shared installation
    state = kit.mission_tokens(state, "M4", "Ca2SiO4", "red")  # M4 not complete: single
    # Blue completes M2: every one of its five places, counted double.
    state = kit.mission_tokens(state, "M2", "NaOH", "blue")
    state = kit.mission_tokens(state, "M2", "HCl", "blue")
    state = kit.mission_tokens(state, "M2", "Ca(NO3)2", "blue")
    state = kit.mission_tokens(state, "M2", "CO2", "blue", "blue")
    kit.consistent(state)
    result = score(state, kit.catalog)
    red = price(kit, "Ca(OH)2") + price(kit, "H2O") + price(kit, "Ca2SiO4") + 8
    m2 = price(kit, "NaOH") + price(kit, "HCl") + price(kit, "Ca(NO3)2") + 2 * price(kit, "CO2")
    blue = 2 * m2 + 8
    assert result.totals == {"red": red, "blue": blue}
    assert result.winners == (("red",) if red > blue else ("blue",))
    assert "L2.P1" in result.ruling.rules
    assert "L2.P1.R1" in result.ruling.rules
    kit.assert_well_formed(result.ruling)
    doubled = [line for line in result.lines if "×2" in line.what]
    assert len(doubled) == 5
    assert all(line.player == "blue" for line in doubled)


# --- head to head ---------------------------------------------------------------------------------


@pytest.fixture
def duel(kit):
    """Head to head, seed 288: red owns installation 7 (NaCl, H2O in), blue installation 1."""
    state = kit.deal("1v1", 2, 288, house_rules=("installation-at-random", "draw-one"))
    assert {i.number: i.owner for i in state.installations} == {1: "blue", 7: "red"}
    return state


def test_V1_3_a_card_that_fits_is_kept(kit, duel) -> None:
    top = duel.piles[1][-1]
    assert top.startswith("water-ice")  # H2O fits installation 7
    kit.expect(duel, "take 2", "allowed", "V1.3", facts={"card": top})
    new, events = kit.play(duel, "take 2")
    assert new.player("red").raw_cards == (top,)
    assert events[0].kind == "take"


def test_V1_3_a_card_that_does_not_fit_is_discarded(kit, duel) -> None:
    top = duel.piles[0][-1]
    assert top.startswith("nitrogen")  # N2 fits no container of installation 7
    kit.expect(duel, "take 1", "allowed", "V1.3")
    new, events = kit.play(duel, "take 1")
    assert new.player("red").raw_cards == ()
    assert new.discard == (top,)
    assert events[0].kind == "discard"
    ruling = kit.expect(new, "take 2", "forbidden", "V1.3")
    assert "already" in ruling.reason_en
    kit.expect(duel, "end", "forbidden", "V1.3")


def test_V1_2_only_ones_own_installation(kit, duel) -> None:
    state = kit.turn(kit.give(duel, "red", "calcite", "water-ice"), "red", done=("take",))
    cards = state.player("red").raw_cards
    kit.expect(state, React(installation=1, cards=cards), "forbidden", "V1.2")
    state = kit.give(state, "red", "halite")
    ruling = kit.expect(
        state,
        React(installation=7, cards=(cards[1], state.player("red").raw_cards[-1])),
        "allowed",
        "L2.T4",
    )
    assert "NaOH → M2" in ruling.facts["products"]


def test_V1_4_no_trades_between_players(kit, duel) -> None:
    state = kit.give(duel, "red", "halite")
    state = kit.give(state, "blue", "calcite")
    ruling = kit.expect(
        state, Trade(partner="blue", give=state.player("red").raw_cards), "forbidden", "V1.4"
    )
    assert "trades" in ruling.reason_en
    state = kit.token(state, "red", 7, "7Б", 0)
    sale = FreeToken(product=ref(7, "7Б", 0), how="sell-player", partner="blue", price=1)
    kit.expect(state, sale, "forbidden", "V1.4")


def test_V1_4_sell_a_product_to_the_bank_with_tokens_free(kit, duel) -> None:
    """Ruling V1.4-sell: head to head a product is sold to the Bank as at level 2 (L2.T5)."""
    state = kit.token(duel, "red", 7, "7Б", 0)
    hcl = price(kit, "HCl")
    assert state.free_tokens("red") > 0
    sale = FreeToken(product=ref(7, "7Б", 0), how="sell-bank", price=hcl)
    ruling = kit.expect(state, sale, "allowed", "V1.4-sell")
    assert {"L2.T5", "V1.4"} <= set(ruling.rules)
    assert ruling.house_rules == ()
    new, _ = kit.play(state, sale)
    assert new.player("red").money == state.player("red").money + hcl
    assert new.bank == state.bank - hcl
    assert new.free_tokens("red") == state.free_tokens("red") + 1
    # At most the price, and only what the Bank holds (L2.T5, L1.T8.R1).
    kit.expect(
        state,
        FreeToken(product=ref(7, "7Б", 0), how="sell-bank", price=hcl + 1),
        "forbidden",
        "L2.T5",
    )
    dry = state.model_copy(update={"bank": hcl - 1, "box_coins": state.box_coins + 1})
    kit.expect(dry, sale, "forbidden", "L1.T8.R1")
    # With the Bank dry a product may still go for less: it frees the token and its place.
    kit.expect(
        dry,
        FreeToken(product=ref(7, "7Б", 0), how="sell-bank", price=0),
        "allowed",
        "V1.4-sell",
    )
    # Selling to the other player stays forbidden (V1.4).
    kit.expect(
        state,
        FreeToken(product=ref(7, "7Б", 0), how="sell-player", partner="blue", price=0),
        "forbidden",
        "V1.4",
    )


def test_V1_4_house_rule_sell_when_out(kit, duel) -> None:
    """The house rule sell-when-out: to the Bank only when out of tokens, as written."""
    duel = duel.model_copy(update={"house_rules": HouseRules.from_names(["sell-when-out"])})
    state = kit.token(duel, "red", 7, "7Б", 0)
    hcl = price(kit, "HCl")
    sale = FreeToken(product=ref(7, "7Б", 0), how="sell-bank", price=hcl)
    ruling = kit.expect(state, sale, "forbidden", "V1.4")
    assert ruling.house_rules == ("sell-when-out",)
    assert "V1.4-sell" not in ruling.rules
    state = kit.token(state, "red", 7, "7Б", 0)
    state = kit.token(state, "red", 7, "7А", 2)
    state = kit.token(state, "red", 7, "7А", 2)
    state = kit.mission_tokens(state, "M1", "O2", *["red"] * 4)  # 4 + 4 tokens, none complete
    assert state.free_tokens("red") == 0
    ruling = kit.expect(state, sale, "allowed", "L2.T5")
    assert ruling.house_rules == ("sell-when-out",)
    assert "V1.4-sell" not in ruling.rules
    # Dumping is no sale: allowed with free tokens too.
    kit.expect(
        kit.token(duel, "red", 7, "7Б", 0),
        FreeToken(product=ref(7, "7Б", 0), how="dump"),
        "allowed",
        "L2.T5",
    )


def test_V1_5_a_completed_mission_does_not_end_the_duel(kit, duel) -> None:
    # M2 lacks its NaOH and its HCl; red's reaction on installation 7 makes both.
    state = kit.mission_tokens(duel, "M2", "Ca(NO3)2", "blue")
    state = kit.mission_tokens(state, "M2", "CO2", "blue", "red")
    state = kit.give(state, "red", "halite", "water-ice")
    state = kit.turn(state, "red", done=("take",))
    new, events = kit.play(state, React(installation=7, cards=state.player("red").raw_cards))
    assert next(m for m in new.missions if m.id == "M2").complete
    assert not new.ended
    assert [e.kind for e in events] == ["react"]


def test_V1_5_the_duel_ends_when_the_piles_are_empty(kit, duel) -> None:
    last = kit.clear_piles(duel, keep={3: 1})
    new, _ = kit.play(last, "take 3", "end")
    assert new.ended
    ruling = kit.expect(new, "take 1", "forbidden", "V1.5")
    assert "over" in ruling.reason_en
    going, _ = kit.play(kit.clear_piles(duel, keep={3: 2}), "take 3", "end")
    assert not going.ended


def test_V1_P1_every_substance_on_the_mission_card_counts_double(kit, duel) -> None:
    state = kit.mission_tokens(duel, "M1", "O2", "red", "red", None, None)  # not complete
    state = kit.token(state, "blue", 1, "1Б", 1)
    result = score(state, kit.catalog)
    assert result.totals == {"red": 8 + 2 * 2 * price(kit, "O2"), "blue": 8 + price(kit, "Ca(OH)2")}
    assert "V1.P1" in result.ruling.rules
    assert all(line.rule == "V1.P1" for line in result.lines)
    kit.assert_well_formed(result.ruling)


# --- Ruling L2.T2-one-trade -----------------------------------------------------------------------


def test_L2_T2_one_trade_a_product_sale_is_the_turns_trade(kit, holder) -> None:
    state = kit.token(holder, "red", 2, "2А", 2)
    sale = FreeToken(product=ref(2, "2А", 2), how="sell-player", partner="blue", price=5)
    ruling = kit.expect(state, sale, "allowed", "L2.T5", "L2.T2", "L2.T2-one-trade")
    sold, _ = kit.play(state, sale)
    assert {"free", "trade"} <= set(sold.done_this_turn)
    # "Sell a product to P2, then buy a raw card from P3" is not allowed: the trade is used up.
    sold = kit.give(sold, "blue", "halite")
    halite = next(c for c in sold.player("blue").raw_cards if c.startswith("halite"))
    buy = Trade(partner="blue", receive=(halite,), pay=1)
    refused = kit.expect(sold, buy, "forbidden", "L2.T2", "L2.T2-one-trade")
    assert "trade this turn already" in refused.reason_en
    # The same purchase before the sale is fine.
    kit.expect(kit.give(state, "blue", halite), buy, "allowed", "L2.T2")
    # Nor another freeing: the product sale freed the turn's token.
    dump = FreeToken(product=CAOH2, how="dump")
    kit.expect(sold, dump, "forbidden", "L2.T5")
    assert ruling.verdict == "allowed"


def test_L2_T2_one_trade_no_product_sale_after_a_raw_trade(kit, holder) -> None:
    state = kit.token(holder, "red", 2, "2А", 2)
    traded = state.model_copy(update={"done_this_turn": (*state.done_this_turn, "trade")})
    sale = FreeToken(product=ref(2, "2А", 2), how="sell-player", partner="blue", price=5)
    ruling = kit.expect(traded, sale, "forbidden", "L2.T2", "L2.T2-one-trade")
    assert "selling a product to a player is one" in ruling.reason_en


# --- Ruling L2.M1-choice --------------------------------------------------------------------------


def _oxygen_reaction(kit, taken):
    """Red holds what shared installation 2 (Sabatier, with its electrolyser) needs."""
    state = kit.give(taken, "red", "carbon-dioxide", "water-ice", "water-ice")
    [react] = [
        a
        for a in legal_actions(state, kit.catalog)
        if a.kind == "react" and not a.missions and a.installation == 2
    ]
    return state, react


def test_L2_M1_choice_the_player_chooses_the_mission_of_a_product(kit, taken) -> None:
    state, _ = _oxygen_reaction(kit, taken)
    listed = [a for a in legal_actions(state, kit.catalog) if a.kind == "react"]
    choices = {a.missions for a in listed if a.installation == 2}
    # The products for the Mission card, in container order: CH4 (a place on M1 only) and O2
    # (on M1 and M3; M2 and M4 ask for none); no mission takes H2O. Every O2 choice is offered
    # (M1, the first in card order, is the reaction without a choice).
    assert {choice for choice in choices if choice} == {("M1", "M3")}
    to_m3 = next(a for a in listed if a.installation == 2 and a.missions and a.missions[-1] == "M3")
    ruling = kit.expect(state, to_m3, "allowed", "L2.M1", "L2.M1-choice")
    assert "O2 → M3" in ruling.facts["products"]
    new, _ = kit.play(state, to_m3)
    m3 = next(m for m in new.missions if m.id == "M3")
    assert dict(m3.places)["O2"] == ("red", None)
    m1 = next(m for m in new.missions if m.id == "M1")
    assert "red" not in dict(m1.places)["O2"]


def test_L2_M1_choice_by_default_the_first_mission_in_card_order(kit, taken) -> None:
    state, react = _oxygen_reaction(kit, taken)
    ruling = kit.expect(state, react, "allowed", "L2.M1")
    assert "L2.M1-choice" not in ruling.rules
    assert "O2 → M1" in ruling.facts["products"]


def test_L2_M1_choice_a_mission_without_a_free_place_is_refused(kit, taken) -> None:
    state, react = _oxygen_reaction(kit, taken)
    full = kit.mission_tokens(state, "M3", "O2", "blue", "blue")
    wrong = react.model_copy(update={"missions": ("M1", "M3")})
    ruling = kit.expect(full, wrong, "forbidden", "L2.M1", "L2.M1-choice")
    assert "Mission M3 has no free place for O2" in ruling.reason_en
    # Two products for the Mission card (CH4, O2), three missions named.
    too_many = react.model_copy(update={"missions": ("M1", "M3", "M1")})
    kit.expect(state, too_many, "forbidden", "L2.M1-choice")


def test_L2_M1_choice_in_the_text_form() -> None:
    action = parse_action("react 2 carbon-dioxide#1 water-ice#2 for M1 M3")
    assert action.missions == ("M1", "M3")
    assert format_action(action) == "react 2 carbon-dioxide#1 water-ice#2 for M1 M3"


def test_L2_T5_a_bank_sale_below_the_nominal_price_is_listed(kit, holder) -> None:
    state = kit.token(holder, "red", 2, "2А", 2)
    nominal = price(kit, "H2O")
    poor = state.model_copy(update={"bank": nominal - 1, "box_coins": state.box_coins + 1})
    sale = FreeToken(product=ref(2, "2А", 2), how="sell-bank", price=0)
    assert price_range(poor, sale, kit.catalog) == range(0, nominal)
    listed = [a for a in legal_actions(poor, kit.catalog) if a.kind == "free"]
    to_bank = [a for a in listed if a.how == "sell-bank" and a.product == sale.product]
    assert [a.price for a in to_bank] == [nominal - 1], "the Bank pays what it has, no more"
    kit.expect(poor, to_bank[0], "allowed", "L2.T5")
    kit.expect(poor, sale.model_copy(update={"price": nominal}), "forbidden", "L2.T5")


# --- Ruling L2.T2-one-trade: products from the buyer's side, and swaps ----------------------------


def test_L2_T2_one_trade_a_product_bought_from_the_buyers_side(kit, holder) -> None:
    # Blue's CH4 stands on shared installation 2; red, to play, buys it (L2.T3: red may use 2).
    state = kit.token(holder, "blue", 2, "2А", 1)
    buy = Trade(partner="blue", get_product=ref(2, "2А", 1), pay=3)
    kit.expect(state, buy, "allowed", "L2.T2", "L2.T3", "L2.T2-one-trade", "L2.M1-obtained")
    new, _ = kit.play(state, buy)
    # Ruling L2.M1-obtained: methane bought on Red's turn takes M1's first free CH4 place.
    assert kit.container(new, 2, "2А", 1).places == (None,)
    m1 = next(m for m in new.missions if m.id == "M1")
    assert ("CH4", ("red", None)) in m1.places
    assert (new.player("red").money, new.player("blue").money) == (
        state.player("red").money - 3,
        state.player("blue").money + 3,
    )
    assert "trade" in new.done_this_turn
    assert parse_action(format_action(buy)) == buy


def test_L2_T2_one_trade_a_product_swapped_for_a_raw_card(kit, holder) -> None:
    state = kit.token(holder, "red", 2, "2А", 2)
    state = kit.give(state, "blue", "halite")
    halite = next(c for c in state.player("blue").raw_cards if c.startswith("halite"))
    swap = Trade(partner="blue", give_product=ref(2, "2А", 2), receive=(halite,))
    kit.expect(state, swap, "allowed", "L2.T2", "L2.T2-one-trade")
    new, _ = kit.play(state, swap)
    assert halite in new.player("red").raw_cards
    assert kit.container(new, 2, "2А", 2).places == ("blue", None)
    # Two items one way is not one trade.
    both = swap.model_copy(update={"give": (new.player("red").raw_cards[0],)})
    kit.expect(state, both, "forbidden", "L2.T2")


def test_L2_T5_a_product_swapped_to_a_player_without_a_free_token_is_refused(kit, holder) -> None:
    # Blue holds a halite but all ten of its tokens stand on the Mission card: a swap that
    # hands it red's H2O would put an eleventh token on the table.
    state = kit.token(holder, "red", 2, "2А", 2)
    state = kit.give(state, "blue", "halite")
    halite = next(c for c in state.player("blue").raw_cards if c.startswith("halite"))
    busy = kit.mission_tokens(state, "M1", "O2", *["blue"] * 4)
    busy = kit.mission_tokens(busy, "M3", "O2", "blue", "blue")
    busy = kit.mission_tokens(busy, "M2", "NaOH", "blue")
    busy = kit.mission_tokens(busy, "M2", "HCl", "blue")
    busy = kit.mission_tokens(busy, "M4", "CO2", "blue", "blue")
    assert busy.free_tokens("blue") == 0
    swap = Trade(partner="blue", give_product=ref(2, "2А", 2), receive=(halite,))
    ruling = kit.expect(busy, swap, "forbidden", "L2.T5")
    assert ruling.code == "trade.no-free-token"
    kit.expect(state, swap, "allowed", "L2.T2")


def test_L2_T2_one_trade_a_product_the_buyer_has_no_container_for(kit, holder) -> None:
    # Red's Ca(OH)2 is on red's own installation 1: blue has no container for it (L2.T3).
    sale = FreeToken(product=CAOH2, how="sell-player", partner="blue", price=2)
    kit.expect(holder, sale, "forbidden", "L2.T3")


def test_a_product_sale_has_one_form_freeing_its_token(kit, holder) -> None:
    """A product sold for money is written as freeing its token (L2.T5), never as a trade:
    one act, one representation, so check() and legal_actions agree."""
    ruling = kit.expect(
        holder, Trade(partner="blue", give_product=CAOH2, pay=-2), "forbidden", "L2.T5"
    )
    assert ruling.code == "trade.sale-is-freeing"
    assert "free 1:1Б:1 to blue 2" in ruling.reason_en
    listed = legal_actions(holder, kit.catalog)
    assert not any(isinstance(a, Trade) and a.give_product and not a.get_product for a in listed)


def test_trades_of_products_are_not_for_level_1(kit) -> None:
    state = kit.deal("1", 2, 3)
    trade = Trade(partner="blue", get_product=ref(2, "2А", 0))
    ruling = kit.expect(state, trade, "forbidden", "L1.T7")
    assert "only raw cards" in ruling.reason_en


# --- V1.2-choose: keeping one of the installations dealt ------------------------------------------


@pytest.fixture
def choosing(kit):
    """Head to head by default, seed 3: red holds 1, 3, 4, 5, 6; blue holds 2, 7, 8, 9, 10."""
    state = kit.deal("1v1", 2, 3)
    owners = {i.number: i.owner for i in state.installations}
    assert owners == {1: "red", 2: "blue", 3: "red", 4: "red", 5: "red", 6: "red"} | {
        7: "blue",
        8: "blue",
        9: "blue",
        10: "blue",
    }
    return state


def test_V1_2_choose_the_first_turn_lists_only_keeping(kit, choosing) -> None:
    legal = legal_actions(choosing, kit.catalog)
    assert [format_action(a) for a in legal] == [f"keep {n}" for n in (1, 3, 4, 5, 6)]


def test_V1_2_choose_no_draw_before_keeping(kit, choosing) -> None:
    kit.expect(choosing, "take 1", "forbidden", "V1.2", "V1.2-choose", facts={})
    kit.expect(choosing, "end", "forbidden", "V1.3")


def test_V1_2_choose_keeping_sends_the_others_out_of_the_game(kit, choosing) -> None:
    ruling = kit.expect(choosing, "keep 5", "allowed", "V1.2-choose")
    assert "5" in ruling.reason_en
    assert "оставляет" in ruling.reason_ru
    after, events = kit.play(choosing, "keep 5")
    assert [i.number for i in after.installations if i.owner == "red"] == [5]
    assert after.unused_installations == (1, 3, 4, 6)
    assert [e.kind for e in events] == ["keep"]
    kit.expect(after, "take 1", "allowed", "V1.3")
    kit.expect(after, "keep 3", "forbidden", "V1.2-choose")


def test_V1_2_choose_only_an_installation_dealt_to_the_player(kit, choosing) -> None:
    kit.expect(choosing, "keep 2", "forbidden", "V1.2-choose")  # blue's
    kit.expect(choosing, "as blue keep 2", "forbidden", "L2.T1", "V1.2-choose")  # not blue's turn


def test_V1_2_choose_the_second_player_keeps_on_their_first_turn(kit, choosing) -> None:
    drawn, _ = kit.play(choosing, "keep 5", "take 1")
    after, _ = kit.play(drawn, f"pick {drawn.drawn[0]}", "end")
    assert [format_action(a) for a in legal_actions(after, kit.catalog)] == [
        f"keep {n}" for n in (2, 7, 8, 9, 10)
    ]
    done, _ = kit.play(after, "keep 10")
    assert sorted(i.number for i in done.installations) == [5, 10]
    assert done.unused_installations == (1, 2, 3, 4, 6, 7, 8, 9)


def test_V1_2_choose_not_at_level_2(kit) -> None:
    kit.expect(kit.deal("2", 2, 3), "keep 1", "forbidden", "V1.2-choose")


def test_installation_at_random_deals_one_each_and_nothing_to_keep(kit) -> None:
    state = kit.deal("1v1", 2, 3, house_rules=("installation-at-random",))
    assert sorted(i.owner for i in state.installations) == ["blue", "red"]
    legal = legal_actions(state, kit.catalog)
    assert not [a for a in legal if a.kind == "keep"]
    kit.expect(state, "keep 1", "forbidden", "V1.2-choose")


# --- V1.3-draw-two: two cards drawn, one kept, the other under its pile ---------------------------


@pytest.fixture
def kept(kit, choosing):
    """Red has kept installation 5 (H2O, N2, CO2 in) and may draw."""
    after, _ = kit.play(choosing, "keep 5")
    return after


def test_V1_3_draw_two_takes_the_top_two_cards(kit, kept) -> None:
    pile = kept.piles[0]
    ruling = kit.expect(kept, "take 1", "allowed", "V1.3", "V1.3-draw-two")
    assert "two" in ruling.reason_en
    after, events = kit.play(kept, "take 1")
    assert after.drawn == pile[-2:]
    assert after.drawn_pile == 1
    assert after.piles[0] == pile[:-2]
    assert [e.kind for e in events] == ["draw"]
    legal = legal_actions(after, kit.catalog)
    assert [format_action(a) for a in legal] == [f"pick {card}" for card in pile[-2:]]


def test_V1_3_draw_two_nothing_before_the_pick(kit, kept) -> None:
    after, _ = kit.play(kept, "take 1")
    kit.expect(after, "end", "forbidden", "V1.3-draw-two")
    kit.expect(after, "take 2", "forbidden", "V1.3")
    kit.expect(after, "pick calcite#99", "forbidden", "V1.3-draw-two")


def test_V1_3_draw_two_the_other_card_goes_under_its_pile(kit, kept) -> None:
    after, _ = kit.play(kept, "take 1")
    keep, other = after.drawn[1], after.drawn[0]
    done, events = kit.play(after, f"pick {keep}")
    assert done.drawn == ()
    assert done.drawn_pile == 0
    assert done.piles[0][0] == other  # the bottom of the pile
    assert len(done.piles[0]) == len(kept.piles[0]) - 1
    assert events[-1].kind == "return"
    assert keep in done.player("red").raw_cards or keep in done.discard
    kit.expect(done, "end", "allowed", "L2.T1")


def test_V1_3_draw_two_a_picked_card_that_does_not_fit_is_discarded(kit, kept) -> None:
    after, _ = kit.play(kept, "take 1")
    fits = {"H2O", "N2", "CO2"}
    misfits = [
        c for c in after.drawn if kit.catalog.raw_material(c.split("#")[0]).formula not in fits
    ]
    if not misfits:
        pytest.skip("both cards fit in this deal")
    ruling = kit.expect(after, f"pick {misfits[0]}", "allowed", "V1.3.R2")
    assert ruling.code == "take.discarded"
    done, _ = kit.play(after, f"pick {misfits[0]}")
    assert done.discard[-1] == misfits[0]


def test_V1_3_draw_two_the_last_card_of_a_pile_comes_alone(kit, kept) -> None:
    pile = kept.piles[0]
    last = kept.model_copy(
        update={"piles": (pile[-1:], *kept.piles[1:]), "discard": (*kept.discard, *pile[:-1])}
    )
    after, _ = kit.play(last, "take 1")
    assert after.drawn == ()
    assert after.piles[0] == ()


def test_V1_3_draw_two_the_other_player_does_not_see_the_cards(kit, kept) -> None:
    after, _ = kit.play(kept, "take 1")
    assert view(after, "red").drawn == after.drawn
    hidden = view(after, "blue").drawn
    assert len(hidden) == 2
    assert not set(hidden) & set(after.drawn)


def test_V1_3_draw_two_not_at_level_2(kit) -> None:
    kit.expect(kit.deal("2", 2, 3), "pick water-ice#1", "forbidden", "V1.3-draw-two")


def test_draw_one_draws_a_single_card_as_written(kit) -> None:
    state = kit.deal("1v1", 2, 3, house_rules=("installation-at-random", "draw-one"))
    top = state.piles[0][-1]
    ruling = kit.expect(state, "take 1", "allowed", "V1.3")
    assert "draw-one" in ruling.house_rules
    after, _ = kit.play(state, "take 1")
    assert after.drawn == ()
    assert top in after.player("red").raw_cards or top in after.discard
