"""Reason codes: each ruling and event names one; its text is rendered from it when read."""

from __future__ import annotations

import random

import pytest

from mhp_cards.game import deal
from mhp_cards.referee import apply, check, judge, legal_actions
from mhp_cards.referee import common as common_module
from mhp_cards.referee import ruling as ruling_module
from mhp_cards.referee.actions import EndTurn, Move, SellRaw
from mhp_cards.referee.reasons import TEXTS, render, said
from mhp_cards.validate import load_catalog

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
