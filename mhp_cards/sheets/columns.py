"""The sheets of a catalog: which rows, which columns, and how a cell reads and writes a value.

Four sheets, one row per card or substance: ``raw_materials``, ``substances``,
``reactor_cards`` (the cards of every installation, then the electrolysers) and ``missions``.
A column is a value of the row's YAML record (``name.ru`` is ``name: {ru: …}``); the values a
YAML record nests are written in words a designer can edit in a cell:

- a reactor card's reactions: ``CaCO3 -> CaO + CO2; CaO + H2O -> Ca(OH)2``;
- its containers: ``CaCO3 raw-input; CO2 product 1`` (substance, role, places);
- its ports: ``bottom 2 CaO out; top 2 CaO in optional`` (edge, position, substance,
  direction, and ``optional`` when the pipe may stay empty);
- a mission's places: ``CH4 ×2; O2 ×4``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "ELECTROLYSER",
    "SHEETS",
    "Cell",
    "CellError",
    "Column",
    "Record",
    "Sheet",
    "read_int",
    "text_column",
    "write_int",
]

Cell = str | int | None


class CellError(ValueError):
    """A cell that does not read as its column's value: what is wrong, and what would be right."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def _text(value: Any) -> Cell:
    return None if value is None else str(value)


def _read_text(cell: str) -> Any:
    return cell


def read_int(cell: str) -> Any:
    """A whole number from a cell; CellError when it is none."""
    try:
        return int(cell.strip())
    except ValueError:
        raise CellError(f"{cell!r} is not a whole number", "write a number such as 3") from None


def write_int(value: Any) -> Cell:
    """A whole number as a cell (empty for none)."""
    return None if value is None else int(value)


def _joined(value: Any, one: Callable[[Any], str]) -> Cell:
    return "; ".join(one(item) for item in value) if value else None


def _parts(cell: str) -> list[str]:
    return [part.strip() for part in cell.split(";") if part.strip()]


def _read_reactions(cell: str) -> Any:
    return _parts(cell)


_CONTAINER: Final = re.compile(r"^(\S+)\s+(raw-input|product|transit)(?:\s+(\d+))?$")


def _container(item: Any) -> str:
    places = item.get("places")
    return " ".join([str(item["substance"]), str(item["role"]), *([str(places)] if places else [])])


def _read_containers(cell: str) -> Any:
    out: list[dict[str, Any]] = []
    for part in _parts(cell):
        match = _CONTAINER.match(part)
        if match is None:
            raise CellError(
                f"container {part!r} is not 'substance role [places]'",
                "write e.g. 'CaCO3 raw-input; CO2 product 1' (roles: raw-input, product, transit)",
            )
        container: dict[str, Any] = {"substance": match[1], "role": match[2]}
        if match[3] is not None:
            container["places"] = int(match[3])
        out.append(container)
    return out


_PORT: Final = re.compile(r"^(top|right|bottom|left)\s+(\d+)\s+(\S+)\s+(in|out)(\s+optional)?$")


def _port(item: Any) -> str:
    words = [item["edge"], item["position"], item["substance"], item["direction"]]
    if item.get("optional"):
        words.append("optional")
    return " ".join(map(str, words))


def _read_ports(cell: str) -> Any:
    out: list[dict[str, Any]] = []
    for part in _parts(cell):
        match = _PORT.match(part)
        if match is None:
            raise CellError(
                f"port {part!r} is not 'edge position substance direction [optional]'",
                "write e.g. 'bottom 2 CaO out' (edges top, right, bottom, left; in or out)",
            )
        port: dict[str, Any] = {
            "edge": match[1],
            "position": int(match[2]),
            "substance": match[3],
            "direction": match[4],
        }
        if match[5]:
            port["optional"] = True
        out.append(port)
    return out


_PLACE: Final = re.compile(r"^(\S+)\s*[×x*]\s*(\d+)$")


def _place(item: Any) -> str:
    return f"{item['formula']} ×{item['count']}"


def _read_places(cell: str) -> Any:
    out: list[dict[str, Any]] = []
    for part in _parts(cell):
        match = _PLACE.match(part)
        if match is None:
            raise CellError(f"place {part!r} is not 'formula ×count'", "write e.g. 'CH4 ×2; O2 ×4'")
        out.append({"formula": match[1], "count": int(match[2])})
    return out


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its header, the value's path in the record, and how a cell shows and reads it."""

    header: str
    path: tuple[str, ...]
    write: Callable[[Any], Cell] = _text
    read: Callable[[str], Any] = _read_text
    required: bool = True
    """An empty cell of a column that is not required leaves the value out of the record."""
    in_record: bool = True
    """False for a cell that says where the record goes, not what it holds (a reactor card's
    installation)."""


def text_column(header: str, required: bool = True) -> Column:
    """A column of text at the path its header spells (``name.ru``)."""
    return Column(header, tuple(header.split(".")), required=required)


@dataclass(frozen=True, slots=True)
class Record:
    """A row's record in its file: the list that holds it, its place there, and its value."""

    where: tuple[str | int, ...]
    """The path of the list in the file (``("installations", 2, "cards")``)."""
    index: int
    value: dict[str, Any]
    extra: dict[str, Cell]
    """Cells that are not part of the record (a reactor card's installation)."""


@dataclass(frozen=True, slots=True)
class Sheet:
    """A sheet: its name, the catalog file and list it comes from, its key and its columns."""

    name: str
    file: str
    rows: tuple[str | int, ...]
    """The path of the list of records in the file (``("raw_materials",)``)."""
    key: str
    """The column that names a row (a card's ID, a substance's formula)."""
    columns: tuple[Column, ...]

    def column(self, header: str) -> Column:
        """The column with ``header``."""
        return next(column for column in self.columns if column.header == header)

    @property
    def headers(self) -> tuple[str, ...]:
        """The column headers, in order."""
        return tuple(column.header for column in self.columns)

    def records(self, data: Any) -> list[Record]:
        """The sheet's records in the file's data, in file order."""
        if self.name == "reactor_cards":
            out = [
                Record(
                    ("installations", i, "cards"), j, card, {"installation": str(inst["number"])}
                )
                for i, inst in enumerate(data.get("installations") or [])
                for j, card in enumerate(inst.get("cards") or [])
            ]
            out += [
                Record(("electrolysers",), k, card, {"installation": ELECTROLYSER})
                for k, card in enumerate(data.get("electrolysers") or [])
            ]
            return out
        items: Any = data
        for step in self.rows:
            if isinstance(step, int):
                items = items[step] if isinstance(items, list) and step < len(items) else None
            else:
                items = (items or {}).get(step)
        return [Record(self.rows, i, item, {}) for i, item in enumerate(items or [])]

    def list_for(self, data: Any, extra: dict[str, Cell]) -> tuple[str | int, ...] | None:
        """The list a new row goes to (a reactor card: its installation's cards)."""
        if self.name != "reactor_cards":
            return self.rows
        where = extra.get("installation")
        if where == ELECTROLYSER:
            return ("electrolysers",)
        for i, inst in enumerate(data.get("installations") or []):
            if str(inst.get("number")) == str(where):
                return ("installations", i, "cards")
        return None


#: The installation cell of an electrolyser's row.
ELECTROLYSER: Final = "electrolyser"


_NAMES = (text_column("name.ru"), text_column("name.en"))

#: The sheets, in the order a workbook holds them.
SHEETS: Final = (
    Sheet(
        "raw_materials",
        "raw_materials.yaml",
        ("raw_materials",),
        "id",
        (
            text_column("id"),
            text_column("formula"),
            *_NAMES,
            Column("copies", ("copies",), write_int, read_int),
            text_column("mars.ru", required=False),
            text_column("mars.en", required=False),
            text_column("art", required=False),
        ),
    ),
    Sheet(
        "substances",
        "substances.yaml",
        ("substances",),
        "formula",
        (
            text_column("formula"),
            *_NAMES,
            Column("price", ("price",), write_int, read_int),
            text_column("art", required=False),
        ),
    ),
    Sheet(
        "reactor_cards",
        "installations.yaml",
        ("installations", "cards"),
        "id",
        (
            Column("installation", ("installation",), _text, in_record=False),
            text_column("id"),
            text_column("group"),
            text_column("name.ru", required=False),
            text_column("name.en", required=False),
            Column(
                "reactions",
                ("reactions",),
                lambda v: _joined(v, str),
                _read_reactions,
                required=False,
            ),
            text_column("conditions.ru", required=False),
            text_column("conditions.en", required=False),
            Column(
                "containers",
                ("containers",),
                lambda v: _joined(v, _container),
                _read_containers,
                required=False,
            ),
            Column(
                "ports",
                ("ports",),
                lambda v: _joined(v, _port),
                _read_ports,
                required=False,
            ),
            text_column("art", required=False),
        ),
    ),
    Sheet(
        "missions",
        "missions.yaml",
        ("mission_card", "missions"),
        "id",
        (
            text_column("id"),
            *_NAMES,
            Column("places", ("places",), lambda v: _joined(v, _place), _read_places),
            text_column("art", required=False),
        ),
    ),
)
