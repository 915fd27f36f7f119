"""One table of look-alike letters serves formulas, card names and card IDs."""

from __future__ import annotations

import unicodedata

import pytest

from mhp_cards.catalog.cardid import LATIN_LETTERS, read_card_id
from mhp_cards.chem.formula import parse_formula
from mhp_cards.chem.lookalikes import CYRILLIC_OF, LATIN_OF, SCRIPT_OF, TO_LATIN
from mhp_cards.errors import CardIdError, FormulaError


def test_every_lookalike_is_named_for_its_script() -> None:
    for char, latin in LATIN_OF.items():
        assert unicodedata.name(char).split()[0] == SCRIPT_OF[char].upper()
        assert unicodedata.name(latin).startswith("LATIN")


def test_card_ids_read_a_latin_letter_as_its_cyrillic_twin_only_when_unambiguous() -> None:
    """A Latin letter is read by its look only where its place in the alphabet agrees (A, P);
    the English edition prints 5Б as 5B, so 5B is refused rather than read as 5В."""
    for latin, cyrillic in CYRILLIC_OF.items():
        if LATIN_LETTERS.get(cyrillic) == latin:
            card = read_card_id(f"5{latin}")
            assert card.text == f"5{cyrillic}"
            assert card.latin_lookalikes == latin
        else:
            with pytest.raises(CardIdError):
                read_card_id(f"5{latin}")


@pytest.mark.parametrize("char", sorted(SCRIPT_OF))
def test_the_formula_parser_names_each_lookalike(char: str) -> None:
    with pytest.raises(FormulaError) as caught:
        parse_formula(f"{char}2")
    assert caught.value.message.startswith(f"{SCRIPT_OF[char]} {char!r} at 1")
    assert f"did you mean Latin {LATIN_OF[char]!r}" in caught.value.message


def test_translation_to_latin_keeps_other_text() -> None:
    assert "Н2О + СО2, hematite".translate(TO_LATIN) == "H2O + CO2, hematite"
