"""Sheets as files: a folder of CSV files (one a sheet) or one XLSX workbook.

A table is its header and its rows of cells (text, a whole number, or empty). CSV is read and
written with the standard library (UTF-8, the header on the first line); XLSX with openpyxl,
the ``sheets`` extra, imported only when a workbook is read or written.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mhp_cards.errors import MhpError
from mhp_cards.fileio import write_files_atomic
from mhp_cards.sheets.columns import Cell

__all__ = [
    "INSTALL_HINT",
    "Table",
    "cell_name",
    "read_csv_folder",
    "read_xlsx",
    "write_csv_folder",
    "xlsx_bytes",
]

#: How to get openpyxl, for the message when it is missing.
INSTALL_HINT = "pip install 'mhp-cards[sheets]'"


@dataclass(frozen=True, slots=True)
class Table:
    """One sheet as read or to be written: its header and its rows."""

    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]


def cell_name(column: int, row: int) -> str:
    """A cell as spreadsheets name it: column 0, row 1 is ``A1``; column 27 is ``AB``."""
    letters = ""
    number = column + 1
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return f"{letters}{row}"


def _csv_text(table: Table) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.header)
    for row in table.rows:
        writer.writerow(["" if cell is None else cell for cell in row])
    return out.getvalue()


def write_csv_folder(tables: Mapping[str, Table], folder: Path) -> list[Path]:
    """Write each table as ``folder/<sheet>.csv``, all at once."""
    files = {
        folder / f"{name}.csv": _csv_text(table).encode("utf-8") for name, table in tables.items()
    }
    write_files_atomic(files)
    return list(files)


def read_csv_folder(folder: Path, names: Sequence[str]) -> dict[str, Table]:
    """The tables of the CSV files in ``folder`` that are named like sheets (others are left)."""
    tables: dict[str, Table] = {}
    for name in names:
        path = folder / f"{name}.csv"
        if not path.is_file():
            continue
        with path.open(encoding="utf-8-sig", newline="") as stream:
            rows = list(csv.reader(stream))
        if not rows:
            tables[name] = Table((), ())
            continue
        header = tuple(cell.strip() for cell in rows[0])
        body = tuple(tuple(cell if cell != "" else None for cell in row) for row in rows[1:])
        tables[name] = Table(header, body)
    return tables


def _openpyxl() -> object:
    try:
        import openpyxl  # noqa: PLC0415 (the sheets extra, loaded for a workbook only)
    except ImportError:
        raise MhpError(f"reading or writing .xlsx needs openpyxl: {INSTALL_HINT}") from None
    return openpyxl


def xlsx_bytes(tables: Mapping[str, Table]) -> bytes:
    """The tables as one workbook, a sheet each, the header row bold and frozen."""
    openpyxl = _openpyxl()
    from openpyxl.styles import Font  # noqa: PLC0415

    book = openpyxl.Workbook()  # type: ignore[attr-defined]
    book.remove(book.active)
    for name, table in tables.items():
        sheet = book.create_sheet(name)
        sheet.append(list(table.header))
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row in table.rows:
            sheet.append(list(row))
        sheet.freeze_panes = "A2"
        for index, header in enumerate(table.header):
            widest = max([len(header), *(len(str(row[index] or "")) for row in table.rows)])
            sheet.column_dimensions[cell_name(index, 1)[:-1]].width = min(60, widest + 2)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def read_xlsx(path: Path, names: Sequence[str]) -> dict[str, Table]:
    """The tables of the workbook's sheets that are named like sheets (others are left)."""
    openpyxl = _openpyxl()
    book = openpyxl.load_workbook(path, read_only=True, data_only=True)  # type: ignore[attr-defined]
    tables: dict[str, Table] = {}
    try:
        for name in names:
            if name not in book.sheetnames:
                continue
            rows = [
                tuple(_cell(value) for value in row)
                for row in book[name].iter_rows(values_only=True)
            ]
            if not rows:
                tables[name] = Table((), ())
                continue
            header = tuple(str(cell or "").strip() for cell in rows[0])
            tables[name] = Table(header, tuple(rows[1:]))
    finally:
        book.close()
    return tables


def _cell(value: object) -> Cell:
    """A workbook cell as a table cell: text, a whole number, or empty."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return str(value)
