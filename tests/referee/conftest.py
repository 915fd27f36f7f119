"""Fixtures of the referee tests: the default catalog, cached deals and a kit to set up exact
situations at the table.

Every situation starts from a dealt game (``kit.deal``) and is shaped with ``model_copy``
through the kit's helpers, which keep the state consistent (a card moved into a hand leaves
the field, the Warehouse or its pile; money given to a player comes out of the Bank), so the
referee judges states that could occur and ``status`` stays empty. ``kit.expect`` checks a
ruling the way every rule test needs: the verdict, the rule IDs cited (each one a rule of the
rulebook), the reason in both languages and, optionally, facts. Helpers are handed out as
fixtures (``--import-mode=importlib`` gives no importable ``conftest`` module).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from mhp_cards.catalog import Catalog
from mhp_cards.game import GameState, deal, status
from mhp_cards.game.state import Fight, Position
from mhp_cards.referee import Action, Event, Ruling, apply, check, judge, parse_action
from mhp_cards.rules.rulebook import load_rulebook
from mhp_cards.validate import load_catalog

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN = re.compile(r"[A-Za-z]")
COINS = 50


def describe(state: GameState, catalog: Catalog) -> str:
    return "\n".join(f"  [{i.rule}] {i.message}" for i in status(state, catalog)) or "  (none)"


class Kit:
    """Builds exact situations from dealt games and checks rulings."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.book = load_rulebook()
        self._deal = functools.cache(self._make)

    # --- deals ------------------------------------------------------------------------------------

    def _make(
        self, level: str, players: int, seed: int, shape: str, house_rules: tuple[str, ...]
    ) -> GameState:
        return deal(self.catalog, level, players, seed, shape, house_rules)

    def deal(
        self,
        level: str,
        players: int = 2,
        seed: int = 3,
        shape: str = "rectangle",
        house_rules: Iterable[str] = (),
    ) -> GameState:
        """A dealt game (cached: states are immutable values)."""
        return self._deal(level, players, seed, shape, tuple(house_rules))

    # --- raw cards --------------------------------------------------------------------------------

    def instance(self, state: GameState, kind: str, *, avoid: Iterable[str] = ()) -> str:
        """An instance of a raw kind that no player holds, or the ID itself when ``kind`` is
        already an instance ID."""
        if "#" in kind:
            return kind
        avoided = set(avoid)
        # The Warehouse, the piles and the discard first, then the field from its bottom row
        # up, so that the cells the tests play on (rows 0 to 3) keep their cards.
        spare = [*state.warehouse, *(c for pile in state.piles for c in pile), *state.discard]
        if state.field is not None:
            cells = sorted(state.field.cells, key=lambda c: (-c.y, -c.x))
            spare += [c.raw for c in cells if c.raw]
        for card in spare:
            if card.rsplit("#", 1)[0] == kind and card not in avoided:
                return card
        raise LookupError(f"no free {kind} card in this state")

    def remove(self, state: GameState, cards: Iterable[str]) -> GameState:
        """The state with these raw card instances taken from wherever they are."""
        gone = set(cards)
        update: dict[str, Any] = {
            "warehouse": tuple(c for c in state.warehouse if c not in gone),
            "piles": tuple(tuple(c for c in pile if c not in gone) for pile in state.piles),
            "discard": tuple(c for c in state.discard if c not in gone),
            "players": tuple(
                p.model_copy(update={"raw_cards": tuple(c for c in p.raw_cards if c not in gone)})
                for p in state.players
            ),
        }
        if state.field is not None:
            cells = tuple(
                cell.model_copy(update={"raw": None}) if cell.raw in gone else cell
                for cell in state.field.cells
            )
            update["field"] = state.field.model_copy(update={"cells": cells})
        return state.model_copy(update=update)

    def give(self, state: GameState, player: str, *cards: str) -> GameState:
        """The player receives these cards (kinds or instance IDs), taken from where they lie."""
        chosen: list[str] = []
        for card in cards:
            chosen.append(self.instance(state, card, avoid=chosen))
        new = self.remove(state, chosen)
        return self.update_player(new, player, raw_cards=(*new.player(player).raw_cards, *chosen))

    def hand(self, state: GameState, player: str, *cards: str) -> GameState:
        """The player's hand becomes exactly these cards (the old hand goes to the discard)."""
        old = state.player(player).raw_cards
        new = self.update_player(state, player, raw_cards=())
        new = new.model_copy(update={"discard": (*new.discard, *old)})
        return self.give(new, player, *cards)

    def to_warehouse(self, state: GameState, *cards: str) -> GameState:
        chosen = [self.instance(state, card) for card in cards]
        new = self.remove(state, chosen)
        return new.model_copy(update={"warehouse": (*new.warehouse, *chosen)})

    def clear_field(self, state: GameState, keep: Iterable[Position] = ()) -> GameState:
        """Every raw card on the field goes to the discard, except on the cells in ``keep``."""
        assert state.field is not None
        kept = set(keep)
        gone = [c.raw for c in state.field.cells if c.raw and c.position not in kept]
        new = self.remove(state, gone)
        return new.model_copy(update={"discard": (*new.discard, *gone)})

    def clear_warehouse(self, state: GameState) -> GameState:
        return state.model_copy(
            update={"warehouse": (), "discard": (*state.discard, *state.warehouse)}
        )

    def clear_piles(self, state: GameState, keep: Mapping[int, int] | None = None) -> GameState:
        """Empty the raw piles into the discard; ``keep`` maps pile number → cards left on it."""
        kept = keep or {}
        piles, gone = [], []
        for number, pile in enumerate(state.piles, start=1):
            left = kept.get(number, 0)
            piles.append(pile[len(pile) - left :] if left else ())
            gone += list(pile[: len(pile) - left])
        return state.model_copy(update={"piles": tuple(piles), "discard": (*state.discard, *gone)})

    def put(self, state: GameState, position: Position, card: str | None) -> GameState:
        """The raw card (kind or instance, or None) on a field cell; what lay there goes to the
        discard."""
        assert state.field is not None
        chosen = self.instance(state, card) if card else None
        new = self.remove(state, [chosen]) if chosen else state
        assert new.field is not None
        old = new.field.cell_at(position)
        assert old is not None, position
        cells = tuple(
            c.model_copy(update={"raw": chosen}) if c.position == position else c
            for c in new.field.cells
        )
        discard = (*new.discard, old.raw) if old.raw else new.discard
        return new.model_copy(
            update={"field": new.field.model_copy(update={"cells": cells}), "discard": discard}
        )

    def raw_at(self, state: GameState, position: Position) -> str | None:
        assert state.field is not None
        cell = state.field.cell_at(position)
        assert cell is not None, position
        return cell.raw

    # --- players ----------------------------------------------------------------------------------

    def update_player(self, state: GameState, player: str, **update: Any) -> GameState:
        players = tuple(p.model_copy(update=update) if p.id == player else p for p in state.players)
        return state.model_copy(update={"players": players})

    def combine(self, state: GameState, player: str, **update: Any) -> GameState:
        """Change fields of a player's combine (position, moved, solar_battery, armour…)."""
        combine = state.player(player).combine
        assert combine is not None
        return self.update_player(state, player, combine=combine.model_copy(update=update))

    def money(self, state: GameState, player: str, amount: int) -> GameState:
        """The player holds ``amount`` мР; the difference comes from (or goes to) the Bank."""
        change = amount - state.player(player).money
        assert state.bank >= change, "the Bank cannot pay that"
        new = self.update_player(state, player, money=amount)
        return new.model_copy(update={"bank": state.bank - change})

    def turn(self, state: GameState, player: str, done: Iterable[str] = ()) -> GameState:
        index = [p.id for p in state.players].index(player)
        return state.model_copy(update={"turn": index, "done_this_turn": tuple(done)})

    def fight(self, state: GameState, attacker: str, defender: str, cell: Position) -> GameState:
        """Both combines on ``cell`` after the attacker's move, the attack waiting for dice."""
        new = self.combine(state, attacker, position=cell, moved=True)
        new = self.combine(new, defender, position=cell, moved=True)
        new = self.turn(new, attacker, done=("move",))
        return new.model_copy(
            update={"fight": Fight(attacker=attacker, defender=defender, cell=cell)}
        )

    # --- installations and missions ---------------------------------------------------------------

    def owners(self, state: GameState, owners: Mapping[int, str]) -> GameState:
        """Installations owned as given; every other installation is shared."""
        installations = tuple(
            i.model_copy(update={"owner": owners.get(i.number)}) for i in state.installations
        )
        return state.model_copy(update={"installations": installations})

    def token(
        self, state: GameState, player: str, installation: int, card: str, index: int
    ) -> GameState:
        """A token of ``player`` on the first free place of a product container."""
        installations = list(state.installations)
        for i, inst in enumerate(installations):
            if inst.number != installation:
                continue
            containers = list(inst.containers)
            for k, container in enumerate(containers):
                if container.card == card and container.index == index:
                    assert container.role == "product"
                    places = list(container.places)
                    places[places.index(None)] = player
                    containers[k] = container.model_copy(update={"places": tuple(places)})
                    installations[i] = inst.model_copy(update={"containers": tuple(containers)})
                    return state.model_copy(update={"installations": tuple(installations)})
        raise LookupError(f"no container {installation}:{card}:{index}")

    def mission_tokens(
        self, state: GameState, mission: str, formula: str, *players: str | None
    ) -> GameState:
        """The places of ``formula`` on ``mission`` hold these tokens (None: free), in order."""
        missions = list(state.missions)
        for m, ms in enumerate(missions):
            if ms.id != mission:
                continue
            places = list(ms.places)
            for p, (place_formula, tokens) in enumerate(places):
                if place_formula == formula:
                    assert len(players) == len(tokens), (formula, len(tokens))
                    places[p] = (place_formula, tuple(players))
                    missions[m] = ms.model_copy(update={"places": tuple(places)})
                    return state.model_copy(update={"missions": tuple(missions)})
        raise LookupError(f"no place of {formula} on {mission}")

    def container(self, state: GameState, installation: int, card: str, index: int) -> Any:
        for inst in state.installations:
            if inst.number == installation:
                for container in inst.containers:
                    if container.card == card and container.index == index:
                        return container
        raise LookupError(f"no container {installation}:{card}:{index}")

    def containers(self, state: GameState, installation: int) -> list[Any]:
        for inst in state.installations:
            if inst.number == installation:
                return list(inst.containers)
        raise LookupError(installation)

    # --- rulings ----------------------------------------------------------------------------------

    def action(self, action: Action | str) -> Action:
        return parse_action(action) if isinstance(action, str) else action

    def expect(
        self,
        state: GameState,
        action: Action | str,
        verdict: str,
        *rules: str,
        facts: Mapping[str, Any] | None = None,
    ) -> Ruling:
        """check() gives ``verdict`` citing every rule in ``rules``; the reason is in both
        languages; every rule cited exists; judge() agrees with check()."""
        act = self.action(action)
        ruling = check(state, act, self.catalog)
        assert ruling.verdict == verdict, f"{act!r}: {ruling}"
        for rule in rules:
            assert rule in ruling.rules, f"{rule} not cited: {ruling}"
        self.assert_well_formed(ruling)
        for key, value in (facts or {}).items():
            assert key in ruling.facts, f"fact {key!r} missing: {dict(ruling.facts)}"
            assert ruling.facts[key] == value, (key, ruling.facts[key], value)
        outcome = judge(state, act, self.catalog)
        assert (outcome.state is not None) == ruling.ok, ruling
        return ruling

    def assert_well_formed(self, ruling: Ruling) -> None:
        assert ruling.rules, ruling
        for rule in ruling.rules:
            assert rule in self.book, f"{rule} is not a rule of the rulebook: {ruling}"
        assert ruling.reason_ru.strip(), ruling
        assert CYRILLIC.search(ruling.reason_ru), ruling.reason_ru
        assert ruling.reason_en.strip(), ruling
        assert LATIN.search(ruling.reason_en), ruling.reason_en
        assert ruling.reason_en != ruling.reason_ru
        document = ruling.to_json()
        assert document["reason"] == {"ru": ruling.reason_ru, "en": ruling.reason_en}
        assert document["rules"] == list(ruling.rules)

    def play(self, state: GameState, *actions: Action | str) -> tuple[GameState, tuple[Event, ...]]:
        """Apply actions in turn; the states stay consistent. Returns the last state and the
        events of the last action."""
        events: tuple[Event, ...] = ()
        for action in actions:
            state, events = apply(state, self.action(action), self.catalog)
            self.consistent(state)
        return state, events

    def consistent(self, state: GameState) -> None:
        assert not status(state, self.catalog), describe(state, self.catalog)
        money = sum(p.money for p in state.players)
        assert state.bank + state.box_coins + money == COINS


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def kit(catalog: Catalog) -> Kit:
    return Kit(catalog)
