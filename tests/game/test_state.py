"""The game state: a frozen value, a lossless JSON round trip, the committed JSON Schema."""

from __future__ import annotations

import json

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from mhp_cards.game import SHAPES, GameState, deal
from mhp_cards.game.state import Cell, FieldState, MissionState, Player
from mhp_cards.resources import default_catalog_dir
from mhp_cards.rules.numbers import HouseRules
from mhp_cards.validate import load_catalog

LEVEL_PLAYERS = [
    *(("1", n) for n in range(2, 6)),
    *(("2", n) for n in range(2, 6)),
    ("1v1", 2),
    *(("3", n) for n in range(2, 6)),
]
CATALOG = load_catalog()


@pytest.fixture(scope="module")
def state_schema() -> jsonschema.Draft202012Validator:
    path = default_catalog_dir() / "schema" / "game-state.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def assert_round_trip(state: GameState, validator: jsonschema.Draft202012Validator) -> None:
    text = state.to_json()
    again = GameState.from_json(text)
    assert again == state
    assert again.to_json() == text, "a second round trip changes the JSON text"
    assert GameState.from_json(again.to_json()) == state
    errors = sorted(validator.iter_errors(json.loads(text)), key=str)
    assert not errors, "\n".join(error.message for error in errors)


# --- JSON round trip and schema -------------------------------------------------------------------


@pytest.mark.parametrize(("level", "players"), LEVEL_PLAYERS)
@pytest.mark.parametrize("shape", SHAPES)
def test_dealt_states_round_trip_and_match_the_schema(
    dealt, state_schema, level: str, players: int, shape: str
) -> None:
    assert_round_trip(dealt(level, players, 42, shape), state_schema)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    level_players=st.sampled_from(LEVEL_PLAYERS),
    seed=st.integers(min_value=0, max_value=2**63),
    shape=st.sampled_from(SHAPES),
    evenly=st.booleans(),
)
def test_any_deal_round_trips_and_matches_the_schema(
    state_schema, level_players: tuple[str, int], seed: int, shape: str, evenly: bool
) -> None:
    level, players = level_players
    house_rules = ("deal-evenly",) if evenly else ()
    state = deal(CATALOG, level, players, seed, shape, house_rules)
    assert_round_trip(state, state_schema)


def test_a_played_looking_state_round_trips(dealt, state_schema) -> None:
    """Values a dealt state never has (collected cells, hands, tokens, upgrades) survive too."""
    state = dealt("3", 3, 5, "ring")
    cells = list(state.field.cells)
    taken = [cells[0].raw, cells[1].raw]
    cells[0] = cells[0].model_copy(update={"raw": None})
    cells[1] = cells[1].model_copy(update={"raw": None})
    red = state.players[0]
    combine = red.combine.model_copy(
        update={"position": cells[1].position, "solar_battery": True, "armour": True, "moved": True}
    )
    installation = state.installations[0]
    containers = list(installation.containers)
    index = next(i for i, c in enumerate(containers) if c.role == "product")
    containers[index] = containers[index].model_copy(
        update={"places": (red.id,) * len(containers[index].places)}
    )
    mission = state.missions[0]
    formula, places = mission.places[0]
    state = state.model_copy(
        update={
            "field": state.field.model_copy(update={"cells": tuple(cells)}),
            "players": (
                red.model_copy(update={"raw_cards": tuple(taken), "money": 3, "combine": combine}),
                *state.players[1:],
            ),
            "bank": state.bank - 3,
            "installations": (
                installation.model_copy(update={"containers": tuple(containers)}),
                *state.installations[1:],
            ),
            "missions": (
                mission.model_copy(
                    update={"places": ((formula, (red.id, *places[1:])), *mission.places[1:])}
                ),
                *state.missions[1:],
            ),
            "turn": 2,
            "round": 4,
            "house_rules": HouseRules.from_names(["armour-sum", "diagonal-adjacency"]),
        }
    )
    assert_round_trip(state, state_schema)


def test_json_is_plain_text_with_the_version(dealt) -> None:
    document = json.loads(dealt("2", 3, 1).to_json())
    assert document["version"] == 1
    assert document["level"] == "2"
    assert document["seed"] == 1
    assert isinstance(document["rng"], int)
    assert 0 <= document["rng"] < 2**64


def test_large_seed_survives_json(dealt) -> None:
    state = dealt("1", 2, 2**63)
    assert GameState.from_json(state.to_json()).seed == 2**63


# --- malformed documents: the model and the schema both refuse them -------------------------------


def _document(dealt) -> dict:
    return json.loads(dealt("1", 2, 3).to_json())


@pytest.mark.parametrize(
    ("edit", "where"),
    [
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(level="4"), "level"),
        (lambda d: d.update(players=[]), "players"),
        (lambda d: d.update(bank=-1), "bank"),
        (lambda d: d.update(box_coins=-5), "box_coins"),
        (lambda d: d["players"][0].update(money=-1), "money"),
        (lambda d: d["players"][0].update(tokens=-1), "tokens"),
        (lambda d: d.update(colour="red"), "colour"),
        (lambda d: d["players"][0].update(hat=True), "hat"),
        (lambda d: d.pop("level"), "level"),
        (lambda d: d.pop("seed"), "seed"),
        (lambda d: d["field"]["cells"][0].pop("fate"), "fate"),
        (lambda d: d["field"].update(base=[1, 2, 3]), "base"),
        (lambda d: d.update(seed="seven"), "seed"),
    ],
    ids=[
        "version",
        "level",
        "no-players",
        "negative-bank",
        "negative-box",
        "negative-money",
        "negative-tokens",
        "unknown-key",
        "unknown-player-key",
        "no-level",
        "no-seed",
        "cell-without-fate",
        "base-of-three",
        "seed-text",
    ],
)
def test_malformed_state_is_refused_by_model_and_schema(
    dealt, state_schema, edit, where: str
) -> None:
    document = _document(dealt)
    edit(document)
    with pytest.raises(ValidationError) as caught:
        GameState.model_validate_json(json.dumps(document))
    assert where in str(caught.value)
    assert list(state_schema.iter_errors(document)), "the schema accepts what the model refuses"


def test_from_json_refuses_text_that_is_not_json() -> None:
    with pytest.raises(ValidationError):
        GameState.from_json("not json")
    with pytest.raises(ValidationError):
        GameState.from_json("[1, 2]")


# --- a value --------------------------------------------------------------------------------------


def test_state_is_frozen(dealt) -> None:
    state = dealt("1", 2, 3)
    with pytest.raises(ValidationError):
        state.bank = 0
    with pytest.raises(ValidationError):
        state.players[0].money = 5
    with pytest.raises(ValidationError):
        state.field.cells[0].raw = None


def test_model_copy_leaves_the_original(dealt) -> None:
    state = dealt("1", 2, 3)
    text = state.to_json()
    changed = state.model_copy(update={"bank": 0})
    assert changed.bank == 0
    assert state.to_json() == text
    assert changed != state


# --- helpers of the model -------------------------------------------------------------------------


def test_players_and_current(dealt) -> None:
    state = dealt("2", 3, 1)
    assert [p.id for p in state.players] == ["red", "blue", "green"]
    assert state.current is state.players[0]
    assert state.model_copy(update={"turn": 2}).current.id == "green"
    assert state.player("blue") is state.players[1]
    with pytest.raises(KeyError):
        state.player("black")


def test_field_helpers() -> None:
    field = FieldState(
        base=(1, 1), cells=(Cell(x=0, y=1, fate="fate#1"), Cell(x=2, y=1, fate="fate#2", raw="a#1"))
    )
    assert field.cell_at((2, 1)).raw == "a#1"
    assert field.cell_at((1, 1)) is None
    assert field.cell_at((5, 5)) is None
    assert field.positions == {(0, 1), (1, 1), (2, 1)}
    assert field.cells[0].position == (0, 1)


def test_raw_locations_name_every_place() -> None:
    state = GameState(
        level="3",
        seed=0,
        rng=0,
        players=(Player(id="red", raw_cards=("c#1",)), Player(id="blue")),
        field=FieldState(
            base=(0, 0),
            cells=(Cell(x=1, y=0, fate="fate#1", raw="a#1"), Cell(x=2, y=0, fate="fate#2")),
        ),
        warehouse=("b#1", "b#2"),
        piles=(("p#1",), (), ("p#2", "p#3")),
        discard=("d#1",),
    )
    assert sorted(state.raw_locations()) == sorted(
        [
            ("a#1", "field (1, 0)"),
            ("b#1", "warehouse"),
            ("b#2", "warehouse"),
            ("p#1", "pile 1"),
            ("p#2", "pile 3"),
            ("p#3", "pile 3"),
            ("c#1", "hand of red"),
            ("d#1", "discard"),
        ]
    )


def test_tokens_placed_counts_installations_and_missions(dealt) -> None:
    state = dealt("2", 2, 4)
    installation = state.installations[0]
    containers = list(installation.containers)
    products = [i for i, c in enumerate(containers) if c.role == "product"]
    first = products[0]
    containers[first] = containers[first].model_copy(
        update={"places": ("red",) + (None,) * (len(containers[first].places) - 1)}
    )
    mission = state.missions[1]
    formula, places = mission.places[0]
    placed = state.model_copy(
        update={
            "installations": (
                installation.model_copy(update={"containers": tuple(containers)}),
                *state.installations[1:],
            ),
            "missions": (
                state.missions[0],
                mission.model_copy(
                    update={"places": ((formula, ("red", *places[1:])), *mission.places[1:])}
                ),
                *state.missions[2:],
            ),
        }
    )
    assert state.tokens_placed("red") == 0
    assert placed.tokens_placed("red") == 2
    assert placed.tokens_placed("blue") == 0
    assert placed.free_tokens("red") == 10 - 2  # two players take 10 (Ruling L2.S7-two)
    assert placed.free_tokens("blue") == 10


def test_mission_complete_only_when_every_place_is_taken() -> None:
    empty = MissionState(id="M", places=(("CH4", (None, None)), ("O2", (None,))))
    partly = MissionState(id="M", places=(("CH4", ("red", None)), ("O2", ("blue",))))
    full = MissionState(id="M", places=(("CH4", ("red", "blue")), ("O2", ("blue",))))
    assert not empty.complete
    assert not partly.complete
    assert full.complete


def test_positions_follow_a_copied_field(dealt) -> None:
    field = dealt("1", 2, 1).field
    assert field.base in field.positions  # computed (and, if cached, remembered) here
    moved = field.model_copy(update={"base": (100, 100), "cells": field.cells[1:]})
    assert moved.positions == frozenset([(100, 100), *(cell.position for cell in moved.cells)])


def test_house_rules_are_written_as_names_and_read_from_names() -> None:
    state = deal(CATALOG, "1", 2, 3, house_rules=["diagonal-adjacency", "at-least"])
    document = json.loads(state.model_dump_json())
    assert document["house_rules"] == ["diagonal-adjacency", "at-least"]
    again = GameState.model_validate_json(state.model_dump_json())
    assert again.house_rules.diagonal_adjacency
    assert again.house_rules.mission_match == "at-least"
    assert not again.house_rules.armour_sum


def test_a_state_file_with_an_unknown_house_rule_is_refused() -> None:
    document = json.loads(deal(CATALOG, "1", 2, 3).model_dump_json())
    document["house_rules"] = ["armour-sum", "no-such-rule"]
    with pytest.raises(ValueError, match="no-such-rule"):
        GameState.model_validate(document)


@pytest.mark.parametrize("diagonal", [False, True])
def test_field_neighbours_are_the_adjacent_positions_on_the_field(diagonal) -> None:
    """Each position's neighbours: the field's positions one step away (4 or 8 ways), sorted;
    the same for every field of the geometry, and never another Base's mapping."""
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if diagonal:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    for seed in range(6):
        field = deal(CATALOG, "3", players=3, seed=seed).field
        assert field is not None
        found = field.neighbours(diagonal)
        assert found.keys() == field.positions
        for (x, y), near in found.items():
            assert list(near) == sorted(
                (x + dx, y + dy) for dx, dy in steps if (x + dx, y + dy) in field.positions
            )
        again = field.with_cards(field.cells[::-1])
        assert again.neighbours(diagonal) is found
    far = Cell(x=2, y=0, fate="fate#2")
    left = FieldState(base=(0, 0), cells=(Cell(x=1, y=0, fate="fate#1"), far))
    right = FieldState(base=(1, 0), cells=(Cell(x=0, y=0, fate="fate#1"), far))
    assert left.positions == right.positions
    assert left.neighbours(diagonal) == right.neighbours(diagonal)
    assert left.neighbours(diagonal) is not right.neighbours(diagonal)
