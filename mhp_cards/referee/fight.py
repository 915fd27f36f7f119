"""Fights on the field: the dice, the winner's spoils, the loser's retreat, repairs (L1.T4–L1.T6).

A fight is three actions, in the order of Ruling L1.T4.R4, each by its own player: the dice
(``fight``, entered from the table's die or rolled by the game's generator, by either
fighter), then the winner's spoils (``spoils``: up to three of the loser's raw cards, chosen
having seen them all), then the loser's retreat (``retreat``: a free neighbouring cell, or
staying when there is none). The fight is over, and both combines under repair (L1.T5), once
the loser has retreated.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from types import MappingProxyType

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.rng import Rng
from mhp_cards.game.state import Fight, GameState, Player, Position
from mhp_cards.referee.actions import Action, ResolveFight, Retreat, TakeSpoils
from mhp_cards.referee.common import (
    Outcome,
    capacity_left,
    event,
    guarded,
    updated,
    updated_combine,
)
from mhp_cards.referee.reasons import said
from mhp_cards.referee.ruling import Ruling, allowed, forbidden
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


def fight_actor(state: GameState) -> str | None:
    """Who acts next in the pending fight; None without a fight.

    The attacker for the dice (either fighter may enter them), the winner for the spoils, the
    loser for the retreat.
    """
    fight = state.fight
    if fight is None:
        return None
    if fight.stage == "dice":
        return fight.attacker
    if fight.stage == "spoils":
        return fight.winner
    return fight.loser


def fight_choices(state: GameState) -> list[Action]:
    """Every action that takes the pending fight its next step (Ruling L1.T4.R4).

    Before the dice: rolling them with the game's dice (the table's dice are entered as
    ``fight 6:2``). After them, the winner's spoils: up to three of the loser's cards (as many
    as their combine holds at level 3), listed once per choice of kinds since cards of one
    kind are interchangeable, taking nothing first. Then the loser's retreat to each free
    neighbouring cell, or staying when there is none (L1.T4, L1.T4.R1). An action of a
    player whose turn it is not names them (``as red retreat 2,3``).
    """
    fight = state.fight
    assert fight is not None
    if fight.stage == "dice":
        return [ResolveFight()]
    actor = fight_actor(state)
    who = None if actor == state.current.id else actor
    if fight.stage == "spoils":
        assert fight.winner is not None
        assert fight.loser is not None
        winner, loser = state.player(fight.winner), state.player(fight.loser)
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
                    takes.add(tuple(c for kind, n in counts.items() for c in by_kind[kind][:n]))
        return [
            TakeSpoils.model_construct(player=who, cards=take)
            for take in sorted(takes, key=lambda t: (len(t), t))
        ]
    cells: list[Position | None] = [*_free_cells(state, fight)] or [None]
    return [Retreat.model_construct(player=who, cell=cell) for cell in cells]


def _free_cells(state: GameState, fight: Fight) -> list[Position]:
    """The cells next to the fight's that no combine occupies (the Base is never occupied)."""
    return [cell for cell in adjacent(state, fight.cell) if occupant(state, cell) is None]


def _wrong_step(state: GameState, fight: Fight, asked: str) -> Outcome | None:
    """The refusal of an action that is not the fight's next step; None when it is."""
    if fight.stage == asked:
        return None
    rules = ("L1.T4", "L1.T4.R4")
    if fight.stage == "dice":
        return Outcome(forbidden(rules, "fight.roll-first"))
    if fight.stage == "spoils":
        return Outcome(forbidden(rules, "fight.choose-spoils", winner=fight.winner))
    return Outcome(forbidden(rules, "fight.choose-retreat", loser=fight.loser))


def judge_fight(state: GameState, action: ResolveFight, catalog: Catalog) -> Outcome:
    """The dice of an attack: they name the winner and the loser (L1.T4, L1.T6)."""
    rules: tuple[str, ...] = ("L1.T4",)
    fight = state.fight
    if fight is None:
        return Outcome(forbidden(rules, "fight.none"))
    wrong = _wrong_step(state, fight, "dice")
    if wrong is not None:
        return wrong
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
    settled = fight.model_copy(update={"rounds": tuple(rounds), "winner": winner.id, "taken": None})
    new = state.model_copy(update={"fight": settled, "rng": rng.state})
    events = (
        event(
            "fight",
            "event.fight",
            {"score": score},
            rounds=[list(r) for r in rounds],
            rolled=rolled_here,
            winner=winner.id,
            loser=loser.id,
        ),
    )
    ruling = Ruling(
        "allowed",
        (*rules, "L1.T4.R4"),
        "fight.won",
        MappingProxyType(
            {"rounds": [list(r) for r in rounds], "winner": winner.id, "loser": loser.id}
        ),
        house,
        {"score": score},
    )
    return Outcome(ruling, new, events)


def refuse_spoils(state: GameState, action: TakeSpoils, catalog: Catalog) -> Outcome | None:
    """:func:`judge_spoils`'s refusals alone: None when the spoils may be taken.

    Asked of every choice of spoils the referee lists (up to three cards of any kinds the
    loser holds: over a hundred with a full hand), where building each next state would be
    work thrown away.
    """
    rules: tuple[str, ...] = ("L1.T4", "L1.T4.R1")
    fight = state.fight
    if fight is None:
        return Outcome(forbidden(rules, "fight.none"))
    wrong = _wrong_step(state, fight, "spoils")
    if wrong is not None:
        return wrong
    assert fight.winner is not None
    assert fight.loser is not None
    actor = action.player or state.current.id
    if actor != fight.winner:
        return Outcome(forbidden((*rules, "L1.T4.R4"), "fight.not-the-winner", winner=fight.winner))
    winner, loser = state.player(fight.winner), state.player(fight.loser)
    wanted = action.cards
    if len(set(wanted)) != len(wanted):
        return Outcome(forbidden(rules, "fight.named-twice", take=list(wanted)))
    if len(wanted) > FIGHT_TAKE:
        return Outcome(forbidden(rules, "fight.take-at-most", take=list(wanted)))
    foreign = [card for card in wanted if card not in loser.raw_cards]
    if foreign:
        return Outcome(
            forbidden(rules, "fight.loser-lacks", {"foreign": foreign}, take=list(wanted))
        )
    room = capacity_left(state, winner)
    if room is not None and len(wanted) > room:
        return Outcome(
            forbidden(
                ("L1.T4", "L3.S3", "L3.T1.R1"),
                "fight.winner-full",
                {"room": room},
                take=list(wanted),
            )
        )
    return None


def spoils_effect(state: GameState, action: TakeSpoils, catalog: Catalog) -> Outcome:
    """The consequences of the spoils once :func:`refuse_spoils` has allowed them."""
    fight = state.fight
    assert fight is not None
    assert fight.winner is not None
    assert fight.loser is not None
    winner, loser = state.player(fight.winner), state.player(fight.loser)
    wanted = action.cards
    new_winner = updated(winner, raw_cards=(*winner.raw_cards, *wanted))
    new_loser = updated(loser, raw_cards=tuple(c for c in loser.raw_cards if c not in wanted))
    new = replace_player(replace_player(state, new_winner), new_loser)
    new = new.model_copy(update={"fight": fight.model_copy(update={"taken": len(wanted)})})
    events = (
        event(
            "spoils",
            "event.spoils" if wanted else "event.spoils-none",
            winner=winner.id,
            loser=loser.id,
            taken=list(wanted),
        ),
    )
    rules: tuple[str, ...] = ("L1.T4", "L1.T4.R1", "L1.T4.R2", "L1.T4.R4")
    if state.level == "3":
        rules = (*rules, "L3.T1", "L3.T1.R1")
    ruling = allowed(
        rules,
        "fight.spoils-taken" if wanted else "fight.spoils-none",
        winner=winner.id,
        loser=loser.id,
        taken=list(wanted),
    )
    return Outcome(ruling, new, events)


judge_spoils = guarded(
    refuse_spoils,
    spoils_effect,
    "The winner takes up to three of the loser's raw cards, of their choice (L1.T4.R1).",
)


def judge_retreat(state: GameState, action: Retreat, catalog: Catalog) -> Outcome:
    """The loser retreats to a free neighbouring cell of their choice (L1.T4.R1).

    The fight is over, and both combines are under repair on their next turns (L1.T5).
    """
    rules: tuple[str, ...] = ("L1.T4", "L1.T4.R1")
    fight = state.fight
    if fight is None:
        return Outcome(forbidden(rules, "fight.none"))
    wrong = _wrong_step(state, fight, "retreat")
    if wrong is not None:
        return wrong
    assert fight.winner is not None
    assert fight.loser is not None
    actor = action.player or state.current.id
    if actor != fight.loser:
        return Outcome(forbidden((*rules, "L1.T4.R4"), "fight.not-the-loser", loser=fight.loser))
    # Both combines stand on the attacked cell; the loser leaves it for a free neighbour, or
    # stays when every neighbour is taken (ruling L1.T4.R1).
    free = _free_cells(state, fight)
    retreat = action.cell
    if retreat is None and free:
        return Outcome(forbidden(rules, "fight.must-retreat", {"free": free}))
    if retreat is not None and retreat not in free:
        return Outcome(
            forbidden(rules, "fight.retreat-not-free", {"free": free}, retreat=list(retreat))
        )
    cell = fight.cell if retreat is None else retreat
    next_turn_of = {
        player.id: state.turn_number
        + ((index - state.turn) % len(state.players) or len(state.players))
        for index, player in enumerate(state.players)
    }
    winner, loser = state.player(fight.winner), state.player(fight.loser)
    new_loser = updated_combine(loser, position=cell, repair_turn=next_turn_of[loser.id])
    new_winner = updated_combine(winner, repair_turn=next_turn_of[winner.id])
    new = replace_player(replace_player(state, new_winner), new_loser)
    new = new.model_copy(update={"fight": None})
    events = (
        event(
            "retreat",
            "event.retreat" if retreat is not None else "event.retreat-stay",
            {"retreat_cell": cell},
            loser=loser.id,
            winner=winner.id,
            retreat=list(cell),
        ),
    )
    rules = (*rules, "L1.T4.R4", "L1.T5")
    if state.level == "3":
        rules = (*rules, "L3.T1")
    if state.field is not None and cell == state.field.base:
        rules = (*rules, "L1.T4.R3")  # the Base is never occupied: a loser may retreat there
    ruling = allowed(
        rules,
        "fight.retreated" if retreat is not None else "fight.stayed",
        {"retreat_cell": cell},
        loser=loser.id,
        winner=winner.id,
        retreat=list(cell),
    )
    return Outcome(ruling, new, events)


said(
    "fight.none",
    "Никто не нападал: бой не объявлен.",
    "Nobody attacked: there is no fight to resolve.",
)
said(
    "fight.not-a-fighter",
    "Кубики бросают участники боя: {attacker} и {defender}.",
    "The dice are rolled by the fight's players: {attacker} and {defender}.",
)
said(
    "fight.roll-first",
    "Сначала бросьте кубики (fight): добычу и отступление выбирают после броска.",
    "Roll the dice first (fight): the spoils and the retreat are chosen after them.",
)
said(
    "fight.choose-spoils",
    "Кубики брошены, победил {winner}: теперь он выбирает добычу (spoils).",
    "The dice are rolled and {winner} won: now {winner} chooses the spoils (spoils).",
)
said(
    "fight.choose-retreat",
    "Добыча выбрана: теперь {loser} выбирает, куда отступить (retreat).",
    "The spoils are chosen: now {loser} chooses where to retreat (retreat).",
)
said(
    "fight.not-the-winner",
    "Добычу выбирает победитель — {winner}.",
    "The winner, {winner}, chooses the spoils.",
)
said(
    "fight.not-the-loser",
    "Куда отступить, выбирает проигравший — {loser}.",
    "The loser, {loser}, chooses where to retreat.",
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
    "fight.must-retreat",
    "Проигравший отступает на свободную соседнюю клетку ({free}); остаться на месте можно, "
    "только если свободных нет.",
    "The loser retreats to a free neighbouring cell ({free}); staying is only for a loser with "
    "none free.",
)
said(
    "event.fight",
    "Бой {score}: победил {winner}, {loser} проиграл.",
    "Fight {score}: {winner} wins, {loser} loses.",
)
said(
    "event.spoils",
    "{winner} забирает у {loser:gen}: {taken}.",
    "{winner} takes {taken} from {loser}.",
)
said(
    "event.spoils-none",
    "{winner} ничего не забирает у {loser:gen}.",
    "{winner} takes nothing from {loser}.",
)
said("event.retreat", "{loser} отступает на {retreat_cell}.", "{loser} retreats to {retreat_cell}.")
said(
    "event.retreat-stay",
    "{loser} остаётся на месте: все соседние клетки заняты.",
    "{loser} stays: every neighbouring cell is taken.",
)
said("fight.won", "Бой {score}: победил {winner}.", "Fight {score}: {winner} wins.")
said("fight.spoils-taken", "{winner} берёт добычу: {taken}.", "{winner} takes the spoils: {taken}.")
said(
    "fight.spoils-none",
    "{winner} не берёт добычи.",
    "{winner} takes no spoils.",
)
said(
    "fight.retreated",
    "{loser} отступает на {retreat_cell}; бой окончен, оба комбайна в ремонте.",
    "{loser} retreats to {retreat_cell}; the fight is over and both combines are repairing.",
)
said(
    "fight.stayed",
    "{loser} остаётся на месте (все соседние клетки заняты); бой окончен, оба комбайна в ремонте.",
    "{loser} stays (every neighbouring cell is taken); the fight is over and both combines are "
    "repairing.",
)
