"""Reactions: reading, tallying, balancing, and the reasons a reaction cannot be balanced."""

from __future__ import annotations

import pytest

from mhp_cards import ReactionError, parse_formula, parse_reaction

PROCESSES = [
    ("CO2 + H2 -> CH4 + H2O", "CO2 + 4 H2 -> CH4 + 2 H2O"),  # Sabatier
    ("H2O -> H2 + O2", "2 H2O -> 2 H2 + O2"),  # water electrolysis
    ("N2 + H2 → NH3", "N2 + 3 H2 → 2 NH3"),  # Haber–Bosch
    ("NH3 + O2 -> NO + H2O", "4 NH3 + 5 O2 -> 4 NO + 6 H2O"),  # Ostwald, step 1
    ("NO + O2 -> NO2", "2 NO + O2 -> 2 NO2"),  # Ostwald, step 2
    ("NO2 + H2O -> HNO3 + NO", "3 NO2 + H2O -> 2 HNO3 + NO"),  # Ostwald, step 3
    ("FeS2 + O2 -> Fe2O3 + SO2", "4 FeS2 + 11 O2 -> 2 Fe2O3 + 8 SO2"),  # pyrite roasting
    ("SO2 + O2 = SO3", "2 SO2 + O2 = 2 SO3"),  # contact process
    ("SO3 + H2O -> H2SO4", "SO3 + H2O -> H2SO4"),
    ("NaCl + H2O -> NaOH + H2 + Cl2", "2 NaCl + 2 H2O -> 2 NaOH + H2 + Cl2"),  # chlor-alkali
    ("CaCO3 -> CaO + CO2", "CaCO3 -> CaO + CO2"),  # calcination
    ("Fe2O3 + H2 -> Fe + H2O", "Fe2O3 + 3 H2 -> 2 Fe + 3 H2O"),  # hematite reduction
    ("Fe2O3 + CO -> Fe + CO2", "Fe2O3 + 3 CO -> 2 Fe + 3 CO2"),
    ("Mg(ClO4)2 -> MgCl2 + O2", "Mg(ClO4)2 -> MgCl2 + 4 O2"),  # perchlorate decomposition
    ("CaSO4·2H2O -> (CaSO4)2·H2O + H2O", "2 CaSO4·2H2O -> (CaSO4)2·H2O + 3 H2O"),  # plaster
    ("MnO4- + H+ + e- -> Mn+2 + H2O", "MnO4- + 8 H+ + 5 e- -> Mn+2 + 4 H2O"),  # half-reaction
    ("Cl- -> Cl2 + e-", "2 Cl- -> Cl2 + 2 e-"),  # anode of the chlor-alkali cell
]


@pytest.mark.parametrize(("unbalanced", "balanced"), PROCESSES)
def test_balance_real_processes(unbalanced: str, balanced: str) -> None:
    reaction = parse_reaction(unbalanced)
    result = reaction.balance()
    assert str(result) == balanced
    assert result.is_balanced
    assert parse_reaction(balanced).is_balanced
    assert parse_reaction(balanced).balance() == result


def test_balance_reduces_to_smallest_integers() -> None:
    assert str(parse_reaction("4 H2 + 2 O2 -> 4 H2O").balance()) == "2 H2 + O2 -> 2 H2O"


def test_terms_keep_order_and_text() -> None:
    reaction = parse_reaction("CO2 + 4H2 ⟶ CH4 + 2 H2O")
    assert [(c, f.text) for c, f in reaction.reactants] == [(1, "CO2"), (4, "H2")]
    assert [(c, f.text) for c, f in reaction.products] == [(1, "CH4"), (2, "H2O")]
    assert str(reaction) == "CO2 + 4 H2 ⟶ CH4 + 2 H2O"
    assert reaction.is_balanced


def test_imbalance_and_tally() -> None:
    reaction = parse_reaction("CO2 + H2 -> CH4 + H2O")
    assert reaction.imbalance == {"O": -1, "H": 4}
    assert reaction.tally() == {"C": (1, 1), "O": (2, 1), "H": (2, 6)}


def test_charge_only_imbalance() -> None:
    reaction = parse_reaction("Fe+3 -> Fe+2")
    assert reaction.imbalance == {"charge": -1}
    assert not reaction.is_balanced
    assert parse_reaction("Fe+3 + e- -> Fe+2").is_balanced
    assert parse_reaction("Fe+3 + e⁻ -> Fe+2").is_balanced


def test_ions_need_spaces_around_plus() -> None:
    reaction = parse_reaction("NH4+ + OH- -> NH3 + H2O")
    assert [f.charge for _, f in reaction.reactants] == [1, -1]
    assert reaction.is_balanced


def test_stoichiometry() -> None:
    net = parse_reaction("CO2 + 4 H2 -> CH4 + 2 H2O").stoichiometry()
    assert net == {
        parse_formula("CO2"): -1,
        parse_formula("H2"): -4,
        parse_formula("CH4"): 1,
        parse_formula("H2O"): 2,
    }


REFUSED = [
    ("H2 -> O2", 0, "cannot be balanced: H appears only on the left side"),
    (
        "H2 + O2 -> H2O + H2O2",
        0,
        "cannot be balanced uniquely: 2 independent sets of coefficients "
        "balance it (the equation combines separate reactions); write them one by one",
    ),
    (
        "H2O -> H2O + O2",
        7,
        "H2O appears on both sides; a balanced equation names each species once",
    ),
    (
        "Fe+3 -> Fe+2",
        0,
        "cannot be balanced: no positive coefficients make every element and the charge agree",
    ),
    (
        "H2 -> H2O + O2",
        12,
        "cannot be balanced with positive coefficients: O2 would have to change sides",
    ),
]


@pytest.mark.parametrize(("text", "position", "message"), REFUSED)
def test_balance_refusals(text: str, position: int, message: str) -> None:
    with pytest.raises(ReactionError) as caught:
        parse_reaction(text).balance()
    assert caught.value.message == message
    assert caught.value.position == position


UNREADABLE = [
    (
        "H2+O2 -> H2O",
        3,
        "'O' at 4 follows the charge; the charge comes last; between species "
        "write ' + ' with spaces on both sides",
    ),
    ("H2 -> H2O -> O2", 10, "a second arrow '->' at 11; an equation has one"),
    ("H2 + O2", 7, "no arrow; write the reactants, then '->' (or →, ⟶, =, ⇌), then the products"),
    ("-> H2O", 0, "no reactants; each side of the arrow needs a species"),
    ("H2 ->", 5, "no products; each side of the arrow needs a species"),
    ("H2 + -> H2", 3, "a '+' with no species next to it at 4"),
    (
        "1/2 O2 -> O",
        0,
        "coefficient 1/2 at 1 is not a whole number; multiply the whole equation "
        "so that every coefficient is a whole number (by 2 for halves)",
    ),
    ("0 O2 -> O2", 0, "coefficient 0 at 1 is zero or has a leading zero"),
    ("H2 + Xx -> H2Xx", 5, "unknown element symbol 'Xx' at 6"),
    ("2 H2 + O2 <=> 2 H2O", 10, "arrow '<=>' at 11 is not one of -> → ⟶ = ⇌; write '->'"),
    ("2 H2 + O2 => 2 H2O", 10, "arrow '=>' at 11 is not one of -> → ⟶ = ⇌; write '->'"),
]


@pytest.mark.parametrize(("text", "position", "message"), UNREADABLE)
def test_unreadable_reactions(text: str, position: int, message: str) -> None:
    with pytest.raises(ReactionError) as caught:
        parse_reaction(text)
    assert caught.value.message == message
    assert caught.value.position == position
    assert caught.value.text == text
