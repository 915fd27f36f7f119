"""The catalog: the game's data as validated, immutable models.

Loading a catalog directory (YAML, schema, models and every cross-record check) is the
``validate`` stage, above this one:

>>> from mhp_cards.validate import load_catalog
>>> catalog = load_catalog()  # the default game shipped with the toolkit
>>> catalog.raw_deck_size
72
"""

from typing import Any

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

#: Names that moved to :mod:`mhp_cards.validate` in 0.2; kept here as aliases for one release.
_MOVED_TO_VALIDATE = frozenset({"Validation", "check_names", "load_catalog", "validate_catalog"})


def __getattr__(name: str) -> Any:
    # A deprecated alias, not a layer: the catalog models never use the loader. It goes in 0.3.
    if name in _MOVED_TO_VALIDATE:
        import mhp_cards.validate  # noqa: PLC0415

        return getattr(mhp_cards.validate, name)
    raise AttributeError(f"module 'mhp_cards.catalog' has no attribute {name!r}")
