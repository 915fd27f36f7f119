"""Schema and model errors in the project's words, located in the YAML file that caused them.

The catalog and the layouts both validate hand-written YAML against a JSON Schema, then build
pydantic models. Their errors are turned into :class:`~mhp_cards.issues.Issue` values here, so
that a designer reads the same kind of message for either (``'three' is text, expected a
number``; ``unknown key 'gutterr'`` with ``did you mean 'gutter'?``).

Data merged from several files (a sheet profile that ``extends`` another) is validated once;
each issue is then located in the first of the files that wrote the offending key or value.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterator, Sequence
from typing import Any

import jsonschema
from pydantic import ValidationError

from mhp_cards.issues import Issue, Path
from mhp_cards.wording import found, model_error, shown
from mhp_cards.yamldoc import YamlDocument

__all__ = ["model_issues", "schema_issues"]


def schema_issues(
    validator: jsonschema.protocols.Validator,
    data: Any,
    documents: Sequence[YamlDocument],
    category: str = "schema",
    only: Collection[str] | None = None,
) -> list[Issue]:
    """Every JSON Schema error in ``data``, described and located in ``documents``.

    ``only`` keeps the errors of those schema keywords (``"additionalProperties"``…).
    """
    issues: list[Issue] = []
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.path)))
    for error in errors:
        for cause in _causes(error):
            if only is None or cause.validator in only:
                issues.extend(_describe(cause, documents, category))
    return issues


def _causes(error: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    """The errors a reader can act on behind an ``anyOf``/``oneOf`` failure.

    An optional value is ``anyOf: [its schema, null]``: when the value is written, what is wrong
    is inside its schema (a misspelt key, a missing ``en``), not that it is not ``null``, so
    the null branch is set aside and every error of the other is reported.
    """
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return [error]
    branches = error.validator_value if isinstance(error.validator_value, list) else []
    nulls = {
        i
        for i, branch in enumerate(branches)
        if isinstance(branch, dict) and branch.get("type") == "null"
    }
    if error.instance is not None and nulls and len(nulls) < len(branches):
        written = [e for e in error.context if e.relative_schema_path[0] not in nulls]
        if written and len(branches) - len(nulls) == 1:
            return [cause for e in written for cause in _causes(e)]
    return _causes(jsonschema.exceptions.best_match(error.context))


def model_issues(
    error: ValidationError, documents: Sequence[YamlDocument], category: str = "schema"
) -> list[Issue]:
    """Every error of a pydantic model built from ``documents``' data, located, in words."""
    issues = []
    for detail in error.errors():
        path = tuple(detail["loc"])
        message, hint = model_error(detail)
        issues.append(_located(category, message, path, documents, hint=hint))
    return issues


def _owner(path: Path, documents: Sequence[YamlDocument], at_key: bool) -> YamlDocument:
    """The first document that wrote ``path`` (or its nearest parent); else the first one."""
    for length in range(len(path), 0, -1):
        probe = path[:length]
        for document in documents:
            if probe in document.keys or (not at_key and probe in document.values):
                return document
    return documents[0]


def _located(
    category: str,
    message: str,
    path: Path,
    documents: Sequence[YamlDocument],
    hint: str = "",
    at_key: bool = False,
) -> Issue:
    document = _owner(path, documents, at_key)
    line, column = document.locate(path, at_key=at_key)
    return Issue(
        category, message, file=document.file, path=path, line=line, column=column, hint=hint
    )


def _describe(
    error: jsonschema.ValidationError, documents: Sequence[YamlDocument], category: str
) -> Iterator[Issue]:
    path = tuple(error.absolute_path)
    keyword = error.validator
    value: Any = error.instance
    rule: Any = error.validator_value
    schema = error.schema if isinstance(error.schema, dict) else {}
    hint = ""
    if keyword == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        # sorted as text: YAML reads some keys as numbers or booleans (NO: is False)
        extra = sorted(set(value) - set(allowed), key=str) if isinstance(value, dict) else []
        for key in extra:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            yield _located(
                category,
                f"unknown key {key!r}"
                + (" (a number; keys here are names)" if not isinstance(key, str) else ""),
                # The YAML reader keys every mapping by text, so a number key is found as text.
                (*path, str(key)),
                documents,
                hint=(f"did you mean {close[0]!r}? " if close else "")
                + f"allowed: {', '.join(allowed)}",
                at_key=True,
            )
        return
    if keyword == "required":
        missing = [key for key in rule if key not in value]
        message = f"missing {', '.join(repr(k) for k in missing)}"
        hint = f"add {missing[0]}: …" if missing else ""
    elif keyword == "type":
        expected = rule
        message = f"{found(value)}, expected {_kind_name(expected)}"
        if isinstance(value, bool) and expected == "string":
            hint = 'YAML reads yes/no/on/off/NO as true/false: put the text in quotes, e.g. "NO"'
        elif value is None:
            hint = "the value is empty; write one after the colon"
    elif keyword == "enum":
        options = [str(option) for option in rule]
        close = difflib.get_close_matches(str(value), options, n=1)
        message = f"{shown(value)} is not one of {', '.join(options)}"
        hint = f"did you mean {close[0]!r}?" if close else ""
    elif keyword == "const":
        message = f"{shown(value)} must be {shown(rule)}"
    elif keyword in ("minimum", "exclusiveMinimum"):
        message = f"{shown(value)} is too small: at least {rule}"
        if path and path[-1] == "price":
            hint = "prices are positive whole numbers of мР"
    elif keyword in ("maximum", "exclusiveMaximum"):
        message = f"{shown(value)} is too large: at most {rule}"
    elif keyword == "minLength":
        message = "empty text" if value == "" else f"{shown(value)} is too short"
        hint = "write a value"
    elif keyword == "minItems":
        message = f"{len(value)} item(s), at least {rule} needed"
    elif keyword == "maxItems":
        message = f"{len(value)} item(s), at most {rule} allowed"
    elif keyword == "pattern":
        message = f"{shown(value)} does not have the expected form"
        examples = schema.get("examples")
        hint = f"for example {examples[0]!r}" if examples else f"pattern {rule}"
    else:
        message = error.message
    yield _located(category, message, path, documents, hint=hint)


def _kind_name(expected: Any) -> str:
    names = {
        "string": "text",
        "integer": "a whole number",
        "number": "a number",
        "boolean": "true or false",
        "array": "a list",
        "object": "a mapping (key: value lines)",
        "null": "nothing",
    }
    if isinstance(expected, list):
        return " or ".join(names.get(str(item), str(item)) for item in expected)
    return names.get(expected, str(expected))
