"""Spreadsheets out and back: unchanged rows leave the YAML as it was; every bad cell is named."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mhp_cards.resources import default_catalog_dir
from mhp_cards.sheets import (
    SHEETS,
    Table,
    export_tables,
    import_tables,
    read_csv_folder,
    read_xlsx,
    write_csv_folder,
    xlsx_bytes,
)

NAMES = [sheet.name for sheet in SHEETS]


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    target = tmp_path / "catalog"
    shutil.copytree(default_catalog_dir(), target)
    return target


def _edited(tables: dict[str, Table], sheet: str, edit) -> dict[str, Table]:
    rows = [list(row) for row in tables[sheet].rows]
    edit(rows)
    return {**tables, sheet: dataclasses.replace(tables[sheet], rows=tuple(map(tuple, rows)))}


def _column(sheet: str, header: str) -> int:
    return next(s for s in SHEETS if s.name == sheet).headers.index(header)


def test_the_four_sheets_hold_every_card(catalog: Path) -> None:
    tables = export_tables(catalog)
    assert {name: len(table.rows) for name, table in tables.items()} == {
        "raw_materials": 24,
        "substances": 37,
        "reactor_cards": 29,
        "missions": 4,
    }
    water = tables["raw_materials"].rows[0]
    assert water[:5] == ("water-ice", "H2O", "Водяной лёд", "Water ice", 9)
    lime_kiln = tables["reactor_cards"].rows[0]
    assert lime_kiln[_column("reactor_cards", "containers")] == "CaCO3 raw-input; CO2 product 1"
    assert lime_kiln[_column("reactor_cards", "ports")] == "bottom 2 CaO out"
    assert tables["missions"].rows[0][_column("missions", "places")] == "CH4 ×2; O2 ×4"


def test_csv_and_xlsx_round_trips_leave_every_file_byte_for_byte(
    catalog: Path, tmp_path: Path
) -> None:
    tables = export_tables(catalog)
    write_csv_folder(tables, tmp_path / "csv")
    (tmp_path / "catalog.xlsx").write_bytes(xlsx_bytes(tables))
    # A CSV cell is text; a workbook keeps numbers as numbers.
    as_text = {
        name: Table(
            t.header, tuple(tuple(None if c is None else str(c) for c in r) for r in t.rows)
        )
        for name, t in tables.items()
    }
    for read, expected in (
        (read_csv_folder(tmp_path / "csv", NAMES), as_text),
        (read_xlsx(tmp_path / "catalog.xlsx", NAMES), tables),
    ):
        assert read == expected
        result = import_tables(read, catalog)
        assert result.ok, [str(issue) for issue in result.issues]
        assert result.files == {}
        assert set(result.changed.values()) == {(0, 0, 0)}


def test_a_changed_cell_rewrites_that_value_only(catalog: Path) -> None:
    before = (catalog / "missions.yaml").read_text(encoding="utf-8")
    tables = export_tables(catalog)
    places = _column("missions", "places")

    def fewer_oxygen(rows: list[list[object]]) -> None:
        rows[0][places] = "CH4 ×2; O2 ×3"

    result = import_tables(_edited(tables, "missions", fewer_oxygen), catalog)
    assert result.ok, [str(issue) for issue in result.issues]
    assert result.changed["missions"] == (1, 0, 0)
    after = result.files[catalog / "missions.yaml"].decode("utf-8")
    changed = [
        (old, new)
        for old, new in zip(before.splitlines(), after.splitlines(), strict=True)
        if old != new
    ]
    # One line, and its comment kept.
    comment = "       # two loads of the engine's burn CH4 + 2 O2 -> CO2 + 2 H2O"
    assert changed == [
        (
            "        - {formula: O2, count: 4}" + comment,
            "        - {formula: O2, count: 3}" + comment,
        )
    ]


def test_rows_added_and_deleted(catalog: Path) -> None:
    tables = export_tables(catalog)
    before = (catalog / "raw_materials.yaml").read_text(encoding="utf-8")

    def swap(rows: list[list[object]]) -> None:
        gone = next(i for i, row in enumerate(rows) if row[0] == "ridge-hematite")
        del rows[gone]
        rows.append(["olivine", "Mg2SiO4", "Оливин", "Olivine", 1, None, None])

    result = import_tables(_edited(tables, "raw_materials", swap), catalog)
    assert result.changed["raw_materials"] == (0, 1, 1)
    after = result.files[catalog / "raw_materials.yaml"].decode("utf-8")
    assert "id: ridge-hematite" not in after
    assert after.rstrip().endswith("copies: 1")
    assert "  - id: olivine\n    formula: Mg2SiO4\n    name: {ru: Оливин, en: Olivine}\n" in after
    # Every comment line of the file is still there.
    comments = [line for line in before.splitlines() if line.lstrip().startswith("#")]
    assert all(line in after.splitlines() for line in comments)


@pytest.mark.parametrize(
    ("sheet", "header", "value", "where", "message"),
    [
        ("raw_materials", "copies", "ten", "E2", "'ten' is not a whole number"),
        (
            "reactor_cards",
            "containers",
            "CaCO3 input",
            "I2",
            "container 'CaCO3 input' is not 'substance role [places]'",
        ),
        ("reactor_cards", "ports", "north 2 CaO out", "J2", "port 'north 2 CaO out' is not"),
        ("missions", "places", "CH4 twice", "D2", "place 'CH4 twice' is not 'formula ×count'"),
        ("substances", "name.en", None, "C2", "name.en is empty"),
        ("reactor_cards", "installation", "99", "A2", "no installation '99'"),
    ],
)
def test_a_cell_that_does_not_read_is_named_and_nothing_changes(
    catalog: Path, sheet: str, header: str, value: object, where: str, message: str
) -> None:
    position = _column(sheet, header)

    def spoil(rows: list[list[object]]) -> None:
        rows[0][position] = value

    result = import_tables(_edited(export_tables(catalog), sheet, spoil), catalog)
    assert not result.ok
    [issue] = result.issues
    assert issue.file == f"{sheet}!{where}"
    assert message in issue.message
    assert result.files == {}


def test_a_duplicate_key_and_an_unknown_column_are_named(catalog: Path) -> None:
    tables = export_tables(catalog)

    def twice(rows: list[list[object]]) -> None:
        rows.append(list(rows[3]))

    result = import_tables(_edited(tables, "substances", twice), catalog)
    [issue] = result.issues
    assert issue.file == f"substances!A{len(tables['substances'].rows) + 2}"
    assert "a second row" in issue.message
    renamed = dataclasses.replace(tables["missions"], header=("id", "name.ru", "name.en", "place"))
    result = import_tables({**tables, "missions": renamed}, catalog)
    assert [issue.file for issue in result.issues] == ["missions!D1", "missions!A1"]


def test_a_catalog_error_of_the_result_is_named_at_its_cell(catalog: Path) -> None:
    formula = _column("raw_materials", "formula")

    def bad(rows: list[list[object]]) -> None:
        rows[2][formula] = "Xq2O"

    result = import_tables(_edited(export_tables(catalog), "raw_materials", bad), catalog)
    assert not result.ok
    located = [issue for issue in result.issues if issue.file == "raw_materials!B4"]
    assert located
    assert "unknown element symbol 'Xq'" in located[0].message


_SUBSTANCE = st.from_regex(r"[A-Z][a-z]?[0-9]{0,2}(\([A-Z][a-z]?[0-9]?\)[0-9])?", fullmatch=True)


@given(
    st.lists(
        st.fixed_dictionaries(
            {"substance": _SUBSTANCE, "role": st.sampled_from(["raw-input", "product", "transit"])},
            optional={"places": st.integers(1, 9)},
        ),
        max_size=5,
    ),
    st.lists(
        st.fixed_dictionaries(
            {
                "edge": st.sampled_from(["top", "right", "bottom", "left"]),
                "position": st.integers(1, 3),
                "substance": _SUBSTANCE,
                "direction": st.sampled_from(["in", "out"]),
            },
            optional={"optional": st.just(True)},
        ),
        max_size=4,
    ),
    st.lists(
        st.fixed_dictionaries({"formula": _SUBSTANCE, "count": st.integers(1, 9)}), min_size=1
    ),
)
def test_nested_values_read_back_as_written(containers, ports, places) -> None:
    cards = next(s for s in SHEETS if s.name == "reactor_cards")
    missions = next(s for s in SHEETS if s.name == "missions")
    for column, value in (
        (cards.column("containers"), containers),
        (cards.column("ports"), ports),
        (missions.column("places"), places),
    ):
        cell = column.write(value)
        # An empty list is an empty cell (and an empty cell leaves the record's list as it is).
        assert (cell is None) == (value == [])
        if cell is not None:
            assert column.read(str(cell)) == value
