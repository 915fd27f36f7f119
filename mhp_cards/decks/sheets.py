"""A deck pack's decks as sheets: a row per card, a column per field.

``mhp catalog export --csv DIR --catalog PACK`` writes one sheet per deck (``organisms.csv``):
``id``, ``copies``, then each field the deck declares (a two-language field as ``name.ru`` and
``name.en``); ``mhp catalog import`` brings them back into ``decks.yaml`` as it does for the
game's catalog, the pack's own checks run before anything is written.
"""

from __future__ import annotations

from pathlib import Path

from mhp_cards.decks.files import DECKS_FILE
from mhp_cards.decks.load import validate_pack
from mhp_cards.decks.models import DeckPack
from mhp_cards.issues import Issue
from mhp_cards.sheets.columns import Column, Sheet, read_int, text_column, write_int

__all__ = ["deck_sheets", "pack_errors"]


def deck_sheets(pack: DeckPack) -> tuple[Sheet, ...]:
    """One sheet per deck of the pack, named by the deck's ID."""
    sheets = []
    for index, deck in enumerate(pack.decks):
        columns: list[Column] = [
            text_column("id"),
            Column("copies", ("copies",), write_int, read_int, required=False),
        ]
        for spec in deck.fields:
            if spec.type == "names":
                columns += [
                    text_column(f"{spec.name}.ru", spec.required),
                    text_column(f"{spec.name}.en", spec.required),
                ]
            elif spec.type == "number":
                columns.append(
                    Column(spec.name, (spec.name,), write_int, read_int, required=spec.required)
                )
            else:
                columns.append(text_column(spec.name, spec.required))
        sheets.append(Sheet(deck.id, DECKS_FILE, ("decks", index, "cards"), "id", tuple(columns)))
    return tuple(sheets)


def pack_errors(directory: Path) -> list[Issue]:
    """The errors of the deck pack in ``directory`` (for an import's check)."""
    return [issue for issue in validate_pack(directory).issues if issue.severity == "error"]
