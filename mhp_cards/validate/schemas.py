"""Every JSON Schema the toolkit commits beside the catalog: the catalog's and the game state's.

``mhp schema --write`` writes them into ``catalog/schema/``; a test fails when the committed
files drift from the models.
"""

from __future__ import annotations

from typing import Any, Final

from mhp_cards.catalog.schema import catalog_schemas, schema_for
from mhp_cards.game.state import GameState

__all__ = ["STATE_SCHEMA", "all_schemas"]

#: The file name of the game state's schema.
STATE_SCHEMA: Final = "game-state.schema.json"


def all_schemas() -> dict[str, dict[str, Any]]:
    """Every committed schema by file name: one per catalog file, the export's, the state's."""
    return {**catalog_schemas(), STATE_SCHEMA: schema_for(GameState, STATE_SCHEMA)}
