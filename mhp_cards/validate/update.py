"""A catalog variant: a few fields of a validated catalog changed, and the result validated again.

A designer asks "what if there were eight water-ice cards?". The answer is a new catalog value,
made from the old one by changing fields named by a *field path* and put through the models and
every check of :mod:`mhp_cards.validate.checks`, as the files would be; the files themselves
are never touched. A path is dotted, into the catalog as ``mhp catalog export --json`` prints
it; an item of a list is named by its ``id``, ``number`` or ``formula`` (or its 0-based
position)::

    raw_materials.water-ice.copies        the copies of a raw card
    substances.CH4.price                  the price of a substance
    components.upgrades.armour.price      the price of an upgrade
    missions.M1.places.O2.count           a place count of a mission

and two shorthands: ``copies.ID`` for ``raw_materials.ID.copies`` and ``price.FORMULA`` for
``substances.FORMULA.price``. Only a number, a text or a yes/no already in the catalog can be
changed, to a value of the same kind.

>>> from mhp_cards.validate import load_catalog
>>> variant = update_catalog(load_catalog(), [Change("copies.water-ice", 8)])
>>> variant.raw_material("water-ice").copies
8
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import CatalogUpdateError
from mhp_cards.issues import Issue, Path, format_path
from mhp_cards.validate.checks import Parts, run_checks
from mhp_cards.wording import model_error_text

__all__ = ["SHORTHANDS", "Change", "Scalar", "resolve", "update_catalog"]

#: A value a change may set.
Scalar = bool | int | float | str
#: The first step of a path that stands for a longer one: (prefix, field at the end).
SHORTHANDS: dict[str, tuple[str, str]] = {
    "copies": ("raw_materials", "copies"),
    "price": ("substances", "price"),
}
#: The fields that name an item of a list, tried in this order.
_ITEM_KEYS = ("id", "number", "formula")


@dataclass(frozen=True, slots=True)
class Change:
    """Set the field at ``path`` to ``value``; ``file``, ``line``, ``column``: where it was asked.

    ``value`` may be text to read as the field's kind (``"8"`` for a number), as on a command
    line.
    """

    path: str
    value: Scalar
    file: str | None = None
    line: int | None = None
    column: int | None = None

    def issue(self, message: str, hint: str = "", check: str = "catalog-update") -> Issue:
        """An issue located where this change was asked."""
        return Issue(
            check,
            f"{self.path}={_show(self.value)}: {message}",
            file=self.file,
            line=self.line,
            column=self.column,
            hint=hint,
        )


def resolve(document: Any, text: str) -> tuple[Path, Scalar]:
    """The JSON path of the field named ``text`` in ``document`` and its value.

    Raises :class:`LookupError` with what is wrong and what would be right.
    """
    steps = text.split(".")
    if not text or any(not step for step in steps):
        raise LookupError("a field path is names joined by dots, such as copies.water-ice")
    if steps[0] in SHORTHANDS and steps[0] not in document:
        prefix, last = SHORTHANDS[steps[0]]
        if len(steps) < 2:
            raise LookupError(f"{steps[0]} needs a name after it, such as {steps[0]}.NAME")
        steps = [prefix, ".".join(steps[1:]), last]
    node: Any = document
    path: list[str | int] = []
    while steps:
        key, taken = _step(node, steps)
        if key is None:
            raise LookupError(_not_found(node, steps, path))
        path.append(key)
        node = node[key]
        steps = steps[taken:]
    if isinstance(node, dict | list) or node is None:
        fields = ", ".join(_names(node)) if isinstance(node, dict | list) else ""
        more = f"; under it: {fields}" if fields else ""
        raise LookupError(f"{format_path(tuple(path))} is not a single value{more}")
    return tuple(path), node


def _step(node: Any, steps: list[str]) -> tuple[str | int | None, int]:
    """The key of ``node`` named by the first steps (an ID may hold a dot), and how many."""
    for taken in range(len(steps), 0, -1):
        name = ".".join(steps[:taken])
        if isinstance(node, dict) and name in node:
            return name, taken
        if isinstance(node, list):
            for index, item in enumerate(node):
                if isinstance(item, dict) and any(
                    str(item.get(field)) == name for field in _ITEM_KEYS if field in item
                ):
                    return index, taken
    if isinstance(node, list) and steps[0].isdigit() and int(steps[0]) < len(node):
        return int(steps[0]), 1
    return None, 0


def _names(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [str(key) for key in node]
    if isinstance(node, list):
        names = []
        for index, item in enumerate(node):
            found = [str(item[f]) for f in _ITEM_KEYS if isinstance(item, dict) and f in item]
            names.append(found[0] if found else str(index))
        return names
    return []


def _not_found(node: Any, steps: list[str], path: list[str | int]) -> str:
    where = format_path(tuple(path)) or "the catalog"
    names = _names(node)
    if not names:
        return f"{where} is a single value: nothing is under it"
    shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
    return f"{where} has no {steps[0]!r}; it has: {shown}"


def update_catalog(catalog: Catalog, changes: Sequence[Change]) -> Catalog:
    """``catalog`` with ``changes`` made, validated by the models and every check.

    Raises :class:`~mhp_cards.errors.CatalogUpdateError` with every problem, each located where
    its change was asked: a path that names nothing, a value of the wrong kind, a value the
    models refuse, or a catalog the checks reject (the setup counts, the missions, …).
    """
    document = catalog.model_dump(mode="json")
    issues: list[Issue] = []
    for change in changes:
        try:
            path, old = resolve(document, change.path)
        except LookupError as error:
            issues.append(change.issue(str(error), "see 'mhp catalog export --json' for fields"))
            continue
        try:
            value = _as_kind(change.value, old)
        except ValueError as error:
            issues.append(change.issue(str(error)))
            continue
        _set(document, path, value)
    if issues:
        raise CatalogUpdateError(issues)
    blame = changes[0] if len(changes) == 1 else _Joined(changes)
    try:
        variant = Catalog.model_validate_json(json.dumps(document, ensure_ascii=False))
    except ValidationError as error:
        raise CatalogUpdateError(
            [
                blame.issue(
                    f"{format_path(tuple(e['loc']))}: {model_error_text(e)}", check="schema"
                )
                for e in error.errors()
            ]
        ) from None
    found, _ = run_checks(_parts(variant))
    errors = [issue for issue in found if issue.severity == "error"]
    if errors:
        raise CatalogUpdateError(
            [
                blame.issue(
                    f"the variant fails the check {issue.check} at "
                    f"{issue.file}: {format_path(issue.path)}: {issue.message}",
                    issue.hint,
                    check=issue.check,
                )
                for issue in errors
            ]
        )
    return variant


@dataclass(frozen=True, slots=True)
class _Joined:
    """Several changes blamed together for a problem of the catalog they make."""

    changes: Sequence[Change]

    def issue(self, message: str, hint: str = "", check: str = "catalog-update") -> Issue:
        first = self.changes[0]
        asked = ", ".join(f"{c.path}={_show(c.value)}" for c in self.changes)
        return Issue(
            check,
            f"{asked}: {message}",
            file=first.file,
            line=first.line,
            column=first.column,
            hint=hint,
        )


def _as_kind(value: Scalar, old: Scalar) -> Scalar:
    """``value`` as a value of the kind of ``old``; ValueError saying the kind expected."""
    if isinstance(old, bool):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "yes"):
            return True
        if text in ("false", "no"):
            return False
        raise ValueError("this field is yes or no (true, false)")
    if isinstance(old, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise ValueError(f"this field is a whole number (now {old})")
    if isinstance(old, float):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str):
            try:
                return float(value.strip())
            except ValueError:
                pass
        raise ValueError(f"this field is a number (now {old:g})")
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise ValueError(f"this field is a text (now {old!r})")


def _set(document: Any, path: Path, value: Scalar) -> None:
    node = document
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _show(value: Scalar) -> str:
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value


def _parts(catalog: Catalog) -> Parts:
    return Parts(
        substances=catalog.substances,
        raw_materials=catalog.raw_materials,
        installations=catalog.installations,
        electrolysers=catalog.electrolysers,
        missions=catalog.missions,
        components=catalog.components,
    )
