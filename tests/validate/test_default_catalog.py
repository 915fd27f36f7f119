"""The shipped game: valid without a warning, and sound by independent recomputation."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from mhp_cards import parse_formula, parse_reaction
from mhp_cards.assembly.arrangement import Arrangement, check_arrangement
from mhp_cards.assembly.solver import solve_installation
from mhp_cards.catalog import Catalog
from mhp_cards.chem.exact_sum import find_exact_sum
from mhp_cards.game.setups import check_setup
from mhp_cards.resources import default_catalog_dir
from mhp_cards.rules.numbers import LEVELS
from mhp_cards.validate import load_catalog
from mhp_cards.validate.loader import check_names


@pytest.fixture(scope="module")
def catalog(default_validation) -> Catalog:
    assert default_validation.catalog is not None
    return default_validation.catalog


def _cyrillic(text: str) -> bool:
    return any(unicodedata.name(char, "").startswith("CYRILLIC") for char in text)


def _tally(terms: Any) -> dict[str, int]:
    """Atoms of each element, and the charge, on one side of a reaction (no zero entries)."""
    total: Counter[str] = Counter()
    for coefficient, formula in terms:
        for symbol, n in formula.elements.items():
            total[symbol] += coefficient * n
        total["charge"] += coefficient * formula.charge
    return {key: n for key, n in total.items() if n}


def _reactions(catalog: Catalog) -> Iterator[tuple[str, str]]:
    for installation in catalog.installations:
        yield f"installation {installation.number}", installation.reaction
        for card in installation.cards:
            for text in card.reactions:
                yield f"card {card.id}", text
    for card in catalog.electrolysers:
        for text in card.reactions:
            yield f"card {card.id}", text


def _names(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, str]]]:
    """Every {ru, en} name in the exported catalog, with where it stands."""
    if isinstance(node, dict):
        if set(node) == {"ru", "en"}:
            yield where, node
            return
        for key, value in node.items():
            yield from _names(value, f"{where}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _names(value, f"{where}[{index}]")


# --- valid, every raw kind in use; an idle kind said ---------------------------------------------


def test_default_catalog_is_valid_without_a_warning(default_validation) -> None:
    assert default_validation.is_valid()
    assert default_validation.issues == ()
    assert default_validation.directory == default_catalog_dir()


def test_every_check_ran_and_passed(default_validation) -> None:
    names = [name for name, _ in check_names()]
    assert list(default_validation.checks) == names
    assert {name: value for name, value in default_validation.checks.items() if value != "ok"} == {}


def test_a_raw_kind_that_serves_nothing_is_named(catalog_copy) -> None:
    """Argon is real Mars material, but no installation takes Ar and no mission holds it."""
    where = catalog_copy.edit(
        "raw_materials.yaml",
        "raw_materials:\n",
        "raw_materials:\n  - id: ‸argon\n    formula: Ar\n"
        "    name: {ru: Аргон атмосферы, en: Atmospheric argon}\n    copies: 1\n",
    )
    catalog_copy.edit(
        "substances.yaml",
        "substances:\n",
        "substances:\n  - formula: Ar\n    name: {ru: Аргон, en: Argon}\n    price: 1\n",
    )
    catalog_copy.edit(  # one halite less: still 72 cards
        "raw_materials.yaml", "en: Halite}\n    copies: 8", "en: Halite}\n    copies: 7"
    )

    validation = catalog_copy.validate()

    assert validation.is_valid()
    [warning] = validation.warnings
    assert warning.check == "raw-kinds-serve"
    assert warning.message.startswith("raw kind argon (Ar) feeds no installation")
    catalog_copy.assert_located(warning, "raw_materials.yaml", where, "raw_materials[0].id")
    assert validation.checks["raw-kinds-serve"] == "1 warning(s)"


def test_load_catalog_gives_the_validated_catalog(catalog) -> None:
    assert load_catalog() == catalog
    assert load_catalog(default_catalog_dir()) == catalog


# --- counts ------------------------------------------------------------------------------------


def test_at_least_24_distinct_raw_materials(catalog) -> None:
    ids = [raw.id for raw in catalog.raw_materials]
    assert len(set(ids)) == len(ids) >= 24
    assert len({raw.name.en for raw in catalog.raw_materials}) == len(ids)
    # Kinds share a formula only as polymorphs of one substance (opaline silica, quartz,
    # tridymite and cristobalite are four minerals of SiO2), as its ice, frost or gas, or as
    # one mineral in two forms found apart (grey hematite spherules, red crystalline hematite).
    by_formula: dict[object, set[str]] = {}
    for raw in catalog.raw_materials:
        by_formula.setdefault(parse_formula(raw.formula), set()).add(raw.id)
    shared = {str(f): kinds for f, kinds in by_formula.items() if len(kinds) > 1}
    assert shared == {
        "H2O": {"water-ice", "water-vapour", "polar-ice", "glacier-ice"},
        "CO2": {"carbon-dioxide", "carbon-dioxide-frost", "buried-co2-ice"},
        "Fe2O3": {"hematite", "ridge-hematite"},
        "SiO2": {"silica", "quartz", "tridymite", "cristobalite"},
    }
    # Every kind serves (an installation or a level-1 mission), so the formulas are the
    # game's chemistry: 15 substances.
    assert len(by_formula) >= 15


def test_raw_deck_size(catalog) -> None:
    deck = sum(raw.copies for raw in catalog.raw_materials)
    assert 64 <= deck <= 80
    assert deck == catalog.raw_deck_size == len(list(catalog.raw_deck()))


def test_fate_cards(catalog) -> None:
    assert catalog.components.fate_cards.count >= 68


def test_components_of_the_rules(catalog) -> None:
    components = catalog.components
    assert components.coins.count == 50
    assert components.chemist_tokens.per_player == 10  # the most a player takes (L2.S7-two)
    assert len(components.colours) == 5
    assert components.combines.count == 5
    assert {u.id: u.price for u in components.upgrades} == {"solar-battery": 4, "armour": 4}
    assert components.base_card.count == 1


def test_installations(catalog) -> None:
    assert len(catalog.installations) >= 8
    numbers = [installation.number for installation in catalog.installations]
    assert len(set(numbers)) == len(numbers)
    for installation in catalog.installations:
        assert 2 <= len(installation.cards) <= 4, installation.number
        mains = [card for card in installation.cards if card.group == "main"]
        assert len(mains) == 1, installation.number
        assert {card.group for card in installation.cards} <= {"main", "part"}
    assert len(catalog.main_cards) == len(catalog.installations)


def test_five_identical_electrolysers(catalog) -> None:
    electrolysers = catalog.electrolysers
    assert len(electrolysers) == 5
    assert {card.group for card in electrolysers} == {"electrolyser"}
    designs = [card.model_dump(exclude={"id"}) for card in electrolysers]
    assert all(design == designs[0] for design in designs)
    assert len({card.id for card in electrolysers}) == 5


def test_four_missions(catalog) -> None:
    assert len(catalog.missions) == 4
    assert len({mission.id for mission in catalog.missions}) == 4


# --- chemistry, recomputed ---------------------------------------------------------------------


def test_every_reaction_balances(catalog) -> None:
    reactions = list(_reactions(catalog))
    assert len(reactions) >= 2 * len(catalog.installations)
    for where, text in reactions:
        reaction = parse_reaction(text)
        left, right = _tally(reaction.reactants), _tally(reaction.products)
        assert left == right, f"{where}: {text} gives {dict(left)} -> {dict(right)}"
        assert reaction.is_balanced


def test_installation_reaction_is_the_net_of_its_cards(catalog) -> None:
    """Every species of the overall reaction appears in some card reaction or the electrolyser."""
    electrolyser = {f for text in catalog.electrolysers[0].reactions for f in _species(text)}
    for installation in catalog.installations:
        cards = {
            f for card in installation.cards for text in card.reactions for f in _species(text)
        }
        assert set(_species(installation.reaction)) <= cards | electrolyser, installation.number


def _species(text: str) -> list[Any]:
    return list(parse_reaction(text).species)


def test_every_formula_is_a_listed_substance(catalog) -> None:
    listed = {parse_formula(s.formula) for s in catalog.substances}
    assert len(listed) == len(catalog.substances), "a substance is listed twice"
    used = [raw.formula for raw in catalog.raw_materials]
    for installation in catalog.installations:
        for card in installation.cards:
            used += [c.substance for c in card.containers] + [p.substance for p in card.ports]
    used += [place.formula for mission in catalog.missions for place in mission.places]
    for text in used:
        assert parse_formula(text) in listed, text
    for _, text in _reactions(catalog):
        for formula in parse_reaction(text).species:
            assert formula in listed, f"{formula} in {text}"


def test_every_mission_product_is_made_by_an_installation(catalog) -> None:
    made = {
        formula
        for installation in catalog.installations
        for _, formula in parse_reaction(installation.reaction).products
    }
    for mission in catalog.missions:
        for place in mission.places:
            assert parse_formula(place.formula) in made, f"{mission.id}: {place.formula}"


# --- assembly ----------------------------------------------------------------------------------


def _documented_layouts() -> dict[int, str]:
    """The ``# layout:`` comment above each installation of installations.yaml."""
    text = (default_catalog_dir() / "installations.yaml").read_text(encoding="utf-8")
    pattern = re.compile(r"# layout: (?P<layout>[^\n]+)\n(?:\s*#[^\n]*\n)*\s*- number: (?P<n>\d+)")
    return {int(m["n"]): m["layout"].strip() for m in pattern.finditer(text)}


def test_every_installation_assembles_in_exactly_one_way(catalog) -> None:
    layouts = _documented_layouts()
    assert set(layouts) == {installation.number for installation in catalog.installations}
    for installation in catalog.installations:
        solution = solve_installation(catalog, installation.number)
        assert len(solution.arrangements) == 1, (installation.number, solution.reason)
        [arrangement] = solution.arrangements
        assert arrangement == Arrangement.parse(layouts[installation.number])
        report = check_arrangement(catalog, arrangement)
        assert report.is_valid(), [str(problem) for problem in report.problems]
        assert report.installation == installation.number


# --- missions at level 1 -----------------------------------------------------------------------


def test_mission_element_counts(catalog) -> None:
    for mission in catalog.missions:
        expected: Counter[str] = Counter()
        for place in mission.places:
            for symbol, n in parse_formula(place.formula).elements.items():
                expected[symbol] += n * place.count
        assert mission.elements == dict(expected)


def test_every_mission_is_an_exact_sum_of_raw_cards(catalog) -> None:
    raws = catalog.raw_materials
    items = [(dict(parse_formula(raw.formula).elements), raw.copies) for raw in raws]
    for mission in catalog.missions:
        selection = find_exact_sum(items, mission.elements)
        assert selection is not None, mission.id
        assert len(selection) == len(raws)
        assert all(0 <= n <= raw.copies for n, raw in zip(selection, raws, strict=True))
        total: Counter[str] = Counter()
        for n, (elements, _) in zip(selection, items, strict=True):
            for symbol, count in elements.items():
                total[symbol] += n * count
        assert +total == Counter(mission.elements), mission.id


# --- setup -------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_can_be_set_up(catalog, level) -> None:
    for players in (2,) if level == "1v1" else range(2, 6):
        setup = check_setup(catalog, level, players)
        assert setup.is_valid(), [f"{item.rule}: {item.text}" for item in setup.failures]


# --- names and IDs -----------------------------------------------------------------------------


def test_card_ids_use_cyrillic_letters(catalog) -> None:
    for installation in catalog.installations:
        for card in installation.cards:
            number, letter = card.id[:-1], card.id[-1]
            assert number == str(installation.number), card.id
            assert unicodedata.name(letter).startswith("CYRILLIC CAPITAL LETTER"), card.id
    for card in catalog.electrolysers:
        assert re.fullmatch("Э[1-5]", card.id), card.id
        assert unicodedata.name(card.id[0]) == "CYRILLIC CAPITAL LETTER E"


def test_names_in_russian_and_english(catalog) -> None:
    names = list(_names(catalog.model_dump(mode="json")))
    # every substance, raw card, installation, mission, colour and upgrade has a name
    expected = (
        len(catalog.substances)
        + len(catalog.raw_materials)
        + len(catalog.installations)
        + len(catalog.missions)
        + len(catalog.components.colours)
        + len(catalog.components.upgrades)
    )
    assert len(names) >= expected
    for where, name in names:
        assert name["ru"].strip(), where
        assert name["en"].strip(), where
        assert _cyrillic(name["ru"]), f"{where}: {name['ru']!r} has no Cyrillic letter"
        assert not _cyrillic(name["en"]), f"{where}: {name['en']!r} has a Cyrillic letter"
