"""Consistency of the chemistry of a game state: chemist tokens, installations, missions.

Part of :func:`mhp_cards.game.status`: the tokens are the level's count a player and stand
only on product places and mission places; the installations are the catalog's, assemble and
are dealt as the level deals them; the missions match the Mission card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from mhp_cards.assembly.arrangement import Arrangement, check_arrangement
from mhp_cards.assembly.played import played_containers
from mhp_cards.catalog.models import Catalog, Installation
from mhp_cards.game.state import GameState, InstallationState
from mhp_cards.issues import Issue
from mhp_cards.rules.numbers import chemist_tokens, chemist_tokens_rule
from mhp_cards.wording import listing

__all__ = ["installation_issues", "mission_issues", "token_issues"]


def token_issues(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    """The chemist tokens: the count the rule in force gives each player, and where they stand.

    No more on the table than a player owns, none of a colour not playing, none on an input
    container (L2.S7, L2.S7-two, L2.T4).
    """
    colours = {player.id for player in state.players}
    for index, player in enumerate(state.players):
        players, house = len(state.players), state.house_rules
        expected = chemist_tokens(state.level, players, house)
        if player.tokens != expected:
            rule = chemist_tokens_rule(state.level, players, house)
            yield Issue.broken(
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
            yield Issue.broken(
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
                    yield Issue.broken(
                        "tokens",
                        f"a token of {token!r}, who is not playing, stands on {container.card}",
                        ("installations", i, "containers", k),
                        "L2.T4",
                    )
            if container.role != "product" and container.places:
                yield Issue.broken(
                    "tokens",
                    f"tokens stand on the {container.role} container of {container.substance} on "
                    f"{container.card}; tokens go on products",
                    ("installations", i, "containers", k),
                    "L2.T4",
                )


def installation_issues(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    """The installations: the catalog's, assembled right, owned as the level deals them.

    None at level 1; each on the table once, from its own cards, its containers those of its
    cards; one of their own for each player, and an electrolyser in one installation at most.
    """
    if state.level == "1":
        if state.installations:
            yield Issue.broken(
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
            yield Issue.broken(
                "installations",
                f"no installation {installation.number} in the catalog",
                ("installations", i, "number"),
                "L2.S3",
            )
            continue
        if installation.owner is not None and installation.owner not in colours:
            yield Issue.broken(
                "installations",
                f"installation {installation.number} belongs to {installation.owner!r}, who is "
                "not playing",
                ("installations", i, "owner"),
                "L2.S2",
            )
        if state.level == "1v1" and installation.owner is None:
            yield Issue.broken(
                "installations",
                f"installation {installation.number} is shared; head to head has no shared ones",
                ("installations", i, "owner"),
                "V1.2",
            )
        if state.level == "1v1" and not catalog.runs_alone(
            catalog.installation(installation.number)
        ):
            yield Issue.broken(
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
            yield Issue.broken(
                "installations",
                f"installation {installation.number}: {error}",
                ("installations", i, "arrangement"),
                "L2.S3",
            )
            continue
        report = check_arrangement(catalog, arrangement)
        for problem in report.problems:
            yield Issue.broken(
                "installations",
                f"installation {installation.number} is not assembled right: {problem}",
                ("installations", i, "arrangement"),
                "L2.S3",
            )
        if report.installation not in (None, installation.number):
            yield Issue.broken(
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
            yield Issue.broken(
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
            yield Issue.broken(
                "installations",
                f"{player.id} owns {owned[player.id]} installations; one per player",
                ("installations",),
                rule,
            )
        if owned[player.id] == 0:
            rule = "V1.2" if state.level == "1v1" else "L2.S2"
            yield Issue.broken(
                "installations",
                f"{player.id} has no installation of their own",
                ("installations",),
                rule,
            )


def _numbers(installations: Sequence[Installation]) -> str:
    return ", ".join(str(installation.number) for installation in installations)


def mission_issues(state: GameState, catalog: Catalog) -> Iterator[Issue]:
    """The Mission card: the catalog's missions, with the places the card shows.

    None at level 1; no token of a colour not playing on a mission place.
    """
    if state.level == "1":
        return
    expected = {m.id: m for m in catalog.missions}
    if [m.id for m in state.missions] != list(expected):
        yield Issue.broken(
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
                    yield Issue.broken(
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
            yield Issue.broken(
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
        yield Issue.broken(
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
                    yield Issue.broken(
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
        yield Issue.broken(
            "installations",
            f"installation {number} is both on the table and left in the box",
            ("unused_installations",),
            "V1.2",
        )
    if state.level != "1v1" and unused:
        yield Issue.broken(
            "installations",
            f"installations {sorted(unused)} are left in the box; only head to head does that",
            ("unused_installations",),
            "L2.S2",
        )
    for installation in catalog.installations:
        if installation.number not in on_table | unused:
            yield Issue.broken(
                "installations",
                f"installation {installation.number} is neither on the table nor in the box",
                ("installations",),
                "V1.2" if state.level == "1v1" else "L2.S2",
            )
