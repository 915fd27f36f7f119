"""Simulation: seeded bots play many games and the aggregate shows how the game balances.

>>> from mhp_cards.validate import load_catalog
>>> from mhp_cards.sim import play_game
>>> result = play_game(load_catalog(), "1", players=2, seed=3, policies=("greedy",))
>>> result.ended_by in ("mission", "field-empty", "step-cap")
True
"""

from mhp_cards.sim.bots import GreedyBot, Partner, Policy, RandomBot
from mhp_cards.sim.budget import SearchBudget
from mhp_cards.sim.policies import POLICIES, make_policy
from mhp_cards.sim.result import GameResult
from mhp_cards.sim.runner import game_seed, play_game, settle_heap, simulate
from mhp_cards.sim.search import SearchBot
from mhp_cards.sim.summary import Summary, wilson

__all__ = [
    "POLICIES",
    "GameResult",
    "GreedyBot",
    "Partner",
    "Policy",
    "RandomBot",
    "SearchBot",
    "SearchBudget",
    "Summary",
    "game_seed",
    "make_policy",
    "play_game",
    "settle_heap",
    "simulate",
    "wilson",
]
