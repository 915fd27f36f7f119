"""The JSON Schema files: generated from the models, committed, and checked for drift."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from mhp_cards.catalog import Catalog
from mhp_cards.catalog.models import SubstancesFile
from mhp_cards.catalog.schema import (
    CATALOG_FILES,
    SCHEMA_BASE_URI,
    check_schemas,
    render,
    schema_for,
    schema_name,
    write_schemas,
)
from mhp_cards.decks.schema import DECKS_SCHEMA
from mhp_cards.resources import default_catalog_dir
from mhp_cards.serve.schema import API_SCHEMA
from mhp_cards.sim.schema import SIMULATE_SCHEMA
from mhp_cards.validate import load_catalog
from mhp_cards.validate.schemas import all_schemas

SCHEMA_DIR = default_catalog_dir() / "schema"
EXPORT_SCHEMA = "catalog.schema.json"
STATE_SCHEMA = "game-state.schema.json"
SCHEMA_FILES = [schema_name(file) for file in CATALOG_FILES] + [EXPORT_SCHEMA, STATE_SCHEMA]


def _committed(name: str) -> dict:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


@pytest.fixture
def schema_copy(tmp_path: Path) -> Path:
    target = tmp_path / "schema"
    shutil.copytree(SCHEMA_DIR, target)
    return target


# --- committed == generated ----------------------------------------------------------------------


def test_committed_schemas_are_exactly_the_generated_ones() -> None:
    """The one drift check: the same files, each with the generated text byte for byte."""
    generated = all_schemas()
    assert sorted(generated) == sorted(SCHEMA_FILES)
    # The simulator's, the table server's and the deck packs' schemas are committed here too;
    # tests/sim, tests/serve and tests/decks check them against their models.
    committed = sorted(path.name for path in SCHEMA_DIR.iterdir())
    assert committed == sorted([*SCHEMA_FILES, SIMULATE_SCHEMA, API_SCHEMA, DECKS_SCHEMA])
    assert check_schemas(SCHEMA_DIR, generated) == [], "run 'mhp schema --write' and commit"


def test_schemas_are_draft_2020_12_with_an_id() -> None:
    for name in SCHEMA_FILES:
        schema = _committed(name)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["$id"] == SCHEMA_BASE_URI + name
        jsonschema.Draft202012Validator.check_schema(schema)


def test_each_file_names_the_model_it_is_generated_from() -> None:
    """Each catalog file's schema describes its own model: its properties are the model's."""
    for file, model in CATALOG_FILES.items():
        schema = schema_for(model, schema_name(file))
        assert set(schema["properties"]) == set(model.model_fields), file
        assert schema["$id"].endswith(schema_name(file))
    assert set(schema_for(Catalog, EXPORT_SCHEMA)["properties"]) == set(Catalog.model_fields)


def test_written_schemas_are_the_canonical_text_of_each_schema(tmp_path: Path) -> None:
    schemas = {"one.schema.json": {"b": 1, "a": "ж"}, "two.schema.json": {"x": [1, 2]}}
    written = write_schemas(tmp_path / "fresh", schemas)
    assert [path.name for path in written] == list(schemas)
    assert (tmp_path / "fresh" / "one.schema.json").read_text(encoding="utf-8") == (
        '{\n  "b": 1,\n  "a": "ж"\n}\n'
    )
    assert check_schemas(tmp_path / "fresh", schemas) == []
    schemas["two.schema.json"] = {"x": [1, 3]}
    assert check_schemas(tmp_path / "fresh", schemas) == ["two.schema.json"]


# --- drift is detected -------------------------------------------------------------------------


def test_stale_schema_is_detected(schema_copy: Path) -> None:
    path = schema_copy / "substances.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["$defs"]["Substance"]["properties"]["price"]["minimum"] = 0
    path.write_text(render(schema), encoding="utf-8")
    assert check_schemas(schema_copy, all_schemas()) == ["substances.schema.json"]


def test_missing_schema_is_detected(schema_copy: Path) -> None:
    (schema_copy / EXPORT_SCHEMA).unlink()
    (schema_copy / "missions.schema.json").unlink()
    assert sorted(check_schemas(schema_copy, all_schemas())) == sorted(
        [EXPORT_SCHEMA, "missions.schema.json"]
    )


def test_reformatted_schema_is_detected(schema_copy: Path) -> None:
    """Same JSON, other layout: the committed text is canonical, so a hand edit is caught."""
    path = schema_copy / "components.schema.json"
    path.write_text(json.dumps(json.loads(path.read_text(encoding="utf-8"))), encoding="utf-8")
    assert check_schemas(schema_copy, all_schemas()) == ["components.schema.json"]


def test_model_change_without_regeneration_is_detected(monkeypatch) -> None:
    class Changed(SubstancesFile):
        """A model that gained a field after the schemas were written."""

        version: int = 1

    monkeypatch.setitem(CATALOG_FILES, "substances.yaml", Changed)
    assert check_schemas(SCHEMA_DIR, all_schemas()) == ["substances.schema.json"]


# --- the YAML files name and follow their schema ----------------------------------------------


@pytest.mark.parametrize("file", list(CATALOG_FILES))
def test_yaml_file_names_its_schema_in_the_first_line(file: str) -> None:
    first = (default_catalog_dir() / file).read_text(encoding="utf-8").splitlines()[0]
    assert first == f"# yaml-language-server: $schema=schema/{schema_name(file)}"
    assert (default_catalog_dir() / "schema" / schema_name(file)).is_file()


@pytest.mark.parametrize("file", list(CATALOG_FILES))
def test_yaml_file_validates_against_its_committed_schema(file: str) -> None:
    data = yaml.safe_load((default_catalog_dir() / file).read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(_committed(schema_name(file)))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]
    assert errors == []


def test_committed_schema_rejects_a_broken_file() -> None:
    """The schema is not vacuous: outside tools catch what the validator's schema step catches."""
    text = (default_catalog_dir() / "installations.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text.replace("substance: CaO, direction: out}", "substance: CaO}", 1))
    data["installations"][0]["cards"][1]["ports"][0]["direction"] = "inn"
    data["electrolysers"][0]["colour"] = "purple"
    validator = jsonschema.Draft202012Validator(_committed("installations.schema.json"))
    found = {(tuple(e.absolute_path), e.validator) for e in validator.iter_errors(data)}
    assert found == {
        (("installations", 0, "cards", 0, "ports", 0), "required"),
        (("installations", 0, "cards", 1, "ports", 0, "direction"), "enum"),
        (("electrolysers", 0), "additionalProperties"),
    }


# --- the export --------------------------------------------------------------------------------


def test_export_validates_against_the_catalog_schema() -> None:
    document = load_catalog().model_dump(mode="json")
    validator = jsonschema.Draft202012Validator(_committed(EXPORT_SCHEMA))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]
    assert errors == []


def test_export_round_trips_through_json() -> None:
    catalog = load_catalog()
    document = json.loads(json.dumps(catalog.model_dump(mode="json"), ensure_ascii=False))
    assert Catalog.model_validate(document) == catalog


def test_export_schema_requires_the_documented_top_level() -> None:
    schema = _committed(EXPORT_SCHEMA)
    required = set(schema["required"])
    assert {"substances", "raw_materials", "installations", "missions", "components"} <= required
    definitions = schema["$defs"]
    assert {"id", "formula", "copies"} <= set(definitions["RawMaterial"]["required"])
    assert {"number", "reaction", "cards"} <= set(definitions["Installation"]["required"])
    assert {"id", "places"} <= set(definitions["Mission"]["required"])
    assert {"formula", "count"} <= set(definitions["MissionPlace"]["required"])
    assert schema["additionalProperties"] is False


def test_no_model_reads_its_source_when_it_is_created() -> None:
    """Attribute docstrings are read when a schema is generated, not at every import."""
    import mhp_cards.catalog.models as catalog_models
    import mhp_cards.game.state as state_models
    import mhp_cards.pdf.layout as layout_models

    for module in (catalog_models, state_models, layout_models):
        assert not module.Model.model_config.get("use_attribute_docstrings"), module.__name__


def test_a_field_docstring_becomes_its_description() -> None:
    from mhp_cards.catalog.models import InstallationsFile
    from mhp_cards.catalog.schema import schema_for

    schema = schema_for(InstallationsFile, "installations.schema.json")
    optional = schema["$defs"]["Port"]["properties"]["optional"]
    assert optional["description"].startswith("May stay unconnected (an electrolyser's outlet")
