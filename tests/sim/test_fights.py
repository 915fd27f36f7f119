"""How a bot weighs a fight: the dice odds, an attack's worth, armour, the spoils."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import deal, view
from mhp_cards.game.state import GameState, Player, Position
from mhp_cards.referee.actions import BuyUpgrade, EndTurn, Move, TakeSpoils
from mhp_cards.sim import GreedyBot
from mhp_cards.sim.fights import attack_worth, threatened, win_chance


def test_the_odds_of_a_fight_match_the_dice() -> None:
    # Unarmoured: by symmetry half. Armoured (the higher of two rolls): the attacker's a beats
    # both rolls with odds ((a-1)/6)^2, ties with (2a-1)/36; ties are rolled again (L1.T4).
    wins = sum(Fraction((a - 1) ** 2, 36) for a in range(1, 7)) / 6
    ties = sum(Fraction(2 * a - 1, 36) for a in range(1, 7)) / 6
    assert win_chance(armoured=False, armour_sum=False) == pytest.approx(0.5)
    assert win_chance(armoured=True, armour_sum=False) == pytest.approx(float(wins / (1 - ties)))
    # Adding two rolls (house rule armour-sum): a die beats a sum of two in 1+3+6+10 of 216
    # throws (attacks of 3 to 6) and ties it in 1+2+3+4+5.
    assert win_chance(armoured=True, armour_sum=True) == pytest.approx(20 / (216 - 15))


def _players(catalog: Catalog, mine: int, theirs: int) -> tuple[Player, Player]:
    state = deal(catalog, "1", players=2, seed=3)
    me = state.players[0].model_copy(
        update={"raw_cards": tuple(f"water-ice#{n}" for n in range(1, mine + 1))}
    )
    other = state.players[1].model_copy(
        update={"raw_cards": tuple(f"halite#{n}" for n in range(1, theirs + 1))}
    )
    return me, other


def test_an_attack_is_worth_more_against_a_full_hand_and_less_with_much_to_lose(
    catalog: Catalog,
) -> None:
    me, rich = _players(catalog, 0, 9)
    worth = attack_worth(me, rich, chance=0.5, share=0.4, serving=0, forgone=0.0)
    assert worth > 0
    loaded, poor = _players(catalog, 4, 1)
    worth = attack_worth(loaded, poor, chance=0.5, share=0.4, serving=4, forgone=0.0)
    assert worth < 0
    # Armour's odds turn a good attack into a bad one.
    _, rich = _players(catalog, 3, 4)
    even = attack_worth(loaded, rich, chance=0.5, share=0.6, serving=2, forgone=0.2)
    armoured = attack_worth(loaded, rich, chance=0.306, share=0.6, serving=2, forgone=0.2)
    assert even > 0 > armoured


def _next_to_each_other(
    catalog: Catalog, mine: tuple[str, ...], theirs: tuple[str, ...], *, armour: bool = False
) -> tuple[GameState, Position]:
    """Level 1, two players: the first player's combine beside the second's, off the Base."""
    state = deal(catalog, "1", players=2, seed=1)
    assert state.field is not None
    neighbours = state.field.neighbours(False)
    here = next(
        c.position
        for c in state.field.cells
        if c.position != state.field.base
        and any(n != state.field.base for n in neighbours.get(c.position, ()))
    )
    there = next(n for n in neighbours[here] if n != state.field.base)
    me, other = state.players
    assert me.combine is not None
    assert other.combine is not None
    me = me.model_copy(
        update={
            "raw_cards": mine,
            "combine": me.combine.model_copy(update={"position": here, "moved": True}),
        }
    )
    other = other.model_copy(
        update={
            "raw_cards": theirs,
            "combine": other.combine.model_copy(
                update={"position": there, "moved": True, "armour": armour}
            ),
        }
    )
    return state.model_copy(update={"players": (me, other), "turn": 0}), there


def test_greedy_attacks_a_full_hand_when_it_has_little_to_lose(catalog: Catalog) -> None:
    theirs = tuple(f"water-ice#{n}" for n in range(1, 10))
    state, there = _next_to_each_other(catalog, (), theirs)
    attack = Move(path=(there,))
    bot = GreedyBot(catalog)
    seen = view(state, state.players[0].id)
    assert bot.choose(seen, [attack, EndTurn()], random.Random(0)) == attack
    # Holding three cards that serve M1 (2 CO2 + 4 H2O), a neighbour with one card is not
    # worth the fight.
    mine = ("carbon-dioxide#1", "water-ice#1", "water-ice#2")
    state, there = _next_to_each_other(catalog, mine, theirs[:1])
    seen = view(state, state.players[0].id)
    assert bot.choose(seen, [Move(path=(there,)), EndTurn()], random.Random(0)) == EndTurn()


def test_a_neighbour_threatens_and_greedy_buys_armour_with_cards_at_stake(
    catalog: Catalog,
) -> None:
    # Holding CO2 and water (M1 = 2 CO2 + 4 H2O), with 4 мР and a combine next door.
    mine = ("carbon-dioxide#1", "water-ice#1", "water-ice#2")
    state, _ = _next_to_each_other(catalog, mine, ())
    me = state.players[0].model_copy(update={"money": 4})
    state = state.model_copy(update={"players": (me, state.players[1])})
    assert threatened(state, state.players[0])
    armour = BuyUpgrade(upgrade="armour")
    bot = GreedyBot(catalog)
    seen = view(state, me.id)
    assert bot.choose(seen, [armour, EndTurn()], random.Random(0)) == armour
    # Nobody near: no armour.
    assert state.field is not None
    assert me.combine is not None
    here = me.combine.position
    distant = max(
        (c.position for c in state.field.cells),
        key=lambda p: abs(p[0] - here[0]) + abs(p[1] - here[1]),
    )
    other = state.players[1]
    assert other.combine is not None
    far = other.model_copy(
        update={"combine": other.combine.model_copy(update={"position": distant})}
    )
    alone = state.model_copy(update={"players": (me, far)})
    assert not threatened(alone, me)
    assert bot.choose(view(alone, me.id), [armour, EndTurn()], random.Random(0)) == EndTurn()


def test_the_winner_takes_the_cards_that_serve_its_mission(catalog: Catalog) -> None:
    mine = ("carbon-dioxide#1",)
    theirs = ("water-ice#1", "water-ice#2", "halite#1", "hematite#1")
    state, _ = _next_to_each_other(catalog, mine, theirs)
    seen = view(state, state.players[0].id)
    useful = TakeSpoils(cards=("water-ice#1", "water-ice#2", "halite#1"))
    other = TakeSpoils(cards=("halite#1", "hematite#1", "water-ice#1"))
    nothing = TakeSpoils(cards=())
    bot = GreedyBot(catalog)
    assert bot.choose(seen, [nothing, other, useful], random.Random(0)) == useful
