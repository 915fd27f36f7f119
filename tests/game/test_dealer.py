"""The dealer: every level for 2 to 5 players, every field shape, by the rules and from a seed.

Expected counts are the rules' (RULES.md L1.S1–S5, L2.S1–S7, V1.1–V1.2, L3.S1–S5) applied to
the catalog's counts; nothing here is read back from the dealer's own constants.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mhp_cards.assembly.arrangement import Arrangement, check_arrangement
from mhp_cards.game import SHAPES, GameState, SetupError, deal, status
from mhp_cards.validate import load_catalog

# The rules' numbers.
REMOVE = range(8, 13)  # L1.S1: remove 8 to 12 Fate cards
MIN_FIELD = 60  # L1.S1: at least 60 remain
WAREHOUSE = {"1": range(4, 9), "3": range(8, 13)}  # L1.S3: 4..8; L3.S2: 8..12
COINS = 50  # L1.S5, L3.S4
COINS_EACH_L2 = 8  # L2.S7
BANK_L2 = 10  # L2.S7 and its Ruling
FIFTH_EXTRA = 2  # L2.S7-fifth
TOKENS_EACH = 8  # L2.S7, L3.S5
TOKENS_EACH_OF_TWO = 10  # L2.S7-two: two players at levels 2 and 3
LEVEL3_CAPACITY = 6  # L3.S3

LEVEL_PLAYERS = [
    *(("1", n) for n in range(2, 6)),
    *(("2", n) for n in range(2, 6)),
    ("1v1", 2),
    *(("3", n) for n in range(2, 6)),
]
SEEDS = (0, 7, 2**40 + 3)
CASES = [
    (level, players, seed, shape)
    for level, players in LEVEL_PLAYERS
    for seed in SEEDS
    for shape in SHAPES
]
EVENLY = [
    (level, players, seed) for level in ("2", "3") for players in range(2, 6) for seed in SEEDS
]
CATALOG = load_catalog()


def case_id(level: str, players: int, seed: int, shape: str) -> str:
    return f"L{level}-{players}p-s{seed}-{shape}"


parametrize_cases = pytest.mark.parametrize(
    ("level", "players", "seed", "shape"), CASES, ids=[case_id(*case) for case in CASES]
)


def neighbours(position: tuple[int, int]) -> list[tuple[int, int]]:
    x, y = position
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def reachable(start: tuple[int, int], positions: set[tuple[int, int]]) -> set[tuple[int, int]]:
    seen = {start}
    todo = [start]
    while todo:
        for step in neighbours(todo.pop()):
            if step in positions and step not in seen:
                seen.add(step)
                todo.append(step)
    return seen


def shape_of(state: GameState) -> frozenset[tuple[int, int]]:
    """The field's cell positions relative to the Base."""
    bx, by = state.field.base
    return frozenset((cell.x - bx, cell.y - by) for cell in state.field.cells)


def removal_counts(catalog, level: str) -> set[int]:
    """Every removal count the rules allow for this box (L1.S1 with L1.S3 or L3.S2)."""
    fate = catalog.components.fate_cards.count
    raw = catalog.raw_deck_size
    return {
        removed
        for removed in REMOVE
        if fate - removed >= MIN_FIELD and raw - (fate - removed) in WAREHOUSE[level]
    }


# --- the catalog these tests assume ---------------------------------------------------------------


def test_the_default_box(catalog, raw_box, fate_box) -> None:
    """The numbers below lean on the shipped box: 72 Fate cards, 72 raw cards, 50 coins."""
    assert len(fate_box) == 72
    assert len(raw_box) == len(set(raw_box)) == catalog.raw_deck_size == 72
    assert catalog.components.coins.count == COINS
    # Each colour as many as the most a player takes.
    assert catalog.components.chemist_tokens.per_player == TOKENS_EACH_OF_TWO
    assert len(catalog.installations) == 10
    assert len(catalog.electrolysers) == 5
    # 72 raw cards on 72 - r Fate cards leave r for the Warehouse: level 1 (4..8) allows only
    # r = 8, level 3 (8..12) every r of L1.S1.
    assert removal_counts(catalog, "1") == {8}
    assert removal_counts(catalog, "3") == {8, 9, 10, 11, 12}


def test_shapes_are_the_four_documented_ones() -> None:
    assert set(SHAPES) == {"rectangle", "cross", "ring", "random"}


# --- every deal, every level, every shape ---------------------------------------------------------


@parametrize_cases
def test_deal_has_no_problem(dealt, issues_of, describe_issues, level, players, seed, shape):
    issues = issues_of(dealt(level, players, seed, shape))
    assert issues == (), describe_issues(issues)


@parametrize_cases
def test_every_raw_card_in_exactly_one_place(dealt, raw_box, level, players, seed, shape) -> None:
    state = dealt(level, players, seed, shape)
    cards = Counter(card for card, _ in state.raw_locations())
    assert cards == Counter(raw_box)
    assert state.discard == ()
    assert all(player.raw_cards == () for player in state.players)


@parametrize_cases
def test_start_of_the_game(dealt, catalog, level, players, seed, shape) -> None:
    state = dealt(level, players, seed, shape)
    assert state.level == level
    assert state.seed == seed
    assert state.turn == 0
    assert state.round == 1
    assert not state.ended
    colours = [colour.id for colour in catalog.components.colours]
    ids = [player.id for player in state.players]
    assert len(ids) == players
    assert len(set(ids)) == players, "L1.S4: each player a colour of their own"
    assert set(ids) <= set(colours)


@parametrize_cases
def test_money_and_tokens(dealt, level, players, seed, shape) -> None:
    state = dealt(level, players, seed, shape)
    if level in ("1", "3"):
        # L1.S5, L3.S4: all 50 coins form the Bank; players start with no money.
        assert state.bank == COINS
        assert state.box_coins == 0
        assert [p.money for p in state.players] == [0] * players
    else:
        # L2.S7 and its Rulings: 8 coins each, 10 for the Bank, the rest in the box; with five
        # players at level 2 the fifth takes 2 of the Bank's (L2.S7-fifth).
        extra = FIFTH_EXTRA if level == "2" and players == 5 else 0
        assert [p.money for p in state.players] == [COINS_EACH_L2] * (players - 1) + [
            COINS_EACH_L2 + extra
        ]
        assert state.bank == BANK_L2 - extra
        assert state.box_coins == COINS - COINS_EACH_L2 * players - BANK_L2
    # L1.S1: no chemist tokens at level 1; L2.S7, L3.S5: 8 each; L2.S7-two: 10 each when two
    # play level 2 or 3 (head to head keeps 8).
    expected_tokens = 0 if level == "1" else TOKENS_EACH
    if players == 2 and level in ("2", "3"):
        expected_tokens = TOKENS_EACH_OF_TWO
    assert [p.tokens for p in state.players] == [expected_tokens] * players
    assert all(state.tokens_placed(p.id) == 0 for p in state.players)


@pytest.mark.parametrize("seed", [0, 5])
def test_the_fifth_of_five_takes_two_coins_of_the_banks_or_none_by_the_house_rule(
    dealt, catalog, seed
) -> None:
    """Ruling L2.S7-fifth and its literal house rule equal-coins; status holds both states."""
    fifth = dealt("2", 5, seed)
    equal = dealt("2", 5, seed, house_rules=("equal-coins",))
    assert [p.money for p in fifth.players] == [8, 8, 8, 8, 10]
    assert (fifth.bank, fifth.box_coins) == (8, 0)
    assert [p.money for p in equal.players] == [8] * 5
    assert (equal.bank, equal.box_coins) == (10, 0)
    assert not status(fifth, catalog)
    assert not status(equal, catalog)
    # Only at level 2 with five: head to head, four players and level 3 are as before.
    assert [p.money for p in dealt("2", 4, seed).players] == [8] * 4
    assert dealt("3", 5, seed).bank == COINS


@pytest.mark.parametrize("level", ["2", "3"])
def test_two_players_take_ten_tokens_or_eight_by_the_house_rule(dealt, catalog, level) -> None:
    """Ruling L2.S7-two and its literal house rule eight-tokens; status holds a state to the
    rule in force and cites the ruling."""
    ten = dealt(level, 2, 4)
    eight = dealt(level, 2, 4, house_rules=("eight-tokens",))
    assert [p.tokens for p in ten.players] == [TOKENS_EACH_OF_TWO] * 2
    assert [p.tokens for p in eight.players] == [TOKENS_EACH] * 2
    assert not status(ten, catalog)
    assert not status(eight, catalog)
    short = ten.model_copy(
        update={"players": tuple(p.model_copy(update={"tokens": 8}) for p in ten.players)}
    )
    issues = [issue for issue in status(short, catalog) if issue.rule == "L2.S7-two"]
    assert [issue.path for issue in issues] == [("players", 0, "tokens"), ("players", 1, "tokens")]
    assert "two players take 10 each" in issues[0].message
    assert [p.tokens for p in dealt("1v1", 2, 4).players] == [TOKENS_EACH] * 2, "head to head: 8"


@parametrize_cases
def test_field(dealt, catalog, fate_box, level, players, seed, shape) -> None:
    state = dealt(level, players, seed, shape)
    if level in ("2", "1v1"):
        assert state.field is None
        assert state.removed_fate == ()
        assert state.warehouse == ()
        assert all(player.combine is None for player in state.players)
        return
    field = state.field
    assert field.shape == shape
    # L1.S1 / L3.S1: 8..12 Fate cards set aside, at least 60 on the field, each Fate card once.
    assert len(state.removed_fate) in REMOVE
    assert len(state.removed_fate) in removal_counts(catalog, level)
    assert len(field.cells) >= MIN_FIELD
    assert len(field.cells) + len(state.removed_fate) == len(fate_box)
    assert Counter([*(c.fate for c in field.cells), *state.removed_fate]) == Counter(fate_box)
    # L1.S3 / L3.S2: a raw card on every cell, the rest in the Warehouse.
    assert all(cell.raw is not None for cell in field.cells)
    assert len(state.warehouse) in WAREHOUSE[level]
    assert len(field.cells) + len(state.warehouse) == catalog.raw_deck_size
    # L1.S2: one card a position; the Base among the cells, not under one.
    positions = [cell.position for cell in field.cells]
    assert len(set(positions)) == len(positions)
    assert field.base not in positions
    assert any(step in positions for step in neighbours(field.base)), "Base touches no cell"
    assert reachable(field.base, set(positions) | {field.base}) == set(positions) | {field.base}
    # "roughly in the middle": cells on both sides of the Base on both axes.
    xs = [x for x, _ in positions]
    ys = [y for _, y in positions]
    assert min(xs) < field.base[0] < max(xs)
    assert min(ys) < field.base[1] < max(ys)
    # L1.S4 / L3.S3: every combine on the Base, bucket only.
    for player in state.players:
        combine = player.combine
        assert combine is not None
        assert combine.position == field.base
        assert not combine.solar_battery
        assert not combine.armour
        assert not combine.moved


@parametrize_cases
def test_piles(dealt, raw_box, level, players, seed, shape) -> None:
    state = dealt(level, players, seed, shape)
    if level in ("1", "3"):
        assert state.piles == ()
        return
    # L2.S6: the whole deck in three piles, as even as can be.
    assert len(state.piles) == 3
    sizes = [len(pile) for pile in state.piles]
    assert sum(sizes) == len(raw_box)
    assert max(sizes) - min(sizes) <= 1
    assert Counter(card for pile in state.piles for card in pile) == Counter(raw_box)


def check_installations(state: GameState, catalog, needed: dict[int, int], per_player: int) -> None:
    numbers = [installation.number for installation in state.installations]
    box = [installation.number for installation in catalog.installations]
    owners = Counter(i.owner for i in state.installations)
    players = [player.id for player in state.players]
    # L2.S2 (and V1.2): per_player main cards dealt to each player.
    assert {p: owners[p] for p in players} == dict.fromkeys(players, per_player)
    assert set(owners) - {None} <= set(players)
    if state.level == "1v1":
        # V1.2: per_player each (V1.2-choose: to keep one of), the others not used, none shared.
        assert owners[None] == 0
        assert len(numbers) == 2 * per_player
        assert sorted(numbers + list(state.unused_installations)) == sorted(box)
    else:
        # L2.S2 Ruling: every main card not dealt is shared; nothing stays in the box.
        assert owners[None] == len(box) - per_player * len(players)
        assert sorted(numbers) == sorted(box)
        assert state.unused_installations == ()
    electrolyser_ids = {card.id for card in catalog.electrolysers}
    used_electrolysers: list[str] = []
    for installation in state.installations:
        arrangement = Arrangement.parse(installation.arrangement)
        # L2.S3: assembled right (pipes join up), from the cards of this installation.
        assert check_arrangement(catalog, arrangement).is_valid(), installation.arrangement
        cards = list(arrangement.as_dict().values())
        own = [card for card in cards if card not in electrolyser_ids]
        expected_cards = [card.id for card in catalog.installation(installation.number).cards]
        assert sorted(own) == sorted(expected_cards), installation.arrangement
        electrolysers = [card for card in cards if card in electrolyser_ids]
        # L2.S4: electrolysers added where needed, and only there.
        assert len(electrolysers) == needed[installation.number], installation.arrangement
        used_electrolysers += electrolysers
        # The containers are those of the cards laid, in order, with free places.
        expected_containers = [
            (card_id, index, container.substance, container.role, container.places)
            for card_id in _reading_order(arrangement)
            for index, container in enumerate(catalog.card(card_id).containers)
        ]
        found = [
            (c.card, c.index, c.substance, c.role, len(c.places)) for c in installation.containers
        ]
        # Ruling L2.T4-transit: a gas an electrolyser sends down a pipe (a card stands at that
        # edge) plays as transit; its other product stays a product.
        cells = arrangement.as_dict()
        step = {"right": (0, 1), "left": (0, -1), "top": (-1, 0), "bottom": (1, 0)}
        # what each electrolyser sends down a pipe: the gas of every out-port facing a card
        piped = {
            (card, port.substance)
            for (row, column), card in cells.items()
            if card in electrolyser_ids
            for port in catalog.card(card).ports
            if port.direction == "out"
            if (row + step[port.edge][0], column + step[port.edge][1]) in cells
        }
        assert {card for card, _ in piped} == set(electrolysers)
        expected = [
            (
                card,
                index,
                substance,
                "transit" if (card, substance) in piped else role,
                places if role == "product" and (card, substance) not in piped else 0,
            )
            for card, index, substance, role, places in expected_containers
        ]
        assert sorted(found) == sorted(expected), installation.number
        assert all(place is None for c in installation.containers for place in c.places)
    # Each electrolyser is one physical card: never in two installations.
    assert len(used_electrolysers) == len(set(used_electrolysers))
    assert len(used_electrolysers) <= len(catalog.electrolysers)


def _reading_order(arrangement: Arrangement) -> list[str]:
    return [card for _, card in sorted(arrangement.as_dict().items())]


@parametrize_cases
def test_installations(dealt, catalog, electrolysers_needed, level, players, seed, shape) -> None:
    state = dealt(level, players, seed, shape)
    if level == "1":
        assert state.installations == ()
        assert state.unused_installations == ()
        return
    # Ruling V1.2-choose: head to head, the ten installations that run alone, five each.
    each = len(catalog.installations_running_alone) // 2 if level == "1v1" else 1
    check_installations(state, catalog, electrolysers_needed, per_player=each)


def test_installation_at_random_deals_one_each_head_to_head(dealt, catalog, electrolysers_needed):
    """House rule installation-at-random: V1.2 as written, one installation each."""
    state = dealt("1v1", 2, 3, "rectangle", ("installation-at-random",))
    check_installations(state, catalog, electrolysers_needed, per_player=1)


@pytest.mark.parametrize(("level", "players", "seed"), EVENLY)
def test_installations_dealt_evenly(dealt, catalog, electrolysers_needed, level, players, seed):
    """House rule deal-evenly: as many main cards each as divide evenly; the rest are shared."""
    state = dealt(level, players, seed, "rectangle", ("deal-evenly",))
    assert state.house_rules.names() == ("deal-evenly",)
    each = len(catalog.installations) // players  # 10 cards: 5, 3, 2, 2 for 2..5 players
    assert each == {2: 5, 3: 3, 4: 2, 5: 2}[players]
    check_installations(state, catalog, electrolysers_needed, per_player=each)


def test_deal_evenly_does_not_change_head_to_head(dealt, catalog, electrolysers_needed) -> None:
    state = dealt("1v1", 2, 3, "rectangle", ("deal-evenly",))
    each = len(catalog.installations_running_alone) // 2
    check_installations(state, catalog, electrolysers_needed, per_player=each)


@parametrize_cases
def test_mission_card(dealt, catalog, level, players, seed, shape) -> None:
    state = dealt(level, players, seed, shape)
    if level == "1":
        # L1.E1: at level 1 a mission is an element sum of held cards; nothing stands on the card.
        assert state.missions == ()
        assert all(not player.raw_cards and player.tokens == 0 for player in state.players)
        return
    # L2.M1: the Mission card as printed, every place free.
    assert [m.id for m in state.missions] == [m.id for m in catalog.missions]
    for mission, printed in zip(state.missions, catalog.missions, strict=True):
        assert [(formula, len(places)) for formula, places in mission.places] == [
            (place.formula, place.count) for place in printed.places
        ]
        assert all(t is None for _, places in mission.places for t in places)
        assert not mission.complete


# --- seeds ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("level", "players"), LEVEL_PLAYERS)
@pytest.mark.parametrize("shape", SHAPES)
def test_same_seed_same_deal(catalog, level: str, players: int, shape: str) -> None:
    first = deal(catalog, level, players, 1234, shape)
    second = deal(catalog, level, players, 1234, shape)
    assert first == second
    assert first.to_json() == second.to_json()


@pytest.mark.parametrize(("level", "players"), LEVEL_PLAYERS)
@pytest.mark.parametrize("shape", SHAPES)
def test_different_seeds_different_deals(dealt, level: str, players: int, shape: str) -> None:
    deals = [
        dealt(level, players, seed, shape).model_copy(update={"seed": 0}) for seed in range(20)
    ]
    assert len({state.to_json() for state in deals}) > 1


@pytest.mark.parametrize("level", ["1", "3"])
def test_every_allowed_removal_count_occurs(dealt, catalog, level: str) -> None:
    """L1.S1 "remove 8 to 12 (any)": over many seeds each count the box allows is dealt."""
    counts = {len(dealt(level, 3, seed).removed_fate) for seed in range(60)}
    assert counts == removal_counts(catalog, level)


@pytest.mark.parametrize("level", ["2", "3"])
def test_main_cards_are_dealt_at_random(dealt, level: str) -> None:
    """L2.S2: over seeds, who owns which installation changes."""
    dealings = {
        tuple((i.number, i.owner) for i in dealt(level, 3, seed).installations)
        for seed in range(20)
    }
    assert len(dealings) > 5


def test_head_to_head_installations_are_taken_at_random(dealt) -> None:
    """V1.2: the two installations in play change from seed to seed (installation-at-random),
    and so do the hands to keep one from (V1.2-choose)."""
    literal = ("installation-at-random",)
    pairs = {
        tuple(sorted(i.number for i in dealt("1v1", 2, s, "rectangle", literal).installations))
        for s in range(20)
    }
    assert len(pairs) > 5
    pairs = {
        tuple(i.number for i in dealt("1v1", 2, s).installations if i.owner == "red")
        for s in range(20)
    }
    assert len(pairs) > 5


def test_raw_deck_is_shuffled(dealt) -> None:
    orders = {dealt("2", 2, seed).piles for seed in range(10)}
    assert len(orders) == 10


# --- shapes ---------------------------------------------------------------------------------------


def bounding_fill(state: GameState) -> float:
    positions = state.field.positions
    xs = [x for x, _ in positions]
    ys = [y for _, y in positions]
    return len(positions) / ((max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1))


@pytest.mark.parametrize("level", ["1", "3"])
@pytest.mark.parametrize("seed", SEEDS)
def test_shapes_differ(dealt, level: str, seed: int) -> None:
    shapes = {shape: shape_of(dealt(level, 4, seed, shape)) for shape in SHAPES}
    assert len(set(shapes.values())) == len(SHAPES), "two shapes gave the same field"
    rectangle = bounding_fill(dealt(level, 4, seed, "rectangle"))
    assert rectangle >= 0.9, "a rectangle fills its bounding box"
    for shape in ("cross", "ring", "random"):
        assert bounding_fill(dealt(level, 4, seed, shape)) < rectangle, shape


def test_random_shape_changes_with_the_seed(dealt) -> None:
    assert len({shape_of(dealt("1", 2, seed, "random")) for seed in range(10)}) == 10


def test_field_positions_are_not_negative(dealt) -> None:
    for shape in SHAPES:
        state = dealt("3", 5, 9, shape)
        assert min(min(p) for p in state.field.positions) == 0


# --- hypothesis over seeds ------------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    level_players=st.sampled_from(LEVEL_PLAYERS),
    seed=st.integers(min_value=0, max_value=2**63),
    shape=st.sampled_from(SHAPES),
    evenly=st.booleans(),
)
def test_any_seed_deals_a_consistent_game(
    level_players: tuple[str, int], seed: int, shape: str, evenly: bool
) -> None:
    level, players = level_players
    house_rules = ("deal-evenly",) if evenly else ()
    state = deal(CATALOG, level, players, seed, shape, house_rules)
    assert status(state, CATALOG) == ()
    raw = [f"{r.id}#{k}" for r in CATALOG.raw_materials for k in range(1, r.copies + 1)]
    assert Counter(card for card, _ in state.raw_locations()) == Counter(raw)
    if state.field is not None:
        positions = state.field.positions
        assert reachable(state.field.base, set(positions)) == positions
        assert len(state.warehouse) in WAREHOUSE[level]


# --- what the dealer refuses ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "players"), [("1", 1), ("1", 6), ("2", 6), ("3", 0), ("1v1", 3), ("1v1", 1)]
)
def test_wrong_number_of_players_is_refused(catalog, level: str, players: int) -> None:
    with pytest.raises(SetupError, match=f"{players} players") as caught:
        deal(catalog, level, players, 1)
    assert caught.value.failures, "a SetupError names the rules that fail"


def test_unknown_house_rule_is_refused(catalog) -> None:
    with pytest.raises(SetupError, match="no-such-rule"):
        deal(catalog, "1", 3, 1, house_rules=("no-such-rule",))


def test_box_too_small_is_refused(catalog) -> None:
    small = catalog.model_copy(
        update={
            "components": catalog.components.model_copy(
                update={
                    "fate_cards": catalog.components.fate_cards.model_copy(update={"count": 60})
                }
            )
        }
    )
    with pytest.raises(SetupError) as caught:
        deal(small, "1", 3, 1)
    assert "L1.S1" in caught.value.failures
    assert "L1.S1" in str(caught.value)
    # Level 2 uses no Fate cards: the same box deals it.
    assert status(deal(small, "2", 3, 1), small) == ()


@pytest.mark.parametrize("seed", range(40))
def test_V1_2_runnable_head_to_head_deals_only_installations_that_run_alone(catalog, seed) -> None:
    state = deal(catalog, "1v1", 2, seed, house_rules=("installation-at-random",))
    dealt = [i.number for i in state.installations]
    assert len(dealt) == 2
    assert all(catalog.runs_alone(catalog.installation(number)) for number in dealt), dealt
    assert sorted([*dealt, *state.unused_installations]) == sorted(
        i.number for i in catalog.installations
    )


def test_V1_2_runnable_counts_the_electrolysers_water(catalog) -> None:
    """Without a water card the electrolyser is dry: 2, 3, 5, 6 and 8, piped from it, do not
    run (nor 1 and 7, which take water beside a container)."""
    dry = catalog.model_copy(
        update={"raw_materials": tuple(r for r in catalog.raw_materials if r.formula != "H2O")}
    )
    wet = {i.number for i in catalog.installations_running_alone}
    assert {2, 3, 5, 6, 8} <= wet
    assert {i.number for i in dry.installations_running_alone} == wet - {1, 2, 3, 5, 6, 7, 8}
    for seed in range(10):
        dealt = deal(dry, "1v1", 2, seed).installations
        assert all(dry.runs_alone(dry.installation(i.number)) for i in dealt)
        assert not {i.number for i in dealt} & {2, 3, 5, 6, 8}
