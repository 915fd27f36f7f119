"""The catalog: the game's data as validated, immutable models.

>>> from mhp_cards.catalog import load_catalog
>>> catalog = load_catalog()  # the default game shipped with the toolkit
>>> catalog.raw_deck_size
70
"""

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from mhp_cards.catalog.loader import Validation, check_names, load_catalog, validate_catalog

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

_LOADER = {"Validation", "check_names", "load_catalog", "validate_catalog"}


def __getattr__(name: str) -> Any:
    # The loader imports the checks, which import the assembly solver, which imports the
    # models: loading it on first use keeps "import mhp_cards.catalog.models" free of cycles.
    if name in _LOADER:
        from mhp_cards.catalog import loader  # noqa: PLC0415

        return getattr(loader, name)
    raise AttributeError(f"module 'mhp_cards.catalog' has no attribute {name!r}")
