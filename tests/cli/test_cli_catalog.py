"""``mhp validate``, ``mhp catalog export`` and ``mhp schema``, on the default and broken games."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest

from mhp_cards.catalog.schema import render, schema_name
from mhp_cards.resources import default_catalog_dir
from mhp_cards.validate.loader import check_names

CARET = "‸"


def _edit(directory: Path, file: str, old: str, new: str) -> str:
    """Replace the one ``old`` by ``new`` in ``file``; return ``file:line:column`` of the ‸."""
    path = directory / file
    text = path.read_bytes().decode("utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {file}"
    start = text.index(old) + new.index(CARET)
    edited = text.replace(old, new.replace(CARET, ""), 1)
    path.write_bytes(edited.encode("utf-8"))
    line = edited.count("\n", 0, start) + 1
    column = start - (edited.rfind("\n", 0, start) + 1) + 1
    return f"{file}:{line}:{column}"


@pytest.fixture
def catalog_dir(tmp_path: Path) -> Path:
    target = tmp_path / "catalog"
    shutil.copytree(default_catalog_dir(), target)
    return target


@pytest.fixture
def broken(catalog_dir: Path) -> tuple[Path, list[str]]:
    """A copy with three defects in three files; their expected locations."""
    locations = [
        _edit(catalog_dir, "installations.yaml", "      - id: 5А\n", "      - id: 5‸A\n"),
        _edit(
            catalog_dir,
            "substances.yaml",
            "  - formula: Fe2O3\n",
            "  - formula: Fe2‸Xx3\n",
        ),
        _edit(
            catalog_dir,
            "components.yaml",
            "fate_cards: {count: 72}",
            'fate_cards: {count: ‸"72"}',
        ),
    ]
    return catalog_dir, locations


# --- mhp validate --------------------------------------------------------------------------------


def test_validate_default_catalog(cli) -> None:
    result = cli("validate")
    assert result.exit_code == 0, result.stdout
    lines = result.stdout.splitlines()
    assert lines[0] == f"Catalog: {default_catalog_dir()}"
    # Every check passes without a warning (every raw kind of the deck serves).
    for name, description in check_names():
        assert any(line.split() == ["✓", name, *description.split()] for line in lines), name
    assert lines[-1] == "VALID: 0 error(s), 0 warning(s)"
    assert result.stderr == ""


def test_validate_explicit_directory(cli, catalog_dir: Path) -> None:
    result = cli("validate", str(catalog_dir))
    assert result.exit_code == 0
    assert f"Catalog: {catalog_dir}" in result.stdout
    assert result.stdout.rstrip().endswith("VALID: 0 error(s), 0 warning(s)")


def test_validate_broken_catalog_reports_locations_grouped_by_file(cli, broken) -> None:
    directory, locations = broken
    result = cli("validate", str(directory))
    assert result.exit_code == 1
    out = result.stdout
    lines = out.splitlines()
    for location in locations:
        assert f"  {location}: error:" in out, location
    # grouped: one header per file, its issues indented beneath it
    for file in ("installations.yaml", "substances.yaml", "components.yaml"):
        assert lines.count(f"{file}:") == 1
        start = lines.index(f"{file}:") + 1
        block = []
        for line in lines[start:]:
            if not line.startswith("  "):
                break
            block.append(line)
        assert block
        assert all(line.startswith(f"  {file}:") for line in block), block
    components = lines[lines.index("components.yaml:") + 1 :]
    assert components[0].startswith(f"  {locations[2]}: error: components.fate_cards.count:")
    # the failing checks are marked, the message and the hint are shown
    assert any(line.split()[:2] == ["✗", "card-ids"] for line in lines)
    assert any(line.split()[:2] == ["✗", "schema"] for line in lines)
    assert "card ID '5A' uses the Latin letter 'A' (write the Cyrillic 'А': 5А)" in out
    assert "'72' is text, expected a whole number" in out
    assert "formula 'Fe2Xx3': unknown element symbol 'Xx'" in out
    assert lines[-1].startswith("INVALID: ")
    assert "Traceback" not in out + result.stderr


def test_validate_json(cli, broken) -> None:
    directory, locations = broken
    result = cli("validate", str(directory), "--json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["valid"] is False
    assert document["directory"] == str(directory)
    assert document["errors"] == sum(i["severity"] == "error" for i in document["issues"]) >= 3
    assert document["warnings"] == sum(i["severity"] == "warning" for i in document["issues"])
    assert document["checks"]["card-ids"] != "ok"
    for issue in document["issues"]:
        assert set(issue) >= {"check", "severity", "file", "line", "column", "path", "message"}
        assert isinstance(issue["line"], int)
        assert isinstance(issue["column"], int)
        assert issue["message"]
    found = {f"{i['file']}:{i['line']}:{i['column']}": i for i in document["issues"]}
    for location in locations:
        assert location in found, location
    latin = found[locations[0]]
    assert latin["check"] == "card-ids"
    assert re.fullmatch(r"installations\[\d+\]\.cards\[\d+\]\.id", latin["path"])
    assert latin["hint"] == "write the Cyrillic 'А': 5А"


def test_validate_json_default_catalog(cli) -> None:
    result = cli("validate", "--json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["valid"] is True
    assert (document["errors"], document["warnings"]) == (0, 0)
    assert document["issues"] == []
    assert list(document["checks"]) == [name for name, _ in check_names()]


def test_validate_warnings_only_exits_0(cli, catalog_dir: Path) -> None:
    _edit(
        catalog_dir,
        "substances.yaml",
        "en: Iron}\n    price: 9",
        "en: Iron}\n    price: ‸7",
    )
    result = cli("validate", str(catalog_dir))
    assert result.exit_code == 0
    assert "warning:" in result.stdout
    assert result.stdout.splitlines()[-1] == "VALID: 0 error(s), 1 warning(s)"


def test_validate_missing_directory(cli, tmp_path: Path) -> None:
    result = cli("validate", str(tmp_path / "nowhere"))
    assert result.exit_code == 1
    assert "no catalog directory at" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


# --- mhp catalog export --------------------------------------------------------------------------


def test_export_json(cli) -> None:
    result = cli("catalog", "export", "--json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert {"substances", "raw_materials", "installations", "missions", "components"} <= set(
        document
    )
    assert len(document["raw_materials"]) >= 24
    for raw in document["raw_materials"]:
        assert isinstance(raw["id"], str)
        assert isinstance(raw["formula"], str)
        assert isinstance(raw["copies"], int)
        assert raw["copies"] >= 1
    for installation in document["installations"]:
        assert isinstance(installation["number"], int)
        assert isinstance(installation["reaction"], str)
        assert 2 <= len(installation["cards"]) <= 4
    assert len(document["missions"]) == 4
    for mission in document["missions"]:
        assert isinstance(mission["id"], str)
        assert mission["places"]
        for place in mission["places"]:
            assert set(place) == {"formula", "count"}
    assert document["components"]["coins"] == {"count": 50}
    schema_path = default_catalog_dir() / "schema" / "catalog.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(document)


def test_export_json_keeps_cyrillic_readable(cli) -> None:
    result = cli("catalog", "export", "--json")
    assert "Известковый завод" in result.stdout
    assert "\\u04" not in result.stdout


def test_export_summary_without_json(cli) -> None:
    result = cli("catalog", "export")
    assert result.exit_code == 0
    assert "installations" in result.stdout
    assert "add --json for the document" in result.stdout


def test_export_of_broken_catalog_fails_cleanly(cli, broken) -> None:
    directory, locations = broken
    result = cli("catalog", "export", "--json", "--catalog", str(directory))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert "error(s)" in result.stderr
    assert any(location in result.stderr for location in locations)
    assert "Traceback" not in result.stderr


# --- mhp schema --------------------------------------------------------------------------------


def test_schema_check_committed(cli) -> None:
    result = cli("schema", "--check")
    assert result.exit_code == 0
    assert result.stdout.startswith("up to date: ")


def test_schema_check_stale_dir(cli, tmp_path: Path) -> None:
    stale = tmp_path / "schema"
    shutil.copytree(default_catalog_dir() / "schema", stale)
    path = stale / schema_name("missions.yaml")
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["$defs"]["MissionCard"]["properties"]["missions"]["minItems"] = 3
    path.write_text(render(schema), encoding="utf-8")

    result = cli("schema", "--check", "--dir", str(stale))

    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"stale: {path}",
        "run 'mhp schema --write' to regenerate",
    ]


def test_schema_write_then_check(cli, tmp_path: Path) -> None:
    target = tmp_path / "fresh"
    written = cli("schema", "--write", "--dir", str(target))
    assert written.exit_code == 0
    assert (
        len(written.stdout.splitlines()) == 8
    )  # the catalog files, the export, the state, the deck packs
    checked = cli("schema", "--check", "--dir", str(target))
    assert checked.exit_code == 0
    for path in target.iterdir():
        assert path.read_bytes() == (default_catalog_dir() / "schema" / path.name).read_bytes()


def test_schema_prints_every_schema(cli) -> None:
    result = cli("schema")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert set(document) == {
        *(schema_name(f) for f in ("substances.yaml", "raw_materials.yaml", "installations.yaml")),
        *(schema_name(f) for f in ("missions.yaml", "components.yaml")),
        "catalog.schema.json",
        "game-state.schema.json",
        "sheet.schema.json",
        "templates.schema.json",
        "manifest.schema.json",
    }


def test_catalog_figures_prints_the_figures_of_play(cli) -> None:
    from mhp_cards.validate import load_catalog
    from mhp_cards.validate.figures import catalog_figures, figures_markdown

    result = cli("catalog", "figures")
    assert result.exit_code == 0
    assert result.stdout == figures_markdown(catalog_figures(load_catalog()))
    assert "| 2 | CO2 + H2O | CH4 + H2O + O2 |" in result.stdout  # no H2: it is piped
    document = json.loads(cli("catalog", "figures", "--json").stdout)
    two = next(i for i in document["installations"] if i["number"] == 2)
    assert (two["value_in"], two["value_out"]) == (3, 11)  # CO2 (2) + H2O (1) laid
    assert document["idle_kinds"] == []  # every raw kind of the default deck serves


def test_catalog_figures_of_a_broken_catalog_is_located(cli, catalog_dir: Path) -> None:
    _edit(catalog_dir, "raw_materials.yaml", "    formula: NaCl\n", "    formula: ‸NaCQ\n")
    result = cli("catalog", "figures", "--catalog", str(catalog_dir))
    assert result.exit_code == 1
    assert "raw_materials.yaml:" in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
