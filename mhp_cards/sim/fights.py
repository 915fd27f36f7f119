"""Fights as a sensible player weighs them: when to attack, when armour pays, what to take.

The winner of a fight takes up to three of the loser's raw cards (L1.T4); armour makes the
defender roll twice (L1.T6). A player cannot see the cards in another hand, only how many
there are, so an attack is weighed by expectation: the cards the player could win that serve
its plan, against its own cards that serve it and could be lost, against what the turn would
otherwise collect. The player's plan is given as a predicate on raw kinds (the greedy bot's:
the closest mission at level 1, the installations nearest running at level 3).

>>> round(win_chance(armoured=False, armour_sum=False), 3)
0.5
>>> round(win_chance(armoured=True, armour_sum=False), 3)
0.306
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from math import comb

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState, Player
from mhp_cards.referee.actions import Action, Move
from mhp_cards.referee.table import occupant
from mhp_cards.rules.numbers import DIE_SIDES, FIGHT_TAKE

__all__ = [
    "attack_worth",
    "best_attack",
    "kind_of",
    "threatened",
    "useful_share",
    "win_chance",
]

#: A raw kind (``water-ice``) serves the player's plan or not.
Useful = Callable[[str], bool]


def kind_of(card: str) -> str:
    """The raw kind of a card ID (``water-ice#3`` → ``water-ice``)."""
    return card.rsplit("#", 1)[0]


@cache
def win_chance(*, armoured: bool, armour_sum: bool) -> float:
    """The attacker's chance to win a fight (ties are rolled again, L1.T4).

    An armoured defender rolls twice and keeps the higher roll (L1.T6.R1), or adds the two
    rolls under the house rule ``armour-sum``.
    """
    faces = range(1, DIE_SIDES + 1)
    defences: list[int] = (
        [max(a, b) if not armour_sum else a + b for a in faces for b in faces]
        if armoured
        else list(faces)
    )
    wins = ties = total = 0
    for attack in faces:
        for defence in defences:
            total += 1
            wins += attack > defence
            ties += attack == defence
    return wins / (total - ties)


def useful_share(catalog: Catalog, useful: Useful) -> float:
    """The share of the deck's raw cards that serve the plan: the odds for a card unseen."""
    copies = sum(raw.copies for raw in catalog.raw_materials)
    serving = sum(raw.copies for raw in catalog.raw_materials if useful(raw.id))
    return serving / copies if copies else 0.0


def _expected_best(cards: int, share: float) -> float:
    """How many of the best ``FIGHT_TAKE`` of ``cards`` unseen cards serve, on average."""
    return sum(
        min(FIGHT_TAKE, k) * comb(cards, k) * share**k * (1 - share) ** (cards - k)
        for k in range(cards + 1)
    )


def attack_worth(
    me: Player,
    defender: Player,
    *,
    chance: float,
    share: float,
    serving: int,
    forgone: float,
) -> float:
    """What attacking ``defender`` is worth, in cards that serve the plan, over not attacking.

    Won, the attacker takes the best three of the defender's cards (each unseen card serves
    with odds ``share``); lost, the defender takes three of the attacker's of its own choice,
    which serve the attacker's plan as often as its cards do on average (``serving`` of them
    do). ``forgone`` is what the turn's best other move would have collected that serves it.
    """
    gain = _expected_best(len(defender.raw_cards), share)
    held = len(me.raw_cards)
    loss = min(FIGHT_TAKE, held) * serving / held if held else 0.0
    return chance * gain - (1 - chance) * loss - forgone


def best_attack(
    view: GameState,
    moves: Sequence[Action],
    catalog: Catalog,
    useful: Useful,
    serving: int,
    forgone: float,
) -> Move | None:
    """The attack worth most, if one is worth more than the turn's best other move.

    ``useful`` tells the raw kinds an unseen card must be to serve the plan; ``serving`` how
    many of the player's own cards serve it.
    """
    me = view.current
    share = useful_share(catalog, useful)
    best: tuple[float, Move] | None = None
    for move in moves:
        if not isinstance(move, Move):
            continue
        target = occupant(view, move.path[-1], besides=me.id)
        if target is None:
            continue
        defender = view.player(target)
        armoured = defender.combine is not None and defender.combine.armour
        chance = win_chance(armoured=armoured, armour_sum=view.house_rules.armour_sum)
        worth = attack_worth(
            me, defender, chance=chance, share=share, serving=serving, forgone=forgone
        )
        if worth > 0 and (best is None or worth > best[0]):
            best = (worth, move)
    return None if best is None else best[1]


def threatened(view: GameState, me: Player) -> bool:
    """Whether another combine could reach ``me``'s cell, off the Base, on its next turn.

    One cell; two with a solar battery, or on a combine's first move from the Base (L1.T2).
    """
    field = view.field
    if field is None or me.combine is None or me.combine.position == field.base:
        return False
    neighbours = field.neighbours(view.house_rules.diagonal_adjacency)
    distance = {me.combine.position: 0}
    frontier = [me.combine.position]
    for step in (1, 2):
        frontier = [n for cell in frontier for n in neighbours.get(cell, ()) if n not in distance]
        for cell in frontier:
            distance.setdefault(cell, step)
    for other in view.players:
        if other.id == me.id or other.combine is None:
            continue
        reach = 2 if other.combine.solar_battery or not other.combine.moved else 1
        if 0 < distance.get(other.combine.position, reach + 1) <= reach:
            return True
    return False
