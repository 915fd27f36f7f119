"""Game-state files from users: refused within the limits, located, never a crash or a hang."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mhp_cards.errors import StateFileError
from mhp_cards.fileio import MAX_DEPTH, MAX_FILE_BYTES, MAX_ITEMS
from mhp_cards.game import deal
from mhp_cards.game.statefile import read_state, state_issues
from mhp_cards.validate import load_catalog


def _refusal(path: Path) -> str:
    with pytest.raises(StateFileError) as caught:
        read_state(path)
    assert caught.value.path == str(path)
    return str(caught.value)


def test_a_dealt_state_reads_back(tmp_path: Path) -> None:
    state = deal(load_catalog(), "2", 3, 5)
    path = tmp_path / "game.json"
    path.write_text(state.to_json(), encoding="utf-8")
    assert read_state(path) == state


def test_deep_nesting_is_refused_at_the_bracket_too_deep(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"players":\n' + "[" * 20_000, encoding="utf-8")
    message = _refusal(path)
    assert message.startswith(f"{path}:2:{MAX_DEPTH}: error:")
    assert f"limit MAX_DEPTH = {MAX_DEPTH}" in message


def test_a_long_array_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"log": [' + "1," * (MAX_ITEMS + 3) + "1]}", encoding="utf-8")
    assert f"limit MAX_ITEMS = {MAX_ITEMS}" in _refusal(path)


def test_a_file_past_the_size_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    message = _refusal(path)
    assert f"limit of {MAX_FILE_BYTES} bytes" in message
    assert message.startswith(f"{path}:1:{MAX_FILE_BYTES + 1}: error:")


@pytest.mark.parametrize("kind", ["missing", "directory", "fifo", "latin-1", "garbage"])
def test_what_is_not_a_state_file_is_said(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "game.json"
    if kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "latin-1":
        path.write_bytes('{"level": "é"}'.encode("latin-1"))
    elif kind == "garbage":
        path.write_bytes(b'{"level": 1, "players": [}')
    expected = {
        "missing": "no state file",
        "directory": "is a directory",
        "fifo": "is not a regular file",
        "latin-1": "not UTF-8 text",
        "garbage": "not a game state",
    }[kind]
    assert expected in _refusal(path)


# Strict reading: every problem, its JSON path, the value found, what would be right ----------


@pytest.fixture(scope="module")
def dealt() -> dict[str, Any]:
    """A level-1 state as a JSON document, to break one field at a time."""
    document: dict[str, Any] = json.loads(deal(load_catalog(), "1", 2, 3).to_json())
    return document


def _write_json(tmp_path: Path, document: Any) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _broken(document: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> Any:
    copy = json.loads(json.dumps(document))
    change(copy)
    return copy


def _set(path: tuple[str | int, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        target: Any = document
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


#: (the change, the JSON path named, what the message says)
STRICT: dict[str, tuple[Callable[[dict[str, Any]], None], str, list[str]]] = {
    "turn as text": (_set(("turn",), "0"), "turn", ["'0' is text, expected a whole number"]),
    "money as text": (
        _set(("players", 0, "money"), "5"),
        "players[0].money",
        ["'5' is text, expected a whole number"],
    ),
    "a position of decimals": (
        _set(("players", 1, "combine", "position"), [4.0, 3]),
        "players[1].combine.position[0]",
        ["4.0 is a decimal number, expected a whole number"],
    ),
    "a negative round": (_set(("round",), -3), "round", ["-3 is too small (at least 1)"]),
    "a negative turn number": (
        _set(("turn_number",), -1),
        "turn_number",
        ["-1 is too small (at least 0)"],
    ),
    "ended without an end code": (
        _set(("ended",), True),
        "end_code",
        ["the game has ended (ended: true) but end_code does not say why", "mission, field-empty"],
    ),
    "an end code while the game goes on": (
        _set(("end_code",), "mission"),
        "ended",
        ["end_code is 'mission' but the game has not ended", "set ended to true"],
    ),
    "an unknown end code": (
        _set(("end_code",), "bored"),
        "end_code",
        ["'bored' is not one of 'mission', 'field-empty'"],
    ),
    "a level as a number": (
        _set(("level",), 1),
        "level",
        ["1 is not one of '1', '2', '1v1' or '3'"],
    ),
    "ended as text": (_set(("ended",), "yes"), "ended", ["'yes' is text, expected true or false"]),
    "a missing field": (
        lambda document: document.pop("players"),
        "players",
        ["missing (add players: …)"],
    ),
    "a flag as a number": (
        _set(("players", 0, "combine", "armour"), 0),
        "players[0].combine.armour",
        ["0 is a whole number, expected true or false"],
    ),
}


@pytest.mark.parametrize("case", list(STRICT))
def test_a_state_is_read_strictly(tmp_path: Path, dealt: dict[str, Any], case: str) -> None:
    change, where, fragments = STRICT[case]
    path = _write_json(tmp_path, _broken(dealt, change))
    message = _refusal(path)
    assert message.startswith(f"{path}: not a game state (1 problem(s)):\n"), message
    [line] = message.splitlines()[1:]
    assert line.startswith(f"  {path}: error: {where}: "), line
    for fragment in fragments:
        assert fragment in line
    assert not re.search(r"\['|\bNone\b|Input should|Value error|datetime\.", line), line


def test_every_problem_of_a_state_is_reported(tmp_path: Path, dealt: dict[str, Any]) -> None:
    def many(document: dict[str, Any]) -> None:
        document["turn"] = "0"
        document["players"][0]["money"] = "5"
        document["players"][1]["combine"]["position"] = [4.0, 3.0]
        document["round"] = -3
        document["ended"] = True

    message = _refusal(_write_json(tmp_path, _broken(dealt, many)))
    assert "(6 problem(s))" in message
    for where in (
        "turn",
        "players[0].money",
        "players[1].combine.position[0]",
        "players[1].combine.position[1]",
        "round",
        "end_code",
    ):
        assert f": error: {where}: " in message


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    state = deal(load_catalog(), "3", 2, 4)
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + state.to_json().encode("utf-8"))
    assert read_state(path) == state


def test_json_that_cannot_be_read_is_located(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text('{\n  "level": "1",\n  "players": [}\n', encoding="utf-8")
    message = _refusal(path)
    assert f"{path}:3:15: error: not JSON: " in message


def test_every_level_deals_a_state_that_reads_back_strictly(tmp_path: Path) -> None:
    catalog = load_catalog()
    for level in ("1", "2", "1v1", "3"):
        state = deal(catalog, level, 2, 11, house_rules=("armour-sum",) if level == "1" else ())
        path = tmp_path / f"{level}.json"
        path.write_text(state.to_json(), encoding="utf-8")
        assert read_state(path) == state


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**20) | st.floats() | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=2)
    ),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_value_in_any_field_is_a_state_or_a_refusal_in_words(data: st.DataObject) -> None:
    document = json.loads(deal(load_catalog(), "1", 2, 3).to_json())
    target: Any = document
    path: list[str | int] = []
    while isinstance(target, dict | list) and target and data.draw(st.integers(0, 3)) > 0:
        step = (
            data.draw(st.sampled_from(sorted(target)))
            if isinstance(target, dict)
            else data.draw(st.integers(0, len(target) - 1))
        )
        if not isinstance(target[step], dict | list) or not target[step]:
            break
        path.append(step)
        target = target[step]
    if isinstance(target, dict):
        key = data.draw(st.sampled_from(sorted(target)) | st.text(max_size=5))
    elif isinstance(target, list) and target:
        key = data.draw(st.integers(0, len(target) - 1))
    else:
        return
    target[key] = data.draw(json_values)
    text = json.dumps(document)
    state, issues = state_issues(text, "game.json")
    assert (state is None) == bool(issues)
    for issue in issues:
        shown = str(issue)
        assert shown.startswith("game.json")
        words = re.sub(r"'[^']*'|\"[^\"]*\"", "Q", shown)  # past the values the file holds
        if isinstance(key, str) and key:
            # A key the file names is part of the location, unquoted ("None: unknown key").
            words = words.replace(key, "Q")
        assert not re.search(r"\['|\bNone\b|Input should|Value error|Field required", words)
