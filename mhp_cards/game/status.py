"""Consistency of a game state: every problem at once, each with the rule it breaks.

``status(state, catalog)`` returns located issues (a field path into the state, what is wrong,
the rule); ``is_valid`` is "no issue". Checked: coins add up to the box's count; every raw card
and Fate card is in exactly one place; players, colours and turn are sound; combines stand on
the field and hold no more than the level allows; chemist tokens are within 8 a player and stand
only on product places and mission places; installations are the catalog's and assemble;
missions match the Mission card. A player's view (``state.viewer`` set) is checked the same
way, each placeholder standing for one card of the box that the view does not show.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from mhp_cards.assembly.arrangement import Arrangement, check_arrangement
from mhp_cards.assembly.played import played_containers
from mhp_cards.catalog.models import Catalog, Installation
from mhp_cards.game.dealer import fate_instances, raw_instances
from mhp_cards.game.setups import PLAYERS_TEXT
from mhp_cards.game.state import GameState, InstallationState
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
    chemist_tokens,
    chemist_tokens_rule,
)
from mhp_cards.wording import listing

__all__ = ["is_valid", "status"]


def _issue(
    check: str, message: str, path: tuple[str | int, ...], rule: str, hint: str = ""
) -> Issue:
    return Issue(check, message, path=path, rule=rule, hint=hint)


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
    if state.level == "1v1" and count != HEAD_TO_HEAD_PLAYERS:
        yield _issue(
            "players",
            f"{count} players; head to head is for {HEAD_TO_HEAD_PLAYERS}",
            ("players",),
            "V1.1",
        )
    elif count not in PLAYERS:
        yield _issue(
            "players",
            f"{count} players; the game is for {PLAYERS_TEXT}",
            ("players",),
            _by_level(state, "L1.S4", "L2.S7", "L3.S3"),
        )
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
    if state.viewer is not None and state.viewer != PUBLIC and state.viewer not in seen:
        yield _issue(
            "players", f"the view is for {state.viewer!r}, who is not playing", ("viewer",), "L1.S4"
        )
    if not 0 <= state.turn < count:
        yield _issue("turn", f"turn {state.turn} names no player", ("turn",), "L1.T1")


def _fight(state: GameState) -> Iterator[Issue]:
    """A pending fight names two players, and its winner and spoils in their order (L1.T4.R4)."""
    fight = state.fight
    if fight is None:
        return
    ids = {player.id for player in state.players}
    for side in ("attacker", "defender"):
        if getattr(fight, side) not in ids:
            yield _issue(
                "fight",
                f"the fight's {side} {getattr(fight, side)!r} is not playing",
                ("fight", side),
                "L1.T4",
            )
    if fight.attacker == fight.defender:
        yield _issue("fight", "a player cannot attack themselves", ("fight", "defender"), "L1.T4")
    if fight.winner is not None and fight.winner not in (fight.attacker, fight.defender):
        yield _issue(
            "fight", f"the winner {fight.winner!r} did not fight", ("fight", "winner"), "L1.T4"
        )
    if fight.taken is not None and fight.winner is None:
        yield _issue(
            "fight", "spoils taken before the dice named a winner", ("fight", "taken"), "L1.T4.R4"
        )
    if fight.taken is not None and fight.taken > FIGHT_TAKE:
        yield _issue(
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
        yield _issue(
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
                yield _issue(
                    "raw-cards",
                    f"placeholder {card!r} is in {len(wheres)} places: {', '.join(wheres)}",
                    ("raw_cards",),
                    rule,
                )
        elif card not in expected:
            yield _issue(
                "raw-cards",
                f"raw card {card!r} ({wheres[0]}) is not a card of the box",
                ("raw_cards",),
                rule,
            )
        elif len(wheres) > 1:
            yield _issue(
                "raw-cards",
                f"raw card {card!r} is in {len(wheres)} places: {', '.join(wheres)}",
                ("raw_cards",),
                rule,
            )
    missing = sorted(expected - set(places))
    if state.viewer is not None:
        # A view: each card of the box that the viewer cannot see stands behind one placeholder.
        if len(missing) != len(hidden):
            yield _issue(
                "raw-cards",
                f"the view has {len(hidden)} placeholder(s) for the {len(missing)} raw card(s) "
                "it does not show",
                ("raw_cards",),
                rule,
            )
    elif missing:
        shown = ", ".join(missing[:5]) + ("…" if len(missing) > 5 else "")
        yield _issue(
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
            yield _issue(
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
                yield _issue(
                    "fate-cards", f"placeholder {card!r} is used {count} times", ("field",), rule
                )
        elif card not in expected:
            yield _issue("fate-cards", f"{card!r} is not a Fate card of the box", ("field",), rule)
        elif count > 1:
            yield _issue(
                "fate-cards", f"Fate card {card!r} is used {count} times", ("field",), rule
            )
    missing = expected - set(counts)
    if hidden and len(missing) != len(hidden):
        yield _issue(
            "fate-cards",
            f"the view has {len(hidden)} placeholder(s) for the {len(missing)} Fate card(s) it "
            "does not show",
            ("removed_fate",),
            rule,
        )
    elif missing and not hidden:
        yield _issue(
            "fate-cards",
            f"{len(missing)} Fate card(s) are neither on the field nor set aside",
            ("removed_fate",),
            rule,
        )
    if not FATE_REMOVED[0] <= len(state.removed_fate) <= FATE_REMOVED[1]:
        yield _issue(
            "fate-cards",
            f"{len(state.removed_fate)} Fate cards set aside; the rules remove 8..12",
            ("removed_fate",),
            rule,
        )
    if len(laid) < MIN_FIELD:
        yield _issue(
            "fate-cards",
            f"the field has {len(laid)} cards; at least {MIN_FIELD}",
            ("field",),
            rule,
        )
    positions = [cell.position for cell in state.field.cells]
    doubled = [p for p, n in Counter(positions).items() if n > 1]
    for position in doubled:
        yield _issue("field", f"two cells at {position}", ("field", "cells"), "L1.S2")
    if state.field.base in positions:
        yield _issue("field", "a cell lies on the Base", ("field", "base"), "L1.S2")


def _combines(state: GameState) -> Iterator[Issue]:
    if state.field is None and state.level in ("1", "3"):
        yield _issue(
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
                yield _issue(
                    "combines",
                    f"{player.id} has a combine at level {state.level}",
                    ("players", index, "combine"),
                    "L2.S1",
                )
            continue
        if combine is None:
            yield _issue(
                "combines",
                f"{player.id} has no combine",
                ("players", index, "combine"),
                _by_level(state, "L1.S4", "L1.S4", "L3.S3"),
            )
            continue
        if combine.position not in state.field.positions:
            yield _issue(
                "combines",
                f"{player.id}'s combine stands at {combine.position}, off the field",
                ("players", index, "combine", "position"),
                "L1.T1",
            )
        if state.level == "3" and len(player.raw_cards) > COMBINE_CAPACITY:
            yield _issue(
                "combines",
                f"{player.id}'s combine holds {len(player.raw_cards)} raw cards; at most "
                f"{COMBINE_CAPACITY}",
                ("players", index, "raw_cards"),
                "L3.S3",
            )


def _tokens(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    colours = {player.id for player in state.players}
    for index, player in enumerate(state.players):
        players, house = len(state.players), state.house_rules
        expected = chemist_tokens(state.level, players, house)
        if player.tokens != expected:
            rule = chemist_tokens_rule(state.level, players, house)
            yield _issue(
                "tokens",
                f"{player.id} has {player.tokens} chemist tokens; "
                + (
                    f"two players take {expected} each"
                    if rule == "L2.S7-two"
                    else f"the level gives {expected}"
                ),
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
        if state.level == "1v1" and not catalog.runs_alone(
            catalog.installation(installation.number)
        ):
            yield _issue(
                "installations",
                f"installation {installation.number} needs a product of another installation "
                "and can never run head to head",
                ("installations", i, "number"),
                "V1.2-runnable",
                "deal one that runs from raw cards alone: "
                + _numbers(catalog.installations_running_alone),
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
        if report.installation not in (None, installation.number):
            yield _issue(
                "installations",
                f"installation {installation.number} is built from the cards of installation "
                f"{report.installation}",
                ("installations", i, "arrangement"),
                "L2.S3",
            )
        if not any(problem.code == "unknown-card" for problem in report.problems):
            yield from _containers_match(catalog, installation, arrangement, i)
    for number, count in Counter(numbers).items():
        if count > 1:
            yield _issue(
                "installations",
                f"installation {number} is on the table {count} times",
                ("installations",),
                "L2.S2",
            )
    yield from _electrolysers_once(state)
    yield from _installations_accounted(state, catalog)
    owned = Counter(i.owner for i in state.installations if i.owner is not None)
    for index, player in enumerate(state.players):
        one_each = state.level == "1v1" or not state.house_rules.deal_evenly
        # Ruling V1.2-choose: head to head, a player holds the installations dealt until they
        # keep one, on their first turn.
        keeping = (
            state.level == "1v1"
            and not state.house_rules.installation_at_random
            and state.turn_number <= index
        )
        if one_each and owned[player.id] > 1 and not keeping:
            rule = "V1.2" if state.level == "1v1" else "L2.S2.R1"
            yield _issue(
                "installations",
                f"{player.id} owns {owned[player.id]} installations; one per player",
                ("installations",),
                rule,
            )
        if owned[player.id] == 0:
            rule = "V1.2" if state.level == "1v1" else "L2.S2"
            yield _issue(
                "installations",
                f"{player.id} has no installation of their own",
                ("installations",),
                rule,
            )


def _numbers(installations: Sequence[Installation]) -> str:
    return ", ".join(str(installation.number) for installation in installations)


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
    colours = {player.id for player in state.players}
    for i, mission in enumerate(state.missions):
        for formula, tokens in mission.places:
            for token in tokens:
                if token is not None and token not in colours:
                    yield _issue(
                        "missions",
                        f"a token of {token!r}, who is not playing, stands on mission "
                        f"{mission.id} ({formula})",
                        ("missions", i),
                        "L2.M1",
                    )
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


def _containers_match(
    catalog: Catalog, installation: InstallationState, arrangement: Arrangement, index: int
) -> Iterator[Issue]:
    """The containers on the table are those of the installation's cards, place for place."""
    # Places of raw-input and transit containers hold no token (the tokens check says so when
    # they do); product containers have exactly the card's places. A product container whose
    # substance leaves by a pipe plays as transit (Ruling L2.T4-transit).
    expected = [
        (c.card, c.index, c.substance, c.role, c.places if c.role == "product" else None)
        for c in played_containers(catalog, arrangement)
    ]
    actual = [
        (c.card, c.index, c.substance, c.role, len(c.places) if c.role == "product" else None)
        for c in installation.containers
    ]
    if sorted(actual) != sorted(expected):
        missing = sorted(set(expected) - set(actual))
        extra = sorted(set(actual) - set(expected))
        yield _issue(
            "installations",
            f"the containers of installation {installation.number} differ from its cards "
            f"(missing {_containers(missing)}; unexpected {_containers(extra)})",
            ("installations", index, "containers"),
            "L2.S3",
        )


def _containers(found: Sequence[tuple[str, int, str, str, int | None]]) -> str:
    """Containers for people: ``4А #0 CO2 product (2 places) and 4Б #1 H2O raw-input``."""
    return listing(
        f"{card} #{index} {substance} {role}" + ("" if places is None else f" ({places} places)")
        for card, index, substance, role, places in found
    )


def _electrolysers_once(state: GameState) -> Iterator[Issue]:
    used: dict[str, int] = {}
    for installation in state.installations:
        for card_id in installation.arrangement.split():
            if card_id.startswith("Э") and card_id != "Э":
                if card_id in used:
                    yield _issue(
                        "installations",
                        f"electrolyser {card_id} stands in installations {used[card_id]} and "
                        f"{installation.number} at once",
                        ("installations",),
                        "L2.S4",
                    )
                used[card_id] = installation.number


def _installations_accounted(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    on_table = {installation.number for installation in state.installations}
    unused = set(state.unused_installations)
    for number in sorted(on_table & unused):
        yield _issue(
            "installations",
            f"installation {number} is both on the table and left in the box",
            ("unused_installations",),
            "V1.2",
        )
    if state.level != "1v1" and unused:
        yield _issue(
            "installations",
            f"installations {sorted(unused)} are left in the box; only head to head does that",
            ("unused_installations",),
            "L2.S2",
        )
    for installation in catalog.installations:
        if installation.number not in on_table | unused:
            yield _issue(
                "installations",
                f"installation {installation.number} is neither on the table nor in the box",
                ("installations",),
                "V1.2" if state.level == "1v1" else "L2.S2",
            )
