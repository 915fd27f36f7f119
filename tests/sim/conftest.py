"""Shared fixtures of the simulator's tests."""

from __future__ import annotations

import pytest

from mhp_cards.catalog.models import Catalog
from mhp_cards.validate import load_catalog


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()
