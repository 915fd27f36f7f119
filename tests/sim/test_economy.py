"""The greedy bot's level-3 economy: the Warehouse plan it remembers is the one it works out."""

from __future__ import annotations

import random

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import deal, view
from mhp_cards.referee import apply, legal_actions
from mhp_cards.sim import economy
from mhp_cards.sim.bots import GreedyBot


def test_the_warehouse_plan_remembered_is_the_plan_worked_out_afresh(catalog: Catalog) -> None:
    """On every view of a few level-3 games, for every player, the plan kept for the table,
    hand, Warehouse and free tokens is the plan worked out with nothing kept; some views
    have a plan."""
    bot = GreedyBot(catalog)
    planned = 0
    for players, seed in ((2, 1), (4, 6)):
        rng = random.Random(seed)
        state = deal(catalog, "3", players=players, seed=seed)
        for _ in range(150):
            if state.ended:
                break
            seen = view(state, state.current.id)
            for me in seen.players:
                kept = bot._warehouse_plan(seen, me)
                economy._WAREHOUSE_PLANS._known.clear()
                fresh = bot._warehouse_plan(seen.model_copy(deep=True), me)
                assert (kept is None) == (fresh is None)
                if kept is not None and fresh is not None:
                    assert kept[0] == fresh[0]
                    assert kept[1] == fresh[1]
                    planned += 1
            state, _ = apply(state, bot.choose(seen, legal_actions(state, catalog), rng), catalog)
    assert planned > 5
