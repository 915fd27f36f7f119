"""The rulings for faithful play: what the referee does that the original's words leave open,
each stated by a ruling of rules.yaml, and the literal readings as house rules.

Tables: level 1, 2 and 3 games for two players (seed 3; at levels 2 and 3 red owns
installation 1 and blue installation 7, the rest shared); head to head seed 288 (red owns 7).
"""

from __future__ import annotations

import pytest

from mhp_cards.game import deal
from mhp_cards.referee import apply, legal_actions, parse_action
from mhp_cards.referee.actions import FreeToken, ProductRef, React, Trade
from mhp_cards.rules.numbers import COINS, COINS_PER_PLAYER_L2


def ref(installation: int, card: str, container: int) -> ProductRef:
    return ProductRef(installation=installation, card=card, container=container)


@pytest.fixture
def chem(kit):
    return kit.owners(kit.deal("2", 2, 3), {1: "red", 7: "blue"})


@pytest.fixture
def duel(kit):
    state = kit.deal("1v1", 2, 288, house_rules=("installation-at-random", "draw-one"))
    assert {i.number: i.owner for i in state.installations} == {1: "blue", 7: "red"}
    return state


# --- L1.S4.R1 the combines start on the Base ------------------------------------------------------


@pytest.mark.parametrize("level", ["1", "3"])
def test_L1_S4_R1_every_combine_starts_on_the_base(kit, level) -> None:
    state = kit.deal(level, 5, 3)
    assert state.field is not None
    assert {p.combine.position for p in state.players if p.combine} == {state.field.base}


# --- L1.T1.R3 the order of a turn -----------------------------------------------------------------


def test_L1_T1_R3_a_battery_may_be_bought_before_the_move(kit) -> None:
    state = kit.money(kit.deal("1", 2, 3), "red", 4)
    kit.expect(state, "buy solar-battery", "allowed", "L1.T3")
    bought, _ = kit.play(state, "buy solar-battery")
    assert any(a.kind == "move" for a in legal_actions(bought, kit.catalog))
    kit.expect(bought, "end", "forbidden", "L1.T1")  # the move is still owed


def test_L1_T1_R3_a_token_may_be_freed_before_the_reaction(kit, chem) -> None:
    state = kit.token(kit.give(chem, "red", "calcite", "water-ice"), "red", 2, "2А", 2)
    freed, _ = kit.play(state, FreeToken(product=ref(2, "2А", 2), how="sell-bank", price=1))
    reactions = [a for a in legal_actions(freed, kit.catalog) if isinstance(a, React)]
    assert any(a.installation == 1 for a in reactions)
    kit.expect(freed, "end", "forbidden", "L2.T1")  # the card from a pile is still owed


# --- L1.T4.R3 the Base is never occupied ----------------------------------------------------------


@pytest.fixture
def near_base(kit):
    state = kit.deal("1", 2, 3)
    assert state.field is not None
    base = state.field.base
    beside = next(iter(state.field.neighbours()[base]))
    state = kit.combine(state, "red", position=beside, moved=True)
    return kit.combine(state, "blue", position=base, moved=True), base, beside


def test_L1_T4_R3_no_attack_on_a_combine_at_the_base(kit, near_base) -> None:
    state, base, _ = near_base
    ruling = kit.expect(state, f"move {base[0]},{base[1]}", "allowed", "L1.T1")
    assert "L1.T4" not in ruling.rules
    new, events = kit.play(state, f"move {base[0]},{base[1]}")
    assert new.fight is None
    assert [e.kind for e in events] == ["move"]


def test_L1_T4_R3_a_loser_may_retreat_onto_the_base(kit, near_base) -> None:
    state, base, beside = near_base
    state = kit.combine(state, "blue", position=beside)
    state = kit.give(state, "blue", "halite")
    fighting, _ = kit.play(kit.fight(state, "red", "blue", beside), "fight 6:1", "spoils")
    act = parse_action(f"as blue retreat {base[0]},{base[1]}")
    kit.expect(fighting, act, "allowed", "L1.T4.R1", "L1.T4.R3", "L1.T4.R4")
    after, _ = kit.play(fighting, act)
    assert after.player("blue").combine.position == base


# --- L1.E1.R3 announcing a mission ----------------------------------------------------------------


def test_L1_E1_R3_a_mission_is_announced_on_ones_own_turn_even_before_moving(kit) -> None:
    m1 = (*["carbon-dioxide"] * 2, *["water-ice"] * 4)  # 2 CH4 + 4 O2 = C2 H8 O8
    state = kit.give(kit.deal("1", 2, 3), "red", *m1)
    kit.expect(state, "claim M1", "allowed", "L1.E1", "L1.E2")  # before the move
    blue = kit.give(kit.deal("1", 2, 3), "blue", *m1)
    kit.expect(blue, "as blue claim M1", "forbidden", "L1.T1")  # not blue's turn


# --- L2.T3.R1 raw cards need no container ---------------------------------------------------------


def test_L2_T3_R1_a_raw_card_bought_needs_no_container(kit, chem) -> None:
    state = kit.give(chem, "blue", "hydrogen-peroxide")  # no container anywhere takes it
    peroxide = next(c for c in state.player("blue").raw_cards if c.startswith("hydrogen-peroxide"))
    kit.expect(state, Trade(partner="blue", receive=(peroxide,), pay=1), "allowed", "L2.T2")


# --- L2.T5.R1 a fine one cannot pay ---------------------------------------------------------------


def test_L2_T5_R1_no_dump_without_the_whole_fine(kit, chem) -> None:
    state = kit.money(kit.token(chem, "red", 2, "2А", 1), "red", 0)  # CH4, fine 8
    ruling = kit.expect(
        state, FreeToken(product=ref(2, "2А", 1), how="dump"), "forbidden", "L2.T5.R1"
    )
    assert ruling.code == "free.fine-unpaid"


# --- L2.M1-obtained a product obtained on one's turn goes to the Mission card --------------------


def test_L2_M1_obtained_a_product_bought_takes_the_mission_chosen(kit, chem) -> None:
    # Blue's O2 on the electrolyser of shared installation 2; M1 and M3 both have O2 places.
    o2 = next(c for c in kit.containers(chem, 2) if c.substance == "O2")
    state = kit.token(chem, "blue", 2, o2.card, o2.index)
    buy = Trade(partner="blue", get_product=ref(2, o2.card, o2.index), pay=2, mission="M3")
    kit.expect(state, buy, "allowed", "L2.M1-obtained", "L2.M1-choice")
    new, _ = kit.play(state, buy)
    m3 = next(m for m in new.missions if m.id == "M3")
    assert ("O2", ("red", None)) in m3.places
    assert kit.container(new, 2, o2.card, o2.index).places == (None,)
    wrong = buy.model_copy(update={"mission": "M2"})
    kit.expect(state, wrong, "forbidden", "L2.M1-obtained")


def test_L2_M1_obtained_not_on_someone_elses_turn(kit, chem) -> None:
    # Red sells its water (2А) to blue: blue obtains it on red's turn, so it stays in a container.
    state = kit.token(chem, "red", 2, "2А", 2)
    sale = FreeToken(product=ref(2, "2А", 2), how="sell-player", partner="blue", price=1)
    new, _ = kit.play(state, sale)
    assert kit.container(new, 2, "2А", 2).places == ("blue", None)
    assert all("blue" not in tokens for m in new.missions for _, tokens in m.places)


def test_L2_M1_obtained_a_mission_named_without_a_product(kit, chem) -> None:
    state = kit.give(chem, "blue", "hydrogen-peroxide")
    peroxide = next(c for c in state.player("blue").raw_cards if c.startswith("hydrogen-peroxide"))
    named = Trade(partner="blue", receive=(peroxide,), mission="M1")
    ruling = kit.expect(state, named, "forbidden", "L2.M1-obtained")
    assert ruling.code == "trade.mission-no-product"
    assert parse_action("trade blue get 2:2А:2 pay 2 for M4").mission == "M4"


# --- V1.3.R1 and V1.3.R2 head to head: a card that fits, a discard that ends the turn ----------


def test_V1_3_R1_a_card_that_fits_but_cannot_run_yet_is_kept(kit, duel) -> None:
    top = duel.piles[1][-1]
    assert top.startswith("water-ice")  # installation 7 also needs halite, which red lacks
    ruling = kit.expect(duel, "take 2", "allowed", "V1.3", "V1.3.R1")
    assert ruling.house_rules == ("draw-one",)  # the duel's single draw
    new, _ = kit.play(duel, "take 2")
    assert new.player("red").raw_cards == (top,)


def test_V1_3_R2_a_discard_ends_the_turn(kit, duel) -> None:
    state = kit.token(duel, "red", 7, "7А", 2)  # red holds NaOH: freeing would be possible
    state = kit.give(state, "red", "halite", "water-ice")
    new, events = kit.play(state, "take 1")  # nitrogen: it fits nothing of 7
    assert events[0].kind == "discard"
    assert "V1.3.R2" in kit.expect(state, "take 1", "allowed", "V1.3").rules
    listed = legal_actions(new, kit.catalog)
    assert [a.kind for a in listed] == ["end"]
    run = React(installation=7, cards=new.player("red").raw_cards)
    ruling = kit.expect(new, run, "forbidden", "V1.3.R2")
    assert ruling.code == "take.discard-ends-turn"


# --- V1.5.R1 a mission does not end head to head --------------------------------------------------


def test_V1_5_R1_the_rule_is_written(kit) -> None:
    rule = kit.book.rule("V1.5.R1")
    assert "три стопки" in rule.text["ru"]
    assert "piles" in rule.text["en"]


# --- house rules: the literal readings ------------------------------------------------------------


def test_sale_counts_once_leaves_the_trade_open(kit, chem) -> None:
    state = kit.token(chem, "red", 2, "2А", 2)
    state = kit.give(state, "blue", "hydrogen-peroxide")
    peroxide = next(c for c in state.player("blue").raw_cards if c.startswith("hydrogen-peroxide"))
    literal = state.model_copy(
        update={"house_rules": state.house_rules.model_copy(update={"sale_counts_once": True})}
    )
    sale = FreeToken(product=ref(2, "2А", 2), how="sell-player", partner="blue", price=1)
    after_default, _ = kit.play(state, sale)
    buy = Trade(partner="blue", receive=(peroxide,), pay=1)
    kit.expect(after_default, buy, "forbidden", "L2.T2")
    ruling = kit.expect(literal, sale, "allowed", "L2.T5")
    assert ruling.house_rules == ("sale-counts-once",)
    after, _ = kit.play(literal, sale)
    kit.expect(after, Trade(partner="blue", receive=(peroxide,), pay=1), "allowed", "L2.T2")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bank_takes_the_rest(kit, players) -> None:
    default = deal(kit.catalog, "2", players, 1)
    literal = deal(kit.catalog, "2", players, 1, house_rules=["bank-takes-the-rest"])
    fifth = 2 if players == 5 else 0  # the fifth of five takes 2 of the Bank's (L2.S7-fifth)
    assert default.bank == 10 - fifth
    assert literal.bank == COINS - COINS_PER_PLAYER_L2 * players - fifth
    assert literal.box_coins == 0


def test_any_installation_deals_ones_that_cannot_run_alone(kit) -> None:
    # Every installation of the default box runs alone; without water cards only 4, 9 and 10
    # do (the electrolyser and the cards that take water beside a container go dry).
    dry = kit.catalog.model_copy(
        update={"raw_materials": tuple(r for r in kit.catalog.raw_materials if r.formula != "H2O")}
    )
    alone = {i.number for i in dry.installations_running_alone}
    assert alone == {4, 9, 10}
    dealt_default = set()
    dealt_literal = set()
    for seed in range(60):
        dealt_default |= {i.number for i in deal(dry, "1v1", 2, seed).installations}
        literal = deal(dry, "1v1", 2, seed, house_rules=["any-installation"])
        dealt_literal |= {i.number for i in literal.installations}
    assert dealt_default <= alone
    assert dealt_literal - alone


def test_run_or_discard_discards_a_card_that_cannot_run_at_once(kit, duel) -> None:
    literal = duel.model_copy(
        update={"house_rules": duel.house_rules.model_copy(update={"run_or_discard": True})}
    )
    ruling = kit.expect(literal, "take 2", "allowed", "V1.3")
    assert ruling.house_rules == ("run-or-discard", "draw-one")
    _, events = kit.play(literal, "take 2")  # water ice without halite: no reaction at once
    assert events[0].kind == "discard"
    ready = kit.give(literal, "red", "halite")
    _, events = kit.play(ready, "take 2")  # with halite in hand installation 7 runs
    assert events[0].kind == "take"


def test_mission_end_only_plays_on_after_a_quiet_round(kit) -> None:
    state = kit.deal("3", 2, 3)
    default = state.model_copy(update={"quiet_turns": 1})
    default = kit.combine(default, "red", position=state.field.base, moved=True)
    quiet = default.model_copy(
        update={"house_rules": default.house_rules.model_copy(update={"quiet_round_ends": True})}
    )
    literal = quiet.model_copy(
        update={"house_rules": quiet.house_rules.model_copy(update={"mission_end_only": True})}
    )
    for table, ends in ((default, False), (quiet, True), (literal, False)):
        move = next(a for a in legal_actions(table, kit.catalog) if a.kind == "move")
        moved = apply(table, move, kit.catalog)[0]
        cleared = moved.model_copy(update={"done_this_turn": ("move",)})
        after, _ = apply(cleared, parse_action("end"), kit.catalog)
        assert after.ended is ends, table.house_rules
