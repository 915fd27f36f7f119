"""``mhp catalog export --csv/--xlsx`` and ``mhp catalog import``: a designer's round trip."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from mhp_cards.resources import default_catalog_dir


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    target = tmp_path / "catalog"
    shutil.copytree(default_catalog_dir(), target)
    return target


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.yaml"))}


def test_export_then_import_changes_nothing(cli, catalog: Path, tmp_path: Path) -> None:
    before = _snapshot(catalog)
    exported = cli(
        "catalog",
        "export",
        "--catalog",
        str(catalog),
        "--csv",
        str(tmp_path / "csv"),
        "--xlsx",
        str(tmp_path / "c.xlsx"),
    )
    assert exported.exit_code == 0, exported.stdout
    assert (
        exported.stdout.splitlines()[-1]
        == "rows: raw_materials 24, substances 37, reactor_cards 29, missions 4"
    )
    for source in (("--csv", str(tmp_path / "csv")), ("--xlsx", str(tmp_path / "c.xlsx"))):
        result = cli("catalog", "import", "--catalog", str(catalog), *source)
        assert result.exit_code == 0, result.stdout + result.stderr
        assert (
            result.stdout.splitlines()[-1]
            == "the catalog already says what the sheets say: nothing to write"
        )
    assert _snapshot(catalog) == before


def test_an_edited_row_is_written_and_a_bad_cell_named(cli, catalog: Path, tmp_path: Path) -> None:
    folder = tmp_path / "csv"
    cli("catalog", "export", "--catalog", str(catalog), "--csv", str(folder))
    path = folder / "substances.csv"
    with path.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.reader(stream))
    water = next(i for i, row in enumerate(rows) if row[0] == "H2O")

    def price(value: str) -> None:
        rows[water][3] = value
        with path.open("w", encoding="utf-8", newline="") as stream:
            csv.writer(stream, lineterminator="\n").writerows(rows)

    before = (catalog / "substances.yaml").read_text(encoding="utf-8")
    price("2")
    dry = cli("catalog", "import", "--catalog", str(catalog), "--csv", str(folder), "--dry-run")
    assert dry.exit_code == 0, dry.stderr
    assert "substances: 1 changed, 0 added, 0 removed" in dry.stdout
    assert f"would write {catalog / 'substances.yaml'}" in dry.stdout
    assert (catalog / "substances.yaml").read_text(encoding="utf-8") == before
    # Water at 0 мР: the catalog refuses it, at the cell that wrote it.
    price("0")
    result = cli("catalog", "import", "--catalog", str(catalog), "--csv", str(folder))
    assert result.exit_code == 1
    assert f"substances!D{water + 1}: error" in result.stderr
    assert (catalog / "substances.yaml").read_text(encoding="utf-8") == before
    price("one")
    result = cli("catalog", "import", "--catalog", str(catalog), "--csv", str(folder))
    assert result.exit_code == 1
    assert f"substances!D{water + 1}: error: 'one' is not a whole number" in result.stderr
    assert result.stderr.splitlines()[-1] == "nothing written: 1 problem(s)"


def test_a_valid_edit_is_written(cli, catalog: Path, tmp_path: Path) -> None:
    folder = tmp_path / "csv"
    cli("catalog", "export", "--catalog", str(catalog), "--csv", str(folder))
    path = folder / "raw_materials.csv"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace("Водяной лёд,Water ice", "Водяной лёд,Water-ice deposit"), encoding="utf-8"
    )
    result = cli("catalog", "import", "--catalog", str(catalog), "--csv", str(folder))
    assert result.exit_code == 0, result.stderr
    assert f"wrote {catalog / 'raw_materials.yaml'}" in result.stdout
    assert "name: {ru: Водяной лёд, en: Water-ice deposit}" in (
        catalog / "raw_materials.yaml"
    ).read_text(encoding="utf-8")


def test_usage(cli, catalog: Path, tmp_path: Path) -> None:
    both = cli("catalog", "import", "--catalog", str(catalog), "--csv", "a", "--xlsx", "b")
    assert both.exit_code == 2
    assert "give one of --csv DIR or --xlsx FILE" in both.stderr
    nowhere = cli("catalog", "import", "--catalog", str(tmp_path), "--csv", str(tmp_path))
    assert nowhere.exit_code == 2
    assert "is not a catalog directory" in nowhere.stderr
