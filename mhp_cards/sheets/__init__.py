"""The catalog as spreadsheets: four sheets out (CSV or XLSX) and back in, row by row.

See :mod:`mhp_cards.sheets.columns` for the sheets and how a cell writes a nested value,
:mod:`mhp_cards.sheets.merge` for how an edited sheet goes back into the YAML (only the rows
that changed are written again), :mod:`mhp_cards.sheets.tables` for the file formats.
"""

from mhp_cards.sheets.columns import SHEETS, CellError, Column, Sheet
from mhp_cards.sheets.merge import Import, export_tables, import_tables
from mhp_cards.sheets.tables import Table, read_csv_folder, read_xlsx, write_csv_folder, xlsx_bytes

__all__ = [
    "SHEETS",
    "CellError",
    "Column",
    "Import",
    "Sheet",
    "Table",
    "export_tables",
    "import_tables",
    "read_csv_folder",
    "read_xlsx",
    "write_csv_folder",
    "xlsx_bytes",
]
