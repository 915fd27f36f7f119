"""Any text at all: the parser answers with a Formula or a located FormulaError, nothing else."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from mhp_cards import Formula, FormulaError, ReactionError, parse_formula, parse_reaction

GRAMMAR_ALPHABET = "HOCNSFeClMgCa()[]{}0123456789·•*.+-−^²³⁺⁻₀₂₄ ,/½НОeaq"


def check_formula_answer(text: str) -> None:
    try:
        formula = parse_formula(text)
    except FormulaError as error:
        assert 0 <= error.position <= len(text)
        assert error.text == text
        assert str(error).splitlines()[0] == error.message
        column = re.search(r"\bat (\d+)", error.message)
        assert column is not None, error.message
        assert int(column.group(1)) == error.column, error.message
    else:
        assert isinstance(formula, Formula)
        assert all(count > 0 for count in formula.elements.values())
        assert parse_formula(formula.unicode()) == formula
        assert parse_formula(formula.hill()) == formula


@settings(max_examples=1500)
@given(st.text(alphabet=GRAMMAR_ALPHABET, max_size=40))
@example("CuSO4.5H2O")
@example("[Fe(CN)6]4-")
@example("H2O·")
def test_grammar_alphabet_never_crashes(text: str) -> None:
    check_formula_answer(text)


@settings(max_examples=500)
@given(st.text(max_size=40))
def test_any_unicode_never_crashes(text: str) -> None:
    check_formula_answer(text)


@settings(max_examples=500)
@given(st.text(alphabet=GRAMMAR_ALPHABET + "->=→", max_size=50))
def test_reactions_never_crash(text: str) -> None:
    try:
        reaction = parse_reaction(text)
    except ReactionError as error:
        assert 0 <= error.position <= len(text)
        return
    try:
        balanced = reaction.balance()
    except ReactionError:
        return
    assert balanced.is_balanced
    assert all(c > 0 for c, _ in balanced.reactants + balanced.products)


PLAIN_ALPHABET = "HOCNSFeClMgCaUuE()[]{}0123456789·+-"


@settings(max_examples=3000)
@given(st.text(alphabet=PLAIN_ALPHABET, max_size=30))
@example("[Fe(CN)6]4-")
@example("H2O·")
@example("CuSO4·5H2O")
@example("NH4+")
def test_fast_path_agrees_with_the_full_parser(text: str) -> None:
    """The fast path may decline anything, but what it accepts the full parser reads the same."""
    from mhp_cards.chem.formula import _parse_plain, _Parser

    fast = _parse_plain(text)
    try:
        full = _Parser(text).parse()
    except FormulaError:
        assert fast is None
        return
    if fast is not None:
        assert dict(fast.elements) == dict(full.elements)
        assert fast.charge == full.charge
        assert fast.parts == full.parts
        assert fast.text == full.text
