"""The chemistry core: elements, formulas, reactions, exact balancing and exact element sums.

>>> from mhp_cards.chem import parse_formula, parse_reaction
>>> parse_formula("Fe2O3").hill()
'Fe2O3'
>>> str(parse_reaction("H2 + O2 -> H2O").balance())
'2 H2 + O2 -> 2 H2O'
"""

from mhp_cards.chem.elements import ELEMENTS, Element
from mhp_cards.chem.exact_sum import add_counts, find_exact_sum
from mhp_cards.chem.formula import Formula, FormulaPart, Segment, parse_formula
from mhp_cards.chem.reaction import Reaction, parse_reaction

__all__ = [
    "ELEMENTS",
    "Element",
    "Formula",
    "FormulaPart",
    "Reaction",
    "Segment",
    "add_counts",
    "find_exact_sum",
    "parse_formula",
    "parse_reaction",
]
