"""The catalog: the game's data as validated, immutable models.

Loading a catalog directory (YAML, schema, models and every cross-record check) is the
``validate`` stage, above this one:

>>> from mhp_cards.validate import load_catalog
>>> catalog = load_catalog()  # the default game shipped with the toolkit
>>> catalog.raw_deck_size
72
"""

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
]
