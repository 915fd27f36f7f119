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
