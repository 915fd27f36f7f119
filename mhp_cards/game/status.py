"""Consistency of a game state: every problem at once, each with the rule it breaks.

``status(state, catalog)`` returns located issues (a field path into the state, what is wrong,
the rule); ``is_valid`` is "no issue". Checked: coins add up to the box's count; every raw card
and Fate card is in exactly one place; players, colours and turn are sound; combines stand on
the field and hold no more than the level allows; chemist tokens are within 8 a player and stand
only on product places and mission places; installations are the catalog's and assemble;
missions match the Mission card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from mhp_cards.assembly import Arrangement, check_arrangement
from mhp_cards.catalog.models import Catalog
from mhp_cards.game.dealer import fate_instances, raw_instances
from mhp_cards.game.state import GameState
from mhp_cards.issues import Issue
from mhp_cards.setups import MIN_FIELD, REMOVE, TOKENS_PER_PLAYER, WAREHOUSE

__all__ = ["LEVEL3_CAPACITY", "is_valid", "status"]

LEVEL3_CAPACITY = 6


def _issue(
    check: str, message: str, path: tuple[str | int, ...], rule: str, hint: str = ""
) -> Issue:
    return Issue(check, message, path=path, rule=rule, hint=hint)


def status(state: GameState, catalog: Catalog) -> tuple[Issue, ...]:
    """Every consistency problem of ``state`` against the catalog's box."""
    return (
        *_players(state, catalog),
        *_coins(state, catalog),
        *_raw_cards(state, catalog),
        *_fate_cards(state, catalog),
        *_combines(state),
        *_tokens(state, catalog),
        *_installations(state, catalog),
        *_missions(state, catalog),
    )


def is_valid(state: GameState, catalog: Catalog) -> bool:
    """True when ``status`` finds nothing."""
    return not status(state, catalog)


def _players(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    colours = {colour.id for colour in catalog.components.colours}
    count = len(state.players)
    if state.level == "1v1" and count != 2:
        yield _issue("players", f"{count} players; head to head is for 2", ("players",), "V1.1")
    elif not 2 <= count <= 5:
        yield _issue("players", f"{count} players; the game is for 2 to 5", ("players",), "L1.S4")
    seen: set[str] = set()
    for index, player in enumerate(state.players):
        if player.id not in colours:
            yield _issue(
                "players",
                f"player colour {player.id!r} is not one of the box's colours",
                ("players", index, "id"),
                "L1.S4",
                hint=", ".join(sorted(colours)),
            )
        if player.id in seen:
            yield _issue(
                "players",
                f"two players have the colour {player.id!r}",
                ("players", index, "id"),
                "L1.S4",
            )
        seen.add(player.id)
    if not 0 <= state.turn < count:
        yield _issue("turn", f"turn {state.turn} names no player", ("turn",), "L1.T1")


def _coins(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    box = catalog.components.coins.count
    total = state.bank + state.box_coins + sum(player.money for player in state.players)
    if total != box:
        rule = "L2.S7" if state.level in ("2", "1v1") else "L1.S5"
        yield _issue(
            "coins",
            f"coins add up to {total} (Bank {state.bank}, players "
            f"{sum(p.money for p in state.players)}, box {state.box_coins}); the game has {box}",
            ("bank",),
            rule,
        )


def _raw_cards(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    expected = set(raw_instances(catalog))
    places: dict[str, list[str]] = {}
    for card, where in state.raw_locations():
        places.setdefault(card, []).append(where)
    for card, wheres in sorted(places.items()):
        if card not in expected:
            yield _issue(
                "raw-cards",
                f"raw card {card!r} ({wheres[0]}) is not a card of the box",
                ("raw_cards",),
                "L1.S3",
            )
        elif len(wheres) > 1:
            yield _issue(
                "raw-cards",
                f"raw card {card!r} is in {len(wheres)} places: {', '.join(wheres)}",
                ("raw_cards",),
                "L1.S3",
            )
    missing = sorted(expected - set(places))
    if missing:
        shown = ", ".join(missing[:5]) + ("…" if len(missing) > 5 else "")
        yield _issue(
            "raw-cards",
            f"{len(missing)} raw card(s) are nowhere: {shown}",
            ("raw_cards",),
            "L1.S3",
        )
    at_start = state.turn_number == 0 and not state.done_this_turn
    if state.level in ("1", "3") and at_start and state.field:
        low, high = WAREHOUSE[state.level]
        untouched = all(cell.raw for cell in state.field.cells) and not any(
            player.raw_cards for player in state.players
        )
        if untouched and not low <= len(state.warehouse) <= high:
            rule = "L1.S3" if state.level == "1" else "L3.S2"
            yield _issue(
                "raw-cards",
                f"the Warehouse holds {len(state.warehouse)} cards at the start; {low}..{high}",
                ("warehouse",),
                rule,
            )


def _fate_cards(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    if state.field is None:
        return
    expected = set(fate_instances(catalog))
    laid = [cell.fate for cell in state.field.cells]
    counts = Counter([*laid, *state.removed_fate])
    for card, count in sorted(counts.items()):
        if card not in expected:
            yield _issue(
                "fate-cards", f"{card!r} is not a Fate card of the box", ("field",), "L1.S1"
            )
        elif count > 1:
            yield _issue(
                "fate-cards", f"Fate card {card!r} is used {count} times", ("field",), "L1.S1"
            )
    if set(counts) < expected:
        yield _issue(
            "fate-cards",
            f"{len(expected - set(counts))} Fate card(s) are neither on the field nor set aside",
            ("removed_fate",),
            "L1.S1",
        )
    if not REMOVE[0] <= len(state.removed_fate) <= REMOVE[1]:
        yield _issue(
            "fate-cards",
            f"{len(state.removed_fate)} Fate cards set aside; the rules remove 8..12",
            ("removed_fate",),
            "L1.S1",
        )
    if len(laid) < MIN_FIELD:
        yield _issue(
            "fate-cards",
            f"the field has {len(laid)} cards; at least {MIN_FIELD}",
            ("field",),
            "L1.S1",
        )
    positions = [cell.position for cell in state.field.cells]
    doubled = [p for p, n in Counter(positions).items() if n > 1]
    for position in doubled:
        yield _issue("field", f"two cells at {position}", ("field", "cells"), "L1.S2")
    if state.field.base in positions:
        yield _issue("field", "a cell lies on the Base", ("field", "base"), "L1.S2")


def _combines(state: GameState) -> Iterator[Issue]:
    for index, player in enumerate(state.players):
        combine = player.combine
        if state.field is None:
            if combine is not None:
                yield _issue(
                    "combines",
                    f"{player.id} has a combine at level {state.level}",
                    ("players", index, "combine"),
                    "L2.S1",
                )
            continue
        if combine is None:
            yield _issue(
                "combines", f"{player.id} has no combine", ("players", index, "combine"), "L1.S4"
            )
            continue
        if combine.position not in state.field.positions:
            yield _issue(
                "combines",
                f"{player.id}'s combine stands at {combine.position}, off the field",
                ("players", index, "combine", "position"),
                "L1.T1",
            )
        if state.level == "3" and len(player.raw_cards) > LEVEL3_CAPACITY:
            yield _issue(
                "combines",
                f"{player.id}'s combine holds {len(player.raw_cards)} raw cards; at most "
                f"{LEVEL3_CAPACITY}",
                ("players", index, "raw_cards"),
                "L3.S3",
            )


def _tokens(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    colours = {player.id for player in state.players}
    for index, player in enumerate(state.players):
        expected = 0 if state.level == "1" else TOKENS_PER_PLAYER
        if player.tokens != expected:
            rule = "L1.S1" if state.level == "1" else ("L3.S5" if state.level == "3" else "L2.S7")
            yield _issue(
                "tokens",
                f"{player.id} has {player.tokens} chemist tokens; the level gives {expected}",
                ("players", index, "tokens"),
                rule,
            )
        if state.tokens_placed(player.id) > player.tokens:
            yield _issue(
                "tokens",
                f"{player.id} has {state.tokens_placed(player.id)} tokens on the table but owns "
                f"{player.tokens}",
                ("players", index, "tokens"),
                "L2.T4",
            )
    for i, installation in enumerate(state.installations):
        for k, container in enumerate(installation.containers):
            for token in container.places:
                if token is not None and token not in colours:
                    yield _issue(
                        "tokens",
                        f"a token of {token!r}, who is not playing, stands on {container.card}",
                        ("installations", i, "containers", k),
                        "L2.T4",
                    )
            if container.role != "product" and container.places:
                yield _issue(
                    "tokens",
                    f"tokens stand on the {container.role} container of {container.substance} on "
                    f"{container.card}; tokens go on products",
                    ("installations", i, "containers", k),
                    "L2.T4",
                )


def _installations(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    if state.level == "1":
        if state.installations:
            yield _issue(
                "installations",
                "installations are not used at level 1",
                ("installations",),
                "L1.S1",
            )
        return
    colours = {player.id for player in state.players}
    numbers = [installation.number for installation in state.installations]
    known = {installation.number for installation in catalog.installations}
    for i, installation in enumerate(state.installations):
        if installation.number not in known:
            yield _issue(
                "installations",
                f"no installation {installation.number} in the catalog",
                ("installations", i, "number"),
                "L2.S3",
            )
            continue
        if installation.owner is not None and installation.owner not in colours:
            yield _issue(
                "installations",
                f"installation {installation.number} belongs to {installation.owner!r}, who is "
                "not playing",
                ("installations", i, "owner"),
                "L2.S2",
            )
        if state.level == "1v1" and installation.owner is None:
            yield _issue(
                "installations",
                f"installation {installation.number} is shared; head to head has no shared ones",
                ("installations", i, "owner"),
                "V1.2",
            )
        try:
            arrangement = Arrangement.parse(installation.arrangement)
        except ValueError as error:
            yield _issue(
                "installations",
                f"installation {installation.number}: {error}",
                ("installations", i, "arrangement"),
                "L2.S3",
            )
            continue
        report = check_arrangement(catalog, arrangement)
        for problem in report.problems:
            yield _issue(
                "installations",
                f"installation {installation.number} is not assembled right: {problem}",
                ("installations", i, "arrangement"),
                "L2.S3",
            )
    for number, count in Counter(numbers).items():
        if count > 1:
            yield _issue(
                "installations",
                f"installation {number} is on the table {count} times",
                ("installations",),
                "L2.S2",
            )
    owned = Counter(i.owner for i in state.installations if i.owner is not None)
    for player in state.players:
        if owned[player.id] == 0:
            rule = "V1.2" if state.level == "1v1" else "L2.S2"
            yield _issue(
                "installations",
                f"{player.id} has no installation of their own",
                ("installations",),
                rule,
            )


def _missions(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    if state.level == "1":
        return
    expected = {m.id: m for m in catalog.missions}
    if [m.id for m in state.missions] != list(expected):
        yield _issue(
            "missions",
            f"the Mission card holds {[m.id for m in state.missions]}, not {list(expected)}",
            ("missions",),
            "L2.M1",
        )
        return
    for i, mission in enumerate(state.missions):
        model = expected[mission.id]
        shapes = [(formula, len(tokens)) for formula, tokens in mission.places]
        wanted = [(place.formula, place.count) for place in model.places]
        if shapes != wanted:
            yield _issue(
                "missions",
                f"mission {mission.id} has places {shapes}; the card shows {wanted}",
                ("missions", i),
                "L2.M1",
            )
