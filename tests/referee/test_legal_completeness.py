"""legal_actions against check, both ways, on states reached by random play.

Every action legal_actions lists must be allowed by check. And every action an independent,
brute-force enumeration proposes that check allows must be listed — up to what the listing
documents as equivalent: cards of one kind are interchangeable (raw cards are listed once per
kind), an open price is listed once (``price_range`` gives the others), and a reaction that
names the default mission places is the reaction that names none.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from mhp_cards.game import GameState, deal
from mhp_cards.referee import Action, apply, check, engine, is_legal, legal_actions, price_range
from mhp_cards.referee.actions import (
    BuyRaw,
    BuyUpgrade,
    Claim,
    EndTurn,
    FreeToken,
    Move,
    ProductRef,
    React,
    ResolveFight,
    Retreat,
    SellRaw,
    TakeRaw,
    TakeSpoils,
    Trade,
)
from mhp_cards.referee.legal import listed_by_kind
from mhp_cards.rules.numbers import HouseRules
from mhp_cards.validate import load_catalog

CATALOG = load_catalog()


def kind(card: str) -> str:
    return card.rsplit("#", 1)[0]


def key(state: GameState, action: Action) -> tuple:
    """What makes two actions the same choice for a player."""
    if isinstance(action, ResolveFight):
        # No retreat named is the first free cell; cards of a kind are interchangeable: the
        # choice is what the table looks like afterwards, cards named by kind.
        after = apply(state, action, CATALOG)[0]
        return tuple(
            (p.id, tuple(sorted(kind(c) for c in p.raw_cards)), p.combine.position)
            for p in after.players
            if p.combine is not None
        )
    data = action.model_dump(exclude={"player"})
    for field in ("card",):
        if field in data:
            data[field] = kind(data[field])
    for field in ("give", "receive", "take", "cards"):
        if data.get(field) is not None:
            data[field] = tuple(sorted(kind(c) for c in data[field]))
    if price_range(state, action, CATALOG) is not None:
        data.pop("price", None)
        data.pop("pay", None)
    if isinstance(action, React) and action.missions:
        listed = legal_actions(state, CATALOG)
        default = next(
            (
                a
                for a in listed
                if isinstance(a, React) and not a.missions and a.installation == action.installation
            ),
            None,
        )
        if (
            default is not None
            and apply(state, default, CATALOG)[0] == apply(state, action, CATALOG)[0]
        ):
            data["missions"] = ()
    return tuple(sorted((k, repr(v)) for k, v in data.items()))


def pointless(action: Action) -> bool:
    """A swap of two cards of one kind changes nothing: the listing leaves it out."""
    return (
        isinstance(action, Trade)
        and len(action.give) == len(action.receive) == 1
        and kind(action.give[0]) == kind(action.receive[0])
        and action.give_product is None
        and action.get_product is None
    )


def walks(state: GameState, start, length: int) -> Iterator[tuple]:
    assert state.field is not None
    positions = state.field.positions

    def step(path):
        here = path[-1] if path else start
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            cell = (here[0] + dx, here[1] + dy)
            if cell in positions:
                yield (*path, cell)

    frontier = [()]
    for _ in range(length):
        frontier = [new for path in frontier for new in step(path)]
        yield from frontier


def candidates(state: GameState) -> Iterator[Action]:
    """Every action of a one-item shape that a player could try here, legal or not."""
    player = state.current
    others = [p for p in state.players if p.id != player.id]
    if state.fight is not None:
        # Each step of the fight (the dice, the spoils, the retreat) by every player.
        loser_cards = [c for p in state.players for c in p.raw_cards]
        assert state.field is not None
        for who in [None, *(p.id for p in state.players)]:
            yield ResolveFight(player=who)
            for size in range(4):
                for take in itertools.combinations(sorted(set(loser_cards)), size):
                    yield TakeSpoils(player=who, cards=take)
            for retreat in [None, *walks(state, state.fight.cell, 1)]:
                yield Retreat(player=who, cell=retreat[-1] if retreat else None)
        return
    yield EndTurn()
    if state.field is not None and player.combine is not None:
        for path in walks(state, player.combine.position, 3):
            yield Move(path=path)
        yield BuyUpgrade(upgrade="solar-battery")
        yield BuyUpgrade(upgrade="armour")
        for card in player.raw_cards:
            yield SellRaw(card=card)
        for card in state.warehouse:
            yield BuyRaw(card=card)
    for mission in CATALOG.missions:
        yield Claim(mission=mission.id)
    for pile in (1, 2, 3):
        yield TakeRaw(pile=pile)
    for installation in state.installations:
        for size in range(3):
            for cards in itertools.combinations(player.raw_cards, size):
                yield React(installation=installation.number, cards=cards)
    for installation in state.installations:
        for container in installation.containers:
            ref = ProductRef(
                installation=installation.number, card=container.card, container=container.index
            )
            yield FreeToken(product=ref, how="dump")
            yield FreeToken(product=ref, how="sell-bank", price=0)
            for other in others:
                yield FreeToken(product=ref, how="sell-player", partner=other.id, price=0)
                yield Trade(partner=other.id, get_product=ref)
                yield Trade(partner=other.id, give_product=ref)
    for other in others:
        for card in player.raw_cards:
            yield Trade(partner=other.id, give=(card,))
            for theirs in other.raw_cards:
                yield Trade(partner=other.id, give=(card,), receive=(theirs,))
        for theirs in other.raw_cards:
            yield Trade(partner=other.id, receive=(theirs,))


def states(level: str, players: int, seed: int, count: int) -> Iterator[GameState]:
    """States of a game played by a policy that picks a kind of action, then one of that kind."""
    rng = random.Random(seed)
    state = deal(CATALOG, level, players, seed)
    for _ in range(count):
        yield state
        listed = legal_actions(state, CATALOG)
        if state.ended or not listed:
            return
        wanted = rng.choice(sorted({a.kind for a in listed}))
        choice = rng.choice([a for a in listed if a.kind == wanted])
        state, _ = apply(state, choice, CATALOG)


PARAMS = [
    ("1", 2, 1),
    ("1", 3, 2),
    ("1", 5, 3),
    ("2", 2, 1),
    ("2", 4, 2),
    ("1v1", 2, 1),
    ("3", 2, 1),
    ("3", 3, 4),
]


@pytest.mark.parametrize(("level", "players", "seed"), PARAMS)
def test_listed_actions_are_allowed_and_allowed_ones_are_listed(level, players, seed) -> None:
    missing: list[str] = []
    for number, state in enumerate(states(level, players, seed, 60)):
        if number % 3:
            continue  # every third state: the brute force is slow
        listed = legal_actions(state, CATALOG)
        for action in listed:
            ruling = check(state, action, CATALOG)
            assert ruling.verdict == "allowed", f"listed but {ruling}: {action!r}"
        keys = {key(state, action) for action in listed}
        for action in candidates(state):
            if pointless(action):
                continue
            if (
                check(state, action, CATALOG).verdict == "allowed"
                and key(state, action) not in keys
            ):
                missing.append(f"step {number}: {action!r}")
    assert missing == [], "allowed by check, missing from legal_actions:\n" + "\n".join(
        missing[:20]
    )


@pytest.mark.parametrize(("level", "players", "seed"), PARAMS)
def test_is_legal_is_check_allowing(level: str, players: int, seed: int) -> None:
    disagreements = []
    for number, state in enumerate(states(level, players, seed, 40)):
        if number % 2:
            continue
        listed = legal_actions(state, CATALOG)
        for action in [*candidates(state), *listed]:
            expected = check(state, action, CATALOG).verdict == "allowed"
            if is_legal(state, action, CATALOG) != expected:
                disagreements.append(f"state {number}: {action!r} (check allows: {expected})")
    assert not disagreements, "\n".join(disagreements[:10])


def test_a_listed_action_is_legal_without_judging(monkeypatch) -> None:
    from mhp_cards.referee import engine

    (state,) = [s for n, s in enumerate(states("1", 3, 2, 5)) if n == 4]
    listed = legal_actions(state, CATALOG)
    monkeypatch.setattr(engine, "JUDGES", {})
    monkeypatch.setattr(engine, "REFUSALS", {})
    assert all(is_legal(state, action, CATALOG) for action in listed)


@pytest.mark.parametrize(("level", "players", "seed"), PARAMS)
def test_the_listing_by_kind_is_the_listing_read_kind_by_kind(level, players, seed) -> None:
    """Each kind is listed in one run, so the slices by kind group every action as read."""
    grouped = 0
    for state in states(level, players, seed, 80):
        listed = legal_actions(state, CATALOG)
        read: dict[str, list[Action]] = {}
        for action in listed:
            read.setdefault(action.kind, []).append(action)
        by_kind = listed_by_kind(listed)
        if state.fight is not None:
            assert by_kind is None  # a fight's steps are listed apart
            continue
        assert by_kind is not None
        assert list(by_kind.items()) == list(read.items())
        grouped += 1
    assert grouped > 10


@pytest.mark.parametrize(("level", "players", "seed"), PARAMS)
def test_a_listing_without_trades_is_the_listing_less_its_trades(level, players, seed) -> None:
    """``trades=False`` leaves out the trades and nothing else, in the same order, and its
    runs by kind are the listing's; a listed action is still applied as listed."""
    trading = 0
    for state in states(level, players, seed, 80):
        full = legal_actions(state, CATALOG)
        trading += any(action.kind == "trade" for action in full)
        without = legal_actions(state, CATALOG, trades=False)
        assert without == [action for action in full if action.kind != "trade"]
        by_kind = listed_by_kind(without)
        if state.fight is None:
            assert by_kind is not None
            assert "trade" not in by_kind
        if without:  # applied right after the short listing as after the full one
            action = without[-1]
            after_short = apply(state, action, CATALOG)[0]
            legal_actions(state, CATALOG)
            assert apply(state, action, CATALOG)[0] == after_short
    assert trading > 0 or level == "1v1"  # the trades were there to leave out


def test_the_listing_by_kind_is_only_for_the_last_listing_unchanged() -> None:
    first, second = list(itertools.islice(states("2", 3, 5, 3), 1, 3))
    listed = legal_actions(first, CATALOG)
    assert listed_by_kind(list(listed)) is None  # a copy: not the listing itself
    listed.append(listed.pop(0))
    assert listed_by_kind(listed) is None  # changed since it was listed
    legal_actions(second, CATALOG)
    assert listed_by_kind(listed) is None  # listed before the last listing


@pytest.mark.parametrize(("level", "players", "seed"), PARAMS)
def test_a_listing_remembered_is_the_listing_made_afresh(level, players, seed) -> None:
    """What the listing keeps (actions made, raw-trade and upgrade verdicts, claims by the
    kinds held and refusals by the kinds that decide them) lists what a listing with nothing
    kept lists, in the same order, on every state of a game."""
    from mhp_cards.referee import interned, legal, trade_list

    for state in states(level, players, seed, 80):
        kept = legal_actions(state, CATALOG)
        kept_claims = (
            CATALOG.memo("referee.legal-claims"),
            CATALOG.memo("referee.legal-claim-refusals"),
        )
        kept_verdicts = (trade_list.RAW_VERDICTS, legal.UPGRADE_VERDICTS)
        for memory in (interned.MADE, *kept_verdicts, *kept_claims):
            memory.clear()
        fresh = legal_actions(state.model_copy(deep=True), CATALOG)  # no facts
        assert fresh == kept


@pytest.mark.parametrize(
    ("level", "players", "seed", "steps"),
    [("2", 3, 5, 400), ("2", 5, 6, 400), ("1v1", 2, 7, 400), ("3", 2, 1, 3000)],
)
def test_the_freeings_kept_with_a_state_are_those_judged_afresh(
    level, players, seed, steps
) -> None:
    """The tokens the listing lets a player free are kept with the state's facts for what the
    verdicts read (``free_reads``); on every state where the player has a token placed, they
    are what a copy with no facts lists, and each is allowed by ``check``."""
    from mhp_cards.referee.trade_list import token_places

    placed = 0
    for state in states(level, players, seed, steps):
        if state.ended or state.fight or state.drawn or not token_places(state, state.current.id):
            continue
        placed += 1
        kept = [a for a in legal_actions(state, CATALOG) if isinstance(a, FreeToken)]
        fresh = legal_actions(state.model_copy(deep=True), CATALOG)
        assert [a for a in fresh if isinstance(a, FreeToken)] == kept
        assert all(check(state, action, CATALOG).verdict == "allowed" for action in kept)
    assert placed >= 10, f"only {placed} states with a token placed: the test saw too few"


def test_the_freeings_kept_follow_what_the_verdicts_read() -> None:
    """A copy of a state that changes what freeing reads besides the installations and the
    Mission card (money, the Bank, whose turn, what the turn has done) shares the state's
    kept facts; its freeings are those a copy with no facts lists, so none is kept stale."""
    from mhp_cards.referee.trade_list import token_places

    changed = 0
    for level, players, seed, steps in (("2", 3, 5, 400), ("1v1", 2, 7, 400), ("2", 5, 6, 200)):
        for state in states(level, players, seed, steps):
            if state.ended or state.fight or state.drawn:
                continue
            if not any(token_places(state, p.id) for p in state.players):
                continue
            legal_actions(state, CATALOG)  # the facts kept with the state
            broke = tuple(p.model_copy(update={"money": 0}) for p in state.players)
            variants = [
                {"players": broke},
                {"bank": 0},
                {"done_this_turn": ("trade",)},
                {"done_this_turn": ("take", "discard")},
                *({"turn": turn} for turn in range(len(state.players)) if turn != state.turn),
            ]
            for update in variants:
                copy = state.model_copy(update=update)
                kept = [a for a in legal_actions(copy, CATALOG) if isinstance(a, FreeToken)]
                fresh = legal_actions(copy.model_copy(deep=True), CATALOG)
                assert [a for a in fresh if isinstance(a, FreeToken)] == kept, update
                changed += 1
    assert changed >= 100


def test_the_upgrade_verdicts_kept_follow_what_they_read() -> None:
    """The upgrades listed are judged once for what ``refuse_buy`` reads (``buy_reads``); on
    states of levels 1 and 3, and on copies that change the level, the house rules, the
    player's money, whose turn it is and which upgrades the combines have, they are what a
    listing with nothing kept lists."""
    from mhp_cards.referee import legal

    def upgrades(state: GameState) -> list[Action]:
        return [a for a in legal_actions(state, CATALOG) if isinstance(a, BuyUpgrade)]

    def fresh(state: GameState) -> list[Action]:
        legal.UPGRADE_VERDICTS.clear()
        return upgrades(state)

    checked = 0
    for level, players, seed in (("1", 3, 5), ("3", 4, 6), ("1", 5, 7)):
        for state in states(level, players, seed, 150):
            if state.ended or state.fight or state.drawn:
                continue
            me = state.current
            assert me.combine is not None
            rich = _with(state, me.id, money=me.money + 10)
            variants = [
                {"players": rich},
                {"players": _with(state, me.id, money=0)},
                *({"turn": turn} for turn in range(len(state.players)) if turn != state.turn),
                {"level": "3" if level == "1" else "1"},  # armour is sold at level 3 alone
                {"level": "1", "players": rich},
                {"level": "1", "players": rich, "house_rules": HouseRules(every_upgrade=True)},
            ]
            # The same money and combines, another player's turn: one of them has a battery.
            for turn, other in enumerate(state.players):
                if other.id != me.id:
                    assert other.combine is not None
                    battery = other.combine.model_copy(update={"solar_battery": True})
                    same = _with(state, other.id, money=me.money, combine=battery)
                    variants += [{"players": same}, {"players": same, "turn": turn}]
            for other in state.players:
                assert other.combine is not None
                for upgrade in ("solar_battery", "armour"):
                    combine = other.combine.model_copy(update={upgrade: True})
                    equipped = _with(state, other.id, combine=combine, money=other.money + 10)
                    variants.append({"players": equipped})
            upgrades(state)  # the verdicts kept for the state
            for update in variants:
                copy = state.model_copy(update=update)
                kept = upgrades(copy)
                assert fresh(copy) == kept, update
                checked += 1
    assert checked >= 500


def _with(state: GameState, player_id: str, **update: object) -> tuple:
    """The state's players with one changed."""
    return tuple(p.model_copy(update=update) if p.id == player_id else p for p in state.players)


def test_a_fight_step_applied_as_listed_is_the_step_judged_afresh() -> None:
    """The spoils are listed by their refusals alone (and kept as listed): applying one that
    was listed makes the state and events that judging it from nothing makes."""
    spoils = 0
    for level, players, seed in (("1", 3, 2), ("1", 5, 3), ("1", 4, 5), ("3", 3, 4), ("3", 4, 6)):
        for state in states(level, players, seed, 400):
            if state.fight is None:
                continue
            for action in legal_actions(state, CATALOG):
                afresh = engine.judge(state, action, CATALOG)
                listed = next(a for a in legal_actions(state, CATALOG) if a == action)
                assert engine._listed(state, listed, CATALOG) is not None
                assert apply(state, listed, CATALOG) == (afresh.state, afresh.events)
                spoils += isinstance(action, TakeSpoils)
    assert spoils > 20
