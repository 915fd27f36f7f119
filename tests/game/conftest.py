"""Fixtures of the game tests: the default catalog, cached deals, what the box holds.

Expected numbers come from RULES.md and the catalog, never from the dealer: the box's raw cards
and Fate cards are spelled out here from the catalog counts, and the electrolysers an
installation needs are counted from its cards' H2 ports. Helpers are handed out as fixtures
(``--import-mode=importlib`` gives no importable ``conftest`` module).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest

from mhp_cards.catalog import Catalog
from mhp_cards.game import GameState, deal, status
from mhp_cards.issues import Issue
from mhp_cards.validate import load_catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def dealt(catalog: Catalog) -> Callable[..., GameState]:
    """``dealt(level, players, seed, shape="rectangle", house_rules=())``, cached (states are
    immutable values, so sharing them between tests is safe)."""

    @functools.cache
    def make(
        level: str,
        players: int,
        seed: int,
        shape: str = "rectangle",
        house_rules: tuple[str, ...] = (),
    ) -> GameState:
        return deal(catalog, level, players, seed, shape, house_rules)

    return make


@pytest.fixture(scope="session")
def raw_box(catalog: Catalog) -> list[str]:
    """Every raw card of the box by instance ID (``hematite#1`` …), from the catalog copies."""
    return [f"{raw.id}#{k}" for raw in catalog.raw_materials for k in range(1, raw.copies + 1)]


@pytest.fixture(scope="session")
def fate_box(catalog: Catalog) -> list[str]:
    """Every Fate card by instance ID (``fate#1`` …)."""
    return [f"fate#{k}" for k in range(1, catalog.components.fate_cards.count + 1)]


@pytest.fixture(scope="session")
def electrolysers_needed(catalog: Catalog) -> dict[int, int]:
    """Electrolysers each installation needs (L2.S4 "where needed"): for each gas an
    electrolyser pipes out (H2 and O2), the in-ports of that gas that no out-port of the
    installation's own cards feeds; one electrolyser feeds one port of each gas."""
    gases = {
        port.substance
        for card in catalog.electrolysers
        for port in card.ports
        if port.direction == "out"
    }
    needed = {}
    for installation in catalog.installations:
        ports = [port for card in installation.cards for port in card.ports]
        deficits = [
            sum(1 for p in ports if p.substance == gas and p.direction == "in")
            - sum(1 for p in ports if p.substance == gas and p.direction == "out")
            for gas in gases
        ]
        needed[installation.number] = max(0, *deficits)
    return needed


@pytest.fixture(scope="session")
def issues_of(catalog: Catalog) -> Callable[[GameState], tuple[Issue, ...]]:
    """``issues_of(state)``: status against the default catalog."""
    return lambda state: status(state, catalog)


def describe(issues: tuple[Issue, ...]) -> str:
    return "\n".join(f"  [{issue.rule}] {issue.message}" for issue in issues) or "  (no issues)"


@pytest.fixture(scope="session")
def describe_issues() -> Callable[[tuple[Issue, ...]], str]:
    """Every issue on its own line, for assertion messages."""
    return describe
