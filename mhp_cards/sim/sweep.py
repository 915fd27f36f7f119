"""Sweeps: the same simulation over catalog variants, to see what a change does to the game.

A variation names a catalog field (a path of :mod:`mhp_cards.validate.update`, such as
``copies.water-ice``) and the values to try: a range of whole numbers ``6..10`` (both ends
included), a comma list ``4,6,8`` or one value. Several variations make a grid (every
combination). A sweep file (YAML) holds the same as a mapping, and may list whole variants::

    vary:
      copies.water-ice: 6..9
      price.CH4: [3, 4]
    variants:                  # optional: variants run as written, after the grid
      - {copies.water-ice: 8, price.CO2: 2}

Every variant is made by :func:`~mhp_cards.validate.update.update_catalog` — the models and every
check — before any game is played, so a bad path or value stops the sweep at once with every
problem located (``--vary`` and its position, or ``file:line:column``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import CatalogUpdateError, SweepError
from mhp_cards.issues import Issue
from mhp_cards.sim.summary import Summary
from mhp_cards.validate.update import Change, Scalar, update_catalog
from mhp_cards.yamldoc import YamlDocument, read_yaml_file

__all__ = [
    "MAX_VARIANTS",
    "Variant",
    "Variation",
    "grid",
    "make_variants",
    "parse_vary",
    "read_sweep_file",
    "sweep",
]

#: The most variants one sweep may hold (a grid grows fast: 5 × 5 × 5 is already 125).
MAX_VARIANTS: Final = 100
_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")


@dataclass(frozen=True, slots=True)
class Variation:
    """One field and the values to try, with where it was asked (for the issues)."""

    path: str
    values: tuple[Scalar, ...]
    file: str | None = None
    line: int | None = None
    column: int | None = None

    def change(self, value: Scalar) -> Change:
        """The change that sets this field to ``value``."""
        return Change(self.path, value, self.file, self.line, self.column)


@dataclass(frozen=True, slots=True)
class Variant:
    """One catalog variant of a sweep: the changes that make it."""

    changes: tuple[Change, ...]

    @property
    def label(self) -> str:
        """``copies.water-ice=8, price.CH4=3``: the changes, for people."""
        return ", ".join(f"{c.path}={_show(c.value)}" for c in self.changes)

    def values(self) -> dict[str, Scalar]:
        """Field path → value, as the ``variant`` field of the JSON."""
        return {c.path: c.value for c in self.changes}


def parse_vary(text: str, position: int = 1) -> Variation:
    """Read one ``--vary PATH=VALUES`` (``position``: its place among the ``--vary`` options)."""
    where = f"--vary #{position}" if position > 1 else "--vary"
    path, equals, spec = text.partition("=")
    if not equals or not path.strip() or not spec.strip():
        raise SweepError(
            [
                Issue(
                    "sweep",
                    f"{text!r} is not PATH=VALUES",
                    file=where,
                    hint="such as copies.water-ice=6..10 or price.CH4=3,4,5",
                )
            ]
        )
    values = _values(spec, where)
    return Variation(path.strip(), values, file=where, column=len(path) + 2)


def _values(
    spec: Any, where: str, line: int | None = None, column: int | None = None
) -> tuple[Scalar, ...]:
    def refuse(message: str) -> SweepError:
        hint = "a range 6..10, a list 4,6,8 (in a file also [4, 6, 8]) or one value"
        return SweepError(
            [Issue("sweep", message, file=where, line=line, column=column, hint=hint)]
        )

    if isinstance(spec, list):
        if not spec or not all(_is_scalar(item) for item in spec):
            raise refuse("the values must be a non-empty list of numbers, texts or yes/no")
        values: tuple[Scalar, ...] = tuple(spec)
    elif _is_scalar(spec):
        text = str(spec) if not isinstance(spec, bool) else ""
        match = _RANGE.match(text) if isinstance(spec, str) else None
        if match:
            low, high = int(match[1]), int(match[2])
            if low > high:
                raise refuse(
                    f"the range {text.strip()} is empty: the first end must not exceed the last"
                )
            if high - low + 1 > MAX_VARIANTS:
                raise refuse(
                    f"the range {text.strip()} holds {high - low + 1} values, "
                    f"more than {MAX_VARIANTS}"
                )
            values = tuple(range(low, high + 1))
        elif isinstance(spec, str) and "," in spec:
            items = [item.strip() for item in spec.split(",")]
            if any(not item for item in items):
                raise refuse(f"{spec!r} has an empty value between commas")
            values = tuple(_scalar(item) for item in items)
        else:
            values = (_scalar(spec.strip()) if isinstance(spec, str) else spec,)
    else:
        raise refuse("the values must be a range, a list or one value")
    if len(set(map(str, values))) != len(values):
        raise refuse("a value is repeated")
    return values


def _scalar(text: str) -> Scalar:
    """A number when the text is one (the field's kind is checked when the variant is made)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _is_scalar(value: Any) -> bool:
    return isinstance(value, bool | int | float | str)


def read_sweep_file(path: Path | str) -> tuple[list[Variation], list[Variant]]:
    """The variations (a grid) and the explicit variants of a sweep file, located issues else."""
    name = str(path)
    document, issues = read_yaml_file(Path(path), name)
    if document is None:
        raise SweepError(issues)
    data = document.data
    if not isinstance(data, dict) or not data or set(data) - {"vary", "variants"}:
        raise SweepError(
            [
                _located(
                    document,
                    (),
                    "a sweep file is a mapping with 'vary' and/or 'variants'",
                    "vary: {copies.water-ice: 6..10}",
                )
            ]
        )
    variations: list[Variation] = []
    explicit: list[Variant] = []
    vary = data.get("vary", {})
    if not isinstance(vary, dict):
        raise SweepError([_located(document, ("vary",), "'vary' maps field paths to values")])
    for key, spec in vary.items():
        line, column = document.locate(("vary", key), at_key=True)
        values = _values(spec, name, *document.locate(("vary", key)))
        variations.append(Variation(str(key), values, name, line, column))
    listed = data.get("variants", [])
    if not isinstance(listed, list):
        raise SweepError([_located(document, ("variants",), "'variants' is a list of mappings")])
    for index, item in enumerate(listed):
        if not isinstance(item, dict) or not item or not all(_is_scalar(v) for v in item.values()):
            raise SweepError(
                [
                    _located(
                        document,
                        ("variants", index),
                        "a variant maps field paths to one value each",
                        "- {copies.water-ice: 8}",
                    )
                ]
            )
        changes = []
        for key, value in item.items():
            line, column = document.locate(("variants", index, key), at_key=True)
            changes.append(Change(str(key), value, name, line, column))
        explicit.append(Variant(tuple(changes)))
    return variations, explicit


def _located(
    document: YamlDocument, path: tuple[str | int, ...], message: str, hint: str = ""
) -> Issue:
    line, column = document.locate(path)
    return Issue(
        "sweep", message, file=document.file, path=path, line=line, column=column, hint=hint
    )


def grid(variations: Sequence[Variation]) -> list[Variant]:
    """Every combination of the variations' values, the first variation varying slowest."""
    if not variations:
        return []
    paths = [v.path for v in variations]
    if len(set(paths)) != len(paths):
        repeated = next(p for p in paths if paths.count(p) > 1)
        raise SweepError([Issue("sweep", f"{repeated} is varied twice", file=variations[0].file)])
    return [
        Variant(tuple(v.change(value) for v, value in zip(variations, combo, strict=True)))
        for combo in itertools.product(*(v.values for v in variations))
    ]


def make_variants(catalog: Catalog, variants: Sequence[Variant]) -> list[Catalog]:
    """The catalog of each variant, validated; every problem of every variant at once."""
    if len(variants) > MAX_VARIANTS:
        raise SweepError(
            [
                Issue(
                    "sweep",
                    f"the sweep holds {len(variants)} variants, more than {MAX_VARIANTS}",
                    hint="vary fewer fields or fewer values",
                )
            ]
        )
    catalogs: list[Catalog] = []
    issues: list[Issue] = []
    for variant in variants:
        try:
            catalogs.append(update_catalog(catalog, variant.changes))
        except CatalogUpdateError as error:
            issues.extend(issue for issue in error.issues if issue not in issues)
    if issues:
        raise SweepError(issues)
    return catalogs


def sweep(
    catalog: Catalog,
    variants: Sequence[Variant],
    run: Callable[[Catalog], Summary],
) -> list[Summary]:
    """Run ``run`` on each variant's catalog; each summary carries its ``variant``.

    Every variant is made and validated before the first game.
    """
    catalogs = make_variants(catalog, variants)
    return [
        run(variant_catalog).model_copy(update={"variant": variant.values()})
        for variant, variant_catalog in zip(variants, catalogs, strict=True)
    ]


def _show(value: Scalar) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
