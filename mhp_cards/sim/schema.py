"""The JSON Schema of ``mhp simulate --json``, committed as ``catalog/schema/simulate.schema.json``.

It lives here and not in :mod:`mhp_cards.validate.schemas` because validation is a stage below
the simulator; a test checks that the committed file is this schema, byte for byte.
"""

from __future__ import annotations

from typing import Any, Final

from mhp_cards.catalog.schema import render, schema_for
from mhp_cards.sim.summary import Summary

__all__ = ["SIMULATE_SCHEMA", "simulate_schema", "simulate_schema_text"]

#: The file name of the schema in ``catalog/schema/``.
SIMULATE_SCHEMA: Final = "simulate.schema.json"


def simulate_schema() -> dict[str, Any]:
    """The schema of the simulation summary (draft 2020-12)."""
    return schema_for(Summary, SIMULATE_SCHEMA)


def simulate_schema_text() -> str:
    """The committed text of the schema."""
    return render(simulate_schema())
