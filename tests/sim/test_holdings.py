"""The arithmetic of holdings the greedy bot plans with: remembered answers stay true."""

from __future__ import annotations

import random

import pytest

from mhp_cards.catalog.models import Catalog
from mhp_cards.chem.formula import parse_formula
from mhp_cards.game import deal, view
from mhp_cards.referee import apply, legal_actions
from mhp_cards.sim import GreedyBot
from mhp_cards.sim.holdings import all_inputs


@pytest.mark.parametrize(("level", "players"), [("2", 3), ("3", 2), ("1v1", 2)])
def test_the_inputs_remembered_are_those_worked_out_afresh_on_every_state(
    catalog: Catalog, level: str, players: int
) -> None:
    state = deal(catalog, level, players=players, seed=5)  # type: ignore[arg-type]
    rng, bot = random.Random(5), GreedyBot(catalog)
    seen_players = set()
    for _ in range(150):
        if state.ended:
            break
        me = state.current.id
        seen_players.add(me)
        afresh = {
            parse_formula(container.substance)
            for installation in state.installations
            if installation.owner in (None, me)
            for container in installation.containers
            if container.role == "raw-input"
        }
        assert all_inputs(state) == afresh
        assert all_inputs(state.model_copy(deep=True)) == afresh  # not remembered: the same
        legal = legal_actions(state, catalog)
        state, _ = apply(state, bot.choose(view(state, me), legal, rng), catalog)
    assert len(seen_players) == players  # each player's own installations were asked for
