"""The rulebook data (mhp_cards/rules/rules.yaml) against RULES.md, and its loader."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
import yaml

from mhp_cards.rules.rulebook import (
    AID_SUMMARY_LIMIT,
    LANGS,
    LEVELS,
    HouseRule,
    Rule,
    Rulebook,
    RulebookError,
    load_rulebook,
    parse_rulebook,
    read_rulebook,
)

REPO = Path(__file__).resolve().parents[2]
YAML_PATH = REPO / "mhp_cards" / "rules" / "rules.yaml"

# RULES.md lives outside the package, in the project's shared folder beside the repository;
# MHP_RULES_MD names another copy.
_CANDIDATES = [os.environ.get("MHP_RULES_MD", ""), str(REPO.parent / "shared" / "RULES.md")]
RULES_MD = next((Path(p) for p in _CANDIDATES if p and Path(p).is_file()), None)

CYRILLIC = re.compile(r"[\u0400-\u04FF]")
RULE_ID = re.compile(r"\b(?:L[123]\.[STEPM]\d+|V1\.P?\d+)\b")
NAMED_RULING = re.compile(r"Ruling\s+((?:L[123]|V1)\.[A-Z]\d+-[a-z][a-z-]*)")
HOUSE_RULE = re.compile(r"`([a-z]+(?:-[a-z]+)+)`")

# The rule IDs of RULES.md, spelled out, so that the check holds without the file too.
EXPECTED_RULES = (
    [f"L1.S{n}" for n in range(1, 6)]
    + [f"L1.T{n}" for n in range(1, 10)]
    + [f"L1.E{n}" for n in range(1, 4)]
    + [f"L2.S{n}" for n in range(1, 8)]
    + [f"L2.T{n}" for n in range(1, 7)]
    + ["L2.M1", "L2.E1", "L2.P1"]
    + [f"V1.{n}" for n in range(1, 6)]
    + ["V1.P1"]
    + [f"L3.S{n}" for n in range(1, 6)]
    + [f"L3.T{n}" for n in range(1, 6)]
    + ["L3.E1", "L3.P1"]
)
EXPECTED_HOUSE_RULES = {
    "diagonal-adjacency",
    "armour-sum",
    "exact-subset",
    "whole-hand",
    "at-least",
    "deal-evenly",
    "battery-exactly-two",
}
#: The literal readings the faithful-play rulings added (RULES.md: "where a ruling departs
#: from the literal original, the literal reading is a named house rule").
LITERAL_HOUSE_RULES = {
    "sale-counts-once",
    "bank-takes-the-rest",
    "any-installation",
    "run-or-discard",
    "mission-end-only",
    "ends-at-once",
    "quiet-round-ends",
    "every-upgrade",
    "first-move-as-found",
    "installation-at-random",
    "draw-one",
    "eight-tokens",
    "sell-when-out",
    "equal-coins",
}
LEVEL_OF_PREFIX = {"L1": "1", "L2": "2", "V1": "1v1", "L3": "3"}


@pytest.fixture(scope="module")
def book() -> Rulebook:
    return load_rulebook()


@pytest.fixture(scope="module")
def rules_md() -> str:
    if RULES_MD is None:
        if os.environ.get("CI"):
            pytest.fail("RULES.md not found beside the repository (../shared/RULES.md)")
        pytest.skip("RULES.md not found (set MHP_RULES_MD to its path)")
    return RULES_MD.read_text(encoding="utf-8")


def all_entries(book: Rulebook) -> list[Rule | HouseRule]:
    return [*book.rules, *book.house_rules]


# ------------------------------------------------------------------ completeness against RULES.md


def test_every_rule_id_mentioned_in_rules_md_is_present(book: Rulebook, rules_md: str) -> None:
    mentioned = set(RULE_ID.findall(rules_md))
    assert mentioned, "the ID pattern found nothing in RULES.md"
    assert sorted(mentioned - set(book.ids)) == []


def test_rules_are_exactly_the_bold_ids_of_rules_md(book: Rulebook, rules_md: str) -> None:
    defined = re.findall(r"\*\*((?:L[123]|V1)\.[A-Z0-9]+)\*\*", rules_md)
    base = [rule.id for rule in book.rules if not rule.is_ruling]
    assert base == defined  # same rules, same order, no extras


def test_named_rulings_of_rules_md_are_present(book: Rulebook, rules_md: str) -> None:
    named = set(NAMED_RULING.findall(rules_md))
    assert "L1.S3-count" in named
    for ruling_id in named:
        assert book.rule(ruling_id).ruling_for == ruling_id.split("-")[0]


def test_house_rules_of_rules_md_are_present(book: Rulebook, rules_md: str) -> None:
    mentioned = set(HOUSE_RULE.findall(rules_md))
    assert mentioned == EXPECTED_HOUSE_RULES
    assert {house.id for house in book.house_rules} == mentioned | LITERAL_HOUSE_RULES


def test_the_rulings_for_faithful_play_are_present(book: Rulebook, rules_md: str) -> None:
    section = rules_md.split("## Rulings for faithful play", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"\*\*((?:L[123]\.[A-Z]\d+|V1\.\d+)-[a-z][a-z-]*)\*\*", section)
    assert named == ["L2.T4-portion", "L2.T4-transit"]
    for ruling_id in named:
        assert book.rule(ruling_id).ruling_for == ruling_id.split("-")[0], ruling_id


def test_every_departure_from_the_original_has_its_literal_house_rule(book: Rulebook) -> None:
    """Rulings that add to or change the original's words keep the literal reading switchable."""
    replaced = {house.replaces for house in book.house_rules}
    for ruling in (
        "L1.T1.R1",
        "L1.T2-two-cards",
        "L1.T3-up-to-two",
        "L1.T6.R1",
        "L2.S2.R1",
        "L2.S7.R1",
        "L2.T2-one-trade",
        "V1.2-runnable",
        "V1.3.R1",
        "V1.4-sell",
        "L2.S7-fifth",
        "L3.E1-no-progress",
    ):
        assert ruling in replaced, ruling


def test_the_rulings_for_sound_play_are_present(book: Rulebook, rules_md: str) -> None:
    section = rules_md.split("## Rulings for sound play", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"\*\*((?:L[123]\.[A-Z]\d+|V1\.\d+)-[a-z][a-z-]*)\*\*", section)
    assert len(named) == 6
    for ruling_id in named:
        assert book.rule(ruling_id).ruling_for == ruling_id.split("-")[0], ruling_id


def test_expected_rule_ids_without_rules_md(book: Rulebook) -> None:
    assert [rule.id for rule in book.rules if not rule.is_ruling] == EXPECTED_RULES
    assert {house.id for house in book.house_rules} == EXPECTED_HOUSE_RULES | LITERAL_HOUSE_RULES
    assert "L1.S3-count" in book


def test_entry_counts(book: Rulebook) -> None:
    rulings = [rule for rule in book.rules if rule.is_ruling]
    assert len(book.rules) - len(rulings) == 51
    assert len(rulings) == 49  # with L2.E1-round, L1.T6.R2, L1.T2-two-cards, V1.2-choose,
    # V1.3-draw-two, L2.S7-two, V1.4-sell and L2.S7-fifth
    assert len(book.house_rules) == 21  # with ends-at-once, quiet-round-ends, every-upgrade,
    # first-move-as-found, installation-at-random, draw-one, eight-tokens, sell-when-out,
    # equal-coins


# ------------------------------------------------------------------ shape of every entry


def test_every_entry_has_titles_and_texts_in_both_languages(book: Rulebook) -> None:
    for entry in all_entries(book):
        for lang in LANGS:
            assert entry.title[lang].strip(), (entry.id, "title", lang)
            assert entry.text[lang].strip(), (entry.id, "text", lang)


def test_russian_is_cyrillic_and_english_is_not(book: Rulebook) -> None:
    for entry in all_entries(book):
        for field in ("title", "text"):
            texts = getattr(entry, field)
            assert CYRILLIC.search(texts["ru"]), (entry.id, field, "ru")
            assert not CYRILLIC.search(texts["en"]), (entry.id, field, "en", texts["en"])


def test_russian_uses_guillemets_and_the_coin_sign(book: Rulebook) -> None:
    for entry in all_entries(book):
        assert '"' not in entry.text["ru"], entry.id
        assert "mR" not in entry.text["ru"], entry.id
    assert "4 мР" in book.rule("L1.T3").text["ru"]
    assert "4 mR" in book.rule("L1.T3").text["en"]


def test_levels_and_sections(book: Rulebook) -> None:
    for rule in book.rules:
        assert rule.level == LEVEL_OF_PREFIX[rule.id[:2]], rule.id
        assert rule.level in LEVELS
    for rule in book.rules:
        if rule.is_ruling:
            continue
        letter = rule.id.split(".")[1][0]
        expected = {"S": {"setup"}, "T": {"turn"}, "M": {"mission"}, "P": {"scoring"}}
        expected["E"] = {"end", "scoring"}
        if rule.id.startswith("V1.") and letter.isdigit():
            continue
        assert rule.section in expected[letter], rule.id


def test_refs_point_to_existing_ids(book: Rulebook) -> None:
    for rule in book.rules:
        for ref in rule.refs:
            assert ref in book, (rule.id, ref)
            assert ref != rule.id, rule.id


def test_level_3_builds_on_levels_1_and_2(book: Rulebook) -> None:
    assert book.rule("L3.T1").refs == tuple(f"L1.T{n}" for n in range(1, 7))
    assert set(book.rule("L3.S5").refs) >= {f"L2.S{n}" for n in range(1, 6)}
    assert book.rule("L3.P1").refs == ("L2.P1",)
    assert book.rule("V1.P1").refs == ("L2.P1",)


def test_ids_quoted_in_texts_exist(book: Rulebook) -> None:
    for rule in book.rules:
        for lang in LANGS:
            for quoted in RULE_ID.findall(rule.text[lang]):
                assert quoted in book, (rule.id, lang, quoted)


def test_rulings(book: Rulebook) -> None:
    for rule in book.rules:
        if not rule.is_ruling:
            assert re.fullmatch(r"(?:L[123]|V1)\.(?:[STEPM]\d+|P?\d+)", rule.id), rule.id
            continue
        target = book.rule(rule.ruling_for or "")
        assert not target.is_ruling, rule.id
        assert rule.level == target.level, rule.id
        assert re.fullmatch(rf"{re.escape(target.id)}(?:\.R\d+|-[a-z][a-z-]*)", rule.id), rule.id
        assert target.id in rule.refs, rule.id
    assert [r.id for r in book.rulings_for("L1.T4")] == [f"L1.T4.R{n}" for n in range(1, 5)]
    assert [r.id for r in book.rulings_for("L1.T3")] == ["L1.T3-up-to-two"]


def test_rulings_follow_their_rule_in_file_order(book: Rulebook) -> None:
    position = {rule.id: index for index, rule in enumerate(book.rules)}
    for rule in book.rules:
        if rule.is_ruling:
            assert position[rule.id] > position[rule.ruling_for or ""], rule.id


def test_house_rules(book: Rulebook) -> None:
    for house in book.house_rules:
        assert house.ruling_for in book, house.id
        assert not book.rule(house.ruling_for or "").is_ruling
        if house.replaces is not None:
            assert house.replaces in book, house.id
    defaults = [house.id for house in book.house_rules if house.default]
    assert defaults == ["exact-subset"]
    assert book.house_rule("exact-subset").replaces is None
    assert book.house_rule("whole-hand").replaces == "exact-subset"
    assert book.house_rule("at-least").replaces == "exact-subset"
    assert book.house_rule("diagonal-adjacency").replaces == "L1.T1.R1"
    assert book.house_rule("armour-sum").replaces == "L1.T6.R1"
    assert book.house_rule("deal-evenly").replaces == "L2.S2.R1"
    assert [h.id for h in book.house_rules_for("L1.E1")] == [
        "exact-subset",
        "whole-hand",
        "at-least",
    ]


def test_every_house_rule_is_named_in_a_ruling_on_its_rule(book: Rulebook) -> None:
    for house in book.house_rules:
        rulings = book.rulings_for(house.ruling_for or "")
        naming = [r.id for r in rulings if house.id in r.text["en"] and house.id in r.text["ru"]]
        assert naming, house.id


# ------------------------------------------------------------------ player aids


def test_player_aids(book: Rulebook) -> None:
    assert book.aid_levels == LEVELS
    for level in LEVELS:
        lines = book.player_aid(level)
        assert 8 <= len(lines) <= 16, level
        ids = [rule.id for rule, _ in lines]
        assert len(ids) == len(set(ids)), level
        for rule, summary in lines:
            assert rule.id in book
            for lang in LANGS:
                assert summary[lang].strip(), (level, rule.id, lang)
                assert len(summary[lang]) <= AID_SUMMARY_LIMIT == 70, (level, rule.id, lang)
            assert CYRILLIC.search(summary["ru"]), (level, rule.id)
            assert not CYRILLIC.search(summary["en"]), (level, rule.id)


def test_player_aid_covers_setup_turn_and_end(book: Rulebook) -> None:
    for level in LEVELS:
        sections = {rule.section for rule, _ in book.player_aid(level)}
        assert "turn" in sections, level
        assert sections & {"end", "scoring"}, level


def test_player_aid_accepts_int_levels(book: Rulebook) -> None:
    assert book.player_aid(1) == book.player_aid("1")
    with pytest.raises(KeyError, match="1v1"):
        book.player_aid(4)


def test_raw_yaml_aid_levels_are_the_four_levels() -> None:
    data = yaml.safe_load(YAML_PATH.read_text(encoding="utf-8"))
    assert {str(level) for level in data["player_aids"]} == set(LEVELS)


# ------------------------------------------------------------------ loader


def test_quote(book: Rulebook) -> None:
    quote = book.rule("L1.T4").quote("en")
    assert quote.startswith("L1.T4 — Attack: ")
    assert book.rule("L1.T4").quote("ru").startswith("L1.T4 — Нападение: ")
    assert book.house_rule("armour-sum").quote("en").startswith("armour-sum — ")
    with pytest.raises(ValueError, match="unknown language"):
        book.rule("L1.T4").quote("de")


def test_typo_raises_key_error_naming_close_ids(book: Rulebook) -> None:
    with pytest.raises(KeyError, match=r"L1\.T44.*did you mean.*L1\.T4") as caught:
        book.rule("L1.T44")
    assert "L1.T4" in str(caught.value)


def test_unknown_id_without_close_match(book: Rulebook) -> None:
    with pytest.raises(KeyError, match="no rule 'zzz'"):
        book.rule("zzz")


def test_case_typo_is_suggested(book: Rulebook) -> None:
    with pytest.raises(KeyError, match=r"L2\.M1"):
        book.rule("l2.m1")


def test_house_rule_asked_as_rule(book: Rulebook) -> None:
    with pytest.raises(KeyError, match="house_rule"):
        book.rule("armour-sum")
    with pytest.raises(KeyError, match="whole-hand"):
        book.house_rule("whole-hands")


def test_load_is_cached_and_rules_are_frozen(book: Rulebook) -> None:
    assert load_rulebook() is book
    rule = book.rule("L1.T1")
    with pytest.raises(AttributeError):
        rule.id = "X"  # type: ignore[misc]
    with pytest.raises(TypeError):
        rule.title["en"] = "X"  # type: ignore[index]
    assert hash(rule) == hash(book.rule("L1.T1"))


def test_read_rulebook_from_path_matches_packaged() -> None:
    other = read_rulebook(YAML_PATH)
    assert other.ids == load_rulebook().ids


def _minimal() -> dict:
    return {
        "rules": [
            {
                "id": "L1.T1",
                "level": 1,
                "section": "turn",
                "title": {"ru": "Ход", "en": "Move"},
                "text": {"ru": "Текст.", "en": "Text."},
                "refs": [],
            }
        ],
        "house_rules": [],
        "player_aids": {},
    }


def test_parse_minimal() -> None:
    book = parse_rulebook(_minimal())
    assert book.rule("L1.T1").level == "1"
    assert len(book) == 1


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["rules"].append(dict(d["rules"][0])), "duplicate rule id"),
        (lambda d: d["rules"][0].update(refs=["L9.X1"]), "unknown id 'L9.X1'"),
        (lambda d: d["rules"][0].update(ruling_for="L1.T2"), "unknown rule 'L1.T2'"),
        (lambda d: d["rules"][0].update(level=7), "level 7"),
        (lambda d: d["rules"][0].update(section="lunch"), "section 'lunch'"),
        (lambda d: d["rules"][0]["text"].update(en=""), "'en' must be a non-empty string"),
        (lambda d: d["rules"][0]["title"].pop("ru"), "'ru' must be a non-empty string"),
        (
            lambda d: d["player_aids"].update(
                {1: [{"id": "L1.T1", "summary": {"ru": "ы" * 71, "en": "x"}}]}
            ),
            "71 characters",
        ),
        (
            lambda d: d["player_aids"].update(
                {1: [{"id": "L1.T9", "summary": {"ru": "ы", "en": "x"}}]}
            ),
            "unknown rule id",
        ),
        (
            lambda d: d["player_aids"].update(
                {1: [{"id": "L1.T1", "summary": {"ru": "Отложи {removd}", "en": "x"}}]}
            ),
            "unknown count(s) removd; known: removed, field, warehouse",
        ),
        (
            lambda d: d["player_aids"].update(
                {1: [{"id": "L1.T1", "summary": {"ru": "ы", "en": "a { b"}}]}
            ),
            "(a lone { or })",
        ),
    ],
)
def test_parse_rejects_broken_data(mutate, message: str) -> None:
    data = _minimal()
    mutate(data)
    with pytest.raises(RulebookError, match=re.escape(message)):
        parse_rulebook(data)
