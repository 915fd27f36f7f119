"""What flows through a reactor card, and whether the cards add up to their installation."""

from __future__ import annotations

import pytest

from mhp_cards.assembly.cardflow import card_flow_problems, net_reaction_problem
from mhp_cards.chem.reaction import parse_reaction


def test_every_card_of_the_default_catalog_flows(catalog) -> None:
    for installation in catalog.installations:
        for card in installation.cards:
            assert card_flow_problems(card) == [], card.id
    assert card_flow_problems(catalog.electrolyser) == []


def test_a_port_that_nothing_consumes_is_named(card) -> None:
    bad = card(
        "1А",
        ports=[("right", 2, "O2", "in")],
        reactions=["CaCO3 -> CaO + CO2"],
        containers=[("CaCO3", "raw-input"), ("CaO", "product")],
    )
    [problem] = card_flow_problems(bad)
    assert problem.code == "card-flow"
    assert problem.card == "1А"
    assert (problem.edge, problem.position) == ("right", 2)
    assert "O2 is not consumed by a reaction of the card" in problem.message


def test_an_out_port_nothing_makes_is_named(card) -> None:
    bad = card(
        "1А",
        ports=[("bottom", 2, "H2", "out")],
        reactions=["CaCO3 -> CaO + CO2"],
        containers=[("CaCO3", "raw-input")],
    )
    [problem] = card_flow_problems(bad)
    assert "H2 is not made by a reaction of the card or passed on" in problem.message


def test_containers_must_feed_or_be_filled(card) -> None:
    bad = card(
        "1А",
        reactions=["CaCO3 -> CaO + CO2"],
        containers=[("H2O", "raw-input"), ("NaCl", "product")],
    )
    messages = sorted(problem.message for problem in card_flow_problems(bad))
    assert messages == [
        "1А: the product container of NaCl is filled by no reaction of the card and no "
        "incoming pipe",
        "1А: the raw-input container of H2O feeds no reaction of the card",
    ]


def test_a_transit_card_passes_its_substance_on(card) -> None:
    pipe = card(
        "2Б",
        ports=[("left", 2, "H2", "in"), ("top", 2, "H2", "out")],
        containers=[("H2", "transit")],
    )
    assert card_flow_problems(pipe) == []


def test_the_sabatier_cards_add_up_to_the_installation(catalog) -> None:
    installation = catalog.installation(2)
    cards = [*installation.cards, catalog.electrolyser]
    assert net_reaction_problem(cards, installation.parsed_reaction) is None


@pytest.mark.parametrize(
    ("overall", "found"),
    [
        ("CaCO3 -> CaO + CO2", None),
        ("2 H2O -> 2 H2 + O2", "they add up to CaCO3 -> CaO + CO2"),
    ],
)
def test_the_net_reaction_is_solved_exactly(card, overall: str, found: str | None) -> None:
    kiln = card("1А", reactions=["CaCO3 -> CaO + CO2"], containers=[("CaCO3", "raw-input")])
    problem = net_reaction_problem([kiln], parse_reaction(overall), "installation 1")
    if found is None:
        assert problem is None
    else:
        assert problem is not None
        assert problem.code == "net-reaction"
        assert found in problem.message
        assert problem.expected == overall


def test_an_undetermined_combination_is_refused(card) -> None:
    # Two independent cycles: the overall reaction follows from the cards in more than one way.
    a = card("1А", reactions=["H2 + Cl2 -> 2 HCl", "2 HCl -> H2 + Cl2"])
    problem = net_reaction_problem([a], parse_reaction("H2 + Cl2 -> 2 HCl"))
    assert problem is not None
    assert "not determined uniquely" in problem.message
