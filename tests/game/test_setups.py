"""The setup validator: what the box must hold for each level, rule by rule.

Expected values are recomputed here from RULES.md (L1.S1, L1.S3, L3.S2, L2.S1, L2.S2, L2.S7,
V1.1–V1.2) by brute force, not read from mhp_cards.game.setups.
"""

from __future__ import annotations

import pytest

from mhp_cards.catalog import Catalog
from mhp_cards.game.setups import check_setup, raw_deck_range, removal_options
from mhp_cards.rules.numbers import LEVELS
from mhp_cards.rules.rulebook import load_rulebook
from mhp_cards.validate import load_catalog

# The rules' numbers.
REMOVABLE = range(8, 13)  # L1.S1
MIN_FIELD = 60  # L1.S1
WAREHOUSE_L1 = (4, 8)  # L1.S3
WAREHOUSE_L3 = (8, 12)  # L3.S2

LEVEL_PLAYERS = [
    *(("1", n) for n in range(2, 6)),
    *(("2", n) for n in range(2, 6)),
    ("1v1", 2),
    *(("3", n) for n in range(2, 6)),
]
RULES_OF_LEVEL = {
    "1": {"L1.S1", "L1.S3", "L1.S4", "L1.S5"},
    "2": {"L2.S1", "L2.S2", "L2.S6", "L2.S7"},
    "1v1": {"L2.S1", "V1.2", "V1.2-runnable", "L2.S6", "L2.S7"},
    "3": {"L3.S1", "L3.S2", "L3.S3", "L3.S4", "L2.S1", "L2.S2", "L3.S5"},
}


def rules_of(level: str, players: int) -> set[str]:
    """The rules a checklist cites: with two players at levels 2 and 3 the tokens line cites
    Ruling L2.S7-two (10 each) instead of L2.S7 or L3.S5 (L2.S7 still counts the coins)."""
    rules = set(RULES_OF_LEVEL[level])
    if players == 2 and level in ("2", "3"):
        rules = (rules - {"L3.S5"}) | {"L2.S7-two"}
    return rules


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def brute_force_removals(fate: int, raw: int, warehouse: tuple[int, int]) -> list[int]:
    """Lay out the table for every number of Fate cards set aside and keep the legal ones."""
    legal = []
    for removed in range(fate + 1):
        field = fate - removed
        left_for_warehouse = raw - min(raw, field)
        every_cell_covered = raw >= field
        if (
            removed in REMOVABLE
            and field >= MIN_FIELD
            and every_cell_covered
            and warehouse[0] <= left_for_warehouse <= warehouse[1]
        ):
            legal.append(removed)
    return legal


def with_components(catalog: Catalog, **counts: int) -> Catalog:
    """The catalog with some component counts changed (``fate_cards=60``, ``coins=45``)."""
    components = catalog.components
    update = {
        name: getattr(components, name).model_copy(update={"count": count})
        for name, count in counts.items()
    }
    return catalog.model_copy(update={"components": components.model_copy(update=update)})


def item(check, rule: str):
    matches = [entry for entry in check.items if entry.rule == rule]
    assert len(matches) == 1, f"{rule}: {[entry.rule for entry in check.items]}"
    return matches[0]


# --- removal_options and raw_deck_range -----------------------------------------------------------


@pytest.mark.parametrize("warehouse", [WAREHOUSE_L1, WAREHOUSE_L3, (0, 0), (3, 3), (0, 20)])
def test_removal_options_against_brute_force(warehouse: tuple[int, int]) -> None:
    for fate in range(55, 90):
        for raw in range(40, 110):
            expected = brute_force_removals(fate, raw, warehouse)
            assert removal_options(fate, raw, warehouse) == expected, (fate, raw)


@pytest.mark.parametrize(
    ("fate", "raw", "warehouse", "expected"),
    [
        (72, 70, WAREHOUSE_L1, [8, 9, 10]),  # Warehouse = removed - 2
        (72, 70, WAREHOUSE_L3, [10, 11, 12]),
        (68, 64, WAREHOUSE_L1, [8]),  # field 60, Warehouse 4
        (68, 69, WAREHOUSE_L1, []),  # field 60 leaves 9
        (67, 70, WAREHOUSE_L1, []),  # fewer than 68 Fate cards: never 60 left
        (80, 76, WAREHOUSE_L1, [8, 9, 10, 11, 12]),
        (80, 80, WAREHOUSE_L3, [8, 9, 10, 11, 12]),
    ],
)
def test_removal_options_by_hand(fate, raw, warehouse, expected) -> None:
    assert removal_options(fate, raw, warehouse) == expected


def test_removal_options_of_the_default_box(catalog: Catalog) -> None:
    fate = catalog.components.fate_cards.count
    raw = catalog.raw_deck_size
    # 72 raw cards on 72 - r Fate cards: the Warehouse gets r, so level 1 (4..8) allows only
    # r = 8 and level 3 (8..12) every r of L1.S1.
    assert removal_options(fate, raw, WAREHOUSE_L1) == [8]
    assert removal_options(fate, raw, WAREHOUSE_L3) == [8, 9, 10, 11, 12]


@pytest.mark.parametrize("warehouse", [WAREHOUSE_L1, WAREHOUSE_L3, (0, 0), (5, 30)])
def test_raw_deck_range_against_brute_force(warehouse: tuple[int, int]) -> None:
    for fate in range(50, 100):
        workable = [raw for raw in range(0, 200) if brute_force_removals(fate, raw, warehouse)]
        expected = (min(workable), max(workable)) if workable else None
        assert raw_deck_range(fate, warehouse) == expected, fate


def test_raw_deck_range_closed_form() -> None:
    # At least 68 Fate cards: remove r in 8..min(12, fate-60); raw = fate - r + Warehouse.
    assert raw_deck_range(72, WAREHOUSE_L1) == (72 - 12 + 4, 72 - 8 + 8)
    assert raw_deck_range(72, WAREHOUSE_L3) == (72 - 12 + 8, 72 - 8 + 12)
    assert raw_deck_range(68, WAREHOUSE_L1) == (64, 68)
    assert raw_deck_range(67, WAREHOUSE_L1) is None


# --- check_setup on the default box ---------------------------------------------------------------


@pytest.mark.parametrize(("level", "players"), LEVEL_PLAYERS)
def test_default_box_allows_every_setup(catalog: Catalog, level: str, players: int) -> None:
    check = check_setup(catalog, level, players)
    assert check.level == level
    assert check.players == players
    assert check.is_valid(), [(i.rule, i.text) for i in check.failures]
    assert check.failures == ()
    assert {entry.rule for entry in check.items} == rules_of(level, players)


def test_levels_are_the_four_of_the_rules() -> None:
    assert set(LEVELS) == {"1", "2", "1v1", "3"}


def test_default_box_level1_facts(catalog: Catalog) -> None:
    check = check_setup(catalog, "1", 3)
    assert "72 Fate cards" in item(check, "L1.S1").text
    s3 = item(check, "L1.S3").text
    # 72 raw cards: removing 8 leaves field 64 and Warehouse 8; removing 9 would leave 9.
    assert "72 raw cards" in s3
    assert "remove 8 → field 64, Warehouse 8" in s3
    assert "remove 9" not in s3


def test_default_box_level2_facts(catalog: Catalog) -> None:
    check = check_setup(catalog, "2", 3)
    assert "10 main-part cards for 3 players; 7 installation(s) shared" in item(check, "L2.S2").text
    coins = [entry for entry in check.items if entry.rule == "L2.S7" and "coins" in entry.text]
    assert len(coins) == 1
    assert "8 × 3 players + 10 for the Bank = 34" in coins[0].text


@pytest.mark.parametrize(
    ("level", "players"), [("1v1", 3), ("1v1", 1), ("1", 1), ("1", 6), ("2", 6), ("3", 0)]
)
def test_wrong_number_of_players_fails(catalog: Catalog, level: str, players: int) -> None:
    check = check_setup(catalog, level, players)
    assert not check.is_valid()
    assert any(str(players) in entry.text for entry in check.failures)
    if level == "1v1":
        assert "V1.1" in {entry.rule for entry in check.failures}


@pytest.mark.parametrize(("level", "players"), [("1", 6), ("2", 1)])
def test_player_count_failure_cites_a_real_rule(catalog, level: str, players: int) -> None:
    rulebook = load_rulebook()
    for entry in check_setup(catalog, level, players).items:
        assert entry.rule in rulebook, entry.rule


@pytest.mark.parametrize(("level", "players"), LEVEL_PLAYERS)
def test_every_cited_rule_exists(catalog: Catalog, level: str, players: int) -> None:
    rulebook = load_rulebook()
    for entry in check_setup(catalog, level, players).items:
        assert entry.rule in rulebook, entry.rule


# --- check_setup on modified boxes ----------------------------------------------------------------


@pytest.mark.parametrize("level", ["1", "3"])
def test_sixty_fate_cards_fail(catalog: Catalog, level: str) -> None:
    check = check_setup(with_components(catalog, fate_cards=60), level, 3)
    assert not check.is_valid()
    s1 = item(check, "L1.S1" if level == "1" else "L3.S1")
    assert not s1.ok
    assert "at least 68" in s1.hint
    assert s1.subject == ("components", "fate_cards", "count")
    s3 = item(check, "L1.S3" if level == "1" else "L3.S2")
    assert not s3.ok
    # The fix is a Fate count (both bounds, for this raw deck), blamed on its own line.
    fates = "72–80" if level == "1" else "68–76"
    assert f"with 72 raw cards give the box {fates} Fate cards" in s3.hint
    assert s3.subject == ("components", "fate_cards", "count")


@pytest.mark.parametrize("level", ["2", "1v1"])
def test_sixty_fate_cards_do_not_matter_at_level_2(catalog: Catalog, level: str) -> None:
    assert check_setup(with_components(catalog, fate_cards=60), level, 2).is_valid()


def test_sixty_eight_fate_cards_need_a_smaller_deck(catalog: Catalog) -> None:
    """68 Fate cards: only 8 may go, the field is 60, so 72 raw cards leave 12 — too many for
    level 1 (4..8); the deck would need 64..68 cards. Level 3 (8..12) is fine."""
    check = check_setup(with_components(catalog, fate_cards=68), "1", 3)
    assert item(check, "L1.S1").ok
    s3 = item(check, "L1.S3")
    assert not s3.ok
    assert "64–68" in s3.hint
    assert check_setup(with_components(catalog, fate_cards=68), "3", 3).is_valid()


@pytest.mark.parametrize(("level", "players"), [("2", 5), ("3", 5)])
def test_four_main_cards_for_five_players_fail(catalog: Catalog, level: str, players: int) -> None:
    small = catalog.model_copy(update={"installations": catalog.installations[:4]})
    check = check_setup(small, level, players)
    assert not check.is_valid()
    assert [entry.rule for entry in check.failures] == ["L2.S2"]
    assert "at least 5" in item(check, "L2.S2").hint
    assert check_setup(small, level, 4).is_valid()


def test_head_to_head_needs_two_main_cards(catalog: Catalog) -> None:
    one = catalog.model_copy(update={"installations": catalog.installations[:1]})
    check = check_setup(one, "1v1", 2)
    assert [entry.rule for entry in check.failures] == ["V1.2", "V1.2-runnable"]
    two = catalog.model_copy(update={"installations": catalog.installations[:2]})
    assert check_setup(two, "1v1", 2).is_valid()


@pytest.mark.parametrize(("level", "players"), [*(("2", n) for n in range(2, 6)), ("1v1", 2)])
def test_coins_for_level_2(catalog: Catalog, level: str, players: int) -> None:
    needed = 8 * players + 10  # L2.S7: 8 each and 10 for the Bank
    for coins in (needed - 1, needed, 50):
        check = check_setup(with_components(catalog, coins=coins), level, players)
        ok = coins >= needed
        assert check.is_valid() == ok, (coins, needed)
        if not ok:
            assert [entry.rule for entry in check.failures] == ["L2.S7"]
            assert f"at least {needed}" in check.failures[0].hint


def test_forty_five_coins_for_five_at_level_2(catalog: Catalog) -> None:
    check = check_setup(with_components(catalog, coins=45), "2", 5)
    assert [entry.rule for entry in check.failures] == ["L2.S7"]
    assert "= 50" in check.failures[0].text
    assert check_setup(with_components(catalog, coins=45), "2", 4).is_valid()


@pytest.mark.parametrize(("level", "rule"), [("1", "L1.S5"), ("3", "L3.S4")])
def test_levels_1_and_3_need_all_50_coins(catalog: Catalog, level: str, rule: str) -> None:
    for coins in (45, 51):
        check = check_setup(with_components(catalog, coins=coins), level, 3)
        assert [entry.rule for entry in check.failures] == [rule]


def test_four_combines_for_five_players_fail(catalog: Catalog) -> None:
    check = check_setup(with_components(catalog, combines=4), "1", 5)
    assert [entry.rule for entry in check.failures] == ["L1.S4"]
    assert check_setup(with_components(catalog, combines=4), "1", 4).is_valid()
    check3 = check_setup(with_components(catalog, combines=4), "3", 5)
    assert [entry.rule for entry in check3.failures] == ["L3.S3"]


def test_four_electrolysers_fail(catalog: Catalog) -> None:
    four = catalog.model_copy(update={"electrolysers": catalog.electrolysers[:4]})
    for level in ("2", "1v1", "3"):
        check = check_setup(four, level, 2)
        assert [entry.rule for entry in check.failures] == ["L2.S1"], level


def test_seven_tokens_each_fail(catalog: Catalog) -> None:
    tokens = catalog.components.chemist_tokens.model_copy(update={"per_player": 7})
    box = catalog.model_copy(
        update={"components": catalog.components.model_copy(update={"chemist_tokens": tokens})}
    )
    assert [e.rule for e in check_setup(box, "2", 3).failures] == ["L2.S7"]
    assert [e.rule for e in check_setup(box, "3", 3).failures] == ["L3.S5"]
    assert check_setup(box, "1", 3).is_valid(), "level 1 uses no chemist tokens"


def test_a_box_of_eight_tokens_a_colour_is_short_for_two_players(catalog: Catalog) -> None:
    """Two players at levels 2 and 3 take 10 tokens each (Ruling L2.S7-two); 8 a colour do for
    three to five players and head to head."""
    tokens = catalog.components.chemist_tokens.model_copy(update={"per_player": 8})
    box = catalog.model_copy(
        update={"components": catalog.components.model_copy(update={"chemist_tokens": tokens})}
    )
    for level in ("2", "3"):
        failures = check_setup(box, level, 2).failures
        assert [e.rule for e in failures] == ["L2.S7-two"], level
        assert failures[0].hint == "10 tokens per player with two players, a colour per player"
        assert check_setup(box, level, 3).is_valid(), level
    assert check_setup(box, "1v1", 2).is_valid()
    assert check_setup(catalog, "2", 2).is_valid()


def test_a_raw_deck_too_big_for_level_1(catalog: Catalog) -> None:
    """72 Fate cards: the level-1 deck must hold 64..72 cards (the default holds 72); 73 does
    not fit."""
    first = catalog.raw_materials[0]
    bigger = catalog.model_copy(
        update={
            "raw_materials": (
                first.model_copy(update={"copies": first.copies + 1}),
                *catalog.raw_materials[1:],
            )
        }
    )
    assert bigger.raw_deck_size == 73
    check = check_setup(bigger, "1", 3)
    assert [entry.rule for entry in check.failures] == ["L1.S3"]
    assert "64–72" in check.failures[0].hint
    assert check_setup(bigger, "3", 3).is_valid(), "level 3 takes 68..76"


def test_V1_2_runnable_names_the_installations_that_run_alone(catalog: Catalog) -> None:
    check = check_setup(catalog, "1v1", 2)
    line = item(check, "V1.2-runnable")
    assert line.ok
    # 5 makes its own ammonia (5В). 4 takes nitrogen and oxygen from the atmosphere cards, and
    # its water goes round by pipe (4Г back to 4В).
    assert line.text == (
        "10 installation(s) run from raw cards alone: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10"
    )


def test_V1_2_runnable_refuses_a_box_with_fewer_than_two(catalog: Catalog) -> None:
    # Without water cards the urea plant's electrolyser is dry; 4 needs no water card.
    lonely = catalog.model_copy(
        update={
            "installations": tuple(i for i in catalog.installations if i.number in (4, 5)),
            "raw_materials": tuple(r for r in catalog.raw_materials if r.formula != "H2O"),
        }
    )
    line = item(check_setup(lonely, "1v1", 2), "V1.2-runnable")
    assert not line.ok
    assert line.text == "1 installation(s) run from raw cards alone: 4"
