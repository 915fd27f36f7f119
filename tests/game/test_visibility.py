"""Players' views: nothing hidden leaks, everything visible is kept, the referee answers the same.

States come from seeded random play at every level (1, 2, head to head, 3) for 2 to 5 players:
``legal_actions`` + ``apply`` with a seeded ``random.Random`` for a drawn number of steps. What a
player may not see is spelled out here from RULES.md, independently of the module under test:
the raw cards face down on the field (L1.S3), every Fate card (face down, never turned over,
L1.S2; the ones set aside, L1.S1), the piles below their tops at level 2 (L2.S6) and whole piles
head to head (V1.1), the other players' hands, and the seed and dice generator.

The referee's answers are compared for every listed action and for a set of candidates that
are mostly forbidden (every one- and two-cell path from the combine, both upgrades, every
sale, Warehouse purchase, pile, mission claim, freeing of a token and the end of the turn). A
move onto a cell with a face-down card is judged the same on a view: whether a combine may go
there depends on the path, the combines and the turn, never on which card lies there; the card
only changes hands (and lands in the viewer's hand as a placeholder). An action naming a card
the viewer cannot see (a trade for another player's card) is left out: the viewer could not name it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import IllegalPlayError, MhpError, ViewError
from mhp_cards.game import GameState, deal, public_view, status, view
from mhp_cards.game.state import Fight, Position
from mhp_cards.game.visibility import PUBLIC as PUBLIC_VIEWER
from mhp_cards.referee import Action, apply, check, legal_actions
from mhp_cards.referee.actions import (
    BuyRaw,
    BuyUpgrade,
    Claim,
    EndTurn,
    FreeToken,
    Move,
    ProductRef,
    ResolveFight,
    SellRaw,
    TakeRaw,
)
from mhp_cards.resources import default_catalog_dir
from mhp_cards.validate import load_catalog

CATALOG = load_catalog()
LEVEL_PLAYERS = [
    *(("1", n) for n in range(2, 6)),
    *(("2", n) for n in range(2, 6)),
    ("1v1", 2),
    *(("3", n) for n in range(2, 6)),
]
PLACEHOLDER = re.compile(r"^hidden(-fate)?#[1-9][0-9]*$")
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

with (default_catalog_dir() / "schema" / "game-state.schema.json").open(encoding="utf-8") as f:
    SCHEMA = jsonschema.Draft202012Validator(json.load(f))


# --- states reached by random play ----------------------------------------------------------------


def walk(state: GameState, steps: int, rnd: random.Random) -> GameState:
    """Up to ``steps`` random legal actions (fewer if the game ends or an action is refused)."""
    for _ in range(steps):
        actions = legal_actions(state, CATALOG)
        if not actions:
            break
        try:
            state, _ = apply(state, rnd.choice(actions), CATALOG)
        except IllegalPlayError:  # a default fight take that does not fit (level 3)
            break
    return state


@st.composite
def reached(draw: st.DrawFn) -> tuple[GameState, str]:
    """A state of random play and one of its players."""
    level, players = draw(st.sampled_from(LEVEL_PLAYERS))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    steps = draw(st.integers(min_value=0, max_value=150))
    state = walk(deal(CATALOG, level, players, seed), steps, random.Random(seed + steps))
    viewer = draw(st.sampled_from([p.id for p in state.players]))
    return state, viewer


# --- what a player cannot see, from the rules -----------------------------------------------------


def sees_hand(state: GameState, viewer: str, player: str) -> bool:
    """A hand is seen by its holder, and by the winner of a fight choosing the spoils from it
    (Ruling L1.T4.R4)."""
    fight = state.fight
    return player == viewer or (
        fight is not None
        and fight.stage == "spoils"
        and fight.winner == viewer
        and fight.loser == player
    )


def hidden_raw(state: GameState, viewer: str) -> list[str]:
    """Real IDs of the raw cards ``viewer`` cannot see, in a fixed order of their places."""
    cards = [c.raw for c in state.field.cells if c.raw] if state.field else []
    for pile in state.piles:
        cards += list(pile if state.level == "1v1" else pile[:-1])
    for player in state.players:
        if not sees_hand(state, viewer, player.id):
            cards += list(player.raw_cards)
    if viewer != state.current.id:
        cards += list(state.drawn)  # V1.3-draw-two: seen by the player who drew them
    return cards


def with_hidden_raw(state: GameState, viewer: str, cards: list[str]) -> GameState:
    """The state with ``cards`` in the places of ``hidden_raw``, in the same order."""
    supply = iter(cards)
    update: dict[str, Any] = {}
    if state.field is not None:
        cells = tuple(
            c.model_copy(update={"raw": next(supply)}) if c.raw else c for c in state.field.cells
        )
        update["field"] = state.field.model_copy(update={"cells": cells})
    piles = []
    for pile in state.piles:
        if state.level == "1v1":
            piles.append(tuple(next(supply) for _ in pile))
        else:
            piles.append((*(next(supply) for _ in pile[:-1]), *pile[-1:]))
    update["piles"] = tuple(piles)
    update["players"] = tuple(
        p
        if sees_hand(state, viewer, p.id)
        else p.model_copy(update={"raw_cards": tuple(next(supply) for _ in p.raw_cards)})
        for p in state.players
    )
    if viewer != state.current.id:
        update["drawn"] = tuple(next(supply) for _ in state.drawn)
    assert next(supply, None) is None
    return state.model_copy(update=update)


def reshuffled(state: GameState, viewer: str, rnd: random.Random) -> GameState:
    """The same game with every hidden card elsewhere among the hidden places, the Fate cards
    shuffled, another seed and another dice generator."""
    cards = hidden_raw(state, viewer)
    rnd.shuffle(cards)
    new = with_hidden_raw(state, viewer, cards)
    update: dict[str, Any] = {"seed": rnd.randrange(2**64), "rng": rnd.randrange(2**64)}
    if new.field is not None:
        fate = [c.fate for c in new.field.cells] + list(new.removed_fate)
        rnd.shuffle(fate)
        cells = tuple(
            c.model_copy(update={"fate": f}) for c, f in zip(new.field.cells, fate, strict=False)
        )
        update["field"] = new.field.model_copy(update={"cells": cells})
        update["removed_fate"] = tuple(fate[len(cells) :])
    return new.model_copy(update=update)


def strings(document: Any) -> Iterator[str]:
    """Every string in a JSON document."""
    if isinstance(document, str):
        yield document
    elif isinstance(document, dict):
        for value in document.values():
            yield from strings(value)
    elif isinstance(document, list):
        for value in document:
            yield from strings(value)


def integers(document: Any) -> Iterator[int]:
    if isinstance(document, bool):
        return
    if isinstance(document, int):
        yield document
    elif isinstance(document, dict):
        for value in document.values():
            yield from integers(value)
    elif isinstance(document, list):
        for value in document:
            yield from integers(value)


# --- (1) nothing hidden leaks ---------------------------------------------------------------------


@SETTINGS
@given(reached(), st.randoms(use_true_random=False))
def test_states_that_differ_only_in_hidden_cards_give_equal_views(
    case: tuple[GameState, str], rnd: random.Random
) -> None:
    state, viewer = case
    other = reshuffled(state, viewer, rnd)
    assert not status(other, CATALOG), "the reshuffled state is not a state of the game"
    assert view(other, viewer) == view(state, viewer)
    assert view(other, viewer).to_json() == view(state, viewer).to_json()


@SETTINGS
@given(reached())
def test_no_hidden_card_seed_or_dice_state_appears_in_a_view(case: tuple[GameState, str]) -> None:
    state, viewer = case
    document = json.loads(view(state, viewer).to_json())
    shown = set(strings(document))
    hidden = set(hidden_raw(state, viewer))
    if state.field is not None:
        hidden |= {c.fate for c in state.field.cells} | set(state.removed_fate)
    assert not shown & hidden
    placeholders = {s for s in shown if s.startswith("hidden")}
    assert all(PLACEHOLDER.match(s) for s in placeholders), placeholders
    # One placeholder for each hidden card, none used twice.
    assert len(placeholders) == len(hidden)
    assert document["seed"] == 0
    assert document["rng"] == 0
    if state.rng >= 2**32:  # a small number could be a coordinate or an amount of money
        assert state.rng not in set(integers(document))


@SETTINGS
@given(reached(), st.data())
def test_a_visible_card_swapped_with_a_hidden_one_changes_the_view(
    case: tuple[GameState, str], data: st.DataObject
) -> None:
    """The equal-views property can fail: the view does show the viewer's hand and the tops."""
    state, viewer = case
    hidden = hidden_raw(state, viewer)
    own = list(state.player(viewer).raw_cards)
    if not hidden or not own:
        return
    mine = data.draw(st.sampled_from(own))
    theirs = data.draw(st.sampled_from(hidden))
    swap = {mine: theirs, theirs: mine}
    cards = [swap.get(c, c) for c in hidden]
    other = with_hidden_raw(state, viewer, cards)
    hand = tuple(swap.get(c, c) for c in other.player(viewer).raw_cards)
    other = other.model_copy(
        update={
            "players": tuple(
                p.model_copy(update={"raw_cards": hand}) if p.id == viewer else p
                for p in other.players
            )
        }
    )
    assert not status(other, CATALOG)
    assert view(other, viewer) != view(state, viewer)


# --- (2) what is visible is kept ------------------------------------------------------------------

PUBLIC = {
    "version",
    "level",
    "house_rules",
    "turn",
    "round",
    "turn_number",
    "done_this_turn",
    "fight",
    "warehouse",
    "discard",
    "bank",
    "box_coins",
    "installations",
    "unused_installations",
    "missions",
    "ended",
    "end_code",
    "end_reason",
    "claims",
    "quiet_turns",
    "drawn_pile",
}


@SETTINGS
@given(reached())
def test_a_view_keeps_everything_the_player_may_see(case: tuple[GameState, str]) -> None:
    state, viewer = case
    seen = view(state, viewer)
    assert seen.viewer == viewer
    assert seen.model_dump(include=PUBLIC) == state.model_dump(include=PUBLIC)
    hidden = {"seed", "rng", "field", "removed_fate", "piles", "players", "viewer", "drawn"}
    assert set(PUBLIC) | hidden == set(GameState.model_fields), (
        "a new field of the state: decide whether a view shows it"
    )
    # V1.3-draw-two: the cards drawn are seen by the player who drew them alone.
    assert len(seen.drawn) == len(state.drawn)
    if state.drawn and viewer == state.current.id:
        assert seen.drawn == state.drawn
    for mine, real in zip(seen.players, state.players, strict=True):
        assert mine.model_dump(exclude={"raw_cards"}) == real.model_dump(exclude={"raw_cards"})
        assert len(mine.raw_cards) == len(real.raw_cards)
        if real.id == viewer:
            assert mine.raw_cards == real.raw_cards
    assert [len(p) for p in seen.piles] == [len(p) for p in state.piles]
    for mine_pile, real_pile in zip(seen.piles, state.piles, strict=True):
        if real_pile and state.level == "2":
            assert mine_pile[-1] == real_pile[-1], "the top of a pile is visible at level 2"
    assert (seen.field is None) == (state.field is None)
    if seen.field is not None and state.field is not None:
        assert seen.field.base == state.field.base
        assert seen.field.shape == state.field.shape
        assert [c.position for c in seen.field.cells] == [c.position for c in state.field.cells]
        assert [c.raw is None for c in seen.field.cells] == [
            c.raw is None for c in state.field.cells
        ]
        assert len(seen.removed_fate) == len(state.removed_fate)


# --- (3) the referee answers the same -------------------------------------------------------------


def actor(state: GameState) -> str:
    return state.fight.attacker if state.fight is not None else state.current.id


def names_hidden(action: Action, state: GameState, viewer: str) -> bool:
    """True when the action names a card the viewer cannot see."""
    hidden = set(hidden_raw(state, viewer))
    return any(s in hidden for s in strings(action.model_dump(mode="json")))


def paths(state: GameState, player: str) -> Iterator[tuple[Position, ...]]:
    """Every path of one or two steps to neighbouring positions (most of them forbidden)."""
    combine = state.player(player).combine
    if state.field is None or combine is None:
        return
    positions = state.field.positions

    def near(p: Position) -> list[Position]:
        x, y = p
        steps = ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1), (x + 1, y + 1), (x - 1, y - 1))
        return [q for q in steps if q in positions]

    for first in near(combine.position):
        yield (first,)
        for second in near(first):
            yield (first, second)


def candidates(state: GameState, catalog: Catalog, player: str) -> list[Action]:
    """Listed actions and many that are not: the referee must answer them the same."""
    me = state.player(player)
    actions: list[Action] = list(legal_actions(state, catalog))
    actions += [Move(path=path) for path in paths(state, player)]
    actions += [BuyUpgrade(upgrade="solar-battery"), BuyUpgrade(upgrade="armour"), EndTurn()]
    actions += [SellRaw(card=card) for card in me.raw_cards]
    actions += [BuyRaw(card=card) for card in state.warehouse]
    actions += [Claim(mission=mission.id) for mission in catalog.missions]
    if state.level != "1v1":  # head to head: test_head_to_head_take_is_judged_the_same
        actions += [TakeRaw(pile=n) for n in (1, 2, 3)]
    if state.fight is not None:
        actions.append(ResolveFight())
    for installation in state.installations:
        for container in installation.containers:
            if player in container.places:
                ref = ProductRef(
                    installation=installation.number, card=container.card, container=container.index
                )
                price = catalog.substance(container.substance).price
                actions += [
                    FreeToken(product=ref, how="dump"),
                    FreeToken(product=ref, how="sell-bank", price=price),
                ]
    return actions


def exhaustion_check_reads_hands(state: GameState) -> bool:
    """Ending a level-3 turn asks whether any player can react once the field and Warehouse
    are empty (L3.E1): see test_level3_end_of_turn_is_judged_the_same_when_exhausted."""
    return (
        state.level == "3"
        and state.field is not None
        and not any(c.raw for c in state.field.cells)
        and not state.warehouse
    )


def comparable(state: GameState, action: Action, viewer: str) -> bool:
    if names_hidden(action, state, viewer):
        return False
    if isinstance(action, TakeRaw) and state.level == "1v1":
        return False
    if isinstance(action, ResolveFight) and not action.rounds:
        return False  # the dice come from the game's generator, which a view does not hold
    return not (isinstance(action, EndTurn) and exhaustion_check_reads_hands(state))


@SETTINGS
@given(reached())
def test_the_referee_judges_a_view_as_the_full_state(case: tuple[GameState, str]) -> None:
    state, _ = case
    viewer = actor(state)
    seen = view(state, viewer)
    judged = 0
    for action in candidates(state, CATALOG, viewer):
        if not comparable(state, action, viewer):
            continue
        full, partial = check(state, action, CATALOG), check(seen, action, CATALOG)
        assert partial.verdict == full.verdict, f"{action!r}: {full} / on the view: {partial}"
        assert partial.rules == full.rules, action
        judged += 1
    assert judged or state.ended or state.level == "1v1"


@SETTINGS
@given(reached())
def test_every_player_gets_the_same_answers_from_their_view(case: tuple[GameState, str]) -> None:
    """Out of turn too: the drawn player's actions (mostly refused: not their turn), and the
    defender's side of a fight."""
    state, viewer = case
    seen = view(state, viewer)
    actions = [a.model_copy(update={"player": viewer}) for a in candidates(state, CATALOG, viewer)]
    if state.fight is not None and viewer in (state.fight.attacker, state.fight.defender):
        actions.append(ResolveFight(player=viewer))
    for action in actions:
        if comparable(state, action, viewer):
            full, partial = check(state, action, CATALOG), check(seen, action, CATALOG)
            assert partial.verdict == full.verdict, f"{action!r}: {full} / on the view: {partial}"
            assert partial.rules == full.rules, action


@SETTINGS
@given(reached())
def test_a_view_lists_the_same_legal_actions(case: tuple[GameState, str]) -> None:
    state, _ = case
    if state.fight is not None:
        return  # a fight's choices follow the game's dice, which a view does not know (rng)
    viewer = actor(state)
    seen = view(state, viewer)
    full = [a for a in legal_actions(state, CATALOG) if not names_hidden(a, state, viewer)]
    partial = [a for a in legal_actions(seen, CATALOG) if not names_hidden(a, seen, viewer)]
    assert partial == full


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_head_to_head_take_is_judged_the_same_on_a_view(seed: int) -> None:
    state = deal(CATALOG, "1v1", 2, seed)
    seen = view(state, state.current.id)
    for pile in (1, 2, 3):
        action = TakeRaw(pile=pile)
        assert check(seen, action, CATALOG).verdict == check(state, action, CATALOG).verdict
    assert legal_actions(seen, CATALOG) == legal_actions(state, CATALOG)


def exhausted_level3(seed: int) -> GameState:
    """A level-3 game with the field and the Warehouse empty (their cards discarded) and the
    current player's combine moved, so that ending the turn checks L3.E1."""
    state = deal(CATALOG, "3", 3, seed)
    assert state.field is not None
    gone = [c.raw for c in state.field.cells if c.raw] + list(state.warehouse)
    cells = tuple(c.model_copy(update={"raw": None}) for c in state.field.cells)
    # Each other player holds two cards, so their hands are hidden in the view.
    hands = {p.id: tuple(gone[2 * i : 2 * i + 2]) for i, p in enumerate(state.players[1:])}
    held = {card for hand in hands.values() for card in hand}
    players = tuple(p.model_copy(update={"raw_cards": hands.get(p.id, ())}) for p in state.players)
    state = state.model_copy(
        update={
            "field": state.field.model_copy(update={"cells": cells}),
            "warehouse": (),
            "discard": (*state.discard, *(c for c in gone if c not in held)),
            "players": players,
            "done_this_turn": ("move",),
        }
    )
    assert not status(state, CATALOG)
    return state


@pytest.mark.parametrize("seed", [0, 1])
def test_level3_end_of_turn_is_judged_the_same_when_exhausted(seed: int) -> None:
    state = exhausted_level3(seed)
    seen = view(state, state.current.id)
    assert check(state, EndTurn(), CATALOG).verdict == "allowed"
    assert check(seen, EndTurn(), CATALOG).verdict == "allowed"


# --- (4) JSON and the schema; (5) a view of a view ------------------------------------------------


@SETTINGS
@given(reached())
def test_a_view_round_trips_through_json_and_matches_the_schema(
    case: tuple[GameState, str],
) -> None:
    state, viewer = case
    seen = view(state, viewer)
    text = seen.to_json()
    again = GameState.from_json(text)
    assert again == seen
    assert again.to_json() == text
    errors = sorted(SCHEMA.iter_errors(json.loads(text)), key=str)
    assert not errors, "\n".join(error.message for error in errors)
    issues = status(seen, CATALOG)
    assert not issues, "\n".join(f"[{i.rule}] {i.message}" for i in issues)


@SETTINGS
@given(reached())
def test_a_view_of_a_view_is_the_same_view(case: tuple[GameState, str]) -> None:
    state, viewer = case
    seen = view(state, viewer)
    assert view(seen, viewer) == seen
    assert view(GameState.from_json(seen.to_json()), viewer) == seen


def test_a_full_state_is_no_view() -> None:
    state = deal(CATALOG, "1", 2, 3)
    assert state.viewer is None
    assert '"viewer": null' in state.to_json()


# --- status of views ------------------------------------------------------------------------------


def test_status_finds_a_placeholder_used_twice_in_a_view() -> None:
    state = deal(CATALOG, "2", 3, 4)
    seen = view(state, state.players[0].id)
    first = seen.piles[0][0]
    piles = ((first, *seen.piles[0][1:]), (first, *seen.piles[1][1:]), seen.piles[2])
    broken = seen.model_copy(update={"piles": piles})
    messages = [issue.message for issue in status(broken, CATALOG)]
    assert any("placeholder" in m and "2 places" in m for m in messages), messages


def test_status_finds_a_view_with_a_placeholder_too_few() -> None:
    state = deal(CATALOG, "1", 3, 4)
    seen = view(state, state.players[0].id)
    assert seen.field is not None
    cells = tuple(
        c.model_copy(update={"raw": None}) if i == 0 else c for i, c in enumerate(seen.field.cells)
    )
    broken = seen.model_copy(update={"field": seen.field.model_copy(update={"cells": cells})})
    messages = [issue.message for issue in status(broken, CATALOG)]
    assert any("placeholder" in m for m in messages), messages


def test_status_does_not_accept_placeholders_in_a_full_state() -> None:
    state = deal(CATALOG, "2", 2, 4)
    piles = (("hidden#1", *state.piles[0][1:]), *state.piles[1:])
    messages = [
        issue.message for issue in status(state.model_copy(update={"piles": piles}), CATALOG)
    ]
    assert any("'hidden#1'" in m and "not a card of the box" in m for m in messages), messages


# --- (6) errors -----------------------------------------------------------------------------------


def test_an_unknown_player_is_a_clean_error() -> None:
    state = deal(CATALOG, "1", 3, 1)
    with pytest.raises(ViewError) as caught:
        view(state, "purple-nobody")
    assert isinstance(caught.value, MhpError)
    assert not isinstance(caught.value, KeyError)
    message = str(caught.value)
    assert "purple-nobody" in message
    for player in state.players:
        assert player.id in message
    assert caught.value.players == tuple(p.id for p in state.players)


def test_another_players_view_cannot_be_seen_through() -> None:
    state = deal(CATALOG, "2", 3, 1)
    first, second = state.players[0].id, state.players[1].id
    with pytest.raises(ViewError, match=f"{first}'s view"):
        view(view(state, first), second)


# --- the public view (a phone without a seat once players hold their own) -------------------------


@SETTINGS
@given(reached())
def test_the_public_view_hides_every_hand_and_keeps_the_rest(case: tuple[GameState, str]) -> None:
    state, viewer = case
    seen = public_view(state)
    assert seen.viewer == PUBLIC_VIEWER
    assert (seen.seed, seen.rng) == (0, 0)
    for player, shown in zip(state.players, seen.players, strict=True):
        assert len(shown.raw_cards) == len(player.raw_cards)
        assert all(PLACEHOLDER.match(card) for card in shown.raw_cards)
        assert shown.money == player.money
        assert shown.combine == player.combine
    # Whatever a player does not see, the public does not either; and their own hand besides.
    mine = view(state, viewer)
    assert seen.field == mine.field
    assert seen.piles == mine.piles
    assert seen.warehouse == state.warehouse
    text = seen.to_json()
    for card in {c for p in state.players for c in p.raw_cards}:
        assert f'"{card}"' not in text
    assert GameState.from_json(text) == seen
    errors = sorted(SCHEMA.iter_errors(json.loads(text)), key=str)
    assert not errors, "\n".join(error.message for error in errors)
    issues = status(seen, CATALOG)
    assert not issues, "\n".join(f"[{i.rule}] {i.message}" for i in issues)
    assert public_view(seen) == seen


def test_a_players_view_is_not_made_public_nor_the_public_one_a_players() -> None:
    state = deal(CATALOG, "1", 3, 1)
    first = state.players[0].id
    with pytest.raises(ViewError, match=f"{first}'s view"):
        public_view(view(state, first))
    with pytest.raises(ViewError, match="the public view"):
        view(public_view(state), first)


def test_the_winner_of_a_fight_sees_the_losers_cards_while_choosing() -> None:
    """Ruling L1.T4.R4: the winner looks at all the loser's raw cards; nobody else does."""
    state = deal(CATALOG, "1", 3, 3)
    assert state.field is not None
    red, blue, green = (p.id for p in state.players)
    cards = [c.raw for c in state.field.cells if c.raw][:3]
    cells = tuple(
        c.model_copy(update={"raw": None}) if c.raw in cards else c for c in state.field.cells
    )
    players = tuple(
        p.model_copy(update={"raw_cards": tuple(cards)}) if p.id == blue else p
        for p in state.players
    )
    state = state.model_copy(
        update={
            "field": state.field.with_cards(cells),
            "players": players,
            "fight": Fight(attacker=red, defender=blue, cell=(4, 0), rounds=((6, 1),), winner=red),
        }
    )
    assert view(state, red).player(blue).raw_cards == tuple(cards)
    for other in (blue, green):
        hidden = view(state, other).player(blue).raw_cards
        assert (other == blue) == (hidden == tuple(cards))
    assert all(c.startswith("hidden#") for c in view(state, green).player(blue).raw_cards)
    assert all(c.startswith("hidden#") for c in public_view(state).player(blue).raw_cards)
    # Once the spoils are taken, the loser's hand is face down again.
    taken = state.model_copy(update={"fight": state.fight.model_copy(update={"taken": 0})})
    assert all(c.startswith("hidden#") for c in view(taken, red).player(blue).raw_cards)


def test_a_hidden_player_kept_from_view_to_view_follows_their_hand() -> None:
    """Each other player is hidden once for their object and placeholders: a view made with
    nothing kept is the same, and a card gained shows as one more placeholder."""
    from mhp_cards.game import visibility

    rng = random.Random(3)
    state = deal(CATALOG, "2", players=4, seed=3)
    for _ in range(60):
        if state.ended:
            break
        me = state.current.id
        kept = view(state, me)
        visibility._HIDDEN_PLAYERS.clear()
        assert view(state, me) == kept
        other = state.players[(state.turn + 1) % len(state.players)]
        card = state.piles[0][0] if state.piles[0] else None
        if card is not None:  # a card more for another player: their placeholders grow
            richer = other.model_copy(update={"raw_cards": (*other.raw_cards, card)})
            more = state.model_copy(
                update={"players": tuple(richer if p is other else p for p in state.players)}
            )
            assert len(view(more, me).player(other.id).raw_cards) == len(other.raw_cards) + 1
        legal = legal_actions(state, CATALOG)
        state, _ = apply(state, rng.choice(legal), CATALOG)
