"""Catalog to sheets and back: a row that did not change leaves its YAML byte for byte.

:func:`export_tables` reads the catalog's YAML files into the four tables of
:mod:`mhp_cards.sheets.columns`. :func:`import_tables` reads edited tables back: a row whose
values equal its record's leaves the file untouched (its comments and layout too); a changed
row's record is written again in its place, in the style it had (a one-line flow mapping stays
one); a new row is added after the last record of its list; a row deleted from the sheet is
deleted from the file. Nothing is written here: the new texts are validated as a catalog first,
and every problem — a cell that does not read, a duplicate key, a catalog error of the result
— comes back located at its ``sheet!cell``.
"""

from __future__ import annotations

import copy
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mhp_cards.issues import Issue
from mhp_cards.resources import default_catalog_dir
from mhp_cards.sheets.columns import SHEETS, CellError, Column, Record, Sheet
from mhp_cards.sheets.tables import Table, cell_name
from mhp_cards.validate import validate_catalog
from mhp_cards.wording import listing

__all__ = ["Import", "export_tables", "import_tables"]


def export_tables(
    catalog_dir: Path | None = None, sheets: Sequence[Sheet] = SHEETS
) -> dict[str, Table]:
    """The catalog's sheets (by default the game's four), rows in file order."""
    root = catalog_dir or default_catalog_dir()
    tables: dict[str, Table] = {}
    for sheet in sheets:
        data = yaml.safe_load((root / sheet.file).read_text(encoding="utf-8"))
        rows = []
        for record in sheet.records(data):
            rows.append(
                tuple(
                    record.extra[column.header]
                    if column.header in record.extra
                    else column.write(_get(record.value, column.path))
                    for column in sheet.columns
                )
            )
        tables[sheet.name] = Table(sheet.headers, tuple(rows))
    return tables


@dataclass
class Import:
    """What an import would change: the new file texts, a count per sheet, and every problem."""

    files: dict[Path, bytes] = field(default_factory=dict)
    """The catalog files whose text changes (only those), by path."""
    changed: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    """(rows changed, added, removed) per sheet."""
    issues: list[Issue] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing stops the import (warnings of the catalog aside)."""
        return not any(issue.severity == "error" for issue in self.issues)


def import_tables(
    tables: Mapping[str, Table],
    catalog_dir: Path,
    sheets: Sequence[Sheet] = SHEETS,
    validate: Callable[[Path], Sequence[Issue]] | None = None,
) -> Import:
    """Merge edited tables into the catalog in ``catalog_dir``; see the module.

    ``sheets`` (default: the game's four) and ``validate``, which gives the errors of a
    catalog directory (default: the game catalog's validation), serve other catalogs: a deck
    pack's decks.
    """
    result = Import()
    #: Where each row ends up: (file, list path, index) -> (sheet, row number on the sheet).
    rows_at: dict[tuple[str, tuple[str | int, ...], int], tuple[Sheet, int]] = {}
    texts: dict[str, str] = {}
    for sheet in sheets:
        table = tables.get(sheet.name)
        if table is None:
            continue
        text = texts.get(sheet.file)
        if text is None:
            text = texts[sheet.file] = (catalog_dir / sheet.file).read_text(encoding="utf-8")
        merged = _merge_sheet(sheet, table, text, result, rows_at)
        if merged is not None:
            texts[sheet.file] = merged
    if not result.ok:
        return result
    for name, text in texts.items():
        path = catalog_dir / name
        if text != path.read_text(encoding="utf-8"):
            result.files[path] = text.encode("utf-8")
    if result.files:
        result.issues += _validated(catalog_dir, result.files, rows_at, validate or _game_errors)
    return result


def _merge_sheet(
    sheet: Sheet,
    table: Table,
    text: str,
    result: Import,
    rows_at: dict[tuple[str, tuple[str | int, ...], int], tuple[Sheet, int]],
) -> str | None:
    """The file's text with the sheet's edits; None (and issues) when a cell does not read."""
    problems = result.issues

    def problem(where: str, message: str, hint: str) -> None:
        problems.append(Issue("sheets", message, file=f"{sheet.name}!{where}", hint=hint))

    positions: dict[str, int] = {}
    for index, header in enumerate(table.header):
        if header not in sheet.headers:
            problem(
                cell_name(index, 1),
                f"unknown column {header!r}",
                f"the columns are {listing(sheet.headers)}",
            )
        elif header in positions:
            problem(cell_name(index, 1), f"a second column {header!r}", "keep one")
        else:
            positions[header] = index
    missing = [header for header in sheet.headers if header not in positions]
    if missing:
        problem("A1", f"no column {listing(missing)}", f"the columns are {listing(sheet.headers)}")
    if missing or len(positions) != len(table.header):
        return None
    data = yaml.safe_load(text)
    records = sheet.records(data)
    by_key = {str(_get(record.value, (sheet.key,))): record for record in records}
    seen: dict[str, int] = {}
    wanted: list[tuple[int, Record | None, dict[str, Any], tuple[str | int, ...]]] = []
    failed = False
    for offset, row in enumerate(table.rows):
        number = offset + 2
        cells = {
            header: row[index] if index < len(row) else None for header, index in positions.items()
        }
        if all(cell is None for cell in cells.values()):
            continue
        key = cells[sheet.key]
        key_cell = cell_name(positions[sheet.key], number)
        if key is None:
            problem(key_cell, f"the row has no {sheet.key}", f"every row names its {sheet.key}")
            failed = True
            continue
        if str(key) in seen:
            problem(
                key_cell,
                f"a second row {key!r} (row {seen[str(key)]} has it)",
                "keep one row a key",
            )
            failed = True
            continue
        seen[str(key)] = number
        old = by_key.get(str(key))
        value = copy.deepcopy(old.value) if old is not None else {}
        extra: dict[str, Any] = {}
        for column in sheet.columns:
            cell = cells[column.header]
            where = cell_name(positions[column.header], number)
            if not column.in_record:
                extra[column.header] = None if cell is None else str(cell)
                continue
            if cell is None:
                if column.required:
                    problem(
                        where, f"{column.header} is empty", f"every row gives its {column.header}"
                    )
                    failed = True
                elif _get(value, column.path) not in (None, [], {}, ""):
                    # An empty cell leaves an empty list (``ports: []``) as it is written.
                    _drop(value, column.path)
                continue
            try:
                _put(value, column.path, column.read(str(cell)))
            except CellError as error:
                problem(where, error.message, error.hint)
                failed = True
        target = sheet.list_for(data, extra)
        if target is None:
            where = cell_name(positions["installation"], number)
            problem(
                where,
                f"no installation {extra.get('installation')!r}",
                "write an installation's number, or electrolyser",
            )
            failed = True
            continue
        if old is not None and old.where != target:
            where = cell_name(positions["installation"], number)
            problem(
                where,
                "a card moves to another installation",
                "move it in installations.yaml, then export again",
            )
            failed = True
            continue
        wanted.append((number, old, value, target))
    if failed:
        return None
    kept = {id(old): number for number, old, _, _ in wanted if old is not None}
    edits = _Edits(text)
    changed = added = removed = 0
    for record in records:
        if id(record) not in kept:
            edits.remove((*record.where, record.index))
            removed += 1
    for _number, old, value, target in wanted:
        if old is not None and value != old.value:
            edits.replace((*old.where, old.index), value)
            changed += 1
        elif old is None:
            edits.append(target, value)
            added += 1
    # Where each row sits in the new file, for the catalog's own errors.
    order: dict[tuple[str | int, ...], list[int]] = {}
    for record in records:
        if id(record) in kept:
            order.setdefault(record.where, []).append(kept[id(record)])
    for number, old, _, target in wanted:
        if old is None:
            order.setdefault(target, []).append(number)
    for list_path, numbers in order.items():
        for index, number in enumerate(numbers):
            rows_at[(sheet.file, list_path, index)] = (sheet, number)
    result.changed[sheet.name] = (changed, added, removed)
    return edits.text()


class _Edits:
    """Text edits of one YAML file, each a record's span replaced, removed or added after."""

    def __init__(self, text: str) -> None:
        self.source = text
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        assert root is not None, "a catalog file that has records is not empty"
        self.root: yaml.Node = root
        self.edits: list[tuple[int, int, str]] = []

    def _node(self, path: tuple[str | int, ...]) -> yaml.Node:
        node = self.root
        for step in path:
            if isinstance(node, yaml.MappingNode):
                node = next(v for k, v in node.value if k.value == step)
            else:
                node = node.value[step]
        return node

    def replace(self, path: tuple[str | int, ...], value: dict[str, Any]) -> None:
        """Write a changed record again: only the values that changed, each in its style.

        A one-line (flow) record is written again whole, on its line; in a block record each
        changed value replaces its old text (a block list of the same length item by item), a
        value gone takes its lines away, a new one is added after the last.
        """
        node = self._node(path)
        if not isinstance(node, yaml.MappingNode) or node.flow_style:
            self.edits.append((node.start_mark.index, _end(node), self._render(node, value)))
            return
        self._mapping(node, value)

    def _mapping(self, node: yaml.MappingNode, value: dict[str, Any]) -> None:
        old = {key.value: (key, child) for key, child in node.value}
        for name, (key, child) in old.items():
            if name not in value:
                start = self.source.rfind("\n", 0, key.start_mark.index) + 1
                end = _end(child)
                end += 1 if end < len(self.source) and self.source[end] == "\n" else 0
                self.edits.append((start, end, ""))
            elif _differs(child, value[name]):
                self._value(child, value[name])
        added = [name for name in value if name not in old]
        if added:
            column = node.value[0][0].start_mark.column
            lines = _block_lines({name: value[name] for name in added})
            end = _end(node)
            self.edits.append((end, end, "".join("\n" + " " * column + line for line in lines)))

    def _value(self, node: yaml.Node, value: Any) -> None:
        """Replace what ``node`` holds by ``value``, keeping what did not change."""
        block = not getattr(node, "flow_style", True)
        if block and isinstance(node, yaml.MappingNode) and isinstance(value, dict) and value:
            self._mapping(node, value)
            return
        if (
            block
            and isinstance(node, yaml.SequenceNode)
            and isinstance(value, list)
            and len(value) == len(node.value)
        ):
            for item, new in zip(node.value, value, strict=True):
                if _differs(item, new):
                    self._value(item, new)
            return
        self.edits.append((node.start_mark.index, _end(node), _value_text(node, value)))

    def remove(self, path: tuple[str | int, ...]) -> None:
        node = self._node(path)
        start = self.source.rfind("\n", 0, node.start_mark.index) + 1
        end = _end(node)
        if end < len(self.source) and self.source[end] == "\n":
            end += 1
        self.edits.append((start, end, ""))

    def append(self, path: tuple[str | int, ...], value: dict[str, Any]) -> None:
        sequence = self._node(path)
        last = sequence.value[-1]
        column = last.start_mark.column
        dash = self.source.rfind("- ", 0, last.start_mark.index)
        prefix = self.source[self.source.rfind("\n", 0, dash) + 1 : dash]
        end = _end(last)
        rendered = self._render(last, value, column)
        self.edits.append((end, end, "\n" + prefix + "- " + rendered))

    def _render(self, like: yaml.Node, value: dict[str, Any], column: int | None = None) -> str:
        column = like.start_mark.column if column is None else column
        if getattr(like, "flow_style", False):
            return yaml.safe_dump(
                value, default_flow_style=True, allow_unicode=True, sort_keys=False, width=10**6
            ).strip()
        lines = (
            yaml.safe_dump(
                value, default_flow_style=None, allow_unicode=True, sort_keys=False, width=10**6
            )
            .rstrip("\n")
            .split("\n")
        )
        return "\n".join([lines[0], *(" " * column + line for line in lines[1:])])

    def text(self) -> str:
        out = self.source
        for start, end, new in sorted(self.edits, key=lambda edit: edit[0], reverse=True):
            out = out[:start] + new + out[end:]
        return out


def _differs(node: yaml.Node, value: Any) -> bool:
    """Whether ``node`` holds something other than ``value``."""
    return bool(_node_value(node) != value)


def _node_value(node: yaml.Node) -> Any:
    constructor = yaml.SafeLoader("")
    return constructor.construct_object(node, deep=True)


def _value_text(old: yaml.Node, value: Any) -> str:
    """``value`` written where ``old`` stood: a scalar, or a collection in ``old``'s style."""
    if isinstance(old, yaml.ScalarNode) or not isinstance(value, dict | list):
        text = yaml.safe_dump(value, allow_unicode=True, width=10**6)
        return text.removesuffix("\n").removesuffix("\n...")
    if getattr(old, "flow_style", False):
        return yaml.safe_dump(
            value, default_flow_style=True, allow_unicode=True, sort_keys=False, width=10**6
        ).strip()
    column = old.start_mark.column
    leaves = all(isinstance(child, yaml.ScalarNode) for child in _children(old))
    lines = _block_lines(value, flow_leaves=not leaves)
    return "\n".join([lines[0], *(" " * column + line for line in lines[1:])])


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [child for _, child in node.value]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _block_lines(value: Any, flow_leaves: bool = True) -> list[str]:
    """``value`` as block YAML lines, its innermost collections one-line when ``flow_leaves``."""
    return (
        yaml.safe_dump(
            value,
            default_flow_style=None if flow_leaves else False,
            allow_unicode=True,
            sort_keys=False,
            width=10**6,
        )
        .rstrip("\n")
        .split("\n")
    )


def _end(node: yaml.Node) -> int:
    """Where a node's own text ends.

    A block collection ends with its last value, not after the comments and blank lines that
    follow it (where PyYAML's end mark would put it).
    """
    if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
        return _end(node.value[-1][1])
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        return _end(node.value[-1])
    return node.end_mark.index


def _game_errors(directory: Path) -> list[Issue]:
    return list(validate_catalog(directory, cached=False).errors)


def _validated(
    catalog_dir: Path,
    files: Mapping[Path, bytes],
    rows_at: Mapping[tuple[str, tuple[str | int, ...], int], tuple[Sheet, int]],
    validate: Callable[[Path], Sequence[Issue]],
) -> list[Issue]:
    """The merged catalog's errors, each at the cell of the row and column that wrote it."""
    with tempfile.TemporaryDirectory(prefix="mhp-import-") as scratch:
        trial = Path(scratch) / "catalog"
        shutil.copytree(catalog_dir, trial)
        for path, data in files.items():
            (trial / path.name).write_bytes(data)
        errors = validate(trial)
    issues = []
    for issue in errors:
        issues.append(_at_cell(issue, rows_at) or issue)
    return issues


def _at_cell(
    issue: Issue, rows_at: Mapping[tuple[str, tuple[str | int, ...], int], tuple[Sheet, int]]
) -> Issue | None:
    name = Path(issue.file or "").name
    for (file, where, index), (sheet, number) in rows_at.items():
        size = len(where)
        if file != name or tuple(issue.path[:size]) != where or len(issue.path) <= size:
            continue
        if issue.path[size] != index:
            continue
        rest = tuple(issue.path[size + 1 :])
        column = _column_of(sheet, rest)
        position = sheet.columns.index(column) if column is not None else 0
        return Issue(
            issue.check,
            issue.message,
            file=f"{sheet.name}!{cell_name(position, number)}",
            hint=issue.hint,
            rule=issue.rule,
        )
    return None


def _column_of(sheet: Sheet, rest: tuple[str | int, ...]) -> Column | None:
    for column in sheet.columns:
        if rest[: len(column.path)] == column.path:
            return column
    return None


def _get(record: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = record
    for step in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(step)
    return value


def _put(record: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    target = record
    for step in path[:-1]:
        inner = target.get(step)
        if not isinstance(inner, dict):
            inner = target[step] = {}
        target = inner
    target[path[-1]] = value


def _drop(record: dict[str, Any], path: tuple[str, ...]) -> None:
    target: Any = record
    for step in path[:-1]:
        target = target.get(step) if isinstance(target, dict) else None
    if isinstance(target, dict):
        target.pop(path[-1], None)
    if len(path) > 1:
        parent = _get(record, path[:-1])
        if parent == {}:
            _drop(record, path[:-1])
