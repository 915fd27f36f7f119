"""check_arrangement and check_placement: every verdict, with card, edge, position."""

from __future__ import annotations

import re

import pytest

from mhp_cards.assembly.arrangement import (
    Arrangement,
    AssemblyProblem,
    AssemblyReport,
    check_arrangement,
    check_placement,
)
from mhp_cards.assembly.solver import solve_installation
from mhp_cards.catalog import Catalog
from mhp_cards.resources import default_catalog_dir

NUMBERS = tuple(range(1, 11))


def check(catalog: Catalog, text: str) -> AssemblyReport:
    return check_arrangement(catalog, Arrangement.parse(text))


def only(report: AssemblyReport, code: str) -> AssemblyProblem:
    found = [problem for problem in report.problems if problem.code == code]
    assert len(found) == 1, report.problems
    return found[0]


def codes(report: AssemblyReport) -> list[str]:
    return [problem.code for problem in report.problems]


def documented_layouts() -> dict[int, str]:
    """The '# layout:' comment above each installation of the default installations.yaml."""
    text = (default_catalog_dir() / "installations.yaml").read_text(encoding="utf-8")
    layouts = re.findall(r"# layout: (.+)\n(?:\s*#.*\n)*\s*- number: (\d+)", text)
    return {int(number): layout.strip() for layout, number in layouts}


# --- valid arrangements --------------------------------------------------------------------------


def test_every_installation_has_a_documented_layout() -> None:
    assert sorted(documented_layouts()) == list(NUMBERS)


@pytest.mark.parametrize("number", NUMBERS)
def test_canonical_arrangement_is_valid(catalog: Catalog, number: int) -> None:
    solution = solve_installation(catalog, number)
    assert solution.canonical is not None, solution.reason
    report = check_arrangement(catalog, solution.canonical)
    assert report.problems == ()
    assert report.is_valid()
    assert report.installation == number
    assert report.notes == ()
    assert report.arrangement == solution.canonical


@pytest.mark.parametrize("number", NUMBERS)
def test_documented_layout_is_valid_and_is_the_only_solution(catalog: Catalog, number: int) -> None:
    layout = documented_layouts()[number]
    report = check(catalog, layout)
    assert report.is_valid(), report.problems
    assert report.installation == number
    solution = solve_installation(catalog, number)
    assert solution.arrangements == (Arrangement.parse(layout),)
    assert solution.installation == number
    assert solution.electrolysers == layout.split().count("Э")


def test_translated_arrangement_is_the_same(catalog: Catalog) -> None:
    report = check(catalog, ". . . / . . 2А / . Э 2Б")
    assert report.is_valid()
    assert report.arrangement.text() == ". 2А / Э 2Б"


@pytest.mark.parametrize(
    ("text", "canonical", "note"),
    [
        (". 2A / Э 2Б", ". 2А / Э 2Б", "read '2A' as '2А' (Latin 'A' for Cyrillic 'А')"),
        ("Э 3Б 3A", "Э 3Б 3А", "read '3A' as '3А' (Latin 'A' for Cyrillic 'А')"),
        ("10A 10Б", "10А 10Б", "read '10A' as '10А' (Latin 'A' for Cyrillic 'А')"),
    ],
)
def test_latin_lookalikes_are_accepted_with_a_note(
    catalog: Catalog, text: str, canonical: str, note: str
) -> None:
    report = check(catalog, text)
    assert report.is_valid(), report.problems
    assert report.arrangement.text() == canonical
    assert note in report.notes


def test_a_repeated_lookalike_is_noted_once(catalog: Catalog) -> None:
    report = check(catalog, "4A 4Б 4В / 4A . 4Г")
    assert report.notes == ("read '4A' as '4А' (Latin 'A' for Cyrillic 'А')",)


def test_numbered_electrolyser_is_read_as_the_electrolyser(catalog: Catalog) -> None:
    report = check(catalog, ". 2А / Э3 2Б")
    assert report.is_valid()
    assert report.arrangement.text() == ". 2А / Э 2Б"


# --- one invalid arrangement per problem code ----------------------------------------------------


def test_open_port(catalog: Catalog) -> None:
    report = check(catalog, "1А 1Б")
    assert not report.is_valid()
    assert report.installation == 1
    problems = [p for p in report.problems if p.code == "open-port"]
    assert [(p.card, p.edge, p.position) for p in problems] == [
        ("1А", "bottom", 2),
        ("1Б", "top", 2),
    ]
    kiln, slaker = problems
    assert kiln.expected == "a card with a CaO in port"
    assert kiln.found == "nothing"
    assert kiln.message == (
        "1А bottom edge, position 2 (CaO out) is left open: no card touches that edge; "
        "place the card that takes this pipe there"
    )
    assert slaker.expected == "a card with a CaO out port"
    assert str(slaker) == slaker.message


def test_no_port_opposite_from_the_right_or_bottom_port(catalog: Catalog) -> None:
    report = check(catalog, "6А 6В / . 6Б")
    # 6А sends SO2 (position 2) and the O2 left in its gas (position 3) to the right.
    opposite = [p for p in report.problems if p.code == "no-port-opposite"]
    assert [(p.card, p.edge, p.position) for p in opposite] == [
        ("6А", "right", 2),
        ("6А", "right", 3),
    ]
    problem = opposite[0]
    assert problem.expected == "SO2 in on 6В's left edge"
    assert problem.found == "no port"
    assert problem.message == (
        "6А right edge, position 2 (SO2 out) meets 6В's left edge at position 2, where 6В has "
        "no port"
    )


def test_no_port_opposite_from_the_left_or_top_port(catalog: Catalog) -> None:
    report = check(catalog, "4А 4Б 4В / . 4Г .")
    # 4Г takes HNO3 (position 2) and sends its water back (position 3) on its top edge.
    opposite = [p for p in report.problems if p.code == "no-port-opposite"]
    assert [(p.card, p.edge, p.position) for p in opposite] == [("4Г", "top", 2), ("4Г", "top", 3)]
    problem = opposite[0]
    assert problem.expected == "a port on 4Б's bottom edge at position 2"
    assert problem.found == "no port"
    assert problem.message == (
        "4Г top edge, position 2 (HNO3 in) meets 4Б's bottom edge at position 2, where 4Б has "
        "no port"
    )
    assert {p.card for p in report.problems if p.code == "open-port"} == {"4В"}


def test_substance_mismatch(catalog: Catalog) -> None:
    report = check(catalog, "7А 8Б")
    problem = only(report, "substance-mismatch")
    assert (problem.card, problem.edge, problem.position) == ("7А", "right", 3)
    assert (problem.expected, problem.found) == ("Cl2", "Fe3O4")
    assert problem.message == (
        "7А right edge, position 3 (Cl2 out) meets 8Б left edge, position 3 (Fe3O4 in): the "
        "pipe carries Cl2 on one side and Fe3O4 on the other"
    )
    # position 1 carries H2 out of 7А into 8Б: that pipe fits
    assert "open-port" not in codes(report)
    assert "mixed-installations" in codes(report)


def test_direction_mismatch(catalog: Catalog, card, installation_catalog) -> None:
    cards = [
        card("11А", [("right", 2, "H2O", "out")], group="main"),
        card("11Б", [("left", 2, "H2O", "out"), ("bottom", 1, "CO2", "in")]),
        card("11В", [("top", 1, "CO2", "in")]),
    ]
    synthetic = installation_catalog(catalog, 11, "H2O -> H2O", cards)
    report = check(synthetic, "11А 11Б / . 11В")
    assert codes(report).count("direction-mismatch") == 2
    horizontal, vertical = (p for p in report.problems if p.code == "direction-mismatch")
    assert (horizontal.card, horizontal.edge, horizontal.position) == ("11А", "right", 2)
    assert (horizontal.expected, horizontal.found) == ("in on 11Б", "out")
    assert horizontal.message == (
        "11А right edge, position 2 (H2O out) meets 11Б left edge, position 2 (H2O out): both "
        "are 'out'; one side must be 'out' and the other 'in'"
    )
    assert (vertical.card, vertical.edge, vertical.position) == ("11Б", "bottom", 1)
    assert (vertical.expected, vertical.found) == ("out on 11В", "in")
    assert "both are 'in'" in vertical.message
    assert "substance-mismatch" not in codes(report)


def test_substance_and_direction_mismatch_on_one_pipe(card) -> None:
    left = card("1А", [("right", 1, "CO2", "in")])
    right = card("1Б", [("left", 1, "CO", "in")])
    problems = check_placement({(0, 0): ("1А", left), (0, 1): ("1Б", right)})
    assert [p.code for p in problems] == ["substance-mismatch", "direction-mismatch"]
    assert all((p.card, p.edge, p.position) == ("1А", "right", 1) for p in problems)
    assert (problems[0].expected, problems[0].found) == ("CO2", "CO")


def test_missing_card(catalog: Catalog) -> None:
    report = check(catalog, "Э 2Б")
    problem = only(report, "missing-card")
    assert problem.card == "2А"
    assert problem.message == "2А is missing; installation 2 is built from 2А, 2Б"
    assert report.installation == 2
    # with a card missing the net reaction is not judged
    assert "net-reaction" not in codes(report)


def test_missing_cards_of_a_big_installation(catalog: Catalog) -> None:
    report = check(catalog, "4А 4Б")
    missing = [p.card for p in report.problems if p.code == "missing-card"]
    assert missing == ["4В", "4Г"]


def test_duplicate_card(catalog: Catalog) -> None:
    report = check(catalog, "2А 2А / Э 2Б")
    problem = only(report, "duplicate-card")
    assert problem.card == "2А"
    assert problem.message == "2А is placed 2 times; the game has one"


def test_duplicate_card_written_two_ways(catalog: Catalog) -> None:
    report = check(catalog, "9А 9Б / 9A .")
    assert only(report, "duplicate-card").message == "9А is placed 2 times; the game has one"


def test_unknown_card_id_form(catalog: Catalog) -> None:
    report = check(catalog, "xyz 2А")
    problem = only(report, "unknown-card")
    assert problem.card == "xyz"
    assert problem.message == (
        "'xyz' is not a card ID; write the installation number and a Cyrillic letter (5А, 5Б) "
        "or Э for an electrolyser"
    )


def test_unknown_card_not_in_catalog(catalog: Catalog) -> None:
    report = check(catalog, ". 2А / Э 2Я")
    problem = only(report, "unknown-card")
    assert problem.card == "2Я"
    assert problem.message == "no card '2Я' in the catalog"
    assert (problem.expected, problem.found) == ("a card of the catalog", "2Я")
    assert report.arrangement.text() == ". 2А / Э 2Я"


def test_an_ambiguous_latin_letter_is_not_guessed(catalog: Catalog) -> None:
    """'2B' is 2В by its look, 2Б as the English edition prints it: the check asks."""
    report = check(catalog, "2A 2B")
    assert not report.is_valid()
    assert "read '2A' as '2А' (Latin 'A' for Cyrillic 'А')" in report.notes
    assert not any("'2B' as" in note for note in report.notes)
    assert any(
        "write 2Б if you mean the card printed 2B in the English edition, or the Cyrillic 2В"
        in str(problem)
        for problem in report.problems
    )


def test_unknown_electrolyser_when_the_catalog_has_none(catalog: Catalog) -> None:
    without = Catalog(
        substances=catalog.substances,
        raw_materials=catalog.raw_materials,
        installations=catalog.installations,
        electrolysers=(),
        missions=catalog.missions,
        components=catalog.components,
    )
    report = check(without, ". 2А / Э 2Б")
    problem = only(report, "unknown-card")
    assert (problem.card, problem.message) == ("Э", "the catalog has no electrolyser card")


def test_mixed_installations(catalog: Catalog) -> None:
    report = check(catalog, "1А . / 1Б . / 7А 7Б")
    problem = only(report, "mixed-installations")
    assert problem.message == (
        "the cards belong to installations 1, 7; an installation is built from the cards of "
        "one number (plus electrolysers)"
    )
    assert (problem.expected, problem.found) == ("one installation number", "1, 7")
    assert problem.card is None
    assert report.installation is None
    # 1Б's bottom edge touches 7А's top edge, neither has a port there: nothing else is wrong
    assert codes(report) == ["mixed-installations", "not-connected"]


def test_not_connected(catalog: Catalog) -> None:
    report = check(catalog, "9А 9Б / Э .")
    problem = only(report, "not-connected")
    assert problem.card == "Э"
    assert problem.message == "Э is not joined to the rest of the installation by any pipe"


def test_not_connected_names_every_card_of_a_detached_group(catalog: Catalog) -> None:
    report = check(catalog, "4А 4Б 4В / . . 4Г / 9А 9Б .")
    problem = only(report, "not-connected")
    assert problem.message == "9А, 9Б are not joined to the rest of the installation by any pipe"
    assert problem.card == "9А"
    assert codes(report) == ["mixed-installations", "not-connected"]


def test_touching_cards_without_a_pipe_are_not_connected(catalog: Catalog) -> None:
    report = check(catalog, "1А 1Б")
    problem = only(report, "not-connected")
    assert problem.card == "1Б"  # of two equal groups the first is the main one


def test_net_reaction(catalog: Catalog, installation_catalog) -> None:
    original = catalog.installation(1)
    wrong = installation_catalog(catalog, 1, "CaCO3 -> CaO + CO2", original.cards)
    report = check(wrong, "1А / 1Б")
    assert codes(report) == ["net-reaction"]
    problem = report.problems[0]
    assert problem.expected == "CaCO3 -> CaO + CO2"
    assert problem.found == "CaCO3 + H2O -> CO2 + Ca(OH)2"
    assert problem.message == (
        "the reactions of installation 1's cards do not combine into its overall reaction "
        "CaCO3 -> CaO + CO2: they add up to CaCO3 + H2O -> CO2 + Ca(OH)2"
    )
    assert check(catalog, "1А / 1Б").is_valid()


def test_net_reaction_without_the_electrolyser(catalog: Catalog) -> None:
    report = check(catalog, "2А / 2Б")
    problem = only(report, "net-reaction")
    assert problem.found == "CO2 + 4 H2 -> CH4 + 2 H2O"
    assert problem.expected == "CO2 + 2 H2O -> CH4 + 2 O2"
    assert only(report, "open-port").card == "2Б"


def test_too_many_electrolysers(catalog: Catalog) -> None:
    report = check(catalog, " / ".join(["Э"] * 6))
    problem = only(report, "too-many-electrolysers")
    assert problem.message == "6 electrolysers placed; the game has 5"
    assert problem.card is None
    five = check(catalog, " / ".join(["Э"] * 5))
    assert "too-many-electrolysers" not in codes(five)


def test_every_problem_is_reported_at_once(catalog: Catalog) -> None:
    report = check(catalog, "2А 2А / Э 2Я / 5А .")
    assert {"duplicate-card", "unknown-card", "mixed-installations"} <= set(codes(report))


def test_problem_to_json(catalog: Catalog) -> None:
    report = check(catalog, "6А 6В / . 6Б")
    problem = next(p for p in report.problems if p.code == "no-port-opposite")
    assert problem.to_json() == {
        "code": "no-port-opposite",
        "message": problem.message,
        "card": "6А",
        "edge": "right",
        "position": 2,
        "expected": "SO2 in on 6В's left edge",
        "found": "no port",
    }


# --- check_placement on synthetic cards ----------------------------------------------------------


def test_optional_port_may_stay_open(card) -> None:
    lone = card("Э1", [("right", 2, "H2", "out", True)], group="electrolyser")
    assert check_placement({(0, 0): ("Э", lone)}) == []
    required = card("1А", [("right", 2, "H2", "out")])
    assert [p.code for p in check_placement({(0, 0): ("1А", required)})] == ["open-port"]


def test_optional_port_facing_a_card_without_a_port_is_a_problem(card) -> None:
    electrolyser = card("Э1", [("right", 2, "H2", "out", True)], group="electrolyser")
    blank = card("1А")
    problems = check_placement({(0, 0): ("Э", electrolyser), (0, 1): ("1А", blank)})
    assert [(p.code, p.card, p.edge, p.position) for p in problems] == [
        ("no-port-opposite", "Э", "right", 2)
    ]


def test_each_meeting_is_reported_once(card) -> None:
    top = card("1А", [("bottom", 1, "CO2", "out"), ("bottom", 3, "N2", "out")])
    bottom = card("1Б", [("top", 1, "CO2", "out"), ("top", 3, "O2", "in")])
    problems = check_placement({(0, 0): ("1А", top), (1, 0): ("1Б", bottom)})
    assert [(p.code, p.position) for p in problems] == [
        ("direction-mismatch", 1),
        ("substance-mismatch", 3),
    ]


def test_vertical_no_port_opposite_both_ways(card) -> None:
    top = card("1А", [("bottom", 1, "CO2", "out")])
    bottom = card("1Б", [("top", 3, "CO2", "in")])
    problems = check_placement({(0, 0): ("1А", top), (1, 0): ("1Б", bottom)})
    assert sorted((p.code, p.card, p.edge, p.position) for p in problems) == [
        ("no-port-opposite", "1А", "bottom", 1),
        ("no-port-opposite", "1Б", "top", 3),
    ]


# --- regressions: verdicts that were wrong -------------------------------------------------------


def test_electrolyser_number_outside_the_game_is_unknown(catalog: Catalog) -> None:
    """Regression: 'Э9' was accepted as an electrolyser although the game has Э1–Э5."""
    report = check(catalog, ". 2А / Э9 2Б")
    problem = only(report, "unknown-card")
    assert problem.card == "Э9"
    assert problem.message == (
        "no electrolyser 'Э9' in the catalog; the game has Э1, Э2, Э3, Э4, Э5 (or write Э for "
        "any of them)"
    )
    assert (problem.expected, problem.found) == ("Э1, Э2, Э3, Э4, Э5", "Э9")


@pytest.mark.parametrize("text", ["Э", "Э / Э1"])
def test_no_installation_card_is_not_valid(catalog: Catalog, text: str) -> None:
    """Regression: a lone electrolyser was 'valid: installation None'."""
    report = check(catalog, text)
    assert not report.is_valid()
    assert report.installation is None
    problem = only(report, "no-installation")
    assert problem.message == (
        "the arrangement has no card of an installation; electrolysers join an installation's cards"
    )
    assert problem.expected == "the cards of one installation"
    assert problem.found == ", ".join(["Э"] * len(text.split("/")))


def test_empty_arrangement_is_not_valid(catalog: Catalog) -> None:
    assert not check_arrangement(catalog, Arrangement(())).is_valid()


def two_electrolyser_catalog(catalog: Catalog, card, installation_catalog) -> Catalog:
    """Installation 11: a Sabatier reactor fed with hydrogen by two electrolysers.

    Э 11А   11А takes H2 on its left from one electrolyser and from below through the
    . 11Б   buffers 11Б and 11В, which take it from a second electrolyser. (The electrolysers
    Э 11В   lie apart: each one's optional O2 outlet on its bottom edge may face no card.)
    """
    sabatier = card(
        "11А",
        [("left", 2, "H2", "in"), ("bottom", 2, "H2", "in")],
        reactions=["CO2 + 4 H2 -> CH4 + 2 H2O"],
        containers=[("CO2", "raw-input"), ("CH4", "product"), ("H2O", "product")],
        group="main",
    )
    buffer = card(
        "11Б",
        [("bottom", 2, "H2", "in"), ("top", 2, "H2", "out")],
        containers=[("H2", "transit")],
    )
    inlet = card(
        "11В",
        [("left", 2, "H2", "in"), ("top", 2, "H2", "out")],
        containers=[("H2", "transit")],
    )
    return installation_catalog(catalog, 11, "CO2 + 2 H2O -> CH4 + 2 O2", [sabatier, buffer, inlet])


def test_two_electrolyser_installation_is_valid(catalog: Catalog, card, installation_catalog):
    """Regression: the electrolyser reaction counted twice made the combination 'not unique'."""
    synthetic = two_electrolyser_catalog(catalog, card, installation_catalog)
    report = check(synthetic, "Э 11А / . 11Б / Э 11В")
    assert report.problems == ()


def test_two_electrolyser_installation_solves(catalog: Catalog, card, installation_catalog):
    """Regression: solve() rejected every count of electrolysers >= 2."""
    synthetic = two_electrolyser_catalog(catalog, card, installation_catalog)
    solution = solve_installation(synthetic, 11)
    assert solution.installation == 11
    assert solution.electrolysers == 2
    assert solution.arrangements == (Arrangement.parse("Э 11А / . 11Б / Э 11В"),)
    assert (solution.reason, solution.failure) == ("", "")


def test_two_numbered_electrolysers(catalog: Catalog, card, installation_catalog) -> None:
    synthetic = two_electrolyser_catalog(catalog, card, installation_catalog)
    report = check(synthetic, "Э1 11А / . 11Б / Э2 11В")
    assert report.is_valid()
    assert report.arrangement.text() == "Э 11А / . 11Б / Э 11В"


def test_same_numbered_electrolyser_twice_is_a_duplicate(
    catalog: Catalog, card, installation_catalog
) -> None:
    synthetic = two_electrolyser_catalog(catalog, card, installation_catalog)
    report = check(synthetic, "Э1 11А / . 11Б / Э1 11В")
    problem = only(report, "duplicate-card")
    assert problem.card == "Э1"
