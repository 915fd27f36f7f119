"""Level 1 «Комбайнеры»: one test per rule the referee judges (RULES.md L1.T1–T9, L1.E1–E3 and
their Rulings), each with the allowed case and the forbidden case.

Every situation is a dealt game (level 1, seed 3: a 9 × 7 rectangle with the Base at (4, 3),
orthogonal neighbours (4, 2), (3, 3), (5, 3), (4, 4)) shaped with ``model_copy`` through the
kit. Each test checks the verdict, the rule IDs cited, the reason in Russian and English and
the facts that matter (what moved, what was collected, who won, who paid).
"""

from __future__ import annotations

import pytest

from mhp_cards.game.state import Fight
from mhp_cards.referee import apply, check, legal_actions, score
from mhp_cards.referee.actions import (
    BuyRaw,
    BuyUpgrade,
    Claim,
    EndTurn,
    Move,
    ResolveFight,
    SellRaw,
    Trade,
)

BASE = (4, 3)


@pytest.fixture
def game(kit):
    """Level 1, two players, both on the Base, red to play."""
    return kit.deal("1", 2, 3)


@pytest.fixture
def moving(kit, game):
    """Red has left the Base and stands on (4, 1); blue stands on (6, 3); red to play."""
    state = kit.combine(game, "red", position=(4, 1), moved=True)
    return kit.combine(state, "blue", position=(6, 3), moved=True)


# --- L1.T1 moving and collecting ----------------------------------------------------------------


def test_L1_T1_move_one_cell_and_collect(kit, moving) -> None:
    card = kit.raw_at(moving, (4, 0))
    assert card is not None
    ruling = kit.expect(
        moving, "move 4,0", "allowed", "L1.T1", facts={"path": [[4, 0]], "collected": [card]}
    )
    assert "L1.T3" not in ruling.rules
    new, events = kit.play(moving, "move 4,0")
    red = new.player("red")
    assert red.combine.position == (4, 0)
    assert red.raw_cards == (card,)
    assert kit.raw_at(new, (4, 0)) is None
    assert events[0].kind == "move"
    assert events[0].data["collected"] == [card]


def test_L1_T1_one_cell_only_and_once_a_turn(kit, moving) -> None:
    ruling = kit.expect(moving, "move 4,0 3,0", "forbidden", "L1.T1", facts={"steps": 1})
    assert "one cell" in ruling.reason_en
    kit.expect(moving, "move 4,-1", "forbidden", "L1.T1")
    kit.expect(moving, Move(path=()), "forbidden", "L1.T1")
    moved, _ = kit.play(moving, "move 4,0")
    ruling = kit.expect(moved, "move 4,1", "forbidden", "L1.T1")
    assert "already moved" in ruling.reason_en


def test_L1_T1_players_take_turns(kit, moving) -> None:
    ruling = kit.expect(moving, "as blue move 6,2", "forbidden", "L1.T1")
    assert ruling.facts["turn"] == "red"
    kit.expect(moving, "as nobody end", "forbidden", "L1.T1")
    # The same move is the blue player's once red has played and ended the turn.
    after, _ = kit.play(moving, "move 4,0", "end")
    assert after.current.id == "blue"
    kit.expect(after, "as blue move 6,2", "allowed", "L1.T1")
    kit.expect(after, "move 6,2", "allowed", "L1.T1")


def test_L1_T1_an_out_of_turn_refusal_cites_the_levels_rule(kit, moving) -> None:
    ruling = kit.expect(moving, "as blue move 6,2", "forbidden", "L1.T1")
    assert "L2.T1" not in ruling.rules


def test_L1_T1_the_combine_moves_every_turn(kit, moving) -> None:
    ruling = kit.expect(moving, "end", "forbidden", "L1.T1")
    assert "Move the combine first" in ruling.reason_en
    moved, _ = kit.play(moving, "move 4,0")
    kit.expect(moved, "end", "allowed", "L1.T1")
    new, events = kit.play(moved, "end")
    assert new.current.id == "blue"
    assert new.turn_number == moving.turn_number + 1
    assert new.done_this_turn == ()
    assert events[0].data["next"] == "blue"


def test_L1_T1_R1_adjacency_is_orthogonal(kit, moving) -> None:
    ruling = kit.expect(moving, "move 5,0", "forbidden", "L1.T1", "L1.T1.R1")
    assert "sharing an edge" in ruling.reason_en
    kit.expect(moving, "move 5,1", "allowed", "L1.T1")
    kit.expect(moving, "move 3,1", "allowed", "L1.T1")


def test_L1_T1_R1_house_rule_diagonal_adjacency(kit) -> None:
    game = kit.deal("1", 2, 3, house_rules=("diagonal-adjacency",))
    state = kit.combine(game, "red", position=(4, 1), moved=True)
    state = kit.combine(state, "blue", position=(6, 3), moved=True)
    card = kit.raw_at(state, (5, 0))
    kit.expect(state, "move 5,0", "allowed", "L1.T1", facts={"collected": [card]})
    kit.expect(state, "move 4,3", "forbidden", "L1.T1", "L1.T1.R1")  # two rows away
    # The first move from the Base: eight neighbours, each with seven onward cells (the
    # neighbours of a cell next to the Base, the Base itself left out).
    first = kit.expect(game, "move 5,2 6,1", "allowed", "L1.T1", "L1.T2")
    assert first.facts["path"] == [[5, 2], [6, 1]]


def test_L1_T1_R1_diagonal_move_names_the_house_rule(kit) -> None:
    game = kit.deal("1", 2, 3, house_rules=("diagonal-adjacency",))
    state = kit.combine(game, "red", position=(4, 1), moved=True)
    ruling = kit.expect(state, "move 5,0", "allowed", "L1.T1")
    assert "diagonal-adjacency" in ruling.house_rules


def test_L1_T1_R2_an_emptied_cell_stays_on_the_field(kit, moving) -> None:
    state = kit.clear_field(moving, keep=[(3, 1)])
    kit.expect(state, "move 4,0", "allowed", "L1.T1", facts={"collected": []})
    new, events = kit.play(state, "move 4,0")
    assert new.player("red").combine.position == (4, 0)
    assert new.player("red").raw_cards == ()
    assert "nothing" in events[0].en


# --- L1.T2 first move from the Base ---------------------------------------------------------------


def test_L1_T2_first_move_from_the_base_crosses_two_cards(kit, game) -> None:
    first, second = kit.raw_at(game, (4, 2)), kit.raw_at(game, (4, 1))
    ruling = kit.expect(
        game, "move 4,2 4,1", "allowed", "L1.T1", "L1.T2", facts={"path": [[4, 2], [4, 1]]}
    )
    assert sorted(ruling.facts["collected"]) == sorted([first, second])
    new, _ = kit.play(game, "move 4,2 4,1")
    red = new.player("red")
    assert sorted(red.raw_cards) == sorted([first, second])
    assert red.combine.moved
    assert red.combine.position == (4, 1)


def test_L1_T2_R1_the_first_move_enters_a_neighbour_and_one_more(kit, game) -> None:
    ruling = kit.expect(game, "move 4,2", "forbidden", "L1.T2", facts={"steps": 2})
    assert "two cards" in ruling.reason_en
    # Leaving the Base means entering a cell next to it (Ruling L1.T2.R1).
    kit.expect(game, "move 4,1 4,0", "forbidden", "L1.T1.R1")
    # Back onto the Base is no path either.
    kit.expect(game, "move 4,2 4,3", "forbidden", "L1.T2")
    # Once the combine has left the Base, a move is one cell again.
    moved, _ = kit.play(game, "move 4,2 4,1", "end", "move 4,4 4,5", "end")
    kit.expect(moved, "move 4,0 3,0", "forbidden", "L1.T1")
    kit.expect(moved, "move 4,0", "allowed", "L1.T1")


def test_L1_T2_two_cards_an_emptied_cell_is_made_up_from_the_warehouse(kit, game) -> None:
    # A combine that left the Base before red emptied (4, 2): red's first move finds it empty.
    emptied = kit.put(game, (4, 2), None)
    second = kit.raw_at(emptied, (4, 1))
    assert second is not None
    assert emptied.warehouse
    ruling = kit.expect(emptied, "move 4,2 4,1", "allowed", "L1.T2", "L1.T2-two-cards")
    assert ruling.facts["collected"] == [second]
    (drawn,) = ruling.facts["made_up"]
    assert drawn in emptied.warehouse
    assert not ruling.house_rules
    new, events = kit.play(emptied, "move 4,2 4,1")
    red = new.player("red")
    assert sorted(red.raw_cards) == sorted([second, drawn])
    assert drawn not in new.warehouse
    assert len(new.warehouse) == len(emptied.warehouse) - 1
    assert [e.kind for e in events] == ["move", "make-up"]
    assert events[1].data["cards"] == [drawn]
    assert "Warehouse" in events[1].en
    assert "Склада" in events[1].ru


def test_L1_T2_two_cards_two_emptied_cells_draw_two(kit, game) -> None:
    emptied = kit.put(kit.put(game, (4, 2), None), (4, 1), None)
    new, _ = kit.play(emptied, "move 4,2 4,1")
    drawn = new.player("red").raw_cards
    assert len(drawn) == 2
    assert set(drawn) <= set(emptied.warehouse)
    assert len(new.warehouse) == len(emptied.warehouse) - 2


def test_L1_T2_two_cards_not_from_an_empty_warehouse_nor_after_the_first_move(
    kit, game, moving
) -> None:
    # The Warehouse has nothing to draw: the move brings what lies on its cells.
    bare = kit.clear_warehouse(kit.put(game, (4, 2), None))
    ruling = kit.expect(bare, "move 4,2 4,1", "allowed", "L1.T2")
    assert "L1.T2-two-cards" not in ruling.rules
    assert len(kit.play(bare, "move 4,2 4,1")[0].player("red").raw_cards) == 1
    # A later move onto an emptied cell brings nothing (L1.T1): the make-up is the first move's.
    emptied = kit.put(moving, (4, 0), None)
    ruling = kit.expect(emptied, "move 4,0", "allowed", "L1.T1")
    assert "L1.T2-two-cards" not in ruling.rules
    new, _ = kit.play(emptied, "move 4,0")
    assert new.player("red").raw_cards == ()
    assert new.warehouse == emptied.warehouse


def test_L1_T2_two_cards_house_rule_first_move_as_found(kit) -> None:
    game = kit.deal("1", 2, 3, house_rules=("first-move-as-found",))
    emptied = kit.put(game, (4, 2), None)
    second = kit.raw_at(emptied, (4, 1))
    ruling = kit.expect(emptied, "move 4,2 4,1", "allowed", "L1.T2", "L1.T2-two-cards")
    assert ruling.house_rules == ("first-move-as-found",)
    assert "made_up" not in ruling.facts
    new, events = kit.play(emptied, "move 4,2 4,1")
    assert new.player("red").raw_cards == (second,)
    assert new.warehouse == emptied.warehouse
    assert [e.kind for e in events] == ["move"]
    # With both cells full the house rule changes nothing and is not named.
    ruling = kit.expect(game, "move 4,2 4,1", "allowed", "L1.T2")
    assert not ruling.house_rules
    assert "L1.T2-two-cards" not in ruling.rules


# --- L1.T3 solar battery --------------------------------------------------------------------------


def test_L1_T3_buy_a_solar_battery(kit, moving) -> None:
    rich = kit.money(moving, "red", 4)
    kit.expect(rich, "buy solar-battery", "allowed", "L1.T3", facts={"price": 4})
    new, _ = kit.play(rich, "buy solar-battery")
    assert new.player("red").money == 0
    assert new.bank == rich.bank + 4
    assert new.player("red").combine.solar_battery
    ruling = kit.expect(new, "buy solar-battery", "forbidden", "L1.T3")
    assert "already" in ruling.reason_en


def test_L1_T3_a_solar_battery_costs_four(kit, moving) -> None:
    poor = kit.money(moving, "red", 3)
    kit.expect(poor, "buy solar-battery", "forbidden", "L1.T3", facts={"price": 4, "money": 3})


def test_L1_T3_solar_battery_moves_two_cells_and_collects_two(kit, moving) -> None:
    state = kit.combine(moving, "red", solar_battery=True)
    cards = [kit.raw_at(state, (4, 0)), kit.raw_at(state, (3, 0))]
    ruling = kit.expect(state, "move 4,0 3,0", "allowed", "L1.T1", "L1.T3")
    assert sorted(ruling.facts["collected"]) == sorted(cards)
    new, _ = kit.play(state, "move 4,0 3,0")
    assert sorted(new.player("red").raw_cards) == sorted(cards)
    # Ruling L1.T3-up-to-two: one cell is a move too, and it says which ruling allows it.
    ruling = kit.expect(state, "move 4,0", "allowed", "L1.T3", "L1.T3-up-to-two")
    assert ruling.facts["collected"] == [cards[0]]


def test_L1_T3_up_to_two_three_cells_are_too_many(kit, moving) -> None:
    state = kit.combine(moving, "red", solar_battery=True)
    ruling = kit.expect(state, "move 4,0 3,0 2,0", "forbidden", "L1.T3", "L1.T3-up-to-two")
    assert "one or two cells" in ruling.reason_en


def test_L1_T3_up_to_two_a_battery_combine_can_reenter_the_base(kit, moving) -> None:
    # Beside the Base, a battery combine read literally could never stop on it again.
    state = kit.combine(moving, "red", position=(4, 2), solar_battery=True)
    kit.expect(state, f"move {BASE[0]},{BASE[1]}", "allowed", "L1.T3-up-to-two")
    ruling = kit.expect(state, f"move {BASE[0]},{BASE[1]} 4,4", "forbidden", "L1.T3-up-to-two")
    assert "Base ends the move" in ruling.reason_en


def test_battery_exactly_two_the_literal_reading(kit) -> None:
    game = kit.deal("1", 2, 3, house_rules=("battery-exactly-two",))
    state = kit.combine(game, "red", position=(4, 1), moved=True, solar_battery=True)
    state = kit.combine(state, "blue", position=(6, 3), moved=True)
    kit.expect(state, "move 4,0 3,0", "allowed", "L1.T1", "L1.T3")
    ruling = kit.expect(state, "move 4,0", "forbidden", "L1.T3")
    assert "two cells" in ruling.reason_en
    # The house rule decided it (the default lets the battery stop after one cell): named.
    assert ruling.house_rules == ("battery-exactly-two",)
    assert ruling.to_json()["house_rules"] == ["battery-exactly-two"]


# --- L1.T4 attack and dice ------------------------------------------------------------------------


@pytest.fixture
def face_off(kit, moving):
    """Red on (4, 1), blue on (4, 0) holding four raw cards; red to play."""
    state = kit.combine(moving, "blue", position=(4, 0))
    return kit.give(state, "blue", "hematite", "halite", "water-ice", "sulfur")


def test_L1_T4_attack_by_moving_onto_an_opponent(kit, face_off) -> None:
    ruling = kit.expect(face_off, "move 4,0", "allowed", "L1.T1", "L1.T4")
    assert "attack" in ruling.reason_en
    new, events = kit.play(face_off, "move 4,0")
    assert new.fight == Fight(attacker="red", defender="blue", cell=(4, 0))
    assert [e.kind for e in events] == ["move", "attack"]
    assert "Напал" in events[1].ru


def test_L1_T4_attack_cannot_pass_through_a_combine(kit, face_off) -> None:
    state = kit.combine(face_off, "red", solar_battery=True)
    kit.expect(state, "move 4,0 3,0", "forbidden", "L1.T4")
    # With the battery the attack ends the move after one cell.
    kit.expect(state, "move 4,0", "allowed", "L1.T4")


def test_L1_T4_the_fight_is_resolved_before_anything_else(kit, face_off) -> None:
    fighting, _ = kit.play(kit.give(face_off, "red", "hydrogen-peroxide"), "move 4,0")
    for action in ("end", "buy armour", f"sell {fighting.player('red').raw_cards[0]}"):
        ruling = kit.expect(fighting, action, "forbidden", "L1.T4")
        assert "fight" in ruling.reason_en
    # No fight declared: nothing to resolve.
    kit.expect(face_off, "fight 6:1", "forbidden", "L1.T4")


def test_L1_T4_higher_roll_wins_attacker(kit, face_off) -> None:
    fighting, _ = kit.play(face_off, "move 4,0")
    blue_cards = fighting.player("blue").raw_cards
    kit.expect(
        fighting,
        "fight 5:2",
        "allowed",
        "L1.T4",
        "L1.T4.R4",
        facts={"winner": "red", "loser": "blue", "rounds": [[5, 2]]},
    )
    new, events = kit.play(fighting, "fight 5:2")
    # The dice name the winner; nothing changes hands before the winner chooses.
    assert new.fight is not None
    assert (new.fight.winner, new.fight.loser, new.fight.stage) == ("red", "blue", "spoils")
    assert new.player("blue").raw_cards == blue_cards
    assert events[0].data["winner"] == "red"
    assert events[0].data["loser"] == "blue"
    assert not events[0].data["rolled"]
    # Then the winner's spoils, then the loser's retreat: the fight is over.
    new, _ = kit.play(new, f"spoils {blue_cards[0]}", "as blue retreat 3,0")
    assert new.fight is None
    assert blue_cards[0] in new.player("red").raw_cards


def test_L1_T4_higher_roll_wins_defender(kit, face_off) -> None:
    fighting, _ = kit.play(kit.give(face_off, "red", "calcite", "quartz"), "move 4,0")
    red_cards = fighting.player("red").raw_cards
    kit.expect(fighting, "fight 2:5", "allowed", "L1.T4", facts={"winner": "blue"})
    rolled, _ = kit.play(fighting, "fight 2:5")
    # The defender who wins takes from the attacker (Ruling L1.T4.R1); the attacker retreats.
    spoils = f"as blue spoils {' '.join(red_cards)}"
    kit.expect(rolled, spoils, "allowed", "L1.T4.R1", facts={"taken": list(red_cards)})
    new, _ = kit.play(rolled, spoils, "retreat 4,1")
    assert set(red_cards) <= set(new.player("blue").raw_cards)
    assert new.player("red").raw_cards == ()
    assert new.player("red").combine.position == (4, 1)
    assert new.player("blue").combine.position == (4, 0)


def test_L1_T4_a_tie_is_rolled_again(kit, face_off) -> None:
    fighting, _ = kit.play(face_off, "move 4,0")
    kit.expect(
        fighting,
        "fight 3:3 1:4",
        "allowed",
        "L1.T4",
        facts={"winner": "blue", "rounds": [[3, 3], [1, 4]]},
    )
    kit.expect(fighting, "fight 3:3 6:6 6:5", "allowed", "L1.T4", facts={"winner": "red"})
    ruling = kit.expect(fighting, "fight 3:3", "forbidden", "L1.T4")
    assert "tie" in ruling.reason_en
    ruling = kit.expect(fighting, "fight 6:1 1:6", "forbidden", "L1.T4")
    assert "already decided" in ruling.reason_en
    kit.expect(fighting, "fight 7:1", "forbidden", "L1.T4")
    kit.expect(fighting, "fight 0:1", "forbidden", "L1.T4")
    kit.expect(fighting, "fight 5", "forbidden", "L1.T4")
    kit.expect(fighting, "fight 5:1:1", "forbidden", "L1.T4")


def test_L1_T4_dice_rolled_from_the_game_seed(kit, face_off) -> None:
    fighting, _ = kit.play(face_off, "move 4,0")
    kit.expect(fighting, ResolveFight(), "allowed", "L1.T4")
    new, events = apply(fighting, ResolveFight(), kit.catalog)
    again, _ = apply(fighting, ResolveFight(), kit.catalog)
    assert new == again, "the same state must roll the same dice"
    assert new.rng != fighting.rng
    data = events[0].data
    assert data["rolled"] is True
    rounds = data["rounds"]
    assert all(a == d for a, d in rounds[:-1]), rounds
    attack, defend = rounds[-1]
    assert attack != defend
    assert all(1 <= v <= 6 for r in rounds for v in r)
    assert data["winner"] == ("red" if attack > defend else "blue")
    # The recorded dice given explicitly give the same fight.
    replay = ResolveFight(rounds=tuple(tuple(r) for r in rounds))
    explicit, _ = apply(fighting, replay, kit.catalog)
    assert explicit.players == new.players


def test_L1_T4_R4_the_dice_come_first(kit, face_off) -> None:
    fighting, _ = kit.play(face_off, "move 4,0")
    card = fighting.player("blue").raw_cards[0]
    for early in (f"spoils {card}", "as blue retreat 3,0"):
        ruling = kit.expect(fighting, early, "forbidden", "L1.T4", "L1.T4.R4")
        assert "Roll the dice first" in ruling.reason_en
    assert [a.kind for a in legal_actions(fighting, kit.catalog)] == ["fight"]
    # Either fighter may enter the dice; nobody else.
    kit.expect(fighting, "as blue fight 5:2", "allowed", "L1.T4")
    kit.expect(fighting, "fight 5:2", "allowed", "L1.T4")


def test_L1_T4_R4_the_winner_chooses_the_spoils_then_the_loser_the_retreat(kit, face_off) -> None:
    rolled, _ = kit.play(face_off, "move 4,0", "fight 6:1")
    blue = rolled.player("blue").raw_cards
    # Only the winner chooses the spoils, and only the spoils come next.
    ruling = kit.expect(rolled, f"as blue spoils {blue[0]}", "forbidden", "L1.T4.R4")
    assert "The winner, Red, chooses the spoils" in ruling.reason_en
    ruling = kit.expect(rolled, "as blue retreat 3,0", "forbidden", "L1.T4.R4")
    assert "now Red chooses the spoils" in ruling.reason_en
    kit.expect(rolled, "fight 6:1", "forbidden", "L1.T4.R4")
    listed = legal_actions(rolled, kit.catalog)
    assert {a.kind for a in listed} == {"spoils"}
    assert listed[0].cards == ()  # taking nothing is listed first
    assert {a.player for a in listed} == {None}  # red, whose turn it is
    taken, events = kit.play(rolled, f"spoils {blue[0]}")
    assert events[0].kind == "spoils"
    assert taken.fight is not None
    assert taken.fight.stage == "retreat"
    # Then only the loser chooses the retreat.
    ruling = kit.expect(taken, "retreat 3,0", "forbidden", "L1.T4.R4")
    assert "The loser, Blue, chooses where to retreat" in ruling.reason_en
    kit.expect(taken, f"spoils {blue[1]}", "forbidden", "L1.T4.R4")
    listed = legal_actions(taken, kit.catalog)
    assert {a.kind for a in listed} == {"retreat"}
    assert {a.player for a in listed} == {"blue"}  # not the player whose turn it is
    kit.expect(taken, "as blue retreat 3,0", "allowed", "L1.T4.R1", "L1.T5")


def test_L1_T4_R1_the_winner_takes_at_most_three_of_their_choice(kit, face_off) -> None:
    rolled, _ = kit.play(face_off, "move 4,0", "fight 6:1")
    blue = rolled.player("blue").raw_cards
    assert len(blue) == 4
    chosen = blue[1:]
    take = " ".join(chosen)
    kit.expect(rolled, f"spoils {take}", "allowed", "L1.T4", facts={"taken": list(chosen)})
    new, _ = kit.play(rolled, f"spoils {take}")
    assert set(chosen) <= set(new.player("red").raw_cards)
    assert new.player("blue").raw_cards == (blue[0],)
    ruling = kit.expect(rolled, f"spoils {' '.join(blue)}", "forbidden", "L1.T4")
    assert "three" in ruling.reason_en
    stranger = rolled.warehouse[0]
    kit.expect(rolled, f"spoils {stranger}", "forbidden", "L1.T4")
    # Taking nothing is the winner's choice too.
    ruling = kit.expect(rolled, "spoils", "allowed", "L1.T4", facts={"taken": []})
    assert "takes no spoils" in ruling.reason_en


def test_L1_T4_R1_a_card_cannot_be_taken_twice(kit, face_off) -> None:
    rolled, _ = kit.play(face_off, "move 4,0", "fight 6:1")
    card = rolled.player("blue").raw_cards[0]
    kit.expect(rolled, f"spoils {card} {card}", "forbidden", "L1.T4")


def test_L1_T4_R2_substance_cards_are_raw_cards(kit, face_off) -> None:
    rolled, _ = kit.play(face_off, "move 4,0", "fight 6:1")
    most = max(legal_actions(rolled, kit.catalog), key=lambda a: len(a.cards))
    _, events = kit.play(rolled, most)
    taken = events[0].data["taken"]
    assert len(taken) == 3
    for card in taken:
        assert kit.catalog.raw_material(card.rsplit("#", 1)[0])


def test_L1_T4_R1_the_loser_chooses_a_free_neighbouring_cell(kit, face_off) -> None:
    taken, _ = kit.play(face_off, "move 4,0", "fight 6:1", "spoils")
    kit.expect(taken, "as blue retreat 3,0", "allowed", "L1.T4", facts={"retreat": [3, 0]})
    new, events = kit.play(taken, "as blue retreat 3,0")
    assert new.player("blue").combine.position == (3, 0)
    assert new.player("red").combine.position == (4, 0)
    assert events[0].kind == "retreat"
    kit.expect(taken, "as blue retreat 2,0", "forbidden", "L1.T4")  # not adjacent
    kit.expect(taken, "as blue retreat 4,0", "forbidden", "L1.T4")  # the fight's cell
    # Staying is no choice while a neighbouring cell is free.
    ruling = kit.expect(taken, "as blue retreat", "forbidden", "L1.T4.R1")
    assert "staying is only for a loser with none free" in ruling.reason_en


@pytest.fixture
def crowded(kit):
    """Four players: red attacks blue on (3, 0); green stands on (2, 0), yellow on (3, 1)."""
    state = kit.deal("1", 4, 3)
    state = kit.combine(state, "green", position=(2, 0), moved=True)
    state = kit.combine(state, "yellow", position=(3, 1), moved=True)
    state = kit.fight(state, "red", "blue", (3, 0))
    state, _ = kit.play(state, "fight 6:1", "spoils")
    return state


def test_L1_T4_R1_no_retreat_onto_an_occupied_cell(kit, crowded) -> None:
    kit.expect(crowded, "as blue retreat 2,0", "forbidden", "L1.T4")
    kit.expect(crowded, "as blue retreat 4,0", "allowed", "L1.T4")
    [only] = legal_actions(crowded, kit.catalog)
    assert only.cell == (4, 0)  # the one free neighbour


def test_L1_T4_R1_a_refused_retreat_cites_the_retreat_ruling(kit, crowded) -> None:
    ruling = kit.expect(crowded, "as blue retreat 2,0", "forbidden", "L1.T4")
    assert "L1.T4.R1" in ruling.rules
    assert "L1.T4.R2" not in ruling.rules


def test_L1_T4_R1_the_loser_stays_when_every_neighbour_is_taken(kit) -> None:
    state = kit.deal("1", 4, 3)
    state = kit.combine(state, "green", position=(1, 0), moved=True)
    state = kit.combine(state, "yellow", position=(0, 1), moved=True)
    state = kit.fight(state, "red", "blue", (0, 0))
    state, _ = kit.play(state, "fight 6:1", "spoils")
    kit.expect(state, "as blue retreat 1,0", "forbidden", "L1.T4")
    kit.expect(state, "as blue retreat", "allowed", "L1.T4", facts={"retreat": [0, 0]})
    assert [a.cell for a in legal_actions(state, kit.catalog)] == [None]
    new, events = kit.play(state, "as blue retreat")
    assert new.player("blue").combine.position == (0, 0)
    assert "stays" in events[0].en


# --- L1.T5 repairs --------------------------------------------------------------------------------


def test_L1_T5_neither_fighter_attacks_on_their_next_turn(kit) -> None:
    state = kit.deal("1", 3, 3)
    state = kit.combine(state, "red", position=(4, 1), moved=True)
    state = kit.combine(state, "blue", position=(4, 0), moved=True)
    state = kit.combine(state, "green", position=(6, 0), moved=True)
    state, _ = kit.play(state, "move 4,0", "fight 5:2", "spoils", "as blue retreat 3,0", "end")
    # Blue (the loser) next to red: no attack this turn, an ordinary move is fine.
    assert state.current.id == "blue"
    ruling = kit.expect(state, "move 4,0", "forbidden", "L1.T5")
    assert "repair" in ruling.reason_en
    kit.expect(state, "move 3,1", "allowed", "L1.T1")
    state, _ = kit.play(state, "move 2,0", "end")
    # Green did not fight: green may attack a combine under repair.
    assert state.current.id == "green"
    state = kit.combine(state, "green", position=(5, 0))
    kit.expect(state, "move 4,0", "allowed", "L1.T4")
    state, _ = kit.play(state, "move 5,1", "end")
    # Red (the winner) on their next turn: no attack either.
    assert state.current.id == "red"
    state = kit.combine(state, "green", position=(5, 0))
    kit.expect(state, "move 5,0", "forbidden", "L1.T5")
    state, _ = kit.play(state, "move 4,1", "end", "move 2,1", "end", "move 5,1", "end")
    # A turn later the repairs are over.
    assert state.current.id == "red"
    state = kit.combine(state, "green", position=(4, 0))
    kit.expect(state, "move 4,0", "allowed", "L1.T4")


def test_L1_T5_the_defender_who_wins_is_under_repair_too(kit, face_off) -> None:
    state, _ = kit.play(face_off, "move 4,0", "fight 1:6", "as blue spoils", "retreat 5,0", "end")
    assert state.current.id == "blue"
    kit.expect(state, "move 5,0", "forbidden", "L1.T5")


def test_L1_T5_a_combine_hemmed_in_during_repairs_can_end_its_turn(kit) -> None:
    state = kit.deal("1", 3, 3)
    state = kit.combine(state, "red", position=(0, 0), moved=True, repair_turn=0)
    state = kit.combine(state, "blue", position=(1, 0), moved=True)
    state = kit.combine(state, "green", position=(0, 1), moved=True)
    kit.expect(state, "move 1,0", "forbidden", "L1.T5")
    kit.expect(state, "move 0,1", "forbidden", "L1.T5")
    assert legal_actions(state, kit.catalog), "no legal action in a game that goes on"
    kit.expect(state, "end", "allowed", "L1.T1")


# --- L1.T6 armour ---------------------------------------------------------------------------------


def _every_upgrade(state):
    """The state under the house rule every-upgrade: armour sold at level 1 too (L1.T6.R2)."""
    return state.model_copy(
        update={"house_rules": state.house_rules.model_copy(update={"every_upgrade": True})}
    )


def test_L1_T6_R2_the_default_box_sells_no_armour_at_level_1(kit, moving) -> None:
    rich = kit.money(moving, "red", 5)
    ruling = kit.expect(rich, "buy armour", "forbidden", "L1.T6", "L1.T6.R2")
    assert ruling.reason["en"] == "The box does not sell it at this level, only at level 3."
    assert BuyUpgrade(upgrade="armour") not in legal_actions(rich, kit.catalog)
    kit.expect(rich, "buy solar-battery", "allowed", "L1.T3")


def test_L1_T6_buy_armour(kit, moving) -> None:
    rich = kit.money(_every_upgrade(moving), "red", 5)
    ruling = kit.expect(rich, "buy armour", "allowed", "L1.T6", "L1.T6.R2", facts={"price": 4})
    assert ruling.house_rules == ("every-upgrade",)
    new, _ = kit.play(rich, "buy armour")
    assert new.player("red").combine.armour
    assert new.player("red").money == 1
    assert new.bank == rich.bank + 4
    kit.expect(new, "buy armour", "forbidden", "L1.T6")
    poor = kit.money(_every_upgrade(moving), "red", 3)
    kit.expect(poor, BuyUpgrade(upgrade="armour"), "forbidden", "L1.T6", facts={"money": 3})


@pytest.fixture
def armoured(kit, face_off):
    """Red has attacked blue, whose combine has armour."""
    state = kit.combine(face_off, "blue", armour=True)
    return kit.play(state, "move 4,0")[0]


def test_L1_T6_armour_rolls_the_defender_twice(kit, armoured) -> None:
    ruling = kit.expect(armoured, "fight 5:2", "forbidden", "L1.T4", "L1.T6")
    assert "3 dice" in ruling.reason_en
    kit.expect(armoured, "fight 5:2,4", "allowed", "L1.T6", facts={"rounds": [[5, 2, 4]]})


def test_L1_T6_R1_armour_keeps_the_higher_roll(kit, armoured) -> None:
    ruling = kit.expect(armoured, "fight 5:2,4", "allowed", "L1.T6", "L1.T6.R1")
    assert ruling.facts["winner"] == "red"
    assert "5:4" in ruling.reason_en
    assert ruling.house_rules == ()
    kit.expect(armoured, "fight 4:1,5", "allowed", "L1.T6.R1", facts={"winner": "blue"})
    ruling = kit.expect(armoured, "fight 4:4,1", "forbidden", "L1.T6")  # 4 against max(4, 1)
    assert "tie" in ruling.reason_en
    kit.expect(armoured, "fight 4:4,1 6:1,2", "allowed", "L1.T6", facts={"winner": "red"})


def test_L1_T6_R1_house_rule_armour_sum(kit) -> None:
    game = kit.deal("1", 2, 3, house_rules=("armour-sum",))
    state = kit.combine(game, "red", position=(4, 1), moved=True)
    state = kit.combine(state, "blue", position=(4, 0), moved=True, armour=True)
    state, _ = kit.play(state, "move 4,0")
    ruling = kit.expect(state, "fight 5:2,4", "allowed", "L1.T6", "L1.T6.R1")
    assert ruling.facts["winner"] == "blue"  # 2 + 4 = 6 beats 5
    assert "5:6" in ruling.reason_en
    assert ruling.house_rules == ("armour-sum",)
    kit.expect(state, "fight 6:3,3", "forbidden", "L1.T6")  # 6 against 3 + 3: a tie


def test_L1_T6_armour_helps_only_the_defender(kit, face_off) -> None:
    state = kit.combine(face_off, "red", armour=True)
    fighting, _ = kit.play(state, "move 4,0")
    kit.expect(fighting, "fight 2:5,6", "forbidden", "L1.T4")
    ruling = kit.expect(fighting, "fight 2:5", "allowed", "L1.T4", facts={"winner": "blue"})
    assert "L1.T6" not in ruling.rules


# --- L1.T7 trading raw cards ----------------------------------------------------------------------


@pytest.fixture
def traders(kit, moving):
    state = kit.give(moving, "red", "hematite", "sulfur")
    state = kit.give(state, "blue", "halite", "water-ice")
    state = kit.money(state, "red", 3)
    return kit.money(state, "blue", 2)


def test_L1_T7_exchange_or_sell_raw_cards(kit, traders) -> None:
    red, blue = traders.player("red").raw_cards, traders.player("blue").raw_cards
    swap = Trade(partner="blue", give=red, receive=blue, pay=1)
    kit.expect(traders, swap, "allowed", "L1.T7")
    new, _ = kit.play(traders, swap)
    assert sorted(new.player("red").raw_cards) == sorted(blue)
    assert sorted(new.player("blue").raw_cards) == sorted(red)
    assert (new.player("red").money, new.player("blue").money) == (2, 3)
    # A sale: the partner pays (a negative payment of the acting player).
    sale = Trade(partner="blue", give=(red[0],), pay=-2)
    kit.expect(traders, sale, "allowed", "L1.T7")
    new, _ = kit.play(traders, sale)
    assert new.player("red").money == 5
    assert new.player("blue").money == 0
    # Level 1 sets no limit of one trade a turn.
    kit.expect(new, Trade(partner="blue", give=(red[1],)), "allowed", "L1.T7")


def test_L1_T7_forbidden_trades(kit, traders) -> None:
    red, blue = traders.player("red").raw_cards, traders.player("blue").raw_cards
    kit.expect(traders, Trade(partner="blue", give=blue[:1]), "forbidden", "L1.T7")
    kit.expect(traders, Trade(partner="blue", receive=red[:1]), "forbidden", "L1.T7")
    kit.expect(traders, Trade(partner="blue", give=red[:1], pay=4), "forbidden", "L1.T7")
    kit.expect(traders, Trade(partner="blue", give=red[:1], pay=-3), "forbidden", "L1.T7")
    kit.expect(traders, Trade(partner="red", give=red[:1]), "forbidden", "L1.T7")
    kit.expect(traders, Trade(partner="green", give=red[:1]), "forbidden", "L1.T7")
    kit.expect(traders, Trade(partner="blue", pay=1), "forbidden", "L1.T7")
    kit.expect(traders, Trade(partner="red", player="blue", give=blue[:1]), "forbidden", "L1.T1")


def test_L1_T7_a_card_cannot_be_given_twice(kit, traders) -> None:
    card = traders.player("red").raw_cards[0]
    kit.expect(traders, Trade(partner="blue", give=(card, card)), "forbidden", "L1.T7")


# --- L1.T8 selling to the Bank --------------------------------------------------------------------


def test_L1_T8_sell_a_raw_card_to_the_bank(kit, moving) -> None:
    state = kit.give(moving, "red", "hematite")
    card = state.player("red").raw_cards[0]
    kit.expect(state, SellRaw(card=card), "allowed", "L1.T8")
    new, _ = kit.play(state, SellRaw(card=card))
    assert new.player("red").money == 1
    assert new.bank == state.bank - 1
    assert new.warehouse == (*state.warehouse, card)
    assert new.player("red").raw_cards == ()
    kit.expect(new, SellRaw(card=card), "forbidden", "L1.T8", facts={"hand": []})


def test_L1_T8_R1_an_empty_bank_refuses_the_sale(kit, moving) -> None:
    state = kit.give(moving, "red", "hematite")
    broke = kit.money(state, "blue", state.bank)
    assert broke.bank == 0
    card = state.player("red").raw_cards[0]
    ruling = kit.expect(
        broke, SellRaw(card=card), "forbidden", "L1.T8", "L1.T8.R1", facts={"bank": 0}
    )
    assert "refused" in ruling.reason_en
    one_coin = kit.money(state, "blue", state.bank - 1)
    kit.expect(one_coin, SellRaw(card=card), "allowed", "L1.T8")


def test_L1_T8_R1_upgrades_are_paid_to_the_bank(kit, moving) -> None:
    state = kit.money(_every_upgrade(moving), "red", 8)
    new, _ = kit.play(state, "buy armour", "buy solar-battery")
    assert new.bank == state.bank + 8
    assert new.player("red").money == 0


# --- L1.T9 buying from the Warehouse --------------------------------------------------------------


def test_L1_T9_buy_a_raw_card_from_the_warehouse(kit, moving) -> None:
    state = kit.money(moving, "red", 4)
    card = state.warehouse[2]
    kit.expect(state, BuyRaw(card=card), "allowed", "L1.T9")
    new, _ = kit.play(state, BuyRaw(card=card))
    assert new.player("red").raw_cards == (card,)
    assert card not in new.warehouse
    assert new.player("red").money == 0
    assert new.bank == state.bank + 4


def test_L1_T9_a_warehouse_card_costs_four(kit, moving) -> None:
    state = kit.money(moving, "red", 3)
    ruling = kit.expect(state, BuyRaw(card=state.warehouse[0]), "forbidden", "L1.T9")
    assert "4" in ruling.reason_en
    rich = kit.money(moving, "red", 4)
    kit.expect(rich, BuyRaw(card=kit.raw_at(rich, (0, 0))), "forbidden", "L1.T9")


# --- L1.E1 the end of the game: a mission, or an empty field --------------------------------------


def test_L1_E1_a_mission_completed_with_raw_cards(kit, moving) -> None:
    # Subscripts are counted: M4 needs Ca2 Si S C2 H2 O12 (Ca2SiO4 + H2SO4 + 2 CO2), which is
    # CaCO3 + CaSO4 + SiO2 + CO2 + H2O; the halite is left out.
    hand = ("calcite", "silica", "anhydrite", "water-ice", "carbon-dioxide", "halite")
    state = kit.give(moving, "red", *hand)
    ruling = kit.expect(state, "claim M4", "allowed", "L1.E1", "L1.E1.R1", "L2.E1-round")
    used = sorted(ruling.facts["cards_used"])
    assert used == sorted(hand[:5])
    assert ruling.facts["needed"] == {"Ca": 2, "Si": 1, "S": 1, "C": 2, "H": 2, "O": 12}
    assert ruling.house_rules == ("ends-at-once",)
    new, events = kit.play(state, "claim M4")
    assert new.claims == (("red", "M4"),)
    assert events[0].data["winner"] == "red"
    # The round is played out (Ruling L2.E1-round): red finishes its turn, and announces once.
    assert not new.ended
    kit.expect(new, "claim M4", "forbidden", "L2.E1-round")
    kit.expect(new, "move 4,0", "allowed", "L1.T1")


def test_L2_E1_round_the_last_round_ends_the_game_and_shares_the_win(kit, moving) -> None:
    red = kit.give(moving, "red", "calcite", "silica", "anhydrite", "water-ice", "carbon-dioxide")
    state = kit.give(red, "blue", *["carbon-dioxide"] * 2, *["water-ice"] * 4)
    state = kit.money(state, "blue", 20)
    claimed, _ = kit.play(state, "claim M4", "move 4,0", "end")
    assert not claimed.ended
    assert claimed.current.id == "blue"
    # Blue, after red in the round, completes a mission too: both win.
    both, _ = kit.play(claimed, "claim M1", "move 6,2")
    assert both.claims == (("red", "M4"), ("blue", "M1"))
    over, events = kit.play(both, "end")
    assert over.ended
    assert over.end_code == "mission"
    assert events[-1].kind == "end"
    result = score(over, kit.catalog)
    assert result.winners == ("red", "blue")
    assert result.ruling.rules == ("L1.E2", "L2.E1-round")
    kit.expect(over, "move 4,0", "forbidden", "L1.E1")


def test_L2_E1_round_house_rule_ends_at_once(kit) -> None:
    game = kit.deal("1", 2, 3, house_rules=("ends-at-once",))
    state = kit.combine(game, "red", position=(4, 1), moved=True)
    state = kit.give(state, "red", *["carbon-dioxide"] * 2, *["water-ice"] * 4)
    ruling = kit.expect(state, "claim M1", "allowed", "L1.E1")
    assert "L2.E1-round" not in ruling.rules
    over, events = kit.play(state, "claim M1")
    assert over.ended
    assert over.claims == (("red", "M1"),)
    assert events[0].kind == "end"
    # The game is over: nothing more may be done.
    kit.expect(over, "move 4,0", "forbidden", "L1.E1")
    kit.expect(over, "end", "forbidden", "L1.E1")
    assert score(over, kit.catalog).winners == ("red",)


def test_L1_E1_caco3_counts_one_calcium_one_carbon_three_oxygen(kit, moving) -> None:
    # Calcite, anhydrite, silica and CO2 hold Ca C O3 + Ca S O4 + Si O2 + C O2: all of M4
    # (Ca2 Si S C2 H2 O12) but its water. The CaCO3 card gives one calcium, one carbon and
    # three of the twelve oxygens, so only the water's H2 O is missing.
    state = kit.give(moving, "red", "calcite", "silica", "anhydrite", "carbon-dioxide")
    ruling = kit.expect(state, "claim M4", "forbidden", "L1.E1")
    assert ruling.facts["missing"] == {"H": 2, "O": 1}
    assert ruling.facts["held"] == {"Ca": 2, "C": 2, "O": 11, "Si": 1, "S": 1}
    assert "CaCO3" in ruling.reason_en
    # The cards named must be the player's.
    other = kit.instance(state, "calcite")
    kit.expect(state, Claim(mission="M4", cards=(other,)), "forbidden", "L1.E1")
    kit.expect(state, "claim M9", "forbidden", "L1.E1")


def test_L1_E1_the_named_cards_are_the_selection(kit, moving) -> None:
    hand = ("calcite", "anhydrite", "silica", "water-ice", "carbon-dioxide")
    state = kit.give(moving, "red", *hand)
    cards = state.player("red").raw_cards
    kit.expect(state, Claim(mission="M4", cards=cards), "allowed", "L1.E1")
    kit.expect(state, Claim(mission="M4", cards=cards[1:]), "forbidden", "L1.E1")


def test_L1_E1_a_card_named_twice_counts_once(kit, moving) -> None:
    # M1 is 2 CO2 + 4 H2O: one water named twice is not two.
    state = kit.give(moving, "red", *["carbon-dioxide"] * 2, *["water-ice"] * 3)
    a, b, w1, w2, w3 = state.player("red").raw_cards
    claim = Claim(mission="M1", cards=(a, b, w1, w2, w3, w3))
    kit.expect(state, claim, "forbidden", "L1.E1")


def test_L1_E1_the_game_ends_when_the_field_is_empty(kit, moving) -> None:
    state = kit.clear_field(moving, keep=[(4, 0), (8, 6)])
    # Cards remain on the field: the turn passes, the game goes on.
    going, events = kit.play(state, "move 4,0", "end")
    assert not going.ended
    assert [e.kind for e in events] == ["end-turn"]
    # The last card collected: ending the turn ends the game.
    last = kit.clear_field(moving, keep=[(4, 0)])
    ruling = kit.expect(kit.play(last, "move 4,0")[0], "end", "allowed", "L1.T1")
    assert ruling.verdict == "allowed"
    over, events = kit.play(last, "move 4,0", "end")
    assert over.ended
    assert "field" in over.end_reason
    assert [e.kind for e in events] == ["end-turn", "end"]
    kit.expect(over, "move 6,2", "forbidden", "L1.E1")


def test_L1_E1_R1_exact_subset_ignores_other_cards(kit, moving) -> None:
    hand = (*["carbon-dioxide"] * 2, *["water-ice"] * 4, "halite", "sulfur")
    state = kit.give(moving, "red", *hand)
    ruling = kit.expect(state, "claim M1", "allowed", "L1.E1.R1")
    assert sorted(ruling.facts["cards_used"]) == sorted(hand[:6])
    assert ruling.house_rules == ("ends-at-once",)  # the round played out, not the selection


def test_L1_E1_R1_house_rule_whole_hand(kit) -> None:
    game = kit.deal("1", 2, 3, house_rules=("whole-hand",))
    exact = (*["carbon-dioxide"] * 2, *["water-ice"] * 4)  # C2 H8 O8, all of M1
    state = kit.give(game, "red", *exact, "halite")
    ruling = kit.expect(state, "claim M1", "forbidden", "L1.E1", "L1.E1.R1")
    assert ruling.house_rules == ("whole-hand",)
    assert ruling.facts["excess"] == {"Na": 1, "Cl": 1}
    # Naming only the matching cards does not help: every card held counts.
    named = tuple(c for c in state.player("red").raw_cards if not c.startswith("halite"))
    kit.expect(state, Claim(mission="M1", cards=named), "forbidden", "L1.E1")
    state = kit.give(game, "red", *exact)
    ruling = kit.expect(state, "claim M1", "allowed", "L1.E1.R1")
    assert "whole-hand" in ruling.house_rules


def test_L1_E1_R1_house_rule_at_least(kit) -> None:
    game = kit.deal("1", 2, 3, house_rules=("at-least",))
    # Two CO2, three H2O and an H2O2 hold C2 H8 O9: at least C2 H8 O8, though no part of them is
    # exactly that (without the peroxide two hydrogens are short, with it an oxygen is over).
    state = kit.give(game, "red", *["carbon-dioxide"] * 2, *["water-ice"] * 3, "hydrogen-peroxide")
    ruling = kit.expect(state, "claim M1", "allowed", "L1.E1.R1")
    assert "at-least" in ruling.house_rules
    # O2 and four H2O hold H8 O6: no carbon and two oxygens short.
    state = kit.give(game, "red", "oxygen", *["water-ice"] * 4)
    ruling = kit.expect(state, "claim M1", "forbidden", "L1.E1")
    assert ruling.facts["missing"] == {"C": 2, "O": 2}


def test_L1_E1_R2_a_mission_counts_every_place(kit, catalog) -> None:
    for mission in catalog.missions:
        total: dict[str, int] = {}
        for place in mission.places:
            for element, n in catalog.substance(place.formula).parsed.elements.items():
                total[element] = total.get(element, 0) + n * place.count
        assert dict(mission.elements) == total, mission.id
    # Two places of CH4 and four of O2: C2 H8 O8.
    assert dict(catalog.mission("M1").elements) == {"C": 2, "H": 8, "O": 8}
    # CO2 + 4 H2O is C H8 O6: the carbon of the second CH4 place and an oxygen are short.
    state = kit.give(kit.deal("1", 2, 3), "red", "carbon-dioxide", *["water-ice"] * 4)
    ruling = kit.expect(state, "claim M1", "forbidden", "L1.E1.R2")
    assert ruling.facts["missing"] == {"C": 1, "O": 2}


M1_HAND = (*["carbon-dioxide"] * 2, *["water-ice"] * 4)


def test_L1_E2_a_winning_claim_is_a_legal_action(kit, moving) -> None:
    state = kit.give(moving, "red", *M1_HAND)
    kit.expect(state, "claim M1", "allowed", "L1.E1")
    assert Claim(mission="M1") in legal_actions(state, kit.catalog)


def test_L1_E2_a_winning_claim_cites_the_winning_rule(kit, moving) -> None:
    state = kit.give(moving, "red", *M1_HAND)
    kit.expect(state, "claim M1", "allowed", "L1.E1", "L1.E2")


# --- L1.E2 / L1.E3 the winner ---------------------------------------------------------------------


def test_L1_E2_whoever_completes_a_mission_wins(kit, moving) -> None:
    state = kit.give(moving, "red", *M1_HAND)
    state = kit.money(state, "blue", 20)  # blue is richer: the mission wins all the same
    over, _ = kit.play(state, "claim M1")
    result = score(over, kit.catalog)
    assert result.winners == ("red",)
    assert result.ruling.rules == ("L1.E2", "L2.E1-round")
    assert result.totals["blue"] > result.totals["red"]
    kit.assert_well_formed(result.ruling)
    # Without the claim the richer player leads.
    assert score(state, kit.catalog).winners == ("blue",)


def test_L1_E3_most_raw_cards_and_money_wins(kit, moving) -> None:
    state = kit.give(moving, "red", "hematite", "halite", "sulfur")
    state = kit.money(state, "red", 1)
    state = kit.give(state, "blue", "oxygen")
    state = kit.money(state, "blue", 2)
    result = score(state, kit.catalog)
    assert result.totals == {"red": 4, "blue": 3}
    assert result.winners == ("red",)
    assert "L1.E3" in result.ruling.rules
    kit.assert_well_formed(result.ruling)
    assert {line.rule for line in result.lines} == {"L1.E3"}


def test_L1_E3_R1_a_tie_shares_the_win(kit, moving) -> None:
    state = kit.give(moving, "red", "hematite", "halite")
    state = kit.give(state, "blue", "oxygen")
    state = kit.money(state, "blue", 1)
    result = score(state, kit.catalog)
    assert result.totals == {"red": 2, "blue": 2}
    assert result.winners == ("red", "blue")
    assert "L1.E3.R1" in result.ruling.rules
    assert "winners" in result.ruling.reason_en


def test_L1_actions_of_other_levels_are_refused(kit, moving) -> None:
    kit.expect(moving, "take 1", "forbidden", "L2.T1")
    kit.expect(moving, "react 2 carbon-dioxide#1", "forbidden", "L2.T4")
    kit.expect(moving, "free 2:2А:1 dump", "forbidden", "L2.T5")
    assert check(moving, EndTurn(), kit.catalog).verdict == "forbidden"  # must move first
