"""Chemistry checks: formulas parse, reactions balance, substances are listed."""

from __future__ import annotations

from collections.abc import Iterator

from mhp_cards.catalog.models import (
    formula_of,
    reaction_of,
)
from mhp_cards.chem.formula import Formula
from mhp_cards.errors import FormulaError, ReactionError
from mhp_cards.issues import Issue
from mhp_cards.validate.checks.fields import (
    formula_fields,
    parsed_reactions,
    parses,
    reaction_fields,
)
from mhp_cards.validate.checks.parts import INSTALLATIONS, SUBSTANCES, Parts
from mhp_cards.validate.checks.registry import SkipCheck, check

__all__: list[str] = []


@check("formulas", "every formula follows the grammar")
def _check_formulas(parts: Parts) -> Iterator[Issue]:
    for file, path, text in formula_fields(parts):
        try:
            formula_of(text)
        except FormulaError as error:
            yield Issue(
                "formulas",
                f"formula {text!r}: {error.message}",
                file=file,
                path=path,
                offset=error.position,
                hint="see the formula grammar in docs/guides/chemistry.md",
            )


@check("reactions", "every reaction reads and balances (elements and charge)", INSTALLATIONS)
def _check_reactions(parts: Parts) -> Iterator[Issue]:
    for path, text in reaction_fields(parts):
        try:
            reaction = reaction_of(text)
        except ReactionError as error:
            yield Issue(
                "reactions",
                f"reaction {text!r}: {error.message}",
                file=INSTALLATIONS,
                path=path,
                offset=error.position,
            )
            continue
        if reaction.is_balanced:
            continue
        difference = ", ".join(f"{key} {n:+d}" for key, n in reaction.imbalance.items())
        try:
            hint = f"balanced it reads {reaction.balance()}"
        except ReactionError as error:
            reason = error.message.removeprefix("cannot be balanced: ")
            hint = f"no coefficients fix it: {reason}; check the species"
        yield Issue(
            "reactions",
            f"reaction {text!r} does not balance: {difference} (products − reactants)",
            file=INSTALLATIONS,
            path=path,
            hint=hint,
        )


@check("known-substances", "every formula used is listed in substances.yaml", SUBSTANCES)
def _check_known_substances(parts: Parts) -> Iterator[Issue]:
    substances = parts.substances or ()
    if not all(parses(s.formula) for s in substances):
        # Which substance a broken formula meant is unknown: every use would look unlisted.
        raise SkipCheck("a formula in substances.yaml does not parse (reported by 'formulas')")
    known = {s.parsed for s in substances}
    for file, path, text in formula_fields(parts):
        if file == SUBSTANCES or not parses(text):
            continue
        if formula_of(text) not in known:
            yield Issue(
                "known-substances",
                f"{text} is not listed in substances.yaml",
                file=file,
                path=path,
                hint=f"add '- formula: {text}' with its names and price to substances.yaml",
            )
    if parts.installations is None:
        return
    for path, text in parsed_reactions(parts):
        reaction = reaction_of(text)
        reported: set[Formula] = set()
        for index, formula in enumerate(reaction.species):
            if formula.is_electron or formula in known or formula in reported:
                continue
            reported.add(formula)
            yield Issue(
                "known-substances",
                f"{formula} in reaction {text!r} is not listed in substances.yaml",
                file=INSTALLATIONS,
                path=path,
                offset=_species_offset(reaction.positions, index, text),
                hint=f"add '- formula: {formula}' with its names and price to substances.yaml",
            )


def _species_offset(positions: tuple[int, ...], index: int, text: str) -> int:
    """Where the formula of species ``index`` starts in the reaction text (past its coefficient)."""
    start = positions[index] if index < len(positions) else 0
    while start < len(text) and (text[start].isdigit() or text[start] == " "):
        start += 1
    return start
