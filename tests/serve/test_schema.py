"""The API's JSON Schema: committed as generated, complete, and strict enough to catch a slip."""

from __future__ import annotations

import jsonschema
import pytest

from mhp_cards.resources import default_catalog_dir
from mhp_cards.serve.schema import API_SCHEMA, BODIES, api_schema, api_schema_text
from tests.serve.conftest import SCHEMA, conforms, new_game

COMMITTED = default_catalog_dir() / "schema" / API_SCHEMA


def test_the_committed_schema_is_the_generated_one() -> None:
    assert COMMITTED.read_text(encoding="utf-8") == api_schema_text()


def test_the_schema_is_valid_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(api_schema())
    assert SCHEMA["$id"].endswith(API_SCHEMA)


def test_every_body_has_a_definition() -> None:
    assert {model.__name__ for model in BODIES} <= set(SCHEMA["$defs"])


def test_a_proposal_names_its_sides_from_and_to() -> None:
    proposal = SCHEMA["$defs"]["Proposal"]
    assert {"from", "to"} <= set(proposal["required"])


def test_a_broken_answer_is_refused(client) -> None:
    game = new_game(client)
    del game["version"]
    with pytest.raises(jsonschema.ValidationError, match="'version' is a required property"):
        conforms(game, "Game")
    game = new_game(client)
    game["state"]["players"][0]["money"] = -1
    with pytest.raises(jsonschema.ValidationError):
        conforms(game, "Game")


def test_a_request_body_is_described_as_it_is_read() -> None:
    conforms({"action": "move 3,4", "version": 2}, "ActionRequest")
    conforms({"action": {"kind": "end"}, "version": 2, "player": "red"}, "ActionRequest")
    with pytest.raises(jsonschema.ValidationError):
        conforms({"action": "end"}, "ActionRequest")
    with pytest.raises(jsonschema.ValidationError):
        conforms({"mission": "M1", "cards": ["CO2"], "extra": 1}, "MissionRequest")


def test_rulings_and_events_may_carry_a_reason_code() -> None:
    ruling = {
        "verdict": "forbidden",
        "rules": ["L1.T1"],
        "reason": {"ru": "…", "en": "…"},
        "facts": {},
        "house_rules": [],
        "code": "move.already-moved",
    }
    conforms(ruling, "Ruling")
    conforms({"kind": "move", "ru": "…", "en": "…", "data": {}, "code": "move.moved"}, "Event")
    with pytest.raises(jsonschema.ValidationError):
        conforms({**ruling, "code": 5}, "Ruling")
