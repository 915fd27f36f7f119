"""Consistency of a game state: hand-made broken states, one problem each, with its rule.

Every broken state is a dealt (valid) state edited with ``model_copy``: the smallest change that
makes the one problem. Each case lists the issues expected — (rule, words of the message) — and
status must report exactly those: the problem, with its rule, and nothing dragged in with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from pydantic import ValidationError

from mhp_cards.game import GameState, deal, is_valid, status
from mhp_cards.game.state import Cell, Combine, Fight, InstallationState
from mhp_cards.rules.rulebook import load_rulebook
from mhp_cards.validate import load_catalog

CATALOG = load_catalog()
RULEBOOK = load_rulebook()


def base(level: str) -> GameState:
    """The valid state each case starts from."""
    return {
        "1": lambda: deal(CATALOG, "1", 3, 1),
        "2": lambda: deal(CATALOG, "2", 3, 1),
        "1v1": lambda: deal(CATALOG, "1v1", 2, 5, house_rules=("installation-at-random",)),
        "3": lambda: deal(CATALOG, "3", 3, 1),
    }[level]()


# --- small editing helpers ------------------------------------------------------------------------


def with_player(state: GameState, index: int, **changes) -> GameState:
    players = list(state.players)
    players[index] = players[index].model_copy(update=changes)
    return state.model_copy(update={"players": tuple(players)})


def with_installation(state: GameState, index: int, **changes) -> GameState:
    installations = list(state.installations)
    installations[index] = installations[index].model_copy(update=changes)
    return state.model_copy(update={"installations": tuple(installations)})


def with_container(state: GameState, where: tuple[int, int], **changes) -> GameState:
    i, k = where
    containers = list(state.installations[i].containers)
    containers[k] = containers[k].model_copy(update=changes)
    return with_installation(state, i, containers=tuple(containers))


def with_cells(state: GameState, cells) -> GameState:
    return state.model_copy(
        update={"field": state.field.model_copy(update={"cells": tuple(cells)})}
    )


def find_container(state: GameState, role: str) -> tuple[int, int]:
    for i, installation in enumerate(state.installations):
        for k, container in enumerate(installation.containers):
            if container.role == role:
                return i, k
    raise AssertionError(f"no {role} container on the table")


def owned_by(state: GameState, player_id: str) -> int:
    return next(i for i, inst in enumerate(state.installations) if inst.owner == player_id)


def electrolysers_in(installation: InstallationState) -> list[str]:
    ids = {card.id for card in CATALOG.electrolysers}
    return [token for token in installation.arrangement.split() if token in ids]


def free_cell_positions(state: GameState, count: int) -> list[tuple[int, int]]:
    """Positions in the column right of the field, where no cell lies."""
    right = max(x for x, _ in state.field.positions) + 1
    return [(right, y) for y in range(count)]


# --- the broken states ----------------------------------------------------------------------------


def coins_level1() -> GameState:
    state = base("1")
    return state.model_copy(update={"bank": state.bank - 1})


def coins_level1_money_from_nowhere() -> GameState:
    return with_player(base("1"), 1, money=5)


def coins_level2() -> GameState:
    state = base("2")
    return state.model_copy(update={"bank": state.bank + 1})


def coins_head_to_head() -> GameState:
    state = base("1v1")
    return state.model_copy(update={"box_coins": state.box_coins - 1})


def raw_card_twice() -> GameState:
    state = base("1")
    return with_player(state, 0, raw_cards=(state.field.cells[0].raw,))


def raw_card_missing() -> GameState:
    state = base("1")
    assert len(state.warehouse) - 1 >= 4, "the Warehouse stays within 4..8"
    return state.model_copy(update={"warehouse": state.warehouse[1:]})


def raw_card_foreign() -> GameState:
    return with_player(base("1"), 2, raw_cards=("unobtainium#1",))


def raw_card_beyond_copies() -> GameState:
    raw = CATALOG.raw_materials[0]
    return with_player(base("1"), 2, raw_cards=(f"{raw.id}#{raw.copies + 1}",))


def fate_card_twice() -> GameState:
    state = base("1")
    assert len(state.removed_fate) + 1 <= 12
    doubled = (*state.removed_fate, state.field.cells[5].fate)
    return state.model_copy(update={"removed_fate": doubled})


def fate_card_missing() -> GameState:
    """A cell's Fate card lost (its raw card goes to a hand): 8 set aside and a field of 63 are
    legal. A level-1 deal of the default box sets aside only 8 (72 raw cards leave the
    Warehouse as many as are set aside, at most 8), so the card cannot come from that pile."""
    state = base("1")
    assert (len(state.removed_fate), len(state.field.cells)) == (8, 64)
    gone = state.field.cells[-1]
    return with_player(with_cells(state, state.field.cells[:-1]), 0, raw_cards=(gone.raw,))


def fate_too_few_set_aside() -> GameState:
    """Only 7 set aside: the others lie on the field, as empty cells."""
    state = base("1")
    moved = state.removed_fate[7:]
    cells = [
        *state.field.cells,
        *(
            Cell(x=x, y=y, fate=fate)
            for (x, y), fate in zip(free_cell_positions(state, len(moved)), moved, strict=True)
        ),
    ]
    return with_cells(state, cells).model_copy(update={"removed_fate": state.removed_fate[:7]})


def fate_field_too_small() -> GameState:
    """The field loses cells to the set-aside pile (their raw cards go to a hand): 13 set aside
    and a field of 59."""
    state = base("1")
    lifted = 64 - 59
    assert len(state.field.cells) == 64
    assert len(state.removed_fate) == 8
    cells = state.field.cells
    state = with_cells(state, cells[lifted:]).model_copy(
        update={"removed_fate": (*state.removed_fate, *(c.fate for c in cells[:lifted]))}
    )
    return with_player(state, 0, raw_cards=tuple(c.raw for c in cells[:lifted]))


def two_cells_one_place() -> GameState:
    state = base("1")
    cells = list(state.field.cells)
    cells[1] = cells[1].model_copy(update={"x": cells[0].x, "y": cells[0].y})
    return with_cells(state, cells)


def cell_on_the_base() -> GameState:
    state = base("1")
    cells = list(state.field.cells)
    bx, by = state.field.base
    cells[0] = cells[0].model_copy(update={"x": bx, "y": by})
    return with_cells(state, cells)


def tokens_at_level1() -> GameState:
    return with_player(base("1"), 0, tokens=8)


def tokens_more_than_eight() -> GameState:
    return with_player(base("2"), 1, tokens=9)


def tokens_placed_beyond_owned() -> GameState:
    """Red's tokens on every product place on the table: more than the 8 red owns."""
    state = base("2")
    for i, installation in enumerate(state.installations):
        for k, container in enumerate(installation.containers):
            if container.role == "product":
                state = with_container(state, (i, k), places=("red",) * len(container.places))
    assert state.tokens_placed("red") > 8
    return state


def token_on_raw_input() -> GameState:
    state = base("2")
    return with_container(state, find_container(state, "raw-input"), places=("red",))


def token_on_transit() -> GameState:
    state = base("2")
    return with_container(state, find_container(state, "transit"), places=("green",))


def token_of_absent_player() -> GameState:
    state = base("2")
    assert "black" not in {p.id for p in state.players}
    where = find_container(state, "product")
    places = state.installations[where[0]].containers[where[1]].places
    return with_container(state, where, places=("black", *places[1:]))


def combine_off_the_field() -> GameState:
    state = base("1")
    return with_player(state, 1, combine=Combine(position=(-5, -5)))


def combine_missing() -> GameState:
    return with_player(base("1"), 2, combine=None)


def combine_at_level2() -> GameState:
    return with_player(base("2"), 0, combine=Combine(position=(0, 0)))


def collected(state: GameState, player: int, count: int) -> GameState:
    """The player's combine has collected the raw cards of the first ``count`` cells."""
    cells = list(state.field.cells)
    taken = tuple(cell.raw for cell in cells[:count])
    cells[:count] = [cell.model_copy(update={"raw": None}) for cell in cells[:count]]
    return with_player(with_cells(state, cells), player, raw_cards=taken)


def seven_cards_on_a_level3_combine() -> GameState:
    return collected(base("3"), 0, 7)


def one_colour_twice() -> GameState:
    return with_player(base("1"), 1, id="red")


def unknown_colour() -> GameState:
    return with_player(base("1"), 2, id="purple")


def one_player() -> GameState:
    state = base("1")
    return state.model_copy(update={"players": state.players[:1]})


def three_players_head_to_head() -> GameState:
    state = base("1v1")
    third = state.players[0].model_copy(update={"id": "green", "money": 0})
    return state.model_copy(update={"players": (*state.players, third)})


def turn_past_the_last_player() -> GameState:
    return base("1").model_copy(update={"turn": 3})


def turn_negative() -> GameState:
    return base("1").model_copy(update={"turn": -1})


def installation_not_in_catalog() -> GameState:
    """Head to head: installation N becomes 99 and N goes back to the box."""
    state = base("1v1")
    number = state.installations[0].number
    state = with_installation(state, 0, number=99)
    return state.model_copy(
        update={"unused_installations": tuple(sorted((*state.unused_installations, number)))}
    )


def head_to_head_installation_that_never_runs_alone() -> GameState:
    """Head to head: the first player's installation swapped for 5."""
    state = base("1v1")
    mine = state.installations[0]
    five = next(i for i in base("2").installations if i.number == 5)
    five = five.model_copy(update={"owner": mine.owner})
    unused = {*state.unused_installations, mine.number} - {5}
    return state.model_copy(
        update={
            "installations": (five, *state.installations[1:]),
            "unused_installations": tuple(sorted(unused)),
        }
    )


def installation_badly_assembled() -> GameState:
    state = base("2")
    index = next(i for i, inst in enumerate(state.installations) if inst.number == 1)
    assert state.installations[index].arrangement == "1А / 1Б"
    return with_installation(state, index, arrangement="1Б / 1А")


def installation_unparsable() -> GameState:
    state = base("2")
    return with_installation(state, 0, arrangement="")


def installation_twice() -> GameState:
    state = base("2")
    plain = next(i for i in state.installations if i.owner is None and not electrolysers_in(i))
    return state.model_copy(update={"installations": (*state.installations, plain)})


def installation_of_absent_player() -> GameState:
    state = base("2")
    assert {p.id for p in state.players} == {"red", "blue", "green"}
    return with_installation(state, owned_by(state, "red"), owner="black")


def installations_at_level1() -> GameState:
    return base("1").model_copy(update={"installations": base("2").installations[:1]})


def level2_player_without_installation() -> GameState:
    state = base("2")
    return with_installation(state, owned_by(state, "green"), owner=None)


def head_to_head_player_without_installation() -> GameState:
    state = base("1v1")
    index = owned_by(state, "blue")
    number = state.installations[index].number
    return state.model_copy(
        update={
            "installations": tuple(i for i in state.installations if i.owner != "blue"),
            "unused_installations": tuple(sorted((*state.unused_installations, number))),
        }
    )


def head_to_head_shared_installation() -> GameState:
    state = base("1v1")
    level2 = base("2")
    shared = next(
        i.model_copy(update={"owner": None})
        for i in level2.installations
        if i.number in state.unused_installations and not electrolysers_in(i)
    )
    return state.model_copy(
        update={
            "installations": (*state.installations, shared),
            "unused_installations": tuple(
                n for n in state.unused_installations if n != shared.number
            ),
        }
    )


def mission_places_changed() -> GameState:
    state = base("2")
    mission = state.missions[0]
    formula, places = mission.places[0]
    changed = mission.model_copy(
        update={"places": ((formula, (*places, None)), *mission.places[1:])}
    )
    return state.model_copy(update={"missions": (changed, *state.missions[1:])})


def mission_formula_changed() -> GameState:
    state = base("2")
    mission = state.missions[3]
    _, places = mission.places[0]
    changed = mission.model_copy(update={"places": (("H2O", places), *mission.places[1:])})
    return state.model_copy(update={"missions": (*state.missions[:3], changed)})


def missions_reordered() -> GameState:
    state = base("2")
    return state.model_copy(update={"missions": tuple(reversed(state.missions))})


def mission_missing() -> GameState:
    state = base("2")
    return state.model_copy(update={"missions": state.missions[:3]})


def warehouse_too_small(level: str, size: int) -> Callable[[], GameState]:
    """Warehouse cards put out of the game before the first turn."""

    def make() -> GameState:
        state = base(level)
        cut = len(state.warehouse) - size
        assert cut > 0
        return state.model_copy(
            update={"warehouse": state.warehouse[cut:], "discard": state.warehouse[:cut]}
        )

    return make


def warehouse_of_nine_at_level1() -> GameState:
    """One cell fewer: its Fate card set aside, its raw card in the Warehouse — 9 set aside and
    a field of 63 are legal, a Warehouse of 9 is not (L1.S3: 4..8)."""
    state = base("1")
    assert (len(state.removed_fate), len(state.field.cells), len(state.warehouse)) == (8, 64, 8)
    gone = state.field.cells[-1]
    return with_cells(state, state.field.cells[:-1]).model_copy(
        update={
            "removed_fate": (*state.removed_fate, gone.fate),
            "warehouse": (*state.warehouse, gone.raw),
        }
    )


def warehouse_of_seven_at_level3() -> GameState:
    """One more cell, a set-aside Fate card under a Warehouse card, and one Warehouse card put
    out of the game: 8 set aside and a field of 64 are legal, a Warehouse of 7 is not (L3.S2:
    8..12). With 72 raw cards on 72 Fate cards a fully laid field leaves the Warehouse as many
    cards as are set aside, so moving cards onto the field alone cannot go below 8."""
    state = base("3")
    assert (len(state.removed_fate), len(state.field.cells), len(state.warehouse)) == (9, 63, 9)
    (position,) = free_cell_positions(state, 1)
    new = Cell(x=position[0], y=position[1], fate=state.removed_fate[0], raw=state.warehouse[0])
    return with_cells(state, [*state.field.cells, new]).model_copy(
        update={
            "removed_fate": state.removed_fate[1:],
            "warehouse": state.warehouse[2:],
            "discard": state.warehouse[1:2],
        }
    )


@dataclass(frozen=True)
class Case:
    make: Callable[[], GameState]
    expected: tuple[tuple[str, str], ...]
    """(rule, words the message contains) for every issue status must report."""


CASES: dict[str, Case] = {
    # Coins: the box's 50, wherever they are (L1.S5; L2.S7 at level 2 and head to head).
    "coins-level-1": Case(coins_level1, (("L1.S5", "coins add up to 49"),)),
    "coins-level-1-money": Case(coins_level1_money_from_nowhere, (("L1.S5", "add up to 55"),)),
    "coins-level-2": Case(coins_level2, (("L2.S7", "coins add up to 51"),)),
    "coins-1v1": Case(coins_head_to_head, (("L2.S7", "coins add up to 49"),)),
    # Raw cards: each instance of the box in exactly one place.
    "raw-twice": Case(raw_card_twice, (("L1.S3", "is in 2 places"),)),
    "raw-missing": Case(raw_card_missing, (("L1.S3", "1 raw card(s) are nowhere"),)),
    "raw-foreign": Case(raw_card_foreign, (("L1.S3", "'unobtainium#1'"),)),
    "raw-beyond-copies": Case(raw_card_beyond_copies, (("L1.S3", "not a card of the box"),)),
    # Fate cards: each on the field or set aside, once; 8..12 set aside; field of 60 or more.
    "fate-twice": Case(fate_card_twice, (("L1.S1", "used 2 times"),)),
    "fate-missing": Case(fate_card_missing, (("L1.S1", "neither on the field nor set aside"),)),
    "fate-too-few-set-aside": Case(fate_too_few_set_aside, (("L1.S1", "7 Fate cards set aside"),)),
    "fate-field-too-small": Case(
        fate_field_too_small,
        (("L1.S1", "13 Fate cards set aside"), ("L1.S1", "the field has 59 cards")),
    ),
    "two-cells-one-place": Case(two_cells_one_place, (("L1.S2", "two cells at"),)),
    "cell-on-the-base": Case(cell_on_the_base, (("L1.S2", "on the Base"),)),
    # Chemist tokens.
    "tokens-at-level-1": Case(tokens_at_level1, (("L1.S1", "8 chemist tokens"),)),
    "tokens-nine": Case(tokens_more_than_eight, (("L2.S7", "9 chemist tokens"),)),
    "tokens-placed-beyond-owned": Case(
        tokens_placed_beyond_owned, (("L2.T4", "tokens on the table but owns 8"),)
    ),
    "token-on-raw-input": Case(token_on_raw_input, (("L2.T4", "raw-input container"),)),
    "token-on-transit": Case(token_on_transit, (("L2.T4", "transit container"),)),
    "token-of-absent-player": Case(token_of_absent_player, (("L2.T4", "not playing"),)),
    # Combines.
    "combine-off-the-field": Case(combine_off_the_field, (("L1.T1", "off the field"),)),
    "combine-missing": Case(combine_missing, (("L1.S4", "has no combine"),)),
    "combine-at-level-2": Case(combine_at_level2, (("L2.S1", "has a combine at level 2"),)),
    "level-3-combine-of-seven": Case(
        seven_cards_on_a_level3_combine, (("L3.S3", "holds 7 raw cards; at most 6"),)
    ),
    # Players and turn.
    "one-colour-twice": Case(one_colour_twice, (("L1.S4", "two players have the colour 'red'"),)),
    "unknown-colour": Case(
        unknown_colour, (("L1.S4", "'purple' is not one of the box's colours"),)
    ),
    "one-player": Case(one_player, (("L1.S4", "the game is for 2 to 5"),)),
    "three-head-to-head": Case(
        three_players_head_to_head,
        (("V1.1", "head to head is for 2"), ("V1.2", "green has no installation")),
    ),
    "turn-past-last": Case(turn_past_the_last_player, (("L1.T1", "turn 3 names no player"),)),
    "turn-negative": Case(turn_negative, (("L1.T1", "turn -1 names no player"),)),
    # Installations.
    "installation-not-in-catalog": Case(
        installation_not_in_catalog, (("L2.S3", "no installation 99 in the catalog"),)
    ),
    "installation-unparsable": Case(installation_unparsable, (("L2.S3", "empty arrangement"),)),
    "installation-twice": Case(installation_twice, (("L2.S2", "on the table 2 times"),)),
    "installation-of-absent-player": Case(
        installation_of_absent_player,
        (("L2.S2", "belongs to 'black', who is not playing"), ("L2.S2", "red has no installation")),
    ),
    "installations-at-level-1": Case(
        installations_at_level1, (("L1.S1", "installations are not used at level 1"),)
    ),
    "level-2-without-installation": Case(
        level2_player_without_installation, (("L2.S2", "green has no installation"),)
    ),
    "1v1-without-installation": Case(
        head_to_head_player_without_installation, (("V1.2", "blue has no installation"),)
    ),
    "1v1-shared-installation": Case(head_to_head_shared_installation, (("V1.2", "is shared"),)),
    # The Mission card (L2.M1).
    "mission-places-changed": Case(mission_places_changed, (("L2.M1", "the card shows"),)),
    "mission-formula-changed": Case(mission_formula_changed, (("L2.M1", "the card shows"),)),
    "missions-reordered": Case(missions_reordered, (("L2.M1", "the Mission card holds"),)),
    "mission-missing": Case(mission_missing, (("L2.M1", "the Mission card holds"),)),
    # The Warehouse at the start (L1.S3: 4..8; L3.S2: 8..12).
    "warehouse-level-1-of-3": Case(warehouse_too_small("1", 3), (("L1.S3", "holds 3 cards"),)),
    "warehouse-level-1-of-9": Case(warehouse_of_nine_at_level1, (("L1.S3", "holds 9 cards"),)),
    "warehouse-level-3-of-7": Case(warehouse_of_seven_at_level3, (("L3.S2", "holds 7 cards"),)),
    "warehouse-level-3-of-5": Case(warehouse_too_small("3", 5), (("L3.S2", "holds 5 cards"),)),
}


def describe(issues) -> str:
    return "\n".join(f"  [{i.rule}] {i.message}" for i in issues) or "  (no issues)"


@pytest.mark.parametrize("name", list(CASES))
def test_broken_state_reports_its_problem(name: str) -> None:
    case = CASES[name]
    state = case.make()
    issues = status(state, CATALOG)
    assert not is_valid(state, CATALOG)
    unmatched = list(issues)
    for rule, words in case.expected:
        match = next((i for i in unmatched if i.rule == rule and words in i.message), None)
        assert match is not None, f"no [{rule}] …{words}… among\n{describe(issues)}"
        unmatched.remove(match)
    assert not unmatched, f"more issues than the one problem:\n{describe(unmatched)}"


def test_head_to_head_installation_that_never_runs_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A box whose installation 5 needs another's product (as the default box's did, when its
    urea plant took installation 3's ammonia) can never run it head to head."""
    monkeypatch.setattr(
        type(CATALOG), "runs_alone", lambda catalog, installation: installation.number != 5
    )
    state = head_to_head_installation_that_never_runs_alone()
    [issue] = status(state, CATALOG)
    assert issue.rule == "V1.2-runnable"
    assert issue.message == (
        "installation 5 needs a product of another installation and can never run head to head"
    )
    assert issue.hint == "deal one that runs from raw cards alone: 1, 2, 3, 4, 6, 7, 8, 9, 10"


#: Broken states the state's schema itself refuses (a negative turn index): no file holds them.
SCHEMA_REFUSES = {"turn-negative"}


@pytest.mark.parametrize("name", list(CASES))
def test_broken_state_survives_json(name: str) -> None:
    """A broken state is still a readable state: status finds the same after a round trip.

    Unless the schema refuses it (strict reading, issue 28): then reading it back fails.
    """
    state = CASES[name].make()
    if name in SCHEMA_REFUSES:
        with pytest.raises(ValidationError):
            GameState.from_json(state.to_json())
        return
    assert status(GameState.from_json(state.to_json()), CATALOG) == status(state, CATALOG)


def test_every_cited_rule_exists() -> None:
    for name, case in CASES.items():
        for issue in status(case.make(), CATALOG):
            assert issue.rule in RULEBOOK, f"{name}: [{issue.rule}] is not a rule ID"


def test_badly_assembled_installation() -> None:
    """Arrangement text changed: the installation's own problems, each under L2.S3."""
    issues = status(installation_badly_assembled(), CATALOG)
    assert issues, "a wrongly assembled installation passes"
    for issue in issues:
        assert issue.rule == "L2.S3", describe(issues)
        assert "installation 1 is not assembled right" in issue.message
        assert issue.path[0] == "installations"
        assert issue.path[-1] == "arrangement"


def test_three_problems_at_once() -> None:
    state = base("1")
    state = state.model_copy(update={"bank": state.bank - 2})
    state = with_player(state, 2, id="blue")
    state = with_player(state, 0, combine=Combine(position=(99, 99)))
    issues = status(state, CATALOG)
    assert sorted(issue.rule for issue in issues) == ["L1.S4", "L1.S5", "L1.T1"], describe(issues)
    messages = " | ".join(issue.message for issue in issues)
    assert "coins add up to 48" in messages
    assert "two players have the colour 'blue'" in messages
    assert "off the field" in messages


def test_issues_are_located() -> None:
    issues = status(combine_off_the_field(), CATALOG)
    assert [issue.path for issue in issues] == [("players", 1, "combine", "position")]
    issues = status(token_on_raw_input(), CATALOG)
    assert issues[0].path[0] == "installations"
    assert issues[0].path[2] == "containers"


# --- what is not a problem ------------------------------------------------------------------------


def test_six_cards_on_a_level3_combine_is_allowed() -> None:
    assert status(collected(base("3"), 0, 6), CATALOG) == ()


def test_seven_cards_at_level1_are_allowed() -> None:
    """The limit of 6 is level 3's (L3.S3); a level-1 combine carries any number."""
    assert status(collected(base("1"), 0, 7), CATALOG) == ()


def test_small_warehouse_later_in_the_game_is_allowed() -> None:
    """The Warehouse size is a setup rule: once cards are collected it may hold anything."""
    state = collected(warehouse_too_small("1", 3)(), 1, 2)
    state = state.model_copy(update={"round": 2, "turn": 1, "turn_number": 4})
    assert status(state, CATALOG) == ()


def test_played_state_is_consistent() -> None:
    """Cards collected, an upgrade bought, a token placed: all accounted for, no problem."""
    state = base("3")
    cells = list(state.field.cells)
    taken = (cells[0].raw, cells[1].raw)
    cells[0] = cells[0].model_copy(update={"raw": None})
    cells[1] = cells[1].model_copy(update={"raw": None})
    state = with_cells(state, cells)
    combine = Combine(position=cells[1].position, solar_battery=True, moved=True)
    state = with_player(state, 0, raw_cards=taken, combine=combine, money=0)
    state = with_player(state, 1, money=4).model_copy(update={"bank": 46, "turn": 1})
    where = find_container(state, "product")
    places = state.installations[where[0]].containers[where[1]].places
    state = with_container(state, where, places=("red", *places[1:]))
    assert status(state, CATALOG) == ()
    assert state.free_tokens("red") == 7


# --- known defects --------------------------------------------------------------------------------


def test_coins_level3_cite_L3_S4() -> None:
    state = base("3")
    issues = status(state.model_copy(update={"bank": state.bank - 1}), CATALOG)
    assert [issue.rule for issue in issues] == ["L3.S4"]


def test_foreign_fate_card_does_not_hide_a_missing_one() -> None:
    state = base("1")
    state = state.model_copy(update={"removed_fate": ("fate#999", *state.removed_fate[1:])})
    messages = [issue.message for issue in status(state, CATALOG)]
    assert any("not a Fate card of the box" in m for m in messages)
    assert any("neither on the field nor set aside" in m for m in messages), messages


def test_token_of_absent_player_on_a_mission() -> None:
    state = base("2")
    mission = state.missions[0]
    formula, places = mission.places[0]
    changed = mission.model_copy(
        update={"places": ((formula, ("black", *places[1:])), *mission.places[1:])}
    )
    state = state.model_copy(update={"missions": (changed, *state.missions[1:])})
    issues = status(state, CATALOG)
    assert any("black" in issue.message for issue in issues), describe(issues)


def test_one_electrolyser_in_two_installations() -> None:
    state = base("2")
    users = [i for i, inst in enumerate(state.installations) if electrolysers_in(inst)]
    first, second = users[0], users[1]
    taken = electrolysers_in(state.installations[first])[0]
    mine = electrolysers_in(state.installations[second])[0]
    installation = state.installations[second]
    containers = tuple(
        c.model_copy(update={"card": taken}) if c.card == mine else c
        for c in installation.containers
    )
    state = with_installation(
        state,
        second,
        arrangement=installation.arrangement.replace(mine, taken),
        containers=containers,
    )
    issues = status(state, CATALOG)
    assert any(taken in issue.message for issue in issues), describe(issues)


def test_installation_built_from_another_installations_cards() -> None:
    state = base("1v1")
    level2 = base("2")
    other = next(
        i
        for i in level2.installations
        if i.number in state.unused_installations and not electrolysers_in(i)
    )
    index = 0
    number = state.installations[index].number
    state = with_installation(
        state, index, arrangement=other.arrangement, containers=other.containers
    )
    issues = status(state, CATALOG)
    assert any(f"installation {number}" in issue.message for issue in issues), describe(issues)


def test_container_places_differ_from_the_card() -> None:
    state = base("2")
    where = find_container(state, "product")
    places = state.installations[where[0]].containers[where[1]].places
    state = with_container(state, where, places=(*places, None, None, None))
    issues = status(state, CATALOG)
    assert any(issue.path[:2] == ("installations", where[0]) for issue in issues)
    [differ] = [issue for issue in issues if "differ from its cards" in issue.message]
    container = state.installations[where[0]].containers[where[1]]
    # the containers in words, not as Python tuples
    assert f"{container.card} #{container.index} {container.substance} product" in differ.message
    assert f"({len(places)} places)" in differ.message
    assert f"({len(places) + 3} places)" in differ.message
    assert "('" not in differ.message
    assert "None" not in differ.message


@pytest.mark.parametrize("problem", ["on-table-and-in-box", "nowhere"])
def test_installation_in_exactly_one_place(problem: str) -> None:
    state = base("1v1")
    if problem == "on-table-and-in-box":
        number = state.installations[0].number
        unused = tuple(sorted((*state.unused_installations, number)))
    else:
        number = state.unused_installations[0]
        unused = state.unused_installations[1:]
    state = state.model_copy(update={"unused_installations": unused})
    issues = status(state, CATALOG)
    assert any(str(number) in issue.message for issue in issues), describe(issues)


def test_a_fight_names_its_players_and_its_steps_in_order() -> None:
    """Ruling L1.T4.R4: the dice name a winner (one of the two), the spoils come after them."""
    state = deal(CATALOG, "1", 2, 3)
    fine = state.model_copy(
        update={"fight": Fight(attacker="red", defender="blue", cell=(4, 3), winner="blue")}
    )
    assert not [i for i in status(fine, CATALOG) if i.check == "fight"]
    for fight, rule in (
        (Fight(attacker="red", defender="green", cell=(4, 3)), "L1.T4"),
        (Fight(attacker="red", defender="red", cell=(4, 3)), "L1.T4"),
        (Fight(attacker="red", defender="blue", cell=(4, 3), winner="green"), "L1.T4"),
        (Fight(attacker="red", defender="blue", cell=(4, 3), taken=0), "L1.T4.R4"),
        (Fight(attacker="red", defender="blue", cell=(4, 3), winner="red", taken=4), "L1.T4"),
    ):
        found = list(status(state.model_copy(update={"fight": fight}), CATALOG))
        assert [i.rule for i in found if i.check == "fight"] == [rule], (fight, found)
