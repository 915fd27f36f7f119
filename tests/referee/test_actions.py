"""Actions: the text form reads into the right model for every verb, ``as PLAYER`` names the
actor, mistakes give an ActionError with a message, and the JSON form round-trips."""

from __future__ import annotations

import json
import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mhp_cards.errors import MhpError
from mhp_cards.referee import Action, ActionError, action_from_json, format_action, parse_action
from mhp_cards.referee.actions import (
    BuyRaw,
    BuyUpgrade,
    Claim,
    EndTurn,
    FreeToken,
    KeepInstallation,
    Move,
    PickDrawn,
    ProductRef,
    React,
    ResolveFight,
    Retreat,
    SellRaw,
    TakeRaw,
    TakeSpoils,
    Trade,
)

P = ProductRef(installation=2, card="2А", container=1)

TEXTS = [
    ("move 3,4", Move(path=((3, 4),))),
    ("move 3,4 3,5", Move(path=((3, 4), (3, 5)))),
    ("move -1,0", Move(path=((-1, 0),))),
    ("fight", ResolveFight()),
    ("fight 4:2", ResolveFight(rounds=((4, 2),))),
    ("fight 3:3 5:1", ResolveFight(rounds=((3, 3), (5, 1)))),
    ("fight 4:2,5", ResolveFight(rounds=((4, 2, 5),))),
    ("spoils a#1 b#2", TakeSpoils(cards=("a#1", "b#2"))),
    ("spoils", TakeSpoils()),
    ("retreat 2,3", Retreat(cell=(2, 3))),
    ("retreat -1,0", Retreat(cell=(-1, 0))),
    ("retreat", Retreat()),
    ("buy solar-battery", BuyUpgrade(upgrade="solar-battery")),
    ("buy armour", BuyUpgrade(upgrade="armour")),
    ("sell hematite#2", SellRaw(card="hematite#2")),
    ("warehouse hematite#1", BuyRaw(card="hematite#1")),
    ("take 2", TakeRaw(pile=2)),
    ("keep 5", KeepInstallation(installation=5)),
    ("pick water-ice#3", PickDrawn(card="water-ice#3")),
    ("react 2 co2#1 water-ice#3", React(installation=2, cards=("co2#1", "water-ice#3"))),
    ("react 9", React(installation=9, cards=())),
    ("free 2:2А:1 bank 5", FreeToken(product=P, how="sell-bank", price=5)),
    ("free 2:2А:1 dump", FreeToken(product=P, how="dump")),
    ("free 2:2А:1 to blue 4", FreeToken(product=P, how="sell-player", partner="blue", price=4)),
    (
        "trade blue give a#1 get b#2 pay 3",
        Trade(partner="blue", give=("a#1",), receive=("b#2",), pay=3),
    ),
    ("trade blue give a#1 a#2", Trade(partner="blue", give=("a#1", "a#2"))),
    ("trade blue get b#2 pay -2", Trade(partner="blue", receive=("b#2",), pay=-2)),
    ("claim M1", Claim(mission="M1")),
    ("claim M1 co2#1 water-ice#2", Claim(mission="M1", cards=("co2#1", "water-ice#2"))),
    ("end", EndTurn()),
    ("END", EndTurn()),
    ("  move   3,4  ", Move(path=((3, 4),))),
]


@pytest.mark.parametrize(("text", "expected"), TEXTS, ids=[t for t, _ in TEXTS])
def test_text_form_reads_every_verb(text, expected) -> None:
    action = parse_action(text)
    assert action == expected
    assert type(action) is type(expected)
    assert action.player is None


@pytest.mark.parametrize(("text", "expected"), TEXTS, ids=[t for t, _ in TEXTS])
def test_as_player_names_the_actor(text, expected) -> None:
    action = parse_action(f"as blue {text}")
    assert action == expected.model_copy(update={"player": "blue"})


def test_every_kind_of_action_has_a_text_form() -> None:
    models = typing.get_args(typing.get_args(Action)[0])
    kinds = {model.model_fields["kind"].default for model in models}
    assert len(kinds) == len(models) == 15
    assert {a.kind for _, a in TEXTS} == kinds


ERRORS = [
    ("", "empty action"),
    ("   ", "empty action"),
    ("as blue", "empty action"),
    ("fly 3,4", "unknown action"),
    ("as", "unknown action"),
    ("move 3;4", "not a cell"),
    ("move 3", "not a cell"),
    ("move a,b", "not a cell"),
    ("fight 4:x", "cannot read"),
    ("fight retreat", "chosen after the dice"),
    ("fight 6:1 take a#1", "'spoils CARD …' by the winner, then 'retreat X,Y' by the loser"),
    ("retreat 2;3", "not a cell"),
    ("retreat 2,3 4,5", "'retreat' is complete"),
    ("buy rocket", "buy solar-battery | buy armour"),
    ("buy", "cannot read"),
    ("sell", "cannot read"),
    ("warehouse", "cannot read"),
    ("take", "cannot read"),
    ("take x", "cannot read"),
    ("take 4", "cannot read"),
    ("take 0", "cannot read"),
    ("react", "cannot read"),
    ("react two co2#1", "cannot read"),
    ("free 2:2B:1 dump", "write 2Б if you mean the card printed 2B in the English edition"),
    ("free 2:2Z:1 dump", "not a card ID"),
    ("free 2:2А bank 5", "not a product place"),
    ("free x:2А:1 dump", "not a product place"),
    ("free 2:2А:1 give", "free … bank PRICE | dump | to PLAYER PRICE"),
    ("free 2:2А:1 bank", "cannot read"),
    ("free 2:2А:1 bank -1", "cannot read"),
    ("free 2:2А:1 to blue", "cannot read"),
    ("trade", "cannot read"),
    ("trade blue pay x", "cannot read"),
    ("claim", "cannot read"),
]


@pytest.mark.parametrize(("text", "message"), ERRORS, ids=[t or "<empty>" for t, _ in ERRORS])
def test_mistakes_give_an_action_error_with_a_message(text, message) -> None:
    with pytest.raises(ActionError) as caught:
        parse_action(text)
    assert isinstance(caught.value, MhpError)
    assert isinstance(caught.value, ValueError)
    assert message in str(caught.value)
    assert "Traceback" not in str(caught.value)


@pytest.mark.parametrize("text", ["sell a#1 b#2", "warehouse a#1 b#2", "take 2 3", "buy armour x"])
def test_words_after_a_complete_action_are_refused(text) -> None:
    with pytest.raises(ActionError):
        parse_action(text)


@pytest.mark.parametrize(("text", "expected"), TEXTS, ids=[t for t, _ in TEXTS])
def test_json_form_round_trips(text, expected) -> None:
    for action in (expected, expected.model_copy(update={"player": "green"})):
        assert action_from_json(action.model_dump()) == action
        data = json.loads(json.dumps(action.model_dump(mode="json")))
        again = action_from_json(data)
        assert again == action
        assert type(again) is type(action)
        assert action_from_json(action.model_dump(mode="json", exclude_none=True)) == action


def test_json_form_reads_minimal_documents() -> None:
    assert action_from_json({"kind": "end"}) == EndTurn()
    assert action_from_json({"kind": "move", "path": [[4, 2], [4, 1]]}) == Move(
        path=((4, 2), (4, 1))
    )
    assert action_from_json(
        {
            "kind": "free",
            "product": {"installation": 2, "card": "2А", "container": 1},
            "how": "dump",
            "player": "red",
        }
    ) == FreeToken(player="red", product=P, how="dump")


@pytest.mark.parametrize(
    "document",
    [
        {},
        {"kind": "fly"},
        {"kind": "move", "path": "3,4"},
        {"kind": "take", "pile": 7},
        {"kind": "buy", "upgrade": "rocket"},
        {"kind": "end", "extra": 1},
        {"kind": "free", "product": {"installation": 2}, "how": "dump"},
        {"kind": "free", "product": P.model_dump(), "how": "burn"},
        {"kind": "free", "product": P.model_dump(), "how": "sell-bank", "price": -1},
        [],
        "end",
    ],
)
def test_json_form_refuses_what_is_no_action(document) -> None:
    with pytest.raises(ValueError, match="validation error"):
        action_from_json(document)


def test_actions_are_frozen_values() -> None:
    action = parse_action("move 3,4")
    with pytest.raises(ValueError, match="frozen"):
        action.path = ((1, 1),)  # type: ignore[misc]
    assert hash(action) == hash(parse_action("move 3,4"))


cells = st.tuples(st.integers(-50, 50), st.integers(-50, 50))
ids = st.from_regex(r"[a-z][a-z0-9-]{0,12}#[1-9][0-9]?", fullmatch=True)
dice = st.integers(1, 6)


@settings(max_examples=200, deadline=None)
@given(
    path=st.lists(cells, min_size=1, max_size=3),
    rounds=st.lists(st.tuples(dice, dice) | st.tuples(dice, dice, dice), max_size=3),
    take=st.lists(ids, max_size=3).map(tuple),
    retreat=st.none() | cells,
    player=st.none() | st.sampled_from(["red", "blue"]),
)
def test_generated_actions_survive_text_and_json(path, rounds, take, retreat, player) -> None:
    prefix = f"as {player} " if player else ""
    move = parse_action(prefix + "move " + " ".join(f"{x},{y}" for x, y in path))
    assert move == Move(player=player, path=tuple(path))
    words = [":".join([str(r[0]), ",".join(str(v) for v in r[1:])]) for r in rounds]
    fight = parse_action(prefix + " ".join(["fight", *words]))
    assert fight == ResolveFight(player=player, rounds=tuple(rounds))
    spoils = parse_action(prefix + " ".join(["spoils", *take]))
    assert spoils == TakeSpoils(player=player, cards=take)
    where = "" if retreat is None else f" {retreat[0]},{retreat[1]}"
    back = parse_action(prefix + "retreat" + where)
    assert back == Retreat(player=player, cell=retreat)
    for action in (move, fight, spoils, back):
        assert action_from_json(json.loads(json.dumps(action.model_dump(mode="json")))) == action


@pytest.mark.parametrize(("text", "expected"), TEXTS, ids=[t for t, _ in TEXTS])
def test_the_text_form_round_trips(text, expected) -> None:
    assert parse_action(format_action(expected)) == expected
    as_green = expected.model_copy(update={"player": "green"})
    assert format_action(as_green).startswith("as green ")
    assert parse_action(format_action(as_green)) == as_green


@pytest.mark.parametrize(
    ("text", "column", "expected", "example"),
    [
        ("free 2:2А:1 bank", 17, "the price is missing", "free 2:2А:1 bank 5"),
        ("trade", 6, "the partner is missing", "trade blue give hematite#1 get 2:2А:1 pay 2"),
        ("take 9", 6, "the pile is from 1 to 3, not 9", "take 2"),
        ("take 2 3", 8, "'take' is complete; 1 more word(s) after it", "take 2"),
        ("react x", 7, "the installation number is a whole number, not 'x'", "react 2"),
        ("as blue claim", 14, "the mission is missing", "claim M1"),
    ],
)
def test_a_mistake_is_located_with_the_form_and_an_example(
    text: str, column: int, expected: str, example: str
) -> None:
    with pytest.raises(ActionError) as caught:
        parse_action(text)
    error = caught.value
    assert error.column == column
    assert expected in error.message
    assert example in error.message
    assert "validation error" not in str(error)
    assert "index out of range" not in str(error)
    assert str(error).splitlines()[-1] == " " * (2 + column - 1) + "^"


@pytest.mark.parametrize(
    ("text", "expected", "column"),
    [
        ('{"kind": "take", "pile": 9}', "pile: 9 is too large (at most 3)", 1),
        ('{"kind": "fly"}', "'kind' must be one of move, fight", 1),
        ('{"kind": "take"', "not JSON", 16),
        ('{"kind": "free", "how": "dump"}', "product: missing (add product: …)", 1),
    ],
)
def test_the_json_text_form_gives_a_clean_located_error(text, expected, column) -> None:
    from mhp_cards.referee.actions import parse_action_json

    with pytest.raises(ActionError) as caught:
        parse_action_json(text)
    assert expected in caught.value.message
    assert caught.value.column == column
    assert "validation error" not in str(caught.value)
    assert "pydantic" not in str(caught.value)


def test_the_json_text_form_reads_a_listed_action() -> None:
    from mhp_cards.referee.actions import parse_action_json

    assert parse_action_json('{"text": "take 2", "kind": "take", "pile": 2}') == TakeRaw(pile=2)


def test_a_latin_a_in_a_product_place_reads_as_the_cyrillic_letter() -> None:
    """«No container 1:1A:1» came from a Latin A compared with the card's Cyrillic 1А."""
    action = parse_action("free 1:1A:1 dump")
    assert isinstance(action, FreeToken)
    assert action.product.card == "1А"
