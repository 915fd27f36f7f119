"""The policies by name: what ``mhp simulate --policy`` and ``play_game`` accept.

``search:N`` is the search bot with a budget of N cost units a choice
(:class:`~mhp_cards.sim.search.SearchBudget`); ``search`` alone takes each level's default.

A module of its own because the ``search`` bot plays its rollouts with the greedy bot: the
bots cannot also hold the registry of every bot without an import cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.sim.bots import GreedyBot, Policy, RandomBot
from mhp_cards.sim.lookahead import LookaheadBot, noisy_greedy
from mhp_cards.sim.search import SearchBot, SearchBudget

__all__ = ["POLICIES", "is_policy", "make_policy", "policy_names"]

#: The policies by name, each made from the catalog.
POLICIES: Final[Mapping[str, Callable[[Catalog], Policy]]] = {
    "random": lambda catalog: RandomBot(),
    "greedy": GreedyBot,
    "search": SearchBot,
    "noisy-greedy": noisy_greedy,
    "lookahead": LookaheadBot,
}


def make_policy(name: str, catalog: Catalog) -> Policy:
    """The policy called ``name`` (``search:N``: N cost units a choice); KeyError if none."""
    if ":" not in name:
        return POLICIES[name](catalog)
    steps = _search_steps(name)
    if steps is None:
        raise KeyError(name)
    return SearchBot(catalog, SearchBudget(steps=steps))


def is_policy(name: str) -> bool:
    """Whether :func:`make_policy` knows ``name``."""
    return name in POLICIES if ":" not in name else _search_steps(name) is not None


def _search_steps(name: str) -> int | None:
    """N of a ``search:N`` name (a whole number from 1); None for any other name."""
    base, _, steps = name.partition(":")
    return int(steps) if base == "search" and steps.isdigit() and int(steps) >= 1 else None


def policy_names() -> Sequence[str]:
    """The known policy names, in order."""
    return tuple(POLICIES)
