"""Reading the raw cards a player names at the table: by formula, kind or card ID.

``Fe2O3``, ``hematite`` and ``hematite#2`` all name a hematite card. A formula typed with
Cyrillic letters that look Latin (``Н2О``) is read as the Latin one, and the reading says so.
"""

from __future__ import annotations

from mhp_cards.catalog.models import Catalog, RawMaterial
from mhp_cards.chem.formula import Formula, parse_formula
from mhp_cards.chem.lookalikes import TO_LATIN
from mhp_cards.errors import CardNameError, FormulaError

__all__ = ["CardNameError", "read_cards"]


def read_cards(catalog: Catalog, text: str) -> tuple[list[RawMaterial], list[str]]:
    """The raw cards named in a comma-separated list, and notes on how names were read."""
    cards: list[RawMaterial] = []
    notes: list[str] = []
    by_formula: dict[Formula, RawMaterial] = {}
    for raw in catalog.raw_materials:  # polymorphs share a formula: the first kind listed reads it
        by_formula.setdefault(raw.parsed, raw)
    by_id = {raw.id: raw for raw in catalog.raw_materials}
    for token in (part.strip() for part in text.split(",")):
        if not token:
            continue
        kind = token.rsplit("#", 1)[0]
        if kind in by_id:
            cards.append(by_id[kind])
            continue
        latin = token.translate(TO_LATIN)
        try:
            formula = parse_formula(latin)
        except FormulaError as error:
            known = ", ".join(raw.formula for raw in catalog.raw_materials)
            raise CardNameError(
                f"{token!r} is no raw card: {error.message}; the deck has {known}"
            ) from None
        if latin != token:
            notes.append(f"read {token!r} as {latin!r} (Cyrillic letters that look Latin)")
        if formula not in by_formula:
            known = ", ".join(raw.formula for raw in catalog.raw_materials)
            raise CardNameError(f"no raw card with the formula {token}; the deck has {known}")
        cards.append(by_formula[formula])
    if not cards:
        raise CardNameError("no cards named; write formulas or card IDs separated by commas")
    return cards, notes
