"""The policies by name: what ``mhp simulate --policy`` and ``play_game`` accept.

``search:N`` is the search bot with a budget of N cost units a choice
(:class:`~mhp_cards.sim.budget.SearchBudget`), ``search:Ts`` with a time limit of T seconds a
choice besides the level's units (``search:0.2s``), ``search:N:Ts`` with both; ``search``
alone takes each level's default.

A module of its own because the ``search`` bot plays its rollouts with the greedy bot: the
bots cannot also hold the registry of every bot without an import cycle.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.sim.bots import GreedyBot, Policy, RandomBot
from mhp_cards.sim.budget import SearchBudget
from mhp_cards.sim.lookahead import LookaheadBot, noisy_greedy
from mhp_cards.sim.search import SearchBot

__all__ = ["POLICIES", "is_policy", "make_policy", "policy_names", "search_budget"]

#: The policies by name, each made from the catalog.
POLICIES: Final[Mapping[str, Callable[[Catalog], Policy]]] = {
    "random": lambda catalog: RandomBot(),
    "greedy": GreedyBot,
    "search": SearchBot,
    "noisy-greedy": noisy_greedy,
    "lookahead": LookaheadBot,
}


def make_policy(name: str, catalog: Catalog) -> Policy:
    """The policy called ``name``; KeyError if none.

    ``search:N``, ``search:Ts``, ``search:N:Ts``: the search bot with a budget of N cost
    units, T seconds a choice (:func:`search_budget`).
    """
    if ":" not in name:
        return POLICIES[name](catalog)
    budget = search_budget(name)
    if budget is None:
        raise KeyError(name)
    return SearchBot(catalog, budget)


def is_policy(name: str) -> bool:
    """Whether :func:`make_policy` knows ``name``."""
    return name in POLICIES if ":" not in name else search_budget(name) is not None


def search_budget(name: str) -> SearchBudget | None:
    """The budget a ``search:…`` name sets; None for any other name.

    After ``search:``, a whole number of cost units from 1 (``search:800``), a time limit in
    seconds with an ``s`` (``search:0.2s``, more than 0), or both in that order
    (``search:800:0.2s``).
    """
    base, _, rest = name.partition(":")
    if base != "search" or not rest:
        return None
    parts = rest.split(":")
    steps = int(parts.pop(0)) if parts[0].isdigit() else None
    limit = parts.pop(0) if parts else None
    seconds = None if limit is None else _seconds(limit)
    if parts or steps == 0 or (limit is not None and seconds is None):
        return None
    return SearchBudget(steps=steps, seconds=seconds)


def _seconds(text: str) -> float | None:
    """The seconds of ``0.2s`` (finite, more than 0); None for any other text."""
    if not text.endswith("s"):
        return None
    try:
        seconds = float(text[:-1])
    except ValueError:
        return None
    return seconds if 0 < seconds < math.inf else None


def policy_names() -> Sequence[str]:
    """The known policy names, in order."""
    return tuple(POLICIES)
