"""Reason codes: each ruling and event names one; its text is rendered from it when read."""

from __future__ import annotations

import datetime
import random
import re
import string
from typing import Any

import pytest

from mhp_cards.game import deal
from mhp_cards.referee import apply, check, judge, legal_actions
from mhp_cards.referee import common as common_module
from mhp_cards.referee import ruling as ruling_module
from mhp_cards.referee.actions import EndTurn, Move, SellRaw
from mhp_cards.referee.reasons import TEMPLATES, TEXTS, render, said
from mhp_cards.validate import load_catalog
from mhp_cards.wording import reading_faults

CATALOG = load_catalog()
LEVELS = [("1", 3), ("2", 2), ("1v1", 2), ("3", 3)]


def _played(level: str, players: int, seed: int, steps: int):
    rng = random.Random(seed)
    state = deal(CATALOG, level, players, seed)
    for _ in range(steps):
        if state.ended:
            return
        listed = legal_actions(state, CATALOG)
        yield state, listed
        state, _ = apply(state, rng.choice(listed), CATALOG)


@pytest.mark.parametrize(("level", "players"), LEVELS)
def test_random_play_renders_no_text(monkeypatch, level: str, players: int) -> None:
    """legal_actions and apply of listed actions never write a reason or an event's text."""

    def fail(code, values):
        raise AssertionError(f"text of {code!r} rendered during play")

    monkeypatch.setattr(ruling_module, "render", fail)
    monkeypatch.setattr(common_module, "render", fail)
    for _ in _played(level, players, seed=7, steps=300):
        pass


@pytest.mark.parametrize(("level", "players"), LEVELS)
def test_every_ruling_and_event_has_a_registered_code_and_both_texts(level, players) -> None:
    seen = set()
    for state, listed in _played(level, players, seed=3, steps=120):
        candidates = [*listed, EndTurn(), SellRaw(card="nothing#1"), Move(path=((0, 0),))]
        for action in candidates:
            outcome = judge(state, action, CATALOG)
            ruling = outcome.ruling
            assert ruling.code in TEXTS
            ru, en = ruling.texts()
            assert ru
            assert en
            assert ru != en
            assert ruling.to_json()["code"] == ruling.code
            for event in outcome.events:
                assert event.code in TEXTS
                assert event.ru
                assert event.en
                assert event.to_json()["code"] == event.code
            seen.add(ruling.code)
    assert len(seen) >= 5


def test_the_text_follows_the_facts() -> None:
    state = deal(CATALOG, "1", 2, 1)
    ruling = check(state, SellRaw(card="nothing#1"), CATALOG)
    assert ruling.code == "sell.not-held"
    assert ruling.reason_en == "The player does not hold nothing#1."
    assert ruling.reason_ru == "У игрока нет карточки nothing#1."


def test_a_code_is_registered_once() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        said("move.already-moved", "x", "y")


def test_an_unknown_code_is_an_internal_error() -> None:
    with pytest.raises(KeyError):
        render("no.such-code", {})


# Every registered text reads without Python reprs (issue 28) -----------------------------------

#: What Python prints and a player does not read: reprs of lists, tuples of text, mappings,
#: None, booleans, dates, sets and objects.
PYTHON_REPR = re.compile(
    r"\['|\[\(|\('|\{'|\bNone\b|\bTrue\b|\bFalse\b|datetime\.|frozenset\(|\bset\(|"
    r"<[\w.]+ object at|\[\d+, \d+\]"
)

#: Values a fact may hold, each tried in every field of every template.
HOSTILE_VALUES: list[Any] = [
    ["water-ice#5", "calcite#1"],
    ("M1", "M2", "M3"),
    ["hematite#2"],
    [],
    None,
    {"red": 3, "blue": 2},
    frozenset({"L1.T1", "L1.T2"}),
    (3, 4),
    [(3, 4), (3, 5)],
    True,
    datetime.date(2026, 12, 5),
    7,
    "H2O",
]

#: Facts for the texts written by a function, as the referee gives them (lists, cells, None).
WRITTEN_SAMPLES: dict[str, list[dict[str, Any]]] = {
    "level.not-here": [
        {"why": "cards.player-lacks", "level": "1", "missing": ["water-ice#5", "calcite#1"]}
    ],
    "event.game-over": [{"code": code} for code in ("mission", "field-empty", "no-progress")],
    "event.move": [
        {"player": "red", "to": (3, 4), "collected": ["water-ice#5", "calcite#1"]},
        {"player": "red", "to": (3, 4), "collected": []},
    ],
    "move.moved": [
        {"path_list": [(3, 4), (3, 5)], "full": True, "capacity": 6, "target": "blue"},
        {"path_list": [(0, 1)], "full": False, "capacity": 6, "target": None},
    ],
    "mission.whole-hand.incomplete": [
        {
            "mission": "M1",
            "held_formula": "C2H4O6",
            "needed_formula": "C2H4O6",
            "missing": {"H": 2},
            "excess": {},
        }
    ],
    "mission.at-least.incomplete": [{"mission": "M1", "missing": {"H": 2, "O": 1}}],
    "mission.incomplete": [
        {
            "mission": "M2",
            "needed_formula": "CH4",
            "closest": "CO2, H2O",
            "missing": {"H": 2},
            "excess_elements": {"O": 3},
        },
        {
            "mission": "M2",
            "needed_formula": "CH4",
            "closest": "—",
            "missing": {},
            "excess_elements": {},
        },
    ],
    "mission.status": [
        {
            "missions": [
                {
                    "mission": "M1",
                    "by_place": [{"holders": ["red", "blue"]}, {"holders": []}],
                    "filled": 2,
                    "places": 3,
                    "complete": False,
                }
            ]
        }
    ],
    "claim.won": [
        {
            "decision": "mission.complete",
            "winner": "red",
            "mission": "M1",
            "name_ru": "Вода",
            "name_en": "Water",
            "formulas": "H2O, H2O",
            "needed_formula": "H4O2",
        }
    ],
    "score.totals": [
        {"totals": {"red": 3, "blue": 2}, "winners": ["red"]},
        {"totals": {"red": 3, "blue": 3}, "winners": ["red", "blue"]},
    ],
    "react.mission-no-place": [
        {"wanted": "M1", "substance": "H2O", "missions": ["M2", "M3"]},
    ],
    "react.run": [
        {"installation": 2, "products": ["H2SO4"], "substances_used": ["SO3", "H2O"]},
        {"installation": 2, "products": ["H2SO4"], "substances_used": []},
    ],
}


def _fields(template: str) -> set[str]:
    return {
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(template)
        if field
    }


def _assert_reads_well(code: str, texts: tuple[str, str], values: Any) -> None:
    """Each text is there, shows no Python repr (words the template itself writes aside) and
    has no sentence cut off at a preposition or "is"."""
    for lang, text, template in zip(
        ("ru", "en"), texts, TEMPLATES.get(code, ("", "")), strict=True
    ):
        assert text.strip(), f"{code} ({lang}) is empty with {values!r}"
        written = {match.group() for match in PYTHON_REPR.finditer(template)}  # "None left"
        for found in PYTHON_REPR.finditer(text):
            assert found.group() in written, (
                f"{code} ({lang}) shows a Python repr {found.group()!r}: {text}"
            )
        cut = [fault for fault in reading_faults(text, written) if "cut off" in fault]
        assert not cut, f"{code} ({lang}): {cut}: {text}"


@pytest.mark.parametrize("code", sorted(TEMPLATES))
def test_every_template_reads_without_python_reprs(code: str) -> None:
    ru, en = TEMPLATES[code]
    fields = _fields(ru) | _fields(en)
    rendered = 0
    for value in HOSTILE_VALUES:
        values = dict.fromkeys(fields, value)
        try:
            texts = render(code, values)
        except (ValueError, TypeError):  # a numeric format ({count:d}) given a list
            continue
        _assert_reads_well(code, texts, values)
        rendered += 1
    assert rendered, f"{code} could be rendered with none of the sample values"


def test_every_text_written_by_a_function_has_samples() -> None:
    assert set(TEXTS) - set(TEMPLATES) == set(WRITTEN_SAMPLES)


@pytest.mark.parametrize("code", sorted(WRITTEN_SAMPLES))
def test_every_written_text_reads_without_python_reprs(code: str) -> None:
    for values in WRITTEN_SAMPLES[code]:
        _assert_reads_well(code, render(code, values), values)


@pytest.mark.parametrize(("level", "players"), LEVELS)
def test_the_texts_of_real_play_read_without_python_reprs(level: str, players: int) -> None:
    for state, listed in _played(level, players, seed=5, steps=150):
        candidates = [*listed, EndTurn(), SellRaw(card="nothing#1"), Move(path=((0, 0),))]
        for action in candidates:
            outcome = judge(state, action, CATALOG)
            _assert_reads_well(outcome.ruling.code, outcome.ruling.texts(), outcome.ruling.facts)
            for event in outcome.events:
                _assert_reads_well(event.code, (event.ru, event.en), event)


def test_the_player_lacks_a_readable_list_of_cards() -> None:
    ru, en = render("cards.player-lacks", {"missing": ["water-ice#5", "calcite#1"]})
    assert en == "The player lacks water-ice#5 and calcite#1."
    assert ru == "У игрока нет water-ice#5 и calcite#1."


def test_the_repr_check_can_fail() -> None:
    with pytest.raises(AssertionError, match="Python repr"):
        _assert_reads_well("x", ("a", "The player lacks ['water-ice#5']"), {})
    with pytest.raises(AssertionError, match="Python repr"):
        _assert_reads_well("x", ("Move through [(3, 4)]", "b"), {})


def test_the_cut_sentence_check_can_fail() -> None:
    with pytest.raises(AssertionError, match="cut off after 'is'"):
        _assert_reads_well("x", ("a", "so that every coefficient is"), {})
    with pytest.raises(AssertionError, match="cut off after 'на'"):
        _assert_reads_well("x", ("Фишка стоит на", "b"), {})
