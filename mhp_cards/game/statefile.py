"""Reading a game state from a file, with a clean error when the file is not one."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import InputFileError, StateFileError
from mhp_cards.fileio import json_limit_issue, read_text_limited
from mhp_cards.game.state import GameState
from mhp_cards.game.status import status

__all__ = ["read_game", "read_state"]

_LISTED = 10


def read_state(path: Path) -> GameState:
    """The game state in the JSON file ``path``; :class:`StateFileError` saying why not.

    The file is read within the limits of :mod:`mhp_cards.fileio` (size, nesting, entries);
    a refusal names the file, the line and column, the limit and its value.
    """
    try:
        text = read_text_limited(path, what="state file")
    except InputFileError as error:
        raise StateFileError(str(path), str(error.issue)) from None
    refusal = json_limit_issue(text, str(path))
    if refusal is not None:
        raise StateFileError(str(path), str(refusal))
    try:
        return GameState.from_json(text)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(step) for step in first["loc"])
        raise StateFileError(
            str(path),
            f"{path}: not a game state: {where}: {first['msg']} ({error.error_count()} problem(s))",
        ) from None


def read_game(path: Path, catalog: Catalog) -> GameState:
    """A game state that is consistent with ``catalog``; :class:`StateFileError` listing why not."""
    state = read_state(path)
    problems = status(state, catalog)
    if problems:
        listed = "\n".join(f"  [{issue.rule}] {issue.message}" for issue in problems[:_LISTED])
        more = f"\n  … and {len(problems) - _LISTED} more" if len(problems) > _LISTED else ""
        raise StateFileError(str(path), f"{path} is not a consistent game state:\n{listed}{more}")
    return state
