"""The bots' choices: the random bot's kind-first choice, the greedy bot's priorities."""

from __future__ import annotations

import random
from collections import Counter

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import deal, view
from mhp_cards.referee.actions import (
    Action,
    BuyRaw,
    Claim,
    EndTurn,
    FreeToken,
    Move,
    ProductRef,
    React,
    Trade,
)
from mhp_cards.sim import POLICIES, GreedyBot, RandomBot, make_policy


def test_random_chooses_the_kind_first() -> None:
    trades: list[Action] = [Trade(partner="blue", pay=n) for n in range(99)]
    legal = [*trades, EndTurn()]
    rng = random.Random(1)
    bot = RandomBot()
    chosen = Counter(bot.choose(None, legal, rng).kind for _ in range(2000))  # type: ignore[arg-type]
    # Uniform over actions would end the turn about 20 times in 2000; by kind, about 1000.
    assert 850 < chosen["end"] < 1150


def test_the_policies_are_made_by_name(catalog: Catalog) -> None:
    assert set(POLICIES) == {"random", "greedy", "search"}
    assert isinstance(make_policy("greedy", catalog), GreedyBot)
    assert isinstance(make_policy("random", catalog), RandomBot)


def test_greedy_claims_first_at_level_1(catalog: Catalog) -> None:
    state = deal(catalog, "1", players=2, seed=1)
    seen = view(state, state.current.id)
    legal: list[Action] = [EndTurn(), Trade(partner=state.players[1].id), Claim(mission="M2")]
    assert GreedyBot(catalog).choose(seen, legal, random.Random(0)) == Claim(mission="M2")


def test_greedy_collects_and_never_trades_at_level_1(catalog: Catalog) -> None:
    state = deal(catalog, "1", players=2, seed=1)
    seen = view(state, state.current.id)
    assert seen.field is not None
    raw = next(cell.position for cell in seen.field.cells if cell.raw is not None)
    empty_move = Move(path=(seen.field.base,))
    legal: list[Action] = [Trade(partner=state.players[1].id), empty_move, Move(path=(raw,))]
    legal.append(EndTurn())
    assert GreedyBot(catalog).choose(seen, legal, random.Random(0)) == Move(path=(raw,))
    assert GreedyBot(catalog).choose(seen, [Trade(partner="x"), EndTurn()], random.Random(0)) == (
        EndTurn()
    )


def test_greedy_buys_only_what_serves_a_mission(catalog: Catalog) -> None:
    state = deal(catalog, "1", players=2, seed=1)
    me = state.current
    state = state.model_copy(
        update={
            "players": tuple(
                p.model_copy(update={"raw_cards": ("carbon-dioxide#1",)}) if p.id == me.id else p
                for p in state.players
            )
        }
    )
    seen = view(state, me.id)
    bot = GreedyBot(catalog)
    # Holding CO2, the closest mission is M1 (C2H8O8): water serves it; argon and magnesite
    # (Ar, Mg) serve no mission that CO2 started.
    water = BuyRaw(card="water-ice#9")
    useless: list[Action] = [BuyRaw(card="argon#1"), BuyRaw(card="magnesite#1")]
    assert bot.choose(seen, [*useless, water, EndTurn()], random.Random(0)) == water
    assert bot.choose(seen, [*useless, EndTurn()], random.Random(0)) == EndTurn()


def test_greedy_reacts_and_frees_a_token_when_none_is_free(catalog: Catalog) -> None:
    state = deal(catalog, "2", players=2, seed=1)
    me = state.current
    seen = view(state, me.id)
    bot = GreedyBot(catalog)
    react = React(installation=1, cards=())
    assert bot.choose(seen, [EndTurn(), react], random.Random(0)) == react
    ref = ProductRef(installation=1, card="x", container=0)
    cheap = FreeToken(product=ref, how="sell-bank", price=1)
    dear = FreeToken(product=ref, how="sell-bank", price=3)
    dump = FreeToken(product=ref, how="dump")
    legal: list[Action] = [dump, cheap, dear, EndTurn()]
    # With free tokens in hand (8 at the start), there is no reason to free one.
    assert bot.choose(seen, legal, random.Random(0)) == EndTurn()
    broke = seen.model_copy(
        update={
            "players": tuple(
                p.model_copy(update={"tokens": 0}) if p.id == me.id else p for p in seen.players
            )
        }
    )
    assert bot.choose(broke, legal, random.Random(0)) == dear


def test_greedy_makes_a_compulsory_move_even_into_another_combine(catalog: Catalog) -> None:
    state = deal(catalog, "1", players=2, seed=1)
    assert state.field is not None
    me, other = state.players[0], state.players[1]
    cell = state.field.cells[0].position
    assert other.combine is not None
    moved = other.model_copy(
        update={"combine": other.combine.model_copy(update={"position": cell})}
    )
    state = state.model_copy(update={"players": (me, moved), "turn": 0})
    seen = view(state, me.id)
    attack = Move(path=(cell,))
    trade = Trade(partner=other.id)
    bot = GreedyBot(catalog)
    # The turn can end: no attack. It cannot: the move, never the trade.
    assert bot.choose(seen, [trade, attack, EndTurn()], random.Random(0)) == EndTurn()
    assert bot.choose(seen, [trade, attack], random.Random(0)) == attack
