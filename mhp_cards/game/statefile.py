"""Reading a game state from a file, strictly, with every problem said at once.

A state file is read as the catalog is: strict types (``"turn": "0"``, ``"money": "5"`` or a
position ``[4.0, 3.0]`` is an error, not quietly converted), every schema problem reported with
its JSON path, the value found and what would be right, and the facts that must agree checked
together (a game that has ``ended`` says why in ``end_code``, and only such a game has one).
A UTF-8 byte order mark at the start is accepted. What needs the catalog and the rules (a
``turn`` that names no player, coins that do not add up) is :func:`~mhp_cards.game.status`'s,
which :func:`read_game` applies.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

from pydantic import ValidationError

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import InputFileError, StateFileError
from mhp_cards.fileio import json_limit_issue, read_text_limited
from mhp_cards.game.state import EndCode, GameState
from mhp_cards.game.status import status
from mhp_cards.issues import Issue
from mhp_cards.wording import listing, model_error, shown

__all__ = ["read_game", "read_state", "state_issues"]

_LISTED = 10
_BOM = "\ufeff"
#: Why a game may end: the values of ``end_code``.
END_CODES = get_args(EndCode)


def read_state(path: Path) -> GameState:
    """The game state in the JSON file ``path``; :class:`StateFileError` saying why not.

    The file is read within the limits of :mod:`mhp_cards.fileio` (size, nesting, entries);
    a refusal names the file, the line and column, the limit and its value. A file that is not
    a game state is refused with every problem found (:func:`state_issues`), each with its
    JSON path, the value found and what would be right.
    """
    try:
        text = read_text_limited(path, what="state file")
    except InputFileError as error:
        raise StateFileError(str(path), str(error.issue)) from None
    text = text.removeprefix(_BOM)
    refusal = json_limit_issue(text, str(path))
    if refusal is not None:
        raise StateFileError(str(path), str(refusal))
    state, issues = state_issues(text, str(path))
    if state is None or issues:
        listed = "\n".join(f"  {issue}" for issue in issues[:_LISTED])
        more = f"\n  … and {len(issues) - _LISTED} more" if len(issues) > _LISTED else ""
        raise StateFileError(
            str(path),
            f"{path}: not a game state ({len(issues)} problem(s)):\n{listed}{more}",
        )
    return state


def state_issues(text: str, file: str = "<state>") -> tuple[GameState | None, list[Issue]]:
    """The state in the JSON ``text`` and every problem that keeps it from being one.

    The state is None when the text is not a game state by the schema; the issues hold every
    schema problem (in words, with its JSON path) and every disagreement between fields.
    """
    issues: list[Issue] = []
    state: GameState | None = None
    try:
        state = GameState.from_json(text)
    except ValidationError as error:
        details = error.errors()
        faulty = {tuple(detail["loc"]) for detail in details}
        for detail in details:
            loc = tuple(detail["loc"])
            if detail["type"] == "too_short" and any(
                other[: len(loc)] == loc and other != loc for other in faulty
            ):
                continue  # a list whose items failed counts as short: its items are the news
            if detail["type"] == "json_invalid":
                issues.append(_not_json(text, file, str(detail.get("msg", ""))))
                return None, issues
            message, hint = model_error(detail)
            issues.append(Issue("state", message, file=file, path=tuple(detail["loc"]), hint=hint))
    try:
        data = json.loads(text)
    except ValueError:  # a number past Python's digit limit: the schema has said it
        return None, issues
    issues.extend(_disagreements(data, file))
    return (state if not issues else None), issues


def _not_json(text: str, file: str, fallback: str) -> Issue:
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return Issue(
            "state",
            f"not JSON: {error.msg}",
            file=file,
            line=error.lineno,
            column=error.colno,
            hint="a state file is the JSON that mhp setup deal --out writes",
        )
    except ValueError as error:
        return Issue("state", f"not JSON: {error}", file=file)
    return Issue("state", f"not JSON: {fallback}", file=file)


def _disagreements(data: Any, file: str) -> list[Issue]:
    """Fields that are each well typed but do not agree with one another."""
    if not isinstance(data, dict):
        return []
    issues = []
    ended, code = data.get("ended", False), data.get("end_code")
    if ended is True and code is None:
        issues.append(
            Issue(
                "state",
                "the game has ended (ended: true) but end_code does not say why",
                file=file,
                path=("end_code",),
                hint=f"set end_code to one of {listing(END_CODES, 'or')}, or ended to false",
            )
        )
    elif ended is False and code in END_CODES:
        issues.append(
            Issue(
                "state",
                f"end_code is {shown(code)} but the game has not ended (ended: false)",
                file=file,
                path=("ended",),
                hint="set ended to true, or end_code to null while the game goes on",
            )
        )
    return issues


def read_game(path: Path, catalog: Catalog) -> GameState:
    """A game state that is consistent with ``catalog``; :class:`StateFileError` listing why not."""
    state = read_state(path)
    problems = status(state, catalog)
    if problems:
        listed = "\n".join(f"  [{issue.rule}] {issue.message}" for issue in problems[:_LISTED])
        more = f"\n  … and {len(problems) - _LISTED} more" if len(problems) > _LISTED else ""
        raise StateFileError(str(path), f"{path} is not a consistent game state:\n{listed}{more}")
    return state
