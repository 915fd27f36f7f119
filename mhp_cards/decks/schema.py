"""The JSON Schema of ``decks.yaml``, committed as ``catalog/schema/decks.schema.json``.

An editor that reads ``# yaml-language-server: $schema=…`` completes and checks a deck pack as
it is typed; a test checks that the committed file is this schema, byte for byte.
"""

from __future__ import annotations

from typing import Any, Final

from mhp_cards.catalog.schema import render, schema_for
from mhp_cards.decks.models import DeckPack

__all__ = ["DECKS_SCHEMA", "decks_schema", "decks_schema_text"]

#: The file name of the schema in ``catalog/schema/``.
DECKS_SCHEMA: Final = "decks.schema.json"


def decks_schema() -> dict[str, Any]:
    """The schema of a deck pack's ``decks.yaml`` (draft 2020-12)."""
    return schema_for(DeckPack, DECKS_SCHEMA)


def decks_schema_text() -> str:
    """The committed text of the schema."""
    return render(decks_schema())
