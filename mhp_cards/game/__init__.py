"""The game on the table: its state, the dealer, consistency checks and players' views.

>>> from mhp_cards.validate import load_catalog
>>> from mhp_cards.game import deal, is_valid
>>> catalog = load_catalog()
>>> state = deal(catalog, "1", players=3, seed=42)
>>> is_valid(state, catalog), len(state.field.cells) + len(state.removed_fate)
(True, 72)
"""

from mhp_cards.game.dealer import SHAPES, SetupError, deal
from mhp_cards.game.rng import Rng
from mhp_cards.game.state import GameState
from mhp_cards.game.status import is_valid, status
from mhp_cards.game.visibility import public_view, view

__all__ = [
    "SHAPES",
    "GameState",
    "Rng",
    "SetupError",
    "deal",
    "is_valid",
    "public_view",
    "status",
    "view",
]
