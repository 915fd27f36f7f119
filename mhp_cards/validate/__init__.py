"""Loading and validating a catalog: YAML, JSON Schema, models and every cross-record check.

This stage sits above the catalog models, the assembly solver and the game's setup rules,
since its checks use all three.

>>> from mhp_cards.validate import load_catalog
>>> load_catalog().raw_deck_size
72
"""

from mhp_cards.validate.loader import Validation, check_names, load_catalog, validate_catalog

__all__ = ["Validation", "check_names", "load_catalog", "validate_catalog"]
