"""``mhp reactor check|solve|show``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mhp_cards.resources import default_catalog_dir
from mhp_cards.validate import load_catalog

CANONICAL = {
    1: "1А / 1Б",
    2: ". 2А / Э 2Б",
    3: "Э 3Б 3А",
    4: "4А 4Б 4В / . . 4Г",
    5: ". . 5Б / Э 5В 5А",
    6: "Э . / 6А 6Б / . 6В",
    7: "7А 7Б",
    8: "Э 8А 8Б",
    9: "9А 9Б",
    10: "10А 10Б",
}
KNOWN = "1, 2, 3, 4, 5, 6, 7, 8, 9, 10"


# --- check ---------------------------------------------------------------------------------------


def test_check_valid(cli) -> None:
    result = cli("reactor", "check", ". 2А / Э 2Б")
    assert result.exit_code == 0
    assert result.stdout == "valid: installation 2 — . 2А / Э 2Б\n"
    assert result.stderr == ""


@pytest.mark.parametrize(("number", "layout"), sorted(CANONICAL.items()))
def test_check_every_canonical_layout(cli, number: int, layout: str) -> None:
    result = cli("reactor", "check", layout)
    assert result.exit_code == 0, result.stdout
    assert result.stdout == f"valid: installation {number} — {layout}\n"


def test_check_lookalike_prints_a_note(cli) -> None:
    result = cli("reactor", "check", ". 2A / Э 2Б")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "note: read '2A' as '2А' (Latin 'A' for Cyrillic 'А')",
        "valid: installation 2 — . 2А / Э 2Б",
    ]


def test_check_invalid_lists_every_problem(cli) -> None:
    result = cli("reactor", "check", "6А 6В / . 6Б")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "INVALID: 6А 6В / . 6Б"
    assert lines[1:] == [
        "  - 6А top edge, position 2 (O2 in) is left open: no card touches that edge; place the "
        "card that takes this pipe there",
        "  - 6А right edge, position 2 (SO2 out) meets 6В's left edge at position 2, where 6В "
        "has no port",
        "  - 6А right edge, position 3 (O2 out) meets 6В's left edge at position 3, where 6В "
        "has no port",
        "  - 6В top edge, position 2 (SO3 in) is left open: no card touches that edge; place the "
        "card that takes this pipe there",
        "  - 6Б left edge, position 2 (SO2 in) is left open: no card touches that edge; place the "
        "card that takes this pipe there",
        "  - 6Б left edge, position 3 (O2 in) is left open: no card touches that edge; place the "
        "card that takes this pipe there",
        "  - 6Б bottom edge, position 2 (SO3 out) is left open: no card touches that edge; place "
        "the card that takes this pipe there",
        "  - 6В is not joined to the rest of the installation by any pipe",
        "  - 6Б is not joined to the rest of the installation by any pipe",
        "  - the reactions of installation 6's cards do not combine into its overall reaction "
        "S + 4 H2O -> H2SO4 + 3 H2: they add up to S + 2 O2 + SO2 + H2O -> SO3 + H2SO4",
    ]


@pytest.mark.parametrize(
    ("arrangement", "fragment"),
    [
        ("Э 2Б", "2А is missing; installation 2 is built from 2А, 2Б"),
        ("7А 8Б", "the pipe carries Cl2 on one side and Fe3O4 on the other"),
        ("2А 2А / Э 2Б", "2А is placed 2 times; the game has one"),
        ("1А . / 1Б . / 7А 7Б", "the cards belong to installations 1, 7"),
        ("2А / 2Б", "do not combine into its overall reaction"),
        ("Э / Э / Э / Э / Э / Э", "6 electrolysers placed; the game has 5"),
        (". 2А / Э 2Я", "no card '2Я' in the catalog"),
    ],
)
def test_check_invalid_names_the_problem(cli, arrangement: str, fragment: str) -> None:
    result = cli("reactor", "check", arrangement)
    assert result.exit_code == 1
    assert result.stdout.startswith("INVALID: ")
    assert any(line.startswith("  - ") and fragment in line for line in result.stdout.splitlines())


def test_check_json_valid(cli) -> None:
    result = cli("reactor", "check", "--json", ". 2A / Э 2Б")
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 1
    assert json.loads(result.stdout) == {
        "arrangement": ". 2А / Э 2Б",
        "installation": 2,
        "valid": True,
        "notes": ["read '2A' as '2А' (Latin 'A' for Cyrillic 'А')"],
        "problems": [],
    }


def test_check_json_invalid(cli) -> None:
    result = cli("reactor", "check", "1А 1Б", "--json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["valid"] is False
    assert document["installation"] == 1
    assert document["arrangement"] == "1А 1Б"
    assert document["notes"] == []
    assert [p["code"] for p in document["problems"]] == ["open-port", "open-port", "not-connected"]
    first = document["problems"][0]
    assert first == {
        "code": "open-port",
        "message": "1А bottom edge, position 2 (CaO out) is left open: no card touches that "
        "edge; place the card that takes this pipe there",
        "card": "1А",
        "edge": "bottom",
        "position": 2,
        "expected": "a card with a CaO in port",
        "found": "nothing",
    }
    for problem in document["problems"]:
        assert set(problem) == {"code", "message", "card", "edge", "position", "expected", "found"}


def test_check_json_mixed_installations_has_no_installation(cli) -> None:
    result = cli("reactor", "check", "--json", "7А 8Б")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["installation"] is None
    assert "mixed-installations" in [p["code"] for p in document["problems"]]


def test_check_unreadable_arrangement_exits_1_with_caret(cli) -> None:
    result = cli("reactor", "check", "2А 2Б / / Э")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: empty row; every row between '/' needs at least one cell ('.' for empty)",
        "  2А 2Б / / Э",
        "         ^",
    ]


def test_check_file(cli, tmp_path: Path) -> None:
    path = tmp_path / "sabatier.yaml"
    path.write_text("rows:\n  - . 2А\n  - Э 2Б\n", encoding="utf-8")
    result = cli("reactor", "check", str(path))
    assert result.exit_code == 0
    assert result.stdout == "valid: installation 2 — . 2А / Э 2Б\n"


def test_check_file_lists(cli, tmp_path: Path) -> None:
    path = tmp_path / "ostwald.json"
    path.write_text(json.dumps({"rows": [["4А", "4Б", "4В"], [None, None, "4Г"]]}), "utf-8")
    result = cli("reactor", "check", "--json", str(path))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["arrangement"] == "4А 4Б 4В / . . 4Г"


def test_check_bad_file_exits_1(cli, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("cells: [1А]\n", encoding="utf-8")
    result = cli("reactor", "check", str(path))
    assert result.exit_code == 1
    assert result.stderr.startswith("error: bad.yaml: expected a mapping with 'rows:'")
    assert "Traceback" not in result.stderr


def test_check_missing_argument_is_a_usage_error(cli) -> None:
    result = cli("reactor", "check")
    assert result.exit_code == 2


def test_check_bad_catalog_dir(cli, tmp_path: Path) -> None:
    result = cli("reactor", "check", ". 2А / Э 2Б", "--catalog", str(tmp_path / "nowhere"))
    assert result.exit_code == 1
    assert "no catalog directory" in result.stderr


# --- solve ---------------------------------------------------------------------------------------


def test_solve_human(cli) -> None:
    result = cli("reactor", "solve", "2")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "installation 2: 1 arrangement(s), 1 electrolyser(s)",
        "  . 2А / Э 2Б",
    ]


@pytest.mark.parametrize(("number", "layout"), sorted(CANONICAL.items()))
def test_solve_json(cli, number: int, layout: str) -> None:
    result = cli("reactor", "solve", str(number), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "installation": number,
        "electrolysers": layout.split().count("Э"),
        "count": 1,
        "canonical": layout,
        "arrangements": [layout],
        "reason": None,
    }


@pytest.mark.parametrize("command", ["solve", "show"])
@pytest.mark.parametrize("number", ["11", "0", "-1"])
def test_unknown_installation_lists_the_known_ones(cli, command: str, number: str) -> None:
    result = (
        cli("reactor", command, "--", number)
        if number.startswith("-")
        else cli("reactor", command, number)
    )
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == f"error: no installation {number}; the catalog has {KNOWN}\n"


def test_solve_not_a_number_is_a_usage_error(cli) -> None:
    result = cli("reactor", "solve", "two")
    assert result.exit_code == 2


@pytest.fixture
def two_way_catalog(tmp_path: Path) -> Path:
    """The default catalog with every port of installation 9 optional: it assembles two ways."""
    directory = tmp_path / "catalog"
    shutil.copytree(default_catalog_dir(), directory)
    path = directory / "installations.yaml"
    text = path.read_text(encoding="utf-8")
    out_port = "{edge: right, position: 2, substance: Ca(ClO4)2, direction: out"
    in_port = "{edge: left, position: 2, substance: Ca(ClO4)2, direction: in"
    assert text.count(out_port + "}") == 1
    assert text.count(in_port + "}") == 1
    text = text.replace(
        f"          - {out_port}}}\n",
        f"          - {out_port}, optional: true}}\n          - {in_port}, optional: true}}\n",
    ).replace(
        f"          - {in_port}}}\n",
        f"          - {in_port}, optional: true}}\n          - {out_port}, optional: true}}\n",
        1,
    )
    path.write_text(text, encoding="utf-8")
    return directory


def test_solve_several_arrangements(cli, two_way_catalog: Path) -> None:
    result = cli("reactor", "solve", "9", "--catalog", str(two_way_catalog))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "installation 9: 2 arrangement(s), 0 electrolyser(s)",
        "  9А 9Б",
        "  9Б 9А",
    ]
    as_json = json.loads(
        cli("reactor", "solve", "9", "--json", "--catalog", str(two_way_catalog)).stdout
    )
    assert as_json["count"] == 2
    assert as_json["canonical"] == "9А 9Б"
    assert as_json["arrangements"] == ["9А 9Б", "9Б 9А"]


# --- show ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", sorted(CANONICAL))
def test_show_draws_every_card(cli, catalog_cards, number: int) -> None:
    result = cli("reactor", "show", str(number))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    name, reaction, cards = catalog_cards[number]
    assert lines[0] == f"{number}. {name}"
    assert lines[1] == f"   {reaction}"
    assert lines[2] == f"   {CANONICAL[number]}"
    body = "\n".join(lines[3:])
    diagram, legend = body.split("\nReactions:\n")
    for card_id in cards:
        assert f"│ {card_id} " in diagram, card_id
        assert f"  {card_id}: " in legend, card_id
    if "Э" in CANONICAL[number]:
        assert "│ Э ■" in diagram
        assert "  Э: 2 H2O -> 2 H2 + O2" in legend


def test_show_birkeland_eyde(cli) -> None:
    result = cli("reactor", "show", "4")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[:3] == [
        "4. Кальциевая селитра (метод Биркеланда — Эйде) / Calcium nitrate (Birkeland–Eyde arc "
        "process)",
        "   2 N2 + 5 O2 + 2 CaCO3 -> 2 Ca(NO3)2 + 2 CO2",
        "   4А 4Б 4В / . . 4Г",
    ]
    # the main card has the red circle; the pipes meet edge to edge
    assert "│ 4А ●" in result.stdout
    assert "NO ▶▶ NO" in result.stdout
    assert "NO ◀◀ NO" in result.stdout
    assert "NO2 ▶▶ NO2" in result.stdout
    assert lines[-5:] == [
        "Reactions:",
        "  4А: N2 + O2 -> 2 NO",
        "  4Б: 2 NO + O2 -> 2 NO2",
        "  4В: 3 NO2 + H2O -> 2 HNO3 + NO",
        "  4Г: CaCO3 + 2 HNO3 -> Ca(NO3)2 + CO2 + H2O",
    ]


def test_show_card_without_reaction(cli) -> None:
    result = cli("reactor", "show", "2")
    assert "  2Б: (pipes and containers only)" in result.stdout.splitlines()


@pytest.fixture(scope="module")
def catalog_cards() -> dict[int, tuple[str, str, list[str]]]:
    """Title, overall reaction and card IDs of each installation of the default catalog."""
    return {
        i.number: (f"{i.name.ru} / {i.name.en}", i.reaction, [c.id for c in i.cards])
        for i in load_catalog().installations
    }


# --- regressions ---------------------------------------------------------------------------------


def test_check_lone_electrolyser_is_not_an_installation(cli) -> None:
    """Regression: 'mhp reactor check Э' printed 'valid: installation None — Э'."""
    result = cli("reactor", "check", "Э")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "INVALID: Э",
        "  - the arrangement has no card of an installation; electrolysers join an "
        "installation's cards",
    ]


def test_check_missing_file_says_so(cli, tmp_path: Path, monkeypatch) -> None:
    """Regression: a missing file was answered with "'missing.yaml' is not a card ID"."""
    monkeypatch.chdir(tmp_path)
    result = cli("reactor", "check", "missing.yaml")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines()[0] == (
        "error: no arrangement file 'missing.yaml'; give an existing YAML/JSON file or an "
        "inline arrangement such as '2А 2Б / Э .'"
    )


def test_check_empty_file_exits_1(cli, tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("rows: [[]]\n", encoding="utf-8")
    result = cli("reactor", "check", str(path))
    assert result.exit_code == 1
    assert result.stderr.startswith("error: empty.yaml: the arrangement has no card")


def test_check_a_directory_is_named_not_read_as_rows(cli, tmp_path: Path) -> None:
    """'/tmp/x' is a path, not rows split at its slashes."""
    result = cli("reactor", "check", str(tmp_path))
    assert result.exit_code == 1
    assert f"'{tmp_path}' is a directory, not an arrangement" in result.output
    assert "empty row" not in result.output
