"""The catalog: the game's data as validated, immutable models.

>>> from mhp_cards.catalog import load_catalog
>>> catalog = load_catalog()  # the default game shipped with the toolkit
>>> catalog.raw_deck_size
70
"""

from mhp_cards.catalog.loader import Validation, check_names, load_catalog, validate_catalog
from mhp_cards.catalog.models import (
    Catalog,
    Components,
    Container,
    Installation,
    Mission,
    MissionPlace,
    Names,
    Port,
    RawMaterial,
    ReactorCard,
    Substance,
)

__all__ = [
    "Catalog",
    "Components",
    "Container",
    "Installation",
    "Mission",
    "MissionPlace",
    "Names",
    "Port",
    "RawMaterial",
    "ReactorCard",
    "Substance",
    "Validation",
    "check_names",
    "load_catalog",
    "validate_catalog",
]
