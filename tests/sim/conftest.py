"""Shared fixtures of the simulator's tests."""

from __future__ import annotations

import random

import pytest

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import GameState, deal, view
from mhp_cards.referee import apply, legal_actions
from mhp_cards.sim import GreedyBot
from mhp_cards.validate import load_catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


def played(catalog: Catalog, level: str, players: int, seed: int, steps: int) -> GameState:
    """A game dealt from ``seed`` after ``steps`` greedy actions (or its end)."""
    state = deal(catalog, level, players=players, seed=seed)  # type: ignore[arg-type]
    rng, bot = random.Random(seed), GreedyBot(catalog)
    for _ in range(steps):
        legal = legal_actions(state, catalog)
        if state.ended or not legal:
            break
        state, _ = apply(state, bot.choose(view(state, state.current.id), legal, rng), catalog)
    return state
