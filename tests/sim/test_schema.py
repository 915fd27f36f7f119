"""The JSON Schema of ``mhp simulate --json``: committed as generated, and the output obeys it."""

from __future__ import annotations

import json

import jsonschema
import pytest

from mhp_cards.catalog.models import Catalog
from mhp_cards.resources import default_catalog_dir
from mhp_cards.sim import simulate
from mhp_cards.sim.schema import SIMULATE_SCHEMA, simulate_schema, simulate_schema_text

COMMITTED = default_catalog_dir() / "schema" / SIMULATE_SCHEMA


def test_the_committed_schema_is_the_generated_one() -> None:
    assert COMMITTED.read_text(encoding="utf-8") == simulate_schema_text()


def test_the_schema_names_every_field_of_the_issue() -> None:
    required = set(simulate_schema()["required"])
    assert required >= {
        "level", "players", "games", "seed", "policy", "ended", "missions", "wins_by_seat",
        "seat_win_rate", "steps", "rounds", "installations", "games_per_second",
    }  # fmt: skip


@pytest.mark.parametrize(("level", "players"), [("1", 2), ("2", 4), ("1v1", 2), ("3", 3)])
def test_the_output_validates(catalog: Catalog, level: str, players: int) -> None:
    schema = json.loads(COMMITTED.read_text(encoding="utf-8"))
    document = simulate(catalog, level, players, 2, seed=1, max_steps=100, workers=1).to_json()
    jsonschema.Draft202012Validator(schema).validate(json.loads(json.dumps(document)))


def test_the_schema_refuses_a_broken_output(catalog: Catalog) -> None:
    schema = json.loads(COMMITTED.read_text(encoding="utf-8"))
    document = simulate(catalog, "1", 2, 1, seed=1, max_steps=20, workers=1).to_json()
    del document["seat_win_rate"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema).validate(document)
