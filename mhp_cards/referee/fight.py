"""Fights on the field: the dice, the winner's take, the loser's retreat, repairs (L1.T4–L1.T6)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from types import MappingProxyType

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.rng import Rng
from mhp_cards.game.state import GameState, Player, Position
from mhp_cards.referee.actions import ResolveFight
from mhp_cards.referee.common import (
    Outcome,
    capacity_left,
    event,
    updated,
    updated_combine,
)
from mhp_cards.referee.reasons import said
from mhp_cards.referee.ruling import Ruling, forbidden
from mhp_cards.referee.table import adjacent, occupant, replace_player
from mhp_cards.rules.numbers import (
    DIE_SIDES,
    FIGHT_TAKE,
)


def _fight_winner(
    state: GameState, rounds: Sequence[Sequence[int]], defender: Player
) -> tuple[str, str] | str:
    """("attacker"|"defender", detail) from dice rounds, or an error message."""
    armour = defender.combine is not None and defender.combine.armour
    rolls_needed = 3 if armour else 2
    for number, rolled in enumerate(rounds, start=1):
        if len(rolled) != rolls_needed:
            return (
                f"round {number}: {rolls_needed} dice expected "
                f"({'attacker, defender twice (armour)' if armour else 'attacker, defender'})"
            )
        if any(not 1 <= value <= DIE_SIDES for value in rolled):
            return f"round {number}: a die shows 1 to {DIE_SIDES}"
        attack = rolled[0]
        defend = (
            (rolled[1] + rolled[2] if state.house_rules.armour_sum else max(rolled[1], rolled[2]))
            if armour
            else rolled[1]
        )
        if attack == defend:
            if number == len(rounds):
                return f"round {number} is a tie ({attack}:{defend}): roll again (L1.T4)"
            continue
        if number != len(rounds):
            return f"round {number} already decided the fight; leave out later rounds"
        return ("attacker" if attack > defend else "defender", f"{attack}:{defend}")
    return "no dice rounds"


def roll_fight(state: GameState) -> tuple[list[tuple[int, ...]], Rng]:
    """The game's own dice for the pending fight, rolled until they decide it (L1.T4).

    Returns the rounds and the generator after them; the state is not changed, so the same
    state always rolls the same dice.
    """
    assert state.fight is not None
    defender = state.player(state.fight.defender)
    armour = defender.combine is not None and defender.combine.armour
    rng = Rng(state.rng)
    rounds: list[tuple[int, ...]] = []
    while True:
        rounds.append((rng.die(), rng.die(), *((rng.die(),) if armour else ())))
        if isinstance(_fight_winner(state, rounds, defender), tuple):
            return rounds, rng


def fight_choices(state: GameState) -> list[ResolveFight]:
    """Every way to end the pending fight with the game's dice: the take and the retreat.

    The winner takes up to three of the loser's cards (as many as their combine holds at
    level 3), listed once per choice of kinds since cards of one kind are interchangeable;
    the loser retreats to any free neighbouring cell, or stays when there is none
    (L1.T4, L1.T4.R1).
    """
    assert state.fight is not None
    rounds, _ = roll_fight(state)
    verdict = _fight_winner(state, rounds, state.player(state.fight.defender))
    assert isinstance(verdict, tuple)
    attacker, defender = state.player(state.fight.attacker), state.player(state.fight.defender)
    winner, loser = (attacker, defender) if verdict[0] == "attacker" else (defender, attacker)
    room = capacity_left(state, winner)
    most = FIGHT_TAKE if room is None else min(FIGHT_TAKE, room)
    by_kind: dict[str, list[str]] = {}
    for card in loser.raw_cards:
        by_kind.setdefault(card.rsplit("#", 1)[0], []).append(card)
    takes: set[tuple[str, ...]] = set()
    for size in range(most + 1):
        for kinds in itertools.combinations_with_replacement(sorted(by_kind), size):
            counts: dict[str, int] = {}
            for kind in kinds:
                counts[kind] = counts.get(kind, 0) + 1
            if all(len(by_kind[kind]) >= n for kind, n in counts.items()):
                takes.add(tuple(card for kind, n in counts.items() for card in by_kind[kind][:n]))
    free = [cell for cell in adjacent(state, state.fight.cell) if occupant(state, cell) is None]
    retreats: list[Position | None] = list(free) or [None]
    return [
        ResolveFight.model_construct(take=take, retreat=retreat)
        for take in sorted(takes, key=lambda t: (len(t), t))
        for retreat in retreats
    ]


def judge_fight(state: GameState, action: ResolveFight, catalog: Catalog) -> Outcome:
    """Resolve an attack with dice: winner, cards taken, retreat, repairs (L1.T4–T6)."""
    rules: tuple[str, ...] = ("L1.T4",)
    fight = state.fight
    if fight is None:
        return Outcome(forbidden(rules, "fight.none"))
    if action.player is not None and action.player not in (fight.attacker, fight.defender):
        return Outcome(
            forbidden(
                ("L1.T4",),
                "fight.not-a-fighter",
                {"attacker": fight.attacker, "defender": fight.defender},
            )
        )
    attacker = state.player(fight.attacker)
    defender = state.player(fight.defender)
    assert attacker.combine is not None
    assert defender.combine is not None
    armour = defender.combine.armour
    if armour:
        rules = (*rules, "L1.T6", "L1.T6.R1")
    house = ("armour-sum",) if armour and state.house_rules.armour_sum else ()
    rounds = [tuple(r) for r in action.rounds]
    rolled_here = not rounds
    rng = Rng(state.rng)
    if rolled_here:
        rounds, rng = roll_fight(state)
    verdict = _fight_winner(state, rounds, defender)
    if isinstance(verdict, str):
        return Outcome(
            forbidden(
                rules, "fight.dice-undecided", {"detail": verdict}, rounds=[list(r) for r in rounds]
            )
        )
    side, score = verdict
    winner, loser = (attacker, defender) if side == "attacker" else (defender, attacker)
    room = capacity_left(state, winner)
    default_take = FIGHT_TAKE if room is None else min(FIGHT_TAKE, room)
    wanted = action.take if action.take is not None else loser.raw_cards[:default_take]
    if len(set(wanted)) != len(wanted):
        return Outcome(forbidden(("L1.T4",), "fight.named-twice", take=list(wanted)))
    if len(wanted) > FIGHT_TAKE:
        return Outcome(forbidden(("L1.T4",), "fight.take-at-most", take=list(wanted)))
    foreign = [card for card in wanted if card not in loser.raw_cards]
    if foreign:
        return Outcome(
            forbidden(("L1.T4",), "fight.loser-lacks", {"foreign": foreign}, take=list(wanted))
        )
    if room is not None and len(wanted) > room:
        return Outcome(
            forbidden(
                ("L1.T4", "L3.S3", "L3.T1.R1"),
                "fight.winner-full",
                {"room": room},
                take=list(wanted),
            )
        )
    # Both combines stand on the attacked cell; the loser leaves it for a free neighbour, or
    # stays when every neighbour is taken (ruling L1.T4.R1).
    free = [cell for cell in adjacent(state, fight.cell) if occupant(state, cell) is None]
    retreat = action.retreat
    if retreat is not None and retreat not in free:
        return Outcome(
            forbidden(
                ("L1.T4", "L1.T4.R1"),
                "fight.retreat-not-free",
                {"free": free},
                retreat=list(retreat),
            )
        )
    if retreat is None:
        retreat = free[0] if free else fight.cell
    next_turn_of = {
        player.id: state.turn_number
        + ((index - state.turn) % len(state.players) or len(state.players))
        for index, player in enumerate(state.players)
    }
    new_winner = updated(winner, raw_cards=(*winner.raw_cards, *wanted))
    new_loser = updated(loser, raw_cards=tuple(c for c in loser.raw_cards if c not in wanted))
    new_loser = updated_combine(new_loser, position=retreat, repair_turn=next_turn_of[loser.id])
    new_winner = updated_combine(new_winner, repair_turn=next_turn_of[winner.id])
    new = replace_player(replace_player(state, new_winner), new_loser)
    new = new.model_copy(update={"fight": None, "rng": rng.state})
    events = (
        event(
            "fight",
            "event.fight",
            {"score": score, "retreat_cell": retreat},
            rounds=[list(r) for r in rounds],
            rolled=rolled_here,
            winner=winner.id,
            loser=loser.id,
            taken=list(wanted),
            retreat=list(retreat),
        ),
    )
    rules = (*rules, "L1.T4.R1", "L1.T4.R4", "L1.T5")
    if state.level == "3":
        rules = (*rules, "L3.T1", "L3.T1.R1")
    if state.field is not None and retreat == state.field.base:
        rules = (*rules, "L1.T4.R3")  # the Base is never occupied: a loser may retreat there
    ruling = Ruling(
        "allowed",
        rules,
        "fight.won",
        MappingProxyType(
            {
                "rounds": [list(r) for r in rounds],
                "winner": winner.id,
                "taken": list(wanted),
                "retreat": list(retreat),
            }
        ),
        house,
        {"score": score},
    )
    return Outcome(ruling, new, events)


said(
    "fight.none",
    "Никто не нападал: бой не объявлен.",
    "Nobody attacked: there is no fight to resolve.",
)
said(
    "fight.not-a-fighter",
    "Бой разрешают его участники: {attacker} и {defender}.",
    "The fight is resolved by its players: {attacker} and {defender}.",
)
said(
    "fight.dice-undecided",
    "Кубики не решают бой: {detail}.",
    "The dice do not settle the fight: {detail}.",
)
said("fight.named-twice", "Одна и та же карточка названа дважды.", "The same card is named twice.")
said(
    "fight.take-at-most",
    "Победитель берёт не больше трёх карточек.",
    "The winner takes at most three cards.",
)
said(
    "fight.loser-lacks",
    "У проигравшего нет карточек {foreign}.",
    "The loser does not hold {foreign}.",
)
said(
    "fight.winner-full",
    "В комбайн победителя помещается ещё {room:карточка|карточки|карточек}.",
    "The winner's combine has room for {room:more card|more cards}.",
)
said(
    "fight.retreat-not-free",
    "Отступить можно только на свободную соседнюю клетку: {free}.",
    "The loser retreats to a free neighbouring cell: {free}.",
)
said(
    "event.fight",
    "Бой {score}: победил {winner}, взял {taken}; {loser} отступает на {retreat_cell}.",
    "Fight {score}: {winner} wins and takes {taken}; {loser} retreats to {retreat_cell}.",
)
said("fight.won", "Бой {score}: победил {winner}.", "Fight {score}: {winner} wins.")
