"""The end of a game as data (a reason code, the mission, the winners), and the new endings."""

from __future__ import annotations

import pytest

from mhp_cards.referee import GameEnd, apply, check, game_end, parse_action
from mhp_cards.referee.actions import EndTurn


def _end_turns(kit, state, count: int):
    """``count`` turns in which the combine moved onto an emptied cell: no raw card collected."""
    events = ()
    for _ in range(count):
        state = state.model_copy(update={"done_this_turn": ("move",)})
        state, events = apply(state, EndTurn(), kit.catalog)
    return state, events


def _quiet_round_ends(state):
    """The state under the house rule quiet-round-ends (the earlier L3.E1-no-progress)."""
    return state.model_copy(
        update={"house_rules": state.house_rules.model_copy(update={"quiet_round_ends": True})}
    )


def test_L3_E1_no_progress_a_quiet_round_ends_the_game_under_quiet_round_ends(kit) -> None:
    state = _quiet_round_ends(kit.deal("3", 3, 1))
    assert state.field is not None
    assert any(cell.raw for cell in state.field.cells), "raw cards remain: not the L3.E1.R1 end"
    first, _ = _end_turns(kit, state, 2)
    assert not first.ended, "two quiet turns of three players are not a round"
    assert first.quiet_turns == 2
    last, events = _end_turns(kit, first, 1)
    assert last.ended
    assert last.end_code == "no-progress"
    [end_event] = [e for e in events if e.kind == "end"]
    assert "L3.E1-no-progress" in end_event.data["rules"]
    end = game_end(last, kit.catalog)
    assert isinstance(end, GameEnd)
    assert end.code == "no-progress"
    assert end.mission is None
    assert end.rules == ("L3.E1", "L3.E1-no-progress", "L3.P1")
    assert end.winners
    assert "whole round" in end.reason["en"]
    ruling = check(last, EndTurn(), kit.catalog)
    assert ruling.verdict == "forbidden"


def test_L3_E1_no_progress_by_default_a_quiet_round_goes_on(kit) -> None:
    state = kit.deal("3", 3, 1)
    after, _ = _end_turns(kit, state, 7)
    assert not after.ended, "combines still walk to the field's raw cards"
    assert after.quiet_turns == 7
    broke, _ = _end_turns(kit, state.model_copy(update={"bank": 0}), 3)
    assert not broke.ended, "an empty Bank ends nothing: a full combine unloads unpaid"


def test_L3_E1_no_progress_progress_resets_the_count(kit) -> None:
    state = _quiet_round_ends(kit.deal("3", 2, 1)).model_copy(
        update={"quiet_turns": 1, "done_this_turn": ("move", "collect")}
    )
    new, _ = apply(state, EndTurn(), kit.catalog)
    assert new.quiet_turns == 0
    assert not new.ended
    quiet, _ = _end_turns(kit, state, 1)
    assert quiet.ended, "without the collection, the second quiet turn of two players ends it"
    assert quiet.end_code == "no-progress"


def test_no_progress_is_a_level_3_ruling_only(kit) -> None:
    state = kit.deal("1", 2, 1).model_copy(update={"quiet_turns": 10})
    new, _ = _end_turns(kit, state, 3)
    assert not new.ended


def test_a_level_1_claim_ends_with_the_mission_and_its_winner(kit) -> None:
    state = kit.deal("1", 2, 3, house_rules=("ends-at-once",))
    state = kit.give(state, "red", *["carbon-dioxide"] * 2, *["water-ice"] * 4)  # all of M1
    new, _ = apply(state, parse_action("claim M1"), kit.catalog)
    end = game_end(new, kit.catalog)
    assert end is not None
    assert (end.code, end.mission, end.winners) == ("mission", "M1", ("red",))
    assert end.to_json()["reason"] == {"ru": "миссия M1 выполнена", "en": "mission M1 is complete"}


def test_a_game_in_progress_has_no_end(kit) -> None:
    assert game_end(kit.deal("2", 3, 1), kit.catalog) is None


@pytest.mark.parametrize(
    ("level", "action", "own"),
    [
        ("1", "as blue sell {card}", "L1.T8"),
        ("1", "as blue warehouse {warehouse}", "L1.T9"),
        ("1", "as blue trade red give {card}", "L1.T7"),
        ("1", "as blue buy armour", "L1.T6"),
        ("3", "as blue sell {card}", "L3.T3"),
    ],
)
def test_L1_T7_own_turn_an_out_of_turn_refusal_cites_the_action_rule(
    kit, level: str, action: str, own: str
) -> None:
    state = kit.deal(level, 2, 3)
    state = kit.give(state, "blue", "hematite")
    card = state.player("blue").raw_cards[0]
    text = action.format(card=card, warehouse=state.warehouse[0])
    ruling = check(state, parse_action(text), kit.catalog)
    assert ruling.verdict == "forbidden"
    assert ruling.rules == ("L1.T1", own, "L1.T7-own-turn")
    assert "Red's turn" in ruling.reason_en


def test_an_out_of_turn_take_cites_only_the_turn_rule(kit) -> None:
    state = kit.deal("2", 2, 3)
    ruling = check(state, parse_action("as blue take 1"), kit.catalog)
    assert ruling.rules == ("L2.T1",)
