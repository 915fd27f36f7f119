"""mhp-cards: the toolkit of the educational chemistry board game МХП (МАРСХИМПРОМ).

A library first, with a thin command line (``mhp``) on top. The chemistry core:

>>> from mhp_cards import parse_formula, parse_reaction
>>> parse_formula("CaSO4·2H2O").unicode()
'CaSO₄·2H₂O'
>>> str(parse_reaction("N2 + H2 -> NH3").balance())
'N2 + 3 H2 -> 2 NH3'
"""

from mhp_cards.chem.elements import ELEMENTS, Element
from mhp_cards.chem.formula import Formula, FormulaPart, Segment, parse_formula
from mhp_cards.chem.reaction import Reaction, parse_reaction
from mhp_cards.errors import (
    AssemblyError,
    CatalogError,
    FormulaError,
    IllegalPlayError,
    MhpError,
    ReactionError,
)

__version__ = "0.1.0"

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
