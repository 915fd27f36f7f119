"""mhp-cards: the toolkit of the educational chemistry board game МХП (МАРСХИМПРОМ).

A library first, with a thin command line (``mhp``) on top. The chemistry core:

>>> from mhp_cards import parse_formula, parse_reaction
>>> parse_formula("CaSO4·2H2O").unicode()
'CaSO₄·2H₂O'
>>> str(parse_reaction("N2 + H2 -> NH3").balance())
'N2 + 3 H2 -> 2 NH3'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from mhp_cards.errors import (
    AssemblyError,
    CatalogError,
    FormulaError,
    IllegalPlayError,
    MhpError,
    ReactionError,
)

if TYPE_CHECKING:
    from mhp_cards.chem.elements import ELEMENTS, Element
    from mhp_cards.chem.formula import Formula, FormulaPart, Segment, parse_formula
    from mhp_cards.chem.reaction import Reaction, parse_reaction

__version__ = "0.1.0"

#: The chemistry core, imported on first use (PEP 562): a command that needs none of it, such
#: as ``mhp --help``, does not pay for it at start-up.
_LAZY: dict[str, str] = {
    "ELEMENTS": "mhp_cards.chem.elements",
    "Element": "mhp_cards.chem.elements",
    "Formula": "mhp_cards.chem.formula",
    "FormulaPart": "mhp_cards.chem.formula",
    "Segment": "mhp_cards.chem.formula",
    "parse_formula": "mhp_cards.chem.formula",
    "Reaction": "mhp_cards.chem.reaction",
    "parse_reaction": "mhp_cards.chem.reaction",
}

__all__ = [
    "ELEMENTS",
    "AssemblyError",
    "CatalogError",
    "Element",
    "Formula",
    "FormulaError",
    "FormulaPart",
    "IllegalPlayError",
    "MhpError",
    "Reaction",
    "ReactionError",
    "Segment",
    "__version__",
    "parse_formula",
    "parse_reaction",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mhp_cards' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
