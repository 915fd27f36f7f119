"""Values and model errors in words for the people who read the toolkit's messages.

A message says what it found as the reader wrote it, not as Python prints it: a list of cards
is ``water-ice#5 and calcite#1``, not ``['water-ice#5', 'calcite#1']``; an empty value is
``empty``, not ``None``; a date is ``2024-05-01``, not ``datetime.date(2024, 5, 1)``. A
pydantic error becomes what is wrong and what would be right (``nan is not a number``, not
``Input should be less than or equal to 1``).

>>> listing(["water-ice#5", "calcite#1"])
'water-ice#5 and calcite#1'
>>> shown([4.0, None, "x"])
'[4.0, null, "x"]'
>>> model_error({"type": "less_than_equal", "input": float("nan"), "ctx": {"le": 1}})
('nan is not a number', 'write a number, at most 1')
"""

from __future__ import annotations

import datetime
import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final

__all__ = [
    "found",
    "kind_of",
    "listing",
    "model_error",
    "model_error_text",
    "reading_faults",
    "shown",
]

_SHOWN_LIMIT = 40


def listing(items: Iterable[object], conjunction: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``: items for a sentence (text bare, others :func:`shown`).

    >>> listing([])
    'nothing'
    >>> listing(["M1", "M2", "M3"], "or")
    'M1, M2 or M3'
    """
    texts = [item if isinstance(item, str) else shown(item) for item in items]
    if not texts:
        return "nothing"
    if len(texts) == 1:
        return texts[0]
    return f"{', '.join(texts[:-1])} {conjunction} {texts[-1]}"


def _plain(value: Any) -> Any:
    """``value`` with what JSON cannot hold made into text (dates, sets, other objects)."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return [_plain(item) for item in items]
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def shown(value: Any) -> str:
    """A value found in a file, as its reader would write it (shortened past 40 characters).

    Text is quoted (``'three'``); lists and mappings are shown as JSON; an empty value is
    ``empty``; a number is the number (``nan``, ``inf`` for the IEEE specials).

    >>> shown("three"), shown(None), shown(True), shown(datetime.date(2024, 5, 1))
    ("'three'", 'empty', 'true', '2024-05-01')
    """
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        text = "'" + value + "'"
    elif isinstance(value, datetime.date | datetime.time):
        text = value.isoformat()
    else:
        try:
            text = json.dumps(_plain(value), ensure_ascii=False)
        except ValueError:  # NaN inside a list
            text = str(_plain(value))
    return text if len(text) <= _SHOWN_LIMIT else text[: _SHOWN_LIMIT - 3] + "…"


def found(value: Any) -> str:
    """What was found: the value and its kind (``'5' is text``), or ``the value is empty``.

    >>> found("5"), found(None), found(4.0)
    ("'5' is text", 'the value is empty', '4.0 is a decimal number')
    """
    if value is None:
        return "the value is empty"
    return f"{shown(value)} is {kind_of(value)}"


def kind_of(value: Any) -> str:
    """What a value is, in words: ``text``, ``a whole number``, ``a list`` and so on."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, datetime.date):
        return "a date"
    return "a value of another kind"


_EXPECTED: dict[str, str] = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "int_parsing_size": "a whole number of a sensible size",
    "float_type": "a number",
    "float_parsing": "a number",
    "string_type": "text",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "tuple_type": "a list",
    "list_type": "a list",
    "set_type": "a list",
    "frozen_set_type": "a list",
    "dict_type": "a mapping (key: value)",
    "model_type": "a mapping (key: value)",
    "model_attributes_type": "a mapping (key: value)",
    "dataclass_type": "a mapping (key: value)",
    "none_required": "nothing (null)",
}


def model_error(detail: Mapping[str, Any]) -> tuple[str, str]:
    """One pydantic error (an item of ``ValidationError.errors()``) as (what is wrong, hint).

    The message names the value found; the hint says what would be right. Errors raised by
    the project's own validators (``ValueError`` messages) are kept as written.
    """
    kind = str(detail.get("type", ""))
    value = detail.get("input")
    ctx: Mapping[str, Any] = detail.get("ctx") or {}
    limit = {name: ctx[name] for name in ("gt", "ge", "lt", "le") if name in ctx}
    if isinstance(value, float) and math.isnan(value) and kind in (*_BOUNDS, "finite_number"):
        return f"{shown(value)} is not a number", "write a number" + _range(limit)
    if kind == "missing":
        field = detail.get("loc", ("",))[-1] if detail.get("loc") else ""
        return "missing", f"add {field}: …" if isinstance(field, str) and field else ""
    if kind == "extra_forbidden":
        field = detail.get("loc", ("",))[-1] if detail.get("loc") else ""
        return f"unknown key {shown(str(field))}", "remove it or check its spelling"
    if kind in _EXPECTED:
        return f"{found(value)}, expected {_EXPECTED[kind]}", ""
    if kind in _BOUNDS:
        relation = _BOUNDS[kind]
        if isinstance(value, float) and math.isinf(value):
            return f"{shown(value)} is not a finite number", "write a number" + _range(limit)
        return f"{shown(value)} is {relation}", _range(limit).removeprefix(", ")
    if kind == "finite_number":
        return f"{shown(value)} is not a finite number", "write an ordinary number"
    if kind in ("literal_error", "enum"):
        return f"{shown(value)} is not one of {ctx.get('expected', '?')}", ""
    if kind in ("too_short", "too_long"):
        count = ctx.get("actual_length", len(value) if isinstance(value, list | tuple) else "?")
        bound = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        if kind == "too_short":
            return f"{count} item(s), at least {bound} needed", ""
        return f"{count} item(s), at most {bound} allowed", ""
    if kind == "string_too_short":
        return "empty text", "write a value"
    if kind == "string_pattern_mismatch":
        return f"{shown(value)} does not have the expected form", f"pattern {ctx.get('pattern')}"
    if kind in ("value_error", "assertion_error"):
        error = ctx.get("error")
        return (str(error) if error is not None else str(detail.get("msg", ""))), ""
    return str(detail.get("msg", "not valid")), ""


def model_error_text(detail: Mapping[str, Any]) -> str:
    """:func:`model_error` as one phrase: what is wrong, then what would be right in brackets.

    >>> model_error_text({"type": "int_parsing", "input": "5"})
    "'5' is text, expected a whole number"
    """
    message, hint = model_error(detail)
    return f"{message} ({hint})" if hint else message


_BOUNDS: dict[str, str] = {
    "greater_than": "too small",
    "greater_than_equal": "too small",
    "less_than": "too large",
    "less_than_equal": "too large",
}


def _range(limit: Mapping[str, Any]) -> str:
    words = {"gt": "more than", "ge": "at least", "lt": "less than", "le": "at most"}
    return "".join(f", {words[name]} {_number(bound)}" for name, bound in limit.items())


def _number(value: Any) -> str:
    """A bound as people write it: ``1``, not ``1.0``."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


#: What Python prints and a reader does not read: reprs of lists and tuples of text, mappings,
#: None, booleans, dates, sets and objects.
_PYTHON_REPR: Final = re.compile(
    r"\['|\[\(|\('|\{'|\bNone\b|\bTrue\b|\bFalse\b|datetime\.|frozenset\(|\bset\(|"
    r"<[\w.]+ object at|\[\d+, \d+\]"
)
#: Words a finished sentence does not end with (English and Russian): a cut-off sentence.
_DANGLING: Final = frozenset(
    [
        "a",
        "an",
        "the",
        "to",
        "of",
        "for",
        "with",
        "at",
        "on",
        "in",
        "from",
        "by",
        "into",
        "than",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "be",
        "as",
        "в",
        "во",
        "на",
        "с",
        "со",
        "к",
        "ко",
        "по",
        "из",
        "для",
        "от",
        "до",
        "и",
        "или",
        "но",
        "что",
        "как",
    ]
)
#: Verbs with a particle that may end a sentence ("passed on", "adds up to" ends in "up to").
_PHRASAL: Final = frozenset(
    {("passed", "on"), ("it", "on"), ("up", "to"), ("carried", "on"), ("goes", "on")}
)
_SENTENCE_END: Final = re.compile(r"[.;!?](?:\s|$)|$")


def reading_faults(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """What in a message its reader cannot act on: Python reprs and sentences cut off.

    A sentence (or a clause before ``;``) that ends in a preposition, an article, a
    conjunction or ``is`` was cut; ``allowed`` lists reprs the
    message writes on purpose (a template's own ``None left``).

    >>> reading_faults("The player lacks ['water-ice#5']")
    ["a Python repr: ['"]
    >>> reading_faults("multiply so that every coefficient is")
    ["a sentence cut off after 'is': …so that every coefficient is"]
    >>> reading_faults("The player lacks water-ice#5 and calcite#1.")
    []
    """
    faults = [
        f"a Python repr: {match.group()}"
        for match in _PYTHON_REPR.finditer(text)
        if match.group() not in set(allowed)
    ]
    start = 0
    for end in _SENTENCE_END.finditer(text):
        piece = text[start : end.start()].strip()
        start = end.end()
        words = re.findall(r"[^\W\d_]+|\S", piece)
        phrasal = len(words) > 2 and (words[-2].lower(), words[-1].lower()) in _PHRASAL
        if len(words) > 1 and words[-1].lower() in _DANGLING and not phrasal:
            tail = " ".join(piece.split()[-5:])
            faults.append(f"a sentence cut off after {words[-1]!r}: …{tail}")
    return faults
