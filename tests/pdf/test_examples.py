"""The rulebook's worked examples: found in seeded games, and checked by the referee."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from mhp_cards.catalog import Catalog
from mhp_cards.errors import KitError
from mhp_cards.pdf import examples as examples_module
from mhp_cards.pdf.examples import EXAMPLES, find_examples, verify
from mhp_cards.pdf.kit import plan_kit
from mhp_cards.pdf.layout import SheetProfile, Templates
from mhp_cards.referee.actions import Claim, Move, React, ResolveFight, Trade


@pytest.fixture(scope="module")
def found(catalog: Catalog) -> dict[str, Any]:
    examples, problems = find_examples(catalog)
    assert problems == []
    return examples


def test_every_example_is_found_and_ruled_as_the_book_says(
    found: dict[str, Any], catalog: Catalog
) -> None:
    assert list(found) == list(EXAMPLES)
    kinds = {
        "l1-turn": Move,
        "l1-mission": Claim,
        "fight": ResolveFight,
        "l2-reaction": React,
        "trade": Trade,
        "l3-base": React,
    }
    for key, example in found.items():
        assert isinstance(example.action, kinds[key]), key
        assert verify(example, catalog) == [], key


def test_the_reaction_example_shows_the_portion_rule(found: dict[str, Any]) -> None:
    """One card a raw-input container, one token a product container, the piped H₂ none."""
    example = found["l2-reaction"]
    assert len(example.action.cards) == len(example.facts["lays"]) >= 2
    assert example.facts["piped"]  # a substance flows on by pipe and takes no token


def test_a_book_that_says_otherwise_than_the_referee_is_caught(
    found: dict[str, Any], catalog: Catalog
) -> None:
    reaction = found["l2-reaction"]
    wrong = replace(reaction, facts={**reaction.facts, "makes": reaction.facts["lays"]})
    assert any("the book says" in message for message in verify(wrong, catalog))
    turn = found["l1-turn"]
    wrong = replace(turn, facts={"collected": ()})
    assert verify(wrong, catalog)
    mission = found["l1-mission"]
    forbidden = replace(mission, action=Claim(mission=mission.action.mission, cards=()))
    forbidden = replace(forbidden, action=forbidden.action.model_copy(update={"cards": ("x#1",)}))
    assert verify(forbidden, catalog)[0].startswith("the referee forbids it")


def test_an_example_the_referee_rules_otherwise_stops_the_build(
    catalog: Catalog,
    a4: SheetProfile,
    templates: Templates,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        examples_module, "verify", lambda example, catalog: ["the referee forbids it (L1.T1)"]
    )
    with pytest.raises(KitError) as caught:
        plan_kit(catalog, a4, templates, only=["rules"])
    problems = [p for p in caught.value.problems if p.region.startswith("worked example")]
    assert {p.region for p in problems} == {f"worked example {key}" for key in EXAMPLES}


def test_the_examples_are_the_same_every_build(catalog: Catalog, found: dict[str, Any]) -> None:
    catalog.memo("pdf.examples").pop("found", None)  # searched again, not remembered
    again, _ = find_examples(catalog)
    assert {k: (e.seed, e.action) for k, e in again.items()} == {
        k: (e.seed, e.action) for k, e in found.items()
    }
