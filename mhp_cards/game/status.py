"""Consistency of a game state: every problem at once, each with the rule it breaks.

``status(state, catalog)`` returns located issues (a field path into the state, what is wrong,
the rule); ``is_valid`` is "no issue". Checked: coins add up to the box's count; every raw card
and Fate card is in exactly one place; players, colours and turn are sound; combines stand on
the field and hold no more than the level allows; and the chemistry
(:mod:`mhp_cards.game.chemistry_status`): chemist tokens are the count the rule in force gives
and stand only on product places and mission places, installations are the catalog's and
assemble, missions match the Mission card. A player's view (``state.viewer`` set) is checked
the same way, each placeholder standing for one card of the box that the view does not show.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.chemistry_status import installation_issues, mission_issues, token_issues
from mhp_cards.game.dealer import fate_instances, raw_instances
from mhp_cards.game.setups import PLAYERS_TEXT
from mhp_cards.game.state import GameState
from mhp_cards.game.visibility import PUBLIC, is_hidden
from mhp_cards.issues import Issue
from mhp_cards.rules.numbers import (
    COMBINE_CAPACITY,
    FATE_REMOVED,
    FIGHT_TAKE,
    HEAD_TO_HEAD_PLAYERS,
    MIN_FIELD,
    PLAYERS,
    WAREHOUSE_SIZE,
)

__all__ = ["is_valid", "status"]


def _by_level(state: GameState, level1: str, level2: str, level3: str) -> str:
    """The rule of the state's level among its three versions (head to head plays level 2)."""
    return {"1": level1, "2": level2, "1v1": level2, "3": level3}[state.level]


def status(state: GameState, catalog: Catalog) -> tuple[Issue, ...]:
    """Every consistency problem of ``state`` against the catalog's box."""
    return (
        *_players(state, catalog),
        *_coins(state, catalog),
        *_raw_cards(state, catalog),
        *_fate_cards(state, catalog),
        *_combines(state),
        *_fight(state),
        *token_issues(state, catalog),
        *installation_issues(state, catalog),
        *mission_issues(state, catalog),
    )


def is_valid(state: GameState, catalog: Catalog) -> bool:
    """True when ``status`` finds nothing."""
    return not status(state, catalog)


def _players(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    colours = {colour.id for colour in catalog.components.colours}
    count = len(state.players)
    if state.level == "1v1" and count != HEAD_TO_HEAD_PLAYERS:
        yield Issue.broken(
            "players",
            f"{count} players; head to head is for {HEAD_TO_HEAD_PLAYERS}",
            ("players",),
            "V1.1",
        )
    elif count not in PLAYERS:
        yield Issue.broken(
            "players",
            f"{count} players; the game is for {PLAYERS_TEXT}",
            ("players",),
            _by_level(state, "L1.S4", "L2.S7", "L3.S3"),
        )
    seen: set[str] = set()
    for index, player in enumerate(state.players):
        if player.id not in colours:
            yield Issue.broken(
                "players",
                f"player colour {player.id!r} is not one of the box's colours",
                ("players", index, "id"),
                "L1.S4",
                hint=", ".join(sorted(colours)),
            )
        if player.id in seen:
            yield Issue.broken(
                "players",
                f"two players have the colour {player.id!r}",
                ("players", index, "id"),
                "L1.S4",
            )
        seen.add(player.id)
    if state.viewer is not None and state.viewer != PUBLIC and state.viewer not in seen:
        yield Issue.broken(
            "players", f"the view is for {state.viewer!r}, who is not playing", ("viewer",), "L1.S4"
        )
    if not 0 <= state.turn < count:
        yield Issue.broken("turn", f"turn {state.turn} names no player", ("turn",), "L1.T1")


def _fight(state: GameState) -> Iterator[Issue]:
    """A pending fight names two players, and its winner and spoils in their order (L1.T4.R4)."""
    fight = state.fight
    if fight is None:
        return
    ids = {player.id for player in state.players}
    for side in ("attacker", "defender"):
        if getattr(fight, side) not in ids:
            yield Issue.broken(
                "fight",
                f"the fight's {side} {getattr(fight, side)!r} is not playing",
                ("fight", side),
                "L1.T4",
            )
    if fight.attacker == fight.defender:
        yield Issue.broken(
            "fight", "a player cannot attack themselves", ("fight", "defender"), "L1.T4"
        )
    if fight.winner is not None and fight.winner not in (fight.attacker, fight.defender):
        yield Issue.broken(
            "fight", f"the winner {fight.winner!r} did not fight", ("fight", "winner"), "L1.T4"
        )
    if fight.taken is not None and fight.winner is None:
        yield Issue.broken(
            "fight", "spoils taken before the dice named a winner", ("fight", "taken"), "L1.T4.R4"
        )
    if fight.taken is not None and fight.taken > FIGHT_TAKE:
        yield Issue.broken(
            "fight",
            f"{fight.taken} cards taken; the winner takes at most {FIGHT_TAKE}",
            ("fight", "taken"),
            "L1.T4",
        )


def _coins(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    box = catalog.components.coins.count
    total = state.bank + state.box_coins + sum(player.money for player in state.players)
    if total != box:
        rule = _by_level(state, "L1.S5", "L2.S7", "L3.S4")
        yield Issue.broken(
            "coins",
            f"coins add up to {total} (Bank {state.bank}, players "
            f"{sum(p.money for p in state.players)}, box {state.box_coins}); the game has {box}",
            ("bank",),
            rule,
        )


def _raw_cards(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    rule = _by_level(state, "L1.S3", "L2.S6", "L3.S2")
    expected = set(raw_instances(catalog))
    places: dict[str, list[str]] = {}
    for card, where in state.raw_locations():
        places.setdefault(card, []).append(where)
    hidden = {card for card in places if is_hidden(card)} if state.viewer is not None else set()
    for card, wheres in sorted(places.items()):
        if card in hidden:
            if len(wheres) > 1:
                yield Issue.broken(
                    "raw-cards",
                    f"placeholder {card!r} is in {len(wheres)} places: {', '.join(wheres)}",
                    ("raw_cards",),
                    rule,
                )
        elif card not in expected:
            yield Issue.broken(
                "raw-cards",
                f"raw card {card!r} ({wheres[0]}) is not a card of the box",
                ("raw_cards",),
                rule,
            )
        elif len(wheres) > 1:
            yield Issue.broken(
                "raw-cards",
                f"raw card {card!r} is in {len(wheres)} places: {', '.join(wheres)}",
                ("raw_cards",),
                rule,
            )
    missing = sorted(expected - set(places))
    if state.viewer is not None:
        # A view: each card of the box that the viewer cannot see stands behind one placeholder.
        if len(missing) != len(hidden):
            yield Issue.broken(
                "raw-cards",
                f"the view has {len(hidden)} placeholder(s) for the {len(missing)} raw card(s) "
                "it does not show",
                ("raw_cards",),
                rule,
            )
    elif missing:
        shown = ", ".join(missing[:5]) + ("…" if len(missing) > 5 else "")
        yield Issue.broken(
            "raw-cards",
            f"{len(missing)} raw card(s) are nowhere: {shown}",
            ("raw_cards",),
            rule,
        )
    at_start = state.turn_number == 0 and not state.done_this_turn
    if state.level in ("1", "3") and at_start and state.field:
        low, high = WAREHOUSE_SIZE[state.level]
        untouched = all(cell.raw for cell in state.field.cells) and not any(
            player.raw_cards for player in state.players
        )
        if untouched and not low <= len(state.warehouse) <= high:
            rule = "L1.S3" if state.level == "1" else "L3.S2"
            yield Issue.broken(
                "raw-cards",
                f"the Warehouse holds {len(state.warehouse)} cards at the start; {low}..{high}",
                ("warehouse",),
                rule,
            )


def _fate_cards(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    if state.field is None:
        return
    rule = _by_level(state, "L1.S1", "L1.S1", "L3.S1")
    expected = set(fate_instances(catalog))
    laid = [cell.fate for cell in state.field.cells]
    counts = Counter([*laid, *state.removed_fate])
    hidden = {card for card in counts if is_hidden(card)} if state.viewer is not None else set()
    for card, count in sorted(counts.items()):
        if card in hidden:
            if count > 1:
                yield Issue.broken(
                    "fate-cards", f"placeholder {card!r} is used {count} times", ("field",), rule
                )
        elif card not in expected:
            yield Issue.broken(
                "fate-cards", f"{card!r} is not a Fate card of the box", ("field",), rule
            )
        elif count > 1:
            yield Issue.broken(
                "fate-cards", f"Fate card {card!r} is used {count} times", ("field",), rule
            )
    missing = expected - set(counts)
    if hidden and len(missing) != len(hidden):
        yield Issue.broken(
            "fate-cards",
            f"the view has {len(hidden)} placeholder(s) for the {len(missing)} Fate card(s) it "
            "does not show",
            ("removed_fate",),
            rule,
        )
    elif missing and not hidden:
        yield Issue.broken(
            "fate-cards",
            f"{len(missing)} Fate card(s) are neither on the field nor set aside",
            ("removed_fate",),
            rule,
        )
    if not FATE_REMOVED[0] <= len(state.removed_fate) <= FATE_REMOVED[1]:
        yield Issue.broken(
            "fate-cards",
            f"{len(state.removed_fate)} Fate cards set aside; the rules remove 8..12",
            ("removed_fate",),
            rule,
        )
    if len(laid) < MIN_FIELD:
        yield Issue.broken(
            "fate-cards",
            f"the field has {len(laid)} cards; at least {MIN_FIELD}",
            ("field",),
            rule,
        )
    positions = [cell.position for cell in state.field.cells]
    doubled = [p for p, n in Counter(positions).items() if n > 1]
    for position in doubled:
        yield Issue.broken("field", f"two cells at {position}", ("field", "cells"), "L1.S2")
    if state.field.base in positions:
        yield Issue.broken("field", "a cell lies on the Base", ("field", "base"), "L1.S2")


def _combines(state: GameState) -> Iterator[Issue]:
    if state.field is None and state.level in ("1", "3"):
        yield Issue.broken(
            "field",
            f"a level-{state.level} game has no field",
            ("field",),
            _by_level(state, "L1.S2", "L1.S2", "L3.S1"),
        )
        return
    for index, player in enumerate(state.players):
        combine = player.combine
        if state.field is None:
            if combine is not None:
                yield Issue.broken(
                    "combines",
                    f"{player.id} has a combine at level {state.level}",
                    ("players", index, "combine"),
                    "L2.S1",
                )
            continue
        if combine is None:
            yield Issue.broken(
                "combines",
                f"{player.id} has no combine",
                ("players", index, "combine"),
                _by_level(state, "L1.S4", "L1.S4", "L3.S3"),
            )
            continue
        if combine.position not in state.field.positions:
            yield Issue.broken(
                "combines",
                f"{player.id}'s combine stands at {combine.position}, off the field",
                ("players", index, "combine", "position"),
                "L1.T1",
            )
        if state.level == "3" and len(player.raw_cards) > COMBINE_CAPACITY:
            yield Issue.broken(
                "combines",
                f"{player.id}'s combine holds {len(player.raw_cards)} raw cards; at most "
                f"{COMBINE_CAPACITY}",
                ("players", index, "raw_cards"),
                "L3.S3",
            )
