"""``mhp simulate``: JSON and table output, determinism, usage errors (exit 2), no traceback."""

from __future__ import annotations

import json

import pytest

from mhp_cards.cli.simulate import POLICY_NAMES
from mhp_cards.sim import POLICIES


def _json(result) -> dict:
    assert result.exit_code == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def _without_timing(document: dict) -> dict:
    return {key: value for key, value in document.items() if key != "games_per_second"}


BASE = ("simulate", "--games", "3", "--seed", "4", "--max-steps", "150")


def test_the_help_text_names_the_policies() -> None:
    assert ", ".join(POLICIES) == POLICY_NAMES


@pytest.mark.parametrize(("level", "players"), [("1", 5), ("2", 2), ("1v1", 2), ("3", 4)])
def test_json_is_the_same_for_the_same_seed(cli, level: str, players: int) -> None:
    args = (*BASE, "--level", level, "--players", str(players), "--workers", "1", "--json")
    first, second = _json(cli(*args)), _json(cli(*args))
    assert _without_timing(first) == _without_timing(second)
    assert first["level"] == level
    assert first["games"] == 3


def test_workers_do_not_change_the_json(cli) -> None:
    args = (*BASE, "--level", "2", "--players", "3", "--json", "--policy", "greedy,random,greedy")
    alone = _json(cli(*args, "--workers", "1"))
    pooled = _json(cli(*args, "--workers", "2"))
    assert _without_timing(alone) == _without_timing(pooled)
    assert alone["policy"] == ["greedy", "random", "greedy"]


def test_the_step_cap_shows_in_the_table(cli) -> None:
    result = cli("simulate", "--level", "1", "--players", "2", "--games", "2", "--max-steps",
                 "3", "--policy", "random", "--workers", "1")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    cap = next(line for line in lines if line.strip().startswith("step-cap"))
    assert cap.split()[1] == "2"
    assert "95 % interval" in result.stdout
    assert result.stderr == ""  # no progress bar off a terminal


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--level", "4", "--players", "2"), "--level must be one of 1, 2, 1v1, 3"),
        (("--level", "1", "--players", "2", "--policy", "genius"), "the policies are random"),
        (("--level", "1", "--players", "3", "--policy", "greedy,random"), "one per seat (3)"),
        (("--level", "1", "--players", "2", "--games", "0"), "--games must be at least 1"),
        (("--level", "1", "--players", "2", "--max-steps", "0"), "--max-steps must be at"),
        (("--level", "1", "--players", "2", "--workers", "0"), "--workers must be at least 1"),
        (
            (
                "--players",
                "2",
            ),
            "--level",
        ),
    ],
)
def test_usage_errors_exit_2(cli, args: tuple[str, ...], message: str) -> None:
    result = cli("simulate", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_an_impossible_setup_or_house_rule_exits_1(cli) -> None:
    too_many = cli("simulate", "--level", "1", "--players", "7", "--games", "1")
    assert too_many.exit_code == 1
    assert "2 to 5 players" in too_many.stderr
    unknown = cli("simulate", "--level", "1", "--players", "2", "--house-rule", "nope")
    assert unknown.exit_code == 1
    assert "nope" in unknown.stderr
    assert "Traceback" not in too_many.stderr + unknown.stderr


def test_a_house_rule_is_accepted(cli) -> None:
    result = cli(*BASE, "--level", "1", "--players", "2", "--house-rule", "whole-hand", "--json")
    assert _json(result)["games"] == 3


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now


class _Stderr:
    def __init__(self, tty: bool) -> None:
        self.tty = tty
        self.written: list[str] = []

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        self.written.append(text)
        return len(text)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize(("tty", "shown"), [(True, True), (False, False)])
def test_the_progress_bar_waits_a_second_and_needs_a_terminal(
    monkeypatch: pytest.MonkeyPatch, tty: bool, shown: bool
) -> None:
    from mhp_cards.cli import simulate as command

    clock = _Clock()
    monkeypatch.setattr(command, "time", clock)
    monkeypatch.setattr(command.sys, "stderr", _Stderr(tty))
    progress = command._Progress(10)
    with progress as advance:
        clock.now += 0.5
        advance(1)
        assert progress.bar is None  # under a second: nothing shown
        clock.now += 1.0
        advance(2)
        assert (progress.bar is not None) is shown


SWEEP = ("simulate", "--level", "1", "--players", "2", "--games", "3", "--seed", "2",
         "--max-steps", "300", "--workers", "1")  # fmt: skip


def test_a_sweep_prints_a_list_of_summaries_each_with_its_variant(cli) -> None:
    import jsonschema

    from mhp_cards.resources import default_catalog_dir

    documents = _json(cli(*SWEEP, "--vary", "copies.water-ice=8..9", "--vary", "price.CH4=8,9",
                          "--json"))  # fmt: skip
    assert isinstance(documents, list)
    assert [d["variant"] for d in documents] == [
        {"copies.water-ice": 8, "price.CH4": 8},
        {"copies.water-ice": 8, "price.CH4": 9},
        {"copies.water-ice": 9, "price.CH4": 8},
        {"copies.water-ice": 9, "price.CH4": 9},
    ]
    schema = json.loads(
        (default_catalog_dir() / "schema" / "simulate.schema.json").read_text(encoding="utf-8")
    )
    for document in documents:
        jsonschema.Draft202012Validator(schema).validate(document)
        assert document["games"] == 3


def test_a_sweep_table_shows_the_variants_side_by_side(cli) -> None:
    result = cli(*SWEEP, "--vary", "copies.water-ice=7,9")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "  #1  copies.water-ice=7" in lines
    assert "  #2  copies.water-ice=9" in lines
    header = next(line for line in lines if line.split() == ["#1", "#2"])
    assert header
    seat = next(line for line in lines if line.startswith("seat 1 wins"))
    assert len(seat.split()) == 5  # "seat 1 wins" and one rate per variant
    assert any(line.startswith("rounds median") for line in lines)


def test_a_sweep_file_runs_its_variants(cli, tmp_path) -> None:
    path = tmp_path / "sweep.yaml"
    path.write_text("vary:\n  copies.water-ice: [9]\nvariants:\n  - {price.CH4: 9}\n",
                    encoding="utf-8")  # fmt: skip
    documents = _json(cli(*SWEEP, "--vary-file", str(path), "--json"))
    assert [d["variant"] for d in documents] == [{"copies.water-ice": 9}, {"price.CH4": 9}]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--vary", "copies.nope=1..2"), "--vary: error: copies.nope=1: raw_materials has no"),
        (("--vary", "copies.water-ice=4"), "fails the check setup-counts"),
        (("--vary", "copies.water-ice"), "is not PATH=VALUES"),
        (("--vary", "price.CH4=5", "--vary", "price.CO2=x"), "--vary #2: error: price.CO2=x"),
    ],
)
def test_a_bad_variation_is_a_located_error_before_any_game(cli, args, message) -> None:
    result = cli(*SWEEP, *args, "--json")
    assert result.exit_code == 1
    assert message in result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr


def test_a_bad_sweep_file_is_located(cli, tmp_path) -> None:
    path = tmp_path / "sweep.yaml"
    path.write_text("vary:\n  copies.water-ice: 9..7\n", encoding="utf-8")
    result = cli(*SWEEP, "--vary-file", str(path))
    assert result.exit_code == 1
    assert f"{path}:2:" in result.stderr
    assert "the range 9..7 is empty" in result.stderr


def test_the_report_option_writes_the_report(cli, tmp_path) -> None:
    path = tmp_path / "balance.html"
    result = cli(*SWEEP, "--report", str(path), "--json")
    document = _json(result)
    assert document["games"] == 3
    text = path.read_text(encoding="utf-8")
    assert text.count('src="data:image/png;base64,') == 6
    assert f"wrote {path}" in result.stderr


def test_the_report_needs_matplotlib_and_says_so_before_the_games(
    cli, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = cli(*SWEEP, "--report", str(tmp_path / "balance.pdf"))
    assert result.exit_code == 1
    assert "pip install 'mhp-cards[report]'" in result.stderr
    assert result.stdout == ""
    assert not (tmp_path / "balance.pdf").exists()


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("--report", "balance.png"), 2, "the report is a .html or a .pdf file"),
        (("--dask", "local:2"), 2, "--workers and --dask exclude each other"),
    ],
)
def test_report_and_dask_usage_errors(cli, args, code: int, message: str) -> None:
    result = cli(*SWEEP, *args)
    assert result.exit_code == code
    assert message in result.stderr


def test_a_bad_local_cluster_exits_1(cli) -> None:
    result = cli("simulate", "--level", "1", "--players", "2", "--games", "2", "--dask", "local:0")
    assert result.exit_code == 1
    assert "local:N with N from 1 to 64" in result.stderr


def test_the_json_is_the_same_on_a_local_dask_cluster(cli) -> None:
    args = ("simulate", "--level", "1v1", "--players", "2", "--games", "4", "--seed", "6",
            "--max-steps", "300", "--json")  # fmt: skip
    alone = _json(cli(*args, "--workers", "1"))
    on_dask = _json(cli(*args, "--dask", "local:1"))
    assert _without_timing(on_dask) == _without_timing(alone)


def test_the_help_documents_the_new_options(cli) -> None:
    import re

    result = cli("simulate", "--help")
    text = " ".join(re.sub(r"-\s+", "-", result.stdout).split())  # undo the wrapping
    for option in ("--report", "--vary", "--vary-file", "--dask", "local:N", "mhp-cards[report]",
                   "mhp-cards[cluster]", "copies.water-ice=6..9"):  # fmt: skip
        assert option in text


def test_the_table_gives_each_missions_first_completion_turn(cli) -> None:
    result = cli("simulate", "--level", "1", "--players", "2", "--games", "4", "--seed", "2",
                 "--workers", "1", "--json")  # fmt: skip
    document = _json(result)
    table = cli("simulate", "--level", "1", "--players", "2", "--games", "4", "--seed", "2",
                "--workers", "1").stdout  # fmt: skip
    won = [m for m, first in document["mission_first_turn"].items() if first is not None]
    assert won  # greedy completes missions at level 1
    for mission in won:
        first = document["mission_first_turn"][mission]
        line = next(line for line in table.splitlines() if line.strip().startswith(mission))
        assert f"first completed on turn {first['median']:g}" in line
