"""The JSON Schema of the layout files: committed, up to date, and matching the shipped files."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from mhp_cards.catalog.schema import check_schemas, render
from mhp_cards.pdf.layout import layout_schemas
from mhp_cards.resources import default_layouts_dir

LAYOUTS = default_layouts_dir()


def test_committed_layout_schemas_are_up_to_date() -> None:
    assert check_schemas(LAYOUTS / "schema", layout_schemas()) == []


def test_a_stale_layout_schema_is_detected(tmp_path: Path) -> None:
    schemas = layout_schemas()
    for name, schema in schemas.items():
        (tmp_path / name).write_text(render(schema), encoding="utf-8")
    changed = dict(schemas["sheet.schema.json"], title="Changed")
    (tmp_path / "sheet.schema.json").write_text(render(changed), encoding="utf-8")
    assert check_schemas(tmp_path, schemas) == ["sheet.schema.json"]


@pytest.mark.parametrize(
    ("file", "schema"),
    [
        *((path, "sheet.schema.json") for path in sorted((LAYOUTS / "sheets").glob("*.yaml"))),
        (LAYOUTS / "templates.yaml", "templates.schema.json"),
    ],
    ids=lambda value: getattr(value, "name", value),
)
def test_shipped_layout_files_validate(file: Path, schema: str) -> None:
    text = file.read_text(encoding="utf-8")
    assert text.splitlines()[0].endswith(f"schema/{schema}")
    validator = jsonschema.Draft202012Validator(
        json.loads((LAYOUTS / "schema" / schema).read_text(encoding="utf-8"))
    )
    assert list(validator.iter_errors(yaml.safe_load(text))) == []


def test_schema_refuses_an_unknown_key() -> None:
    validator = jsonschema.Draft202012Validator(layout_schemas()["sheet.schema.json"])
    errors = list(validator.iter_errors({"name": "x", "margins": {"topp": 3}}))
    assert errors
    assert any("topp" in error.message for error in errors)
