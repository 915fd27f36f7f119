"""Game-state files from users: refused within the limits, located, never a crash or a hang."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mhp_cards.errors import StateFileError
from mhp_cards.fileio import MAX_DEPTH, MAX_FILE_BYTES, MAX_ITEMS
from mhp_cards.game import deal
from mhp_cards.game.statefile import read_state
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
