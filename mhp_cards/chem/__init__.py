"""The chemistry core: elements, formulas, reactions, exact balancing and exact element sums.

>>> from mhp_cards.chem import parse_formula, parse_reaction
>>> parse_formula("Fe2O3").hill()
'Fe2O3'
>>> str(parse_reaction("H2 + O2 -> H2O").balance())
'2 H2 + O2 -> 2 H2O'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mhp_cards.chem.elements import ELEMENTS, Element
    from mhp_cards.chem.exact_sum import add_counts, find_exact_sum
    from mhp_cards.chem.formula import Formula, FormulaPart, Segment, parse_formula
    from mhp_cards.chem.reaction import Reaction, parse_reaction

#: Each name's module, imported on first use (PEP 562): ``mhp formula`` reads a formula
#: without loading the reaction balancer and its exact linear algebra.
_LAZY: dict[str, str] = {
    "ELEMENTS": "mhp_cards.chem.elements",
    "Element": "mhp_cards.chem.elements",
    "add_counts": "mhp_cards.chem.exact_sum",
    "find_exact_sum": "mhp_cards.chem.exact_sum",
    "Formula": "mhp_cards.chem.formula",
    "FormulaPart": "mhp_cards.chem.formula",
    "Segment": "mhp_cards.chem.formula",
    "parse_formula": "mhp_cards.chem.formula",
    "Reaction": "mhp_cards.chem.reaction",
    "parse_reaction": "mhp_cards.chem.reaction",
}

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


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mhp_cards.chem' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
