"""The policies by name: what ``mhp simulate --policy`` and ``play_game`` accept.

A module of its own because the ``search`` bot plays its rollouts with the greedy bot: the
bots cannot also hold the registry of every bot without an import cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.sim.bots import GreedyBot, Policy, RandomBot
from mhp_cards.sim.lookahead import LookaheadBot, noisy_greedy
from mhp_cards.sim.search import SearchBot

__all__ = ["POLICIES", "make_policy", "policy_names"]

#: The policies by name, each made from the catalog.
POLICIES: Final[Mapping[str, Callable[[Catalog], Policy]]] = {
    "random": lambda catalog: RandomBot(),
    "greedy": GreedyBot,
    "search": SearchBot,
    "noisy-greedy": noisy_greedy,
    "lookahead": LookaheadBot,
}


def make_policy(name: str, catalog: Catalog) -> Policy:
    """The policy called ``name``; KeyError if there is none."""
    return POLICIES[name](catalog)


def policy_names() -> Sequence[str]:
    """The known policy names, in order."""
    return tuple(POLICIES)
