"""Fixtures of the reactor-assembly tests: the default catalog and synthetic cards.

Helpers are handed out as fixtures (``--import-mode=importlib`` gives no importable
``conftest`` module).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from mhp_cards.catalog import (
    Catalog,
    Container,
    Installation,
    Names,
    Port,
    ReactorCard,
)
from mhp_cards.validate import load_catalog

PortSpec = tuple  # (edge, position, substance, direction[, optional])


def make_port(edge: str, position: int, substance: str, direction: str, optional=False) -> Port:
    return Port(
        edge=edge, position=position, substance=substance, direction=direction, optional=optional
    )


def make_card(
    card_id: str,
    ports: Sequence[PortSpec] = (),
    reactions: Sequence[str] = (),
    containers: Sequence[tuple[str, str]] = (),
    group: str = "part",
) -> ReactorCard:
    """A synthetic reactor card; ports as (edge, position, substance, direction[, optional])."""
    return ReactorCard(
        id=card_id,
        group=group,
        reactions=tuple(reactions),
        containers=tuple(
            Container(substance=substance, role=role, places=1 if role == "product" else 0)
            for substance, role in containers
        ),
        ports=tuple(make_port(*spec) for spec in ports),
    )


def with_installation(
    catalog: Catalog, number: int, reaction: str, cards: Sequence[ReactorCard]
) -> Catalog:
    """The catalog with installation ``number`` added (or replaced)."""
    installation = Installation(
        number=number,
        name=Names(ru=f"Установка {number}", en=f"Installation {number}"),
        reaction=reaction,
        cards=tuple(cards),
    )
    others = tuple(i for i in catalog.installations if i.number != number)
    return Catalog(
        substances=catalog.substances,
        raw_materials=catalog.raw_materials,
        installations=(*others, installation),
        electrolysers=catalog.electrolysers,
        missions=catalog.missions,
        components=catalog.components,
    )


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def card() -> Callable[..., ReactorCard]:
    return make_card


@pytest.fixture(scope="session")
def installation_catalog() -> Callable[..., Catalog]:
    return with_installation
