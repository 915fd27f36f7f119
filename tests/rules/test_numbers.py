"""The numbers of the game, once, and the house rules as named switches."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mhp_cards.errors import HouseRuleError, MhpError
from mhp_cards.rules import load_rulebook
from mhp_cards.rules.numbers import (
    COMBINE_CAPACITY,
    ELECTROLYSERS,
    HOUSE_RULES,
    UPGRADE_PRICE,
    WAREHOUSE_PRICE,
    HouseRules,
)

PACKAGE = Path(__file__).resolve().parents[2] / "mhp_cards"


def test_the_house_rules_are_those_of_the_rulebook() -> None:
    assert set(HOUSE_RULES) == {house.id for house in load_rulebook().house_rules}


def test_switches_from_names_and_back() -> None:
    rules = HouseRules.from_names(["armour-sum", "whole-hand", "diagonal-adjacency"])
    assert rules.armour_sum
    assert rules.diagonal_adjacency
    assert not rules.deal_evenly
    assert rules.mission_match == "whole-hand"
    assert rules.names() == ("diagonal-adjacency", "armour-sum", "whole-hand")
    assert "whole-hand" in rules
    assert "at-least" not in rules
    assert HouseRules.model_validate(list(rules.names())) == rules


def test_no_house_rule_is_the_default_game() -> None:
    rules = HouseRules()
    assert not rules
    assert rules.names() == ()
    assert rules.mission_match == "exact-subset"
    assert HouseRules.from_names(["exact-subset"]) == rules


def test_an_unknown_house_rule_is_named_with_the_known_ones() -> None:
    with pytest.raises(HouseRuleError, match="no-such-rule; known: diagonal-adjacency") as caught:
        HouseRules.from_names(["no-such-rule"])
    assert isinstance(caught.value, MhpError)


def test_two_ways_of_matching_a_mission_exclude_each_other() -> None:
    with pytest.raises(HouseRuleError, match="at-least and whole-hand exclude each other"):
        HouseRules.from_names(["whole-hand", "at-least"])


def test_house_rules_are_frozen() -> None:
    rules = HouseRules()
    with pytest.raises(ValueError, match="frozen"):
        rules.armour_sum = True  # type: ignore[misc]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("COMBINE_CAPACITY", COMBINE_CAPACITY),
        ("WAREHOUSE_PRICE", WAREHOUSE_PRICE),
        ("UPGRADE_PRICE", UPGRADE_PRICE),
        ("ELECTROLYSERS", ELECTROLYSERS),
    ],
)
def test_each_number_is_defined_once_in_the_package(name: str, value: int) -> None:
    definition = re.compile(rf"^\s*[A-Z_0-9]+\s*(?::\s*Final)?\s*=\s*{value}\s*$", re.M)
    places = [
        (path.relative_to(PACKAGE).as_posix(), match.group(0).strip())
        for path in PACKAGE.rglob("*.py")
        for match in definition.finditer(path.read_text(encoding="utf-8"))
    ]
    ours = [place for place in places if place[1].startswith(name)]
    assert ours == [("rules/numbers.py", ours[0][1])]
    # No other module gives the same number a name of its own.
    others = [place for place in places if place[0] != "rules/numbers.py"]
    assert others == []
