"""Arrangement: the inline form, the grid, translation, and the file form."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mhp_cards.assembly.arrangement import Arrangement, read_arrangement
from mhp_cards.errors import AssemblyError, MhpError

# --- the inline form ---------------------------------------------------------------------------


def test_parse_rows_and_empty_cells() -> None:
    arrangement = Arrangement.parse(". 2А / Э 2Б")
    assert arrangement.grid() == [[None, "2А"], ["Э", "2Б"]]
    assert arrangement.cells == ((0, 1, "2А"), (1, 0, "Э"), (1, 1, "2Б"))
    assert arrangement.as_dict() == {(0, 1): "2А", (1, 0): "Э", (1, 1): "2Б"}
    assert arrangement.text() == ". 2А / Э 2Б"
    assert str(arrangement) == ". 2А / Э 2Б"


@pytest.mark.parametrize(
    ("text", "grid"),
    [
        ("2А", [["2А"]]),
        ("1А / 1Б", [["1А"], ["1Б"]]),
        ("4А 4Б 4В / . . 4Г", [["4А", "4Б", "4В"], [None, None, "4Г"]]),
        # spacing does not matter: tabs, runs of spaces, none around '/'
        ("  4А\t4Б   4В/. .  4Г  ", [["4А", "4Б", "4В"], [None, None, "4Г"]]),
        ("Э 3Б 3А", [["Э", "3Б", "3А"]]),
    ],
)
def test_parse_grid(text: str, grid: list[list[str | None]]) -> None:
    assert Arrangement.parse(text).grid() == grid


def test_ragged_rows_are_padded_with_empty_cells() -> None:
    arrangement = Arrangement.parse("2А 2Б 2В / Э")
    assert arrangement.grid() == [["2А", "2Б", "2В"], ["Э", None, None]]
    assert arrangement.text() == "2А 2Б 2В / Э . ."
    short_first = Arrangement.parse("1А / 1Б 1В")
    assert short_first.grid() == [["1А", None], ["1Б", "1В"]]


def test_empty_border_rows_and_columns_are_dropped() -> None:
    arrangement = Arrangement.parse(". . . / . 2А . / . . .")
    assert arrangement.grid() == [["2А"]]
    assert arrangement.cells == ((0, 0, "2А"),)
    assert Arrangement.parse(". . / . 5Б / . 5А").text() == "5Б / 5А"


def test_tokens_are_kept_verbatim_for_the_checker() -> None:
    """The parser only reads the grid; whether a token is a card ID is the checker's job."""
    assert Arrangement.parse("2A 2Б").grid() == [["2A", "2Б"]]
    assert Arrangement.parse("x / y z").grid() == [["x", None], ["y", "z"]]


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("", 0, "empty arrangement"),
        ("   ", 0, "empty arrangement"),
        (".", 0, "the arrangement has no card"),
        (". . / .", 0, "the arrangement has no card"),
        ("2А /", 4, "empty row"),
        ("/ 2А", 0, "empty row"),
        ("2А 2Б / / Э", 7, "empty row"),
        ("2А 2Б /  / Э", 7, "empty row"),
        ("2А \x07", 3, "unreadable cell '\\x07'"),
        ("2А 2Б / Э \x00x", 10, "unreadable cell"),
        ("1А 1Б\u200b", 3, "unreadable cell"),
    ],
)
def test_parse_errors_carry_the_position(text: str, position: int, fragment: str) -> None:
    with pytest.raises(AssemblyError) as caught:
        Arrangement.parse(text)
    error = caught.value
    assert isinstance(error, MhpError)
    assert fragment in error.message
    assert error.text == text
    assert error.position == position
    # the printed form: message, the text, and a caret under the fault
    message, shown, caret = str(error).split("\n")
    assert message == error.message
    assert caret == "  " + " " * position + "^"
    assert len(shown) == len(text) + 2  # invisible characters are shown one for one


def test_empty_row_error_explains_the_form() -> None:
    with pytest.raises(AssemblyError, match=r"every row between '/' needs at least one cell"):
        Arrangement.parse("2А //2Б")


def test_empty_arrangement_error_gives_an_example() -> None:
    with pytest.raises(AssemblyError, match=r"e\.g\. '2А 2Б / Э \.'"):
        Arrangement.parse("")


# --- grid, text, translation -------------------------------------------------------------------


def test_from_cells_translates_to_the_origin() -> None:
    shifted = Arrangement.from_cells({(5, 7): "2А", (6, 6): "Э", (6, 7): "2Б"})
    assert shifted == Arrangement.parse(". 2А / Э 2Б")
    negative = Arrangement.from_cells({(-3, -2): "1А", (-2, -2): "1Б"})
    assert negative.cells == ((0, 0, "1А"), (1, 0, "1Б"))
    assert Arrangement.from_cells({}) == Arrangement(())
    assert Arrangement(()).grid() == []
    assert Arrangement(()).text() == ""


def test_from_rows_accepts_none_and_dot() -> None:
    assert Arrangement.from_rows([[None, "2А"], [".", "2Б"]]).grid() == [["2А"], ["2Б"]]
    assert Arrangement.from_rows([["Э", "2Б"], []]).grid() == [["Э", "2Б"]]


def test_equal_arrangements_compare_and_hash_equal() -> None:
    a = Arrangement.parse(". 2А / Э 2Б")
    b = Arrangement.from_cells({(10, 11): "2А", (11, 10): "Э", (11, 11): "2Б"})
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1
    assert sorted([Arrangement.parse("1Б"), Arrangement.parse("1А")])[0].text() == "1А"


cell_ids = st.sampled_from(["1А", "1Б", "2А", "2Б", "Э", "10А", "4Г"])
cells = st.dictionaries(
    st.tuples(st.integers(-4, 4), st.integers(-4, 4)), cell_ids, min_size=1, max_size=10
)


@given(cells, st.integers(-50, 50), st.integers(-50, 50))
@settings(max_examples=300)
def test_round_trips_and_translation(
    placed: dict[tuple[int, int], str], d_row: int, d_column: int
) -> None:
    arrangement = Arrangement.from_cells(placed)
    # normalised: top row and left column are occupied
    assert min(r for r, _, _ in arrangement.cells) == 0
    assert min(c for _, c, _ in arrangement.cells) == 0
    # translation does not change it
    moved = {(r + d_row, c + d_column): card for (r, c), card in placed.items()}
    assert Arrangement.from_cells(moved) == arrangement
    # text() and grid() round-trip
    assert Arrangement.parse(arrangement.text()) == arrangement
    assert Arrangement.from_rows(arrangement.grid()) == arrangement
    assert Arrangement.from_cells(arrangement.as_dict()) == arrangement
    grid = arrangement.grid()
    assert len({len(row) for row in grid}) == 1  # rectangular
    assert sum(card is not None for row in grid for card in row) == len(placed)
    assert grid[0] != [None] * len(grid[0])
    assert any(row[0] is not None for row in grid)


# --- the file form -----------------------------------------------------------------------------


def test_read_arrangement_inline(tmp_path) -> None:
    assert read_arrangement(". 2А / Э 2Б") == Arrangement.parse(". 2А / Э 2Б")


@pytest.mark.parametrize(
    "content",
    [
        "rows:\n  - '. 2А'\n  - 'Э 2Б'\n",
        "rows:\n  - . 2А\n  - Э 2Б\n",
        "rows:\n  - [null, 2А]\n  - [Э, 2Б]\n",
        "rows:\n  - ['.', 2А]\n  - [Э, 2Б]\n",
        "# installation 2\nrows: [[~, '2А'], ['Э', '2Б']]\n",
    ],
)
def test_read_arrangement_yaml(tmp_path, content: str) -> None:
    path = tmp_path / "layout.yaml"
    path.write_text(content, encoding="utf-8")
    assert read_arrangement(str(path)) == Arrangement.parse(". 2А / Э 2Б")


def test_read_arrangement_yml_and_json(tmp_path) -> None:
    yml = tmp_path / "a.yml"
    yml.write_text("rows: ['4А 4Б 4В', '. . 4Г']\n", encoding="utf-8")
    assert read_arrangement(str(yml)).text() == "4А 4Б 4В / . . 4Г"
    as_json = tmp_path / "a.json"
    as_json.write_text(json.dumps({"rows": [["1А"], ["1Б"]]}), encoding="utf-8")
    assert read_arrangement(str(as_json)).text() == "1А / 1Б"


def test_read_arrangement_file_does_not_modify_it(tmp_path) -> None:
    path = tmp_path / "layout.yaml"
    content = "rows:\n  - 9А 9Б\n"
    path.write_text(content, encoding="utf-8")
    read_arrangement(str(path))
    assert path.read_text(encoding="utf-8") == content


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("rows: [1А, [1Б]]\n", "each row is a string or a list of card IDs"),
        ("rows: []\n", "expected a mapping with 'rows:'"),
        ("cells: ['1А']\n", "expected a mapping with 'rows:'"),
        ("- 1А\n- 1Б\n", "expected a mapping with 'rows:'"),
        ("rows: 1А 1Б\n", "expected a mapping with 'rows:'"),
        ("", "expected a mapping with 'rows:'"),
    ],
)
def test_read_arrangement_bad_structure(tmp_path, content: str, fragment: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(AssemblyError) as caught:
        read_arrangement(str(path))
    assert caught.value.message.startswith("bad.yaml: ")
    assert fragment in caught.value.message


def test_read_arrangement_yaml_syntax_error_points_into_the_file(tmp_path) -> None:
    path = tmp_path / "broken.yaml"
    content = "rows:\n  - [1А, 1Б\n"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(AssemblyError) as caught:
        read_arrangement(str(path))
    error = caught.value
    assert error.message.startswith("broken.yaml: not YAML")
    assert error.text == content
    assert 0 < error.position <= len(content)


def test_read_arrangement_inline_rows_errors_are_located(tmp_path) -> None:
    path = tmp_path / "rows.yaml"
    path.write_text("rows: ['1А', '']\n", encoding="utf-8")
    with pytest.raises(AssemblyError, match="empty row"):
        read_arrangement(str(path))


@pytest.mark.parametrize("content", ["rows: [[]]\n", "rows: [[null, '.']]\n"])
def test_read_arrangement_file_without_cards_is_refused(tmp_path, content: str) -> None:
    """Regression: a list-of-lists file with no card was read as an empty arrangement."""
    path = tmp_path / "empty.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(AssemblyError) as caught:
        read_arrangement(str(path))
    assert caught.value.message == "empty.yaml: the arrangement has no card"


@pytest.mark.parametrize("relative", [True, False])
def test_read_arrangement_missing_file_says_so(tmp_path, monkeypatch, relative: bool) -> None:
    """Regression: a missing .yaml path was read as an inline arrangement ('not a card ID')."""
    monkeypatch.chdir(tmp_path)
    source = "missing.yaml" if relative else str(tmp_path / "missing.yaml")
    with pytest.raises(AssemblyError) as caught:
        read_arrangement(source)
    assert caught.value.message == (
        f"no arrangement file {source!r}; give an existing YAML/JSON file or an inline "
        "arrangement such as '2А 2Б / Э .'"
    )
    assert (caught.value.text, caught.value.position) == (source, 0)


def test_read_arrangement_inline_text_that_is_no_file(tmp_path, monkeypatch) -> None:
    """Only names ending in .yaml, .yml or .json are taken for files."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "2А").write_text("rows: ['1А']\n", encoding="utf-8")
    assert read_arrangement("2А").text() == "2А"


@pytest.mark.parametrize(
    "module",
    ["mhp_cards.assembly.arrangement", "mhp_cards.chem.exact_sum", "mhp_cards.catalog.cardid"],
)
def test_module_imports_on_its_own(module: str) -> None:
    """Regression: assembly -> catalog -> loader -> checks -> assembly was an import cycle."""
    result = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_read_arrangement_refuses_an_alias_bomb_with_the_limit(tmp_path) -> None:
    from mhp_cards.errors import InputFileError

    lines = ["rows: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]" for n in range(1, 9)]
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        read_arrangement(str(path))
    assert caught.value.issue.file == "bomb.yaml"
    assert "MAX_NODES" in caught.value.issue.message
    assert caught.value.issue.line == 5
