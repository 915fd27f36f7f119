"""The formula grammar: exact messages and carets for every kind of refusal, and the API."""

from __future__ import annotations

import pickle

import pytest

from mhp_cards import Formula, FormulaError, MhpError, parse_formula


def caret_column(error: FormulaError) -> int:
    """The column of the caret in the printed error, relative to the echoed input."""
    lines = str(error).splitlines()
    echoed, caret = lines[-2], lines[-1]
    assert echoed.startswith("  ")
    assert caret.strip() == "^"
    return len(caret) - 1 - 2


VALID = [
    ("H2O", {"H": 2, "O": 1}, 0),
    ("Fe₂O₃", {"Fe": 2, "O": 3}, 0),
    ("CaSO4·2H2O", {"Ca": 1, "S": 1, "O": 6, "H": 4}, 0),
    ("CaSO4•2H2O", {"Ca": 1, "S": 1, "O": 6, "H": 4}, 0),
    ("CaSO4⋅2H2O", {"Ca": 1, "S": 1, "O": 6, "H": 4}, 0),
    ("CaSO4*2H2O", {"Ca": 1, "S": 1, "O": 6, "H": 4}, 0),
    ("  CuSO4 · 5H2O  ", {"Cu": 1, "S": 1, "O": 9, "H": 10}, 0),
    ("NH3.BF3", {"N": 1, "H": 3, "B": 1, "F": 3}, 0),
    ("MgSO4.H2O", {"Mg": 1, "S": 1, "O": 5, "H": 2}, 0),
    ("Mg(ClO4)2·6H2O", {"Mg": 1, "Cl": 2, "O": 14, "H": 12}, 0),
    ("KFe3(SO4)2(OH)6", {"K": 1, "Fe": 3, "S": 2, "O": 14, "H": 6}, 0),
    ("(CaSO4)2·H2O", {"Ca": 2, "S": 2, "O": 9, "H": 2}, 0),
    ("{[(H)2]3}4", {"H": 24}, 0),
    ("Ca3[Al2(SiO4)3]", {"Ca": 3, "Al": 2, "Si": 3, "O": 12}, 0),
    ("H1000000", {"H": 1_000_000}, 0),
    ("Fe+3", {"Fe": 1}, 3),
    ("SO4-2", {"S": 1, "O": 4}, -2),
    ("[Fe(CN)6]-4", {"Fe": 1, "C": 6, "N": 6}, -4),
    ("[Fe(CN)6]^4-", {"Fe": 1, "C": 6, "N": 6}, -4),
    ("OH-", {"O": 1, "H": 1}, -1),
    ("OH−", {"O": 1, "H": 1}, -1),
    ("NH4+", {"N": 1, "H": 4}, 1),
    ("Al(OH)4-", {"Al": 1, "O": 4, "H": 4}, -1),
    ("SO4^2-", {"S": 1, "O": 4}, -2),
    ("Fe^3+", {"Fe": 1}, 3),
    ("Fe^+", {"Fe": 1}, 1),
    ("Cl^-", {"Cl": 1}, -1),
    ("Fe³⁺", {"Fe": 1}, 3),
    ("SO₄²⁻", {"S": 1, "O": 4}, -2),
    ("NH₄⁺", {"N": 1, "H": 4}, 1),
    ("Og", {"Og": 1}, 0),
    ("CuSO4·5H2O+2", {"Cu": 1, "S": 1, "O": 9, "H": 10}, 2),
]


@pytest.mark.parametrize(("text", "elements", "charge"), VALID)
def test_valid_formulas(text: str, elements: dict[str, int], charge: int) -> None:
    formula = parse_formula(text)
    assert dict(formula.elements) == elements
    assert formula.charge == charge
    assert formula.text == text


INVALID = [
    # text, position, message (exact first line)
    ("Н2О", 0, "Cyrillic 'Н' at 1, did you mean Latin 'H'?"),
    ("NaС", 2, "Cyrillic 'С' at 3, did you mean Latin 'C'?"),
    ("Nа", 1, "Cyrillic 'а' at 2, did you mean Latin 'a'?"),
    ("Ο2", 0, "Greek 'Ο' at 1, did you mean Latin 'O'?"),
    ("Xx", 0, "unknown element symbol 'Xx' at 1"),
    ("HE", 1, "unknown element symbol 'E' at 2; did you mean 'He'? symbols are case-sensitive"),
    ("CL2", 1, "unknown element symbol 'L' at 2; did you mean 'Cl'? symbols are case-sensitive"),
    ("co", 0, "'co' at 1: element symbols start with a capital letter; did you mean 'Co'?"),
    ("e-", 0, "'e' at 1: the electron e- is a species of reactions, not a formula"),
    ("H02", 1, "count '02' at 2 has a leading zero; write 2"),
    ("H0", 1, "zero count at 2; leave the symbol out instead"),
    ("H1000001", 1, "count 1000001 at 2 is too large; at most 1000000"),
    ("H99999999999", 1, "count 99999999999 at 2 is too large; at most 1000000"),
    ("H₀₂", 1, "count '₀₂' at 2 has a leading zero; write 2"),
    ("()", 0, "empty group () at 1; remove it"),
    ("(H2O", 0, "'(' at 1 is not closed before the end; add ')'"),
    ("H2O)", 3, "')' at 4 closes no open group"),
    ("(H]", 2, "']' at 3 does not match '(' at 1; expected ')'"),
    (
        "CuSO4.5H2O",
        5,
        "'.' between two digits at 6 is ambiguous (a decimal point or a hydrate "
        "separator?); for a hydrate write 'CuSO4·5H2O'",
    ),
    (
        "CaSO4·0.5H2O",
        6,
        "decimal number 0.5 at 7: fractional counts are not allowed; multiply "
        "the formula out, e.g. (CaSO4)2·H2O for CaSO4·0.5H2O",
    ),
    (
        "H2.5O",
        2,
        "'.' between two digits at 3 is ambiguous (a decimal point or a hydrate "
        "separator?); for a hydrate write 'H2·5O'",
    ),
    (
        "C1.5",
        1,
        "decimal number 1.5 at 2: fractional counts are not allowed; multiply the "
        "formula out, e.g. (CaSO4)2·H2O for CaSO4·0.5H2O",
    ),
    (
        "CaSO4·½H2O",
        6,
        "fraction '½' at 7: fractional counts are not allowed; multiply the formula "
        "out, e.g. (CaSO4)2·H2O for CaSO4·½H2O",
    ),
    (
        "H1/2",
        2,
        "fraction '/' at 3: fractional counts are not allowed; multiply the formula out, "
        "e.g. (CaSO4)2·H2O for CaSO4·½H2O",
    ),
    (
        "2H2O",
        0,
        "coefficient 2 at 1 in front of the whole formula is an amount, not part of a "
        "substance; write 'H2O' (in a reaction: '2 H2O')",
    ),
    ("D2O", 0, "'D' at 1 is deuterium, an isotope label, not an element; write H"),
    (
        "[13C]O2",
        0,
        "isotope label '[13C]' at 1 is not supported; write the element without its mass number",
    ),
    ("EtOH", 0, "'Et' at 1 is ethyl, an abbreviation, not an element; write C2H5"),
    ("MeOH", 0, "'Me' at 1 is methyl, an abbreviation, not an element; write CH3"),
    ("PhOH", 0, "'Ph' at 1 is phenyl, an abbreviation, not an element; write C6H5"),
    ("NaCl(aq)", 4, "state suffix '(aq)' at 5 is not part of a formula; remove it"),
    ("H2O(l)", 3, "state suffix '(l)' at 4 is not part of a formula; remove it"),
    (
        "(Mg,Fe)2SiO4",
        3,
        "',' at 4 makes '(Mg,Fe)' a solid solution, not one formula; write one end member "
        "(e.g. with Mg alone)",
    ),
    ("Fe+3+", 4, "a second charge at 5; a formula has one charge"),
    ("SO4^2-^-", 6, "a second charge at 7; a formula has one charge"),
    ("H2+O2", 3, "'O' at 4 follows the charge; the charge comes last"),
    ("Fe+0", 2, "charge '0' at 3 is zero or has a leading zero"),
    (
        "[Fe(CN)6]4-",
        9,
        "4- after ']' at 10 is ambiguous: a count 4 with charge -1, or the charge "
        "4-? write [Fe(CN)6]^4- for the charge or [Fe(CN)6]4^- for the count",
    ),
    (
        # A subscript count reads the same way; the charge after a caret is in plain digits.
        "[H1]₁+",
        4,
        "₁+ after ']' at 5 is ambiguous: a count ₁ with charge +1, or the charge 1+? write "
        "[H1]^1+ for the charge or [H1]₁^+ for the count",
    ),
    ("+H", 0, "a charge at 1 must follow a formula"),
    (
        "H2 O",
        2,
        "whitespace at 3; spaces are allowed only around a separator such as '·' and at both ends",
    ),
    (
        "NH4 +",
        3,
        "whitespace at 4; spaces are allowed only around a separator such as '·' and at both ends",
    ),
    (
        "CuSO4·5 H2O",
        7,
        "whitespace at 8 between the coefficient 5 and its part; write them together (5H2O)",
    ),
    ("Ｈ２Ｏ", 0, "full-width 'Ｈ' (U+FF28) at 1; write ASCII 'H'"),
    ("H\u200b2O", 1, "zero-width character U+200B (ZERO WIDTH SPACE) at 2; remove it"),
    ("H\x002O", 1, "control character U+0000 (U+0000) at 2; remove it"),
    (
        "ж",
        0,
        "Cyrillic letter 'ж' (CYRILLIC SMALL LETTER ZHE) at 1 is not allowed; element "
        "symbols use Latin letters",
    ),
    (
        "水",
        0,
        "Cjk letter '水' (CJK UNIFIED IDEOGRAPH-6C34) at 1 is not allowed; element symbols "
        "use Latin letters",
    ),
    ("·H2O", 0, "separator '·' at 1 starts the formula; remove it"),
    ("CuSO4·", 5, "the separator '·' at 6 is not followed by a formula part"),
    ("CuSO4··H2O", 6, "two separators in a row at 7"),
    ("H2O·5", 4, "coefficient 5 at 5 is not followed by a formula part"),
    ("", 0, "empty formula at 1; write one such as H2O"),
    ("(" * 33 + "H" + ")" * 33, 32, "group at 33 is nested deeper than 32 levels"),
    (
        "H" * 1001,
        1000,
        "the formula is too long at 1001: at most 1000 characters, this one has 1001",
    ),
]


@pytest.mark.parametrize(("text", "position", "message"), INVALID)
def test_invalid_formulas(text: str, position: int, message: str) -> None:
    with pytest.raises(FormulaError) as caught:
        parse_formula(text)
    error = caught.value
    assert error.message == message
    assert error.position == position
    assert error.column == position + 1
    assert error.text == text
    if position < 1000:
        assert caret_column(error) == position


def test_depth_32_is_allowed() -> None:
    assert parse_formula("(" * 32 + "H" + ")" * 32).elements == {"H": 1}


def test_length_1000_is_allowed() -> None:
    assert parse_formula("H" * 1000).elements == {"H": 1000}


def test_error_family() -> None:
    with pytest.raises(FormulaError) as caught:
        parse_formula("Xx")
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, MhpError)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.message, copy.text, copy.position) == ("unknown element symbol 'Xx' at 1", "Xx", 0)


def test_invisible_characters_are_echoed_visibly() -> None:
    with pytest.raises(FormulaError) as caught:
        parse_formula("H\u200b2O")
    assert str(caught.value).splitlines()[1] == "  H\N{REPLACEMENT CHARACTER}2O"


def test_not_a_string() -> None:
    with pytest.raises(TypeError):
        parse_formula(b"H2O")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "hill", "unicode"),
    [
        ("H2O", "H2O", "H₂O"),
        ("CH4", "CH4", "CH₄"),
        ("C2H5OH", "C2H6O", "C₂H₅OH"),
        ("CCl4", "CCl4", "CCl₄"),
        ("CaSO4·2H2O", "CaH4O6S", "CaSO₄·2H₂O"),
        ("NH3.BF3", "BF3H3N", "NH₃·BF₃"),
        ("NH4+", "H4N+", "NH₄⁺"),
        ("SO4^2-", "O4S-2", "SO₄²⁻"),
        ("Fe+3", "Fe+3", "Fe³⁺"),
        ("[Fe(CN)6]-4", "C6FeN6-4", "[Fe(CN)₆]⁴⁻"),
        ("Fe₂O₃", "Fe2O3", "Fe₂O₃"),
        ("KFe3(SO4)2(OH)6", "Fe3H6KO14S2", "KFe₃(SO₄)₂(OH)₆"),
    ],
)
def test_hill_and_unicode(text: str, hill: str, unicode: str) -> None:
    formula = parse_formula(text)
    assert formula.hill() == hill
    assert formula.unicode() == unicode
    assert parse_formula(hill) == formula
    assert parse_formula(unicode) == formula


def test_segments_for_typesetting() -> None:
    segments = parse_formula("Mg(ClO4)2·6H2O").segments()
    assert [(s.text, s.style) for s in segments] == [
        ("Mg(ClO", "normal"),
        ("4", "sub"),
        (")", "normal"),
        ("2", "sub"),
        ("·6H", "normal"),
        ("2", "sub"),
        ("O", "normal"),
    ]


def test_parts_of_a_hydrate() -> None:
    parts = parse_formula("Mg(ClO4)2·6H2O").parts
    assert [(p.coefficient, p.text, dict(p.elements)) for p in parts] == [
        (1, "Mg(ClO4)2", {"Mg": 1, "Cl": 2, "O": 8}),
        (6, "H2O", {"H": 2, "O": 1}),
    ]


def test_masses() -> None:
    assert parse_formula("H2O").mass == pytest.approx(2 * 1.008 + 15.999)
    assert parse_formula("Fe2O3").mass == pytest.approx(2 * 55.845 + 3 * 15.999)
    # Ions: a cation lacks electrons, an anion carries extra ones.
    electron = 0.000548579909065
    assert parse_formula("Na+").mass == pytest.approx(22.98976928 - electron, abs=1e-12)
    assert parse_formula("Cl-").mass == pytest.approx(35.45 + electron, abs=1e-12)


def test_equality_is_by_composition() -> None:
    assert parse_formula("CaSO4·2H2O") == parse_formula("CaH4O6S")
    assert hash(parse_formula("CaSO4·2H2O")) == hash(parse_formula("CaH4O6S"))
    assert parse_formula("H2O").text != parse_formula("OH2").text
    assert parse_formula("H2O") == parse_formula("OH2")
    assert parse_formula("NH4+") != parse_formula("NH4")
    assert parse_formula("H2O") != "H2O"
    assert len({parse_formula("CO2"), parse_formula("O2C"), parse_formula("CO")}) == 2


def test_formula_is_immutable() -> None:
    formula = parse_formula("H2O")
    with pytest.raises(AttributeError):
        formula.charge = 1  # type: ignore[misc]
    with pytest.raises(TypeError):
        formula.elements["H"] = 3  # type: ignore[index]


def test_addition_and_multiplication() -> None:
    water = parse_formula("H2O")
    assert dict((water + parse_formula("CO2")).elements) == {"H": 2, "O": 3, "C": 1}
    assert (parse_formula("Fe+3") + parse_formula("Cl-")).charge == 2
    assert dict((3 * water).elements) == {"H": 6, "O": 3}
    assert water * 2 == parse_formula("H4O2")
    assert (parse_formula("SO4-2") * 2).charge == -4
    for bad in (0, -1):
        with pytest.raises(ValueError, match="positive integer"):
            water * bad
    with pytest.raises(TypeError):
        water * 1.5  # type: ignore[operator]
    with pytest.raises(TypeError):
        water * True  # type: ignore[operator]


def test_from_elements() -> None:
    assert repr(Formula.from_elements({"O": 1, "H": 2})) == "Formula('H2O')"
    assert Formula.from_elements({"S": 1, "O": 4}, -2).hill() == "O4S-2"
    with pytest.raises(ValueError, match="unknown element"):
        Formula.from_elements({"Xx": 1})
    with pytest.raises(ValueError, match="at least one element"):
        Formula.from_elements({})


def test_electron() -> None:
    electron = Formula.electron()
    assert electron.is_electron
    assert electron.charge == -1
    assert dict(electron.elements) == {}
    assert electron.unicode() == "e⁻"
    assert electron.hill() == "e-"
