"""Russian as players say it: colour names by case, counts by CLDR's plural rule (issue 27)."""

from __future__ import annotations

import random
import re

import pytest

from mhp_cards.game import deal
from mhp_cards.referee import apply, judge, legal_actions
from mhp_cards.referee.actions import EndTurn
from mhp_cards.referee.reasons import render
from mhp_cards.referee.words import CASES, counted, declensions, declined, plural_form
from mhp_cards.validate import load_catalog

CATALOG = load_catalog()

#: The five colours of the box in every case, as a Russian grammar declines them.
EXPECTED = {
    "Красный": ("Красный", "Красного", "Красному", "Красного", "Красным", "Красном"),
    "Синий": ("Синий", "Синего", "Синему", "Синего", "Синим", "Синем"),
    "Зелёный": ("Зелёный", "Зелёного", "Зелёному", "Зелёного", "Зелёным", "Зелёном"),
    "Жёлтый": ("Жёлтый", "Жёлтого", "Жёлтому", "Жёлтого", "Жёлтым", "Жёлтом"),
    "Чёрный": ("Чёрный", "Чёрного", "Чёрному", "Чёрного", "Чёрным", "Чёрном"),
    # Names a designer may give: a soft, a velar, a hissing and a stressed -ой stem.
    "Голубой": ("Голубой", "Голубого", "Голубому", "Голубого", "Голубым", "Голубом"),
    "Жаркий": ("Жаркий", "Жаркого", "Жаркому", "Жаркого", "Жарким", "Жарком"),
    "Свежий": ("Свежий", "Свежего", "Свежему", "Свежего", "Свежим", "Свежем"),
    "Индиго": ("Индиго",) * 6,
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_colour_name_declines_as_an_adjective_used_as_a_noun(name: str) -> None:
    assert tuple(declensions(name)[case] for case in CASES) == EXPECTED[name]


def test_the_box_colours_are_all_declined() -> None:
    for colour in CATALOG.components.colours:
        assert colour.name.ru in EXPECTED
        assert declined(colour.name.ru, "ins") != colour.name.ru


#: CLDR's plural categories for Russian integers, written out from its examples.
ONE = {1, 21, 31, 41, 101, 121, 1001}
FEW = {2, 3, 4, 22, 23, 24, 32, 102, 104, 1002}
MANY = {0, 5, 6, 10, 11, 12, 13, 14, 15, 19, 20, 25, 100, 111, 112, 114, 1000}


@pytest.mark.parametrize(("numbers", "form"), [(ONE, 0), (FEW, 1), (MANY, 2)])
def test_plural_forms_follow_cldr(numbers: set[int], form: int) -> None:
    assert {n: plural_form(n) for n in numbers} == dict.fromkeys(numbers, form)


def test_counted_writes_the_noun_in_its_form() -> None:
    forms = ("фишка", "фишки", "фишек")
    assert [counted(n, forms) for n in (1, 2, 4, 5, 11, 21, 22)] == [
        "1 фишка",
        "2 фишки",
        "4 фишки",
        "5 фишек",
        "11 фишек",
        "21 фишка",
        "22 фишки",
    ]


# The referee's sentences (the examples) ----------------------------------------------


def test_whose_turn_it_is_names_the_player_not_the_colour_id() -> None:
    ru, en = render("end.turn-over", {"next": "red"})
    assert ru == "Ход закончен; ходит Красный."
    assert en == "Turn over; Red plays next."
    assert render("event.next", {"next": "blue"})[0] == "Ход переходит к Синему."


def test_a_trade_and_an_attack_decline_the_partner() -> None:
    made = {"partner": "red", "gave": ["water-ice#1"], "got": [], "pay": 2}
    assert render("trade.made", made)[0].startswith("Сделка с Красным:")
    attack = render("event.attack", {"player": "blue", "defender": "red"})
    assert attack[0] == "Синий нападает на Красного: «Напал!»"
    assert attack[1] == "Blue attacks Red: “Напал!”"


def test_counts_take_their_form() -> None:
    assert render("fight.winner-full", {"room": 1})[0].endswith("ещё 1 карточка.")
    assert render("fight.winner-full", {"room": 3})[0].endswith("ещё 3 карточки.")
    assert render("fight.winner-full", {"room": 1})[1].endswith("room for 1 more card.")


def test_an_action_to_type_keeps_the_colour_id() -> None:
    ru, en = render("trade.sale-is-freeing", {"place": "1:1Б:1", "partner": "blue", "price": 2})
    assert "«free 1:1Б:1 to blue 2»" in ru
    assert "'free 1:1Б:1 to blue 2'" in en


COLOUR_ID = re.compile(r"\b(red|blue|green|yellow|black)\b")


@pytest.mark.parametrize(("level", "players"), [("1", 3), ("2", 4), ("3", 5)])
def test_real_play_writes_no_colour_id_in_a_russian_sentence(level: str, players: int) -> None:
    """Outside «…» (an action to type), no Russian text names a player by its colour ID."""
    rng = random.Random(3)
    state = deal(CATALOG, level, players, 3)
    seen = 0
    for _ in range(200):
        if state.ended:
            break
        listed = legal_actions(state, CATALOG)
        for action in [*listed[:12], EndTurn()]:
            outcome = judge(state, action, CATALOG)
            texts = [outcome.ruling.texts()[0], *(event.ru for event in outcome.events)]
            for text in texts:
                outside_quotes = re.sub(r"«[^»]*»", "", text)
                assert not COLOUR_ID.search(outside_quotes), text
                seen += 1
        state, _ = apply(state, rng.choice(listed), CATALOG)
    assert seen > 100
