"""The field of levels 1 and 3: moving, collecting, fights, upgrades, Bank and Warehouse.

Also completing a mission with raw cards at level 1 (L1.T1–T9, L1.E1–E2, L3.S3, L3.T3–T4).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from itertools import pairwise
from types import MappingProxyType

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.rng import Rng
from mhp_cards.game.state import Fight, GameState, Player, Position
from mhp_cards.referee.actions import BuyRaw, BuyUpgrade, Claim, Move, ResolveFight, SellRaw
from mhp_cards.referee.common import (
    FIELD_LEVELS,
    Judge,
    Outcome,
    capacity_left,
    event,
    guarded,
    mark_done,
    once_a_turn,
    only_at_levels,
    updated,
    updated_combine,
)
from mhp_cards.referee.mission import decide_mission
from mhp_cards.referee.ruling import Ruling, allowed, forbidden, refused
from mhp_cards.referee.table import adjacent, occupant, raw_kind, replace_player
from mhp_cards.rules.numbers import (
    BANK_SALE_PRICE,
    COMBINE_CAPACITY,
    DIE_SIDES,
    FIGHT_TAKE,
    UPGRADE_PRICE,
    WAREHOUSE_PRICE,
)

__all__ = [
    "judge_buy",
    "judge_claim",
    "judge_fight",
    "judge_move",
    "judge_sell",
    "judge_warehouse",
    "paths",
]


# Moving and collecting (L1.T1–T3, L3.S3) ---------------------------------------------------------


def steps_allowed(player: Player) -> int:
    """The most cells the combine may move this turn (L1.T1–L1.T3)."""
    assert player.combine is not None
    if not player.combine.moved:
        return 2  # L1.T2: the first move from the Base crosses two cards
    return 2 if player.combine.solar_battery else 1


def battery_up_to_two(state: GameState, player: Player) -> bool:
    """True when the combine may stop after one of its two cells (Ruling L1.T3-up-to-two)."""
    combine = player.combine
    return (
        combine is not None
        and combine.moved
        and combine.solar_battery
        and not state.house_rules.battery_exactly_two
    )


def paths(state: GameState, player: Player, attacks: bool = True) -> Iterator[tuple[Position, ...]]:
    """Every path the combine may take this turn.

    The last cell may hold an opponent's combine (an attack) unless ``attacks`` is False.
    Entering the Base ends a move. A battery combine moves one or two cells
    (L1.T3-up-to-two); with ``battery-exactly-two``, and on the first move from the Base, a
    shorter path is allowed only where no full-length path exists.
    """
    key = (id(state), player.id, attacks)
    known = _PATHS.get(key)
    if known is not None and known[0] is state:
        yield from known[1]
        return
    found = list(_paths(state, player, attacks))
    _PATHS.clear()  # only the last state's: the listing and the judges ask about it in turn
    _PATHS[key] = (state, found)
    yield from found


#: The paths of the last state asked about (see :func:`paths`).
_PATHS: dict[tuple[int, str, bool], tuple[GameState, list[tuple[Position, ...]]]] = {}


def _paths(state: GameState, player: Player, attacks: bool) -> Iterator[tuple[Position, ...]]:
    assert player.combine is not None
    assert state.field is not None
    length = steps_allowed(player)
    start = player.combine.position
    base = state.field.base
    up_to = battery_up_to_two(state, player)

    def walk(path: tuple[Position, ...]) -> Iterator[tuple[Position, ...]]:
        here = path[-1] if path else start
        for cell in adjacent(state, here):
            if cell == start or cell in path:
                continue
            taken = occupant(state, cell, besides=player.id)
            new = (*path, cell)
            if taken is not None:
                if attacks:
                    yield new  # an attack ends the move
                continue
            if len(new) == length or cell == base:
                yield new
            else:
                if up_to:
                    yield new
                yield from walk(new)

    found = list(walk(()))
    if up_to:
        yield from found
        return
    full = [
        path
        for path in found
        if len(path) == length or occupant(state, path[-1], player.id) or path[-1] == base
    ]
    yield from (full or found)


def _move_rules(state: GameState, player: Player, path: tuple[Position, ...]) -> tuple[str, ...]:
    """The rules a move of the player's combine along ``path`` rests on."""
    assert player.combine is not None
    rules: tuple[str, ...] = (
        ("L1.T1", "L1.T2")
        if not player.combine.moved
        else (("L1.T1", "L1.T3") if player.combine.solar_battery else ("L1.T1",))
    )
    if battery_up_to_two(state, player) and len(path) == 1:
        rules = (*rules, "L1.T3-up-to-two")
    return rules


def refuse_move(state: GameState, action: Move, catalog: Catalog) -> Outcome | None:
    """Why the combine may not move along ``action.path`` now (L1.T1–L1.T5); None when it may."""
    base_rules = ("L1.T1",)
    refusal = only_at_levels(
        state,
        FIELD_LEVELS,
        base_rules,
        "на поле играют только уровни 1 и 3",
        "only levels 1 and 3 have a field",
    )
    if refusal:
        return Outcome(refusal)
    refusal = once_a_turn(
        state,
        "move",
        base_rules,
        "Комбайн уже ходил в этот ход.",
        "The combine has already moved this turn.",
    )
    if refusal:
        return Outcome(refusal)
    player = state.current
    assert player.combine is not None
    assert state.field is not None
    path = tuple(action.path)
    legal = set(paths(state, player))
    if path not in legal:
        rules = _move_rules(state, player, path)
        return Outcome(_why_not_path(state, player, path, steps_allowed(player), rules))
    target = occupant(state, path[-1], besides=player.id)
    if target is not None:
        combine = player.combine
        if combine.repair_turn == state.turn_number:
            return Outcome(
                forbidden(
                    ("L1.T5",),
                    "После схватки комбайн ремонтируется: в этот ход нападать нельзя.",
                    "The combine is under repair after a fight: no attack this turn.",
                )
            )
    return None


def move_effect(state: GameState, action: Move, catalog: Catalog) -> Outcome:
    """The consequences of ``Move`` once refuse_move has allowed it: collection, an attack."""
    player = state.current
    assert player.combine is not None
    assert state.field is not None
    path = tuple(action.path)
    rules = _move_rules(state, player, path)
    target = occupant(state, path[-1], besides=player.id)
    capacity = capacity_left(state, player)
    collected: list[str] = []
    cells = list(state.field.cells)
    on_path = 0
    for index in sorted(i for i in map(state.field.cell_index, path) if i is not None):
        cell = cells[index]
        if cell.raw:
            on_path += 1
            if capacity is not None and len(collected) >= capacity:
                continue
            collected.append(cell.raw)
            cells[index] = cell.model_copy(update={"raw": None})
    moved = updated_combine(player, position=path[-1], moved=True)
    moved = updated(moved, raw_cards=(*player.raw_cards, *collected))
    new = replace_player(state, moved)
    new = new.model_copy(update={"field": state.field.with_cards(tuple(cells))})
    new = mark_done(new, "move")
    if collected:
        new = mark_done(new, "collect")
    events = [
        event(
            "move",
            f"{player.id}: комбайн перешёл на {path[-1]}, собрано: {', '.join(collected) or '—'}.",
            f"{player.id}: the combine moved to {path[-1]}, collected: "
            f"{', '.join(collected) or 'nothing'}.",
            path=[list(p) for p in path],
            collected=collected,
        )
    ]
    full = capacity is not None and len(collected) < on_path
    if full:
        rules = (*rules, "L3.S3", "L3.S3.R1")
        events.append(
            event(
                "capacity",
                f"Комбайн полон: больше {COMBINE_CAPACITY} карточек он не берёт (L3.S3).",
                f"The combine is full: it takes no more than {COMBINE_CAPACITY} cards (L3.S3).",
            )
        )
    reason_ru = f"Ход по клеткам {list(path)}"
    reason_en = f"Move through {list(path)}"
    if full:
        reason_ru += f"; комбайн полон ({COMBINE_CAPACITY} карточек) и больше не собирает"
        reason_en += f"; the combine is full ({COMBINE_CAPACITY} cards) and collects no more"
    if target is not None:
        new = new.model_copy(
            update={"fight": Fight(attacker=player.id, defender=target, cell=path[-1])}
        )
        events.append(
            event(
                "attack",
                f"{player.id} нападает на {target}: «Напал!»",
                f"{player.id} attacks {target}: “Напал!”",
                defender=target,
            )
        )
        rules = (*rules, "L1.T4")
        reason_ru += f" и нападение на {target}"
        reason_en += f" and an attack on {target}"
    ruling = allowed(
        rules, reason_ru + ".", reason_en + ".", path=[list(p) for p in path], collected=collected
    )
    steps = [player.combine.position, *path]
    diagonal = any(a[0] != b[0] and a[1] != b[1] for a, b in pairwise(steps))
    if diagonal:  # only the house rule makes this move legal: name it
        ruling = Ruling(
            ruling.verdict,
            (*ruling.rules, "L1.T1.R1"),
            ruling.reason_ru,
            ruling.reason_en,
            ruling.facts,
            ("diagonal-adjacency",),
        )
    return Outcome(ruling, new, tuple(events))


judge_move: Judge[Move] = guarded(
    refuse_move,
    move_effect,
    "Move the combine and collect raw cards; an attack when the last cell is taken.",
)


def _why_not_path(
    state: GameState,
    player: Player,
    path: tuple[Position, ...],
    length: int,
    rules: tuple[str, ...],
) -> Ruling:
    assert player.combine is not None
    assert state.field is not None
    facts = {
        "from": list(player.combine.position),
        "path": [list(p) for p in path],
        "steps": length,
    }
    if not path:
        return forbidden(rules, "Укажите клетки хода.", "Give the cells of the move.", **facts)
    here = player.combine.position
    for cell in path:
        if cell not in state.field.positions:
            return forbidden(
                rules, f"Клетки {cell} нет на поле.", f"There is no cell {cell}.", **facts
            )
        if cell not in adjacent(state, here):
            diagonal = state.house_rules.diagonal_adjacency
            kind_ru = "соседняя" if diagonal else "соседняя по стороне"
            kind_en = "a neighbour" if diagonal else "a neighbour sharing an edge"
            return forbidden(
                (*rules, "L1.T1.R1"),
                f"Клетка {cell} — не {kind_ru} клетки {here}.",
                f"{cell} is not {kind_en} of {here}.",
                **facts,
            )
        here = cell
    for cell in path[:-1]:
        if occupant(state, cell, besides=player.id):
            return forbidden(
                (*rules, "L1.T4"),
                f"На {cell} стоит чужой комбайн: сквозь него не проехать.",
                f"An opponent's combine stands on {cell}: no passing through it.",
                **facts,
            )
        if cell == state.field.base:
            return forbidden(
                (*rules, "L1.T3-up-to-two"),
                "Заезд на базу заканчивает ход.",
                "Entering the Base ends the move.",
                **facts,
            )
    if len(path) > length and battery_up_to_two(state, player):
        return forbidden(
            (*rules, "L1.T3-up-to-two"),
            "С солнечной батареей комбайн проходит одну или две клетки.",
            "With a solar battery the combine moves one or two cells.",
            **facts,
        )
    if len(path) != length:
        if not player.combine.moved:
            ru = "Первый ход от базы — ровно через две карточки."
            en = "The first move from the Base crosses exactly two cards."
        elif player.combine.solar_battery:
            ru = "С солнечной батареей комбайн проходит две клетки."
            en = "With a solar battery the combine moves two cells."
        else:
            ru = "Комбайн проходит одну клетку за ход."
            en = "The combine moves one cell a turn."
        return forbidden(rules, ru, en, **facts)
    return forbidden(
        rules,
        "Так пройти нельзя: клетки повторяются или путь возвращается на старт.",
        "That path is not allowed: it repeats a cell or returns to the start.",
        **facts,
    )


# Fights (L1.T4–T6) -------------------------------------------------------------------------------


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
        return Outcome(
            forbidden(
                rules,
                "Никто не нападал: бой не объявлен.",
                "Nobody attacked: there is no fight to resolve.",
            )
        )
    if action.player is not None and action.player not in (fight.attacker, fight.defender):
        return Outcome(
            forbidden(
                ("L1.T4",),
                f"Бой разрешают его участники: {fight.attacker} и {fight.defender}.",
                f"The fight is resolved by its players: {fight.attacker} and {fight.defender}.",
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
                rules,
                f"Кубики не решают бой: {verdict}.",
                f"The dice do not settle the fight: {verdict}.",
                rounds=[list(r) for r in rounds],
            )
        )
    side, score = verdict
    winner, loser = (attacker, defender) if side == "attacker" else (defender, attacker)
    room = capacity_left(state, winner)
    default_take = FIGHT_TAKE if room is None else min(FIGHT_TAKE, room)
    wanted = action.take if action.take is not None else loser.raw_cards[:default_take]
    if len(set(wanted)) != len(wanted):
        return Outcome(
            forbidden(
                ("L1.T4",),
                "Одна и та же карточка названа дважды.",
                "The same card is named twice.",
                take=list(wanted),
            )
        )
    if len(wanted) > FIGHT_TAKE:
        return Outcome(
            forbidden(
                ("L1.T4",),
                "Победитель берёт не больше трёх карточек.",
                "The winner takes at most three cards.",
                take=list(wanted),
            )
        )
    foreign = [card for card in wanted if card not in loser.raw_cards]
    if foreign:
        return Outcome(
            forbidden(
                ("L1.T4",),
                f"У проигравшего нет карточек {foreign}.",
                f"The loser does not hold {foreign}.",
                take=list(wanted),
            )
        )
    if room is not None and len(wanted) > room:
        return Outcome(
            forbidden(
                ("L1.T4", "L3.S3"),
                f"В комбайн победителя помещается ещё {room} карточк(и).",
                f"The winner's combine has room for {room} more card(s).",
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
                f"Отступить можно только на свободную соседнюю клетку: {free}.",
                f"The loser retreats to a free neighbouring cell: {free}.",
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
            f"Бой {score}: победил {winner.id}, взял {list(wanted)}; {loser.id} "
            f"отступает на {retreat}.",
            f"Fight {score}: {winner.id} wins and takes "
            f"{list(wanted)}; {loser.id} retreats to {retreat}.",
            rounds=[list(r) for r in rounds],
            rolled=rolled_here,
            winner=winner.id,
            loser=loser.id,
            taken=list(wanted),
            retreat=list(retreat),
        ),
    )
    ruling = Ruling(
        "allowed",
        (*rules, "L1.T4.R1", "L1.T5"),
        f"Бой {score}: победил {winner.id}.",
        f"Fight {score}: {winner.id} wins.",
        MappingProxyType(
            {
                "rounds": [list(r) for r in rounds],
                "winner": winner.id,
                "taken": list(wanted),
                "retreat": list(retreat),
            }
        ),
        house,
    )
    return Outcome(ruling, new, events)


# Upgrades, the Bank and the Warehouse (L1.T3, L1.T6, L1.T8, L1.T9, L3.T3, L3.T4) -----------------


def refuse_buy(state: GameState, action: BuyUpgrade, catalog: Catalog) -> Outcome | None:
    """Why an upgrade may not be bought now (L1.T3, L1.T6); None when it may."""
    rule = "L1.T3" if action.upgrade == "solar-battery" else "L1.T6"
    refusal = only_at_levels(
        state,
        FIELD_LEVELS,
        (rule,),
        "улучшения есть только у комбайнов",
        "upgrades belong to combines",
    )
    if refusal:
        return Outcome(refusal)
    player = state.current
    assert player.combine is not None
    upgrade = catalog.components.upgrade(action.upgrade)
    price = upgrade.price if upgrade else UPGRADE_PRICE
    has = (
        player.combine.solar_battery if action.upgrade == "solar-battery" else player.combine.armour
    )
    if has:
        return Outcome(
            refused(
                (rule,),
                lambda: ("Это улучшение у комбайна уже есть.", "The combine already has it."),
            )
        )
    bought = sum(
        1
        for p in state.players
        if p.combine
        and (p.combine.solar_battery if action.upgrade == "solar-battery" else p.combine.armour)
    )
    if upgrade is not None and bought >= upgrade.count:
        return Outcome(
            refused((rule,), lambda: ("В коробке таких больше нет.", "None left in the box."))
        )
    if player.money < price:
        return Outcome(
            refused(
                (rule, "L1.T8.R1"),
                lambda: (
                    f"Нужно {price} мР, а у игрока {player.money} мР.",
                    f"It costs {price} мР; the player has {player.money} мР.",
                ),
                price=price,
                money=player.money,
            )
        )
    return None


def buy_effect(state: GameState, action: BuyUpgrade, catalog: Catalog) -> Outcome:
    """The consequences of ``BuyUpgrade`` once refuse_buy has allowed it."""
    rule = "L1.T3" if action.upgrade == "solar-battery" else "L1.T6"
    player = state.current
    upgrade = catalog.components.upgrade(action.upgrade)
    price = upgrade.price if upgrade else UPGRADE_PRICE
    field_name = "solar_battery" if action.upgrade == "solar-battery" else "armour"
    new_player = updated_combine(updated(player, money=player.money - price), **{field_name: True})
    new = replace_player(state, new_player).model_copy(update={"bank": state.bank + price})
    ruling = allowed(
        (rule, "L1.T8.R1"),
        f"Куплено ({price} мР в Банк).",
        f"Bought ({price} мР to the Bank).",
        price=price,
    )
    return Outcome(
        ruling,
        new,
        (
            event(
                "buy",
                f"{player.id} купил {action.upgrade}.",
                f"{player.id} bought {action.upgrade}.",
            ),
        ),
    )


judge_buy: Judge[BuyUpgrade] = guarded(
    refuse_buy, buy_effect, "Buy a solar battery or armour (L1.T3, L1.T6)."
)


def refuse_sell(state: GameState, action: SellRaw, catalog: Catalog) -> Outcome | None:
    """Why a raw card may not be sold to the Bank now (L1.T8, L3.T3); None when it may."""
    rule = "L3.T3" if state.level == "3" else "L1.T8"
    refusal = only_at_levels(
        state,
        FIELD_LEVELS,
        (rule,),
        "Банк не покупает карточки сырья",
        "the Bank does not buy raw cards",
    )
    if refusal:
        return Outcome(refusal)
    player = state.current
    if action.card not in player.raw_cards:
        return Outcome(
            refused(
                (rule,),
                lambda: (
                    f"У игрока нет карточки {action.card}.",
                    f"The player does not hold {action.card}.",
                ),
                hand=list(player.raw_cards),
            )
        )
    if state.bank < BANK_SALE_PRICE:
        return Outcome(
            refused(
                (rule, "L1.T8.R1"),
                lambda: (
                    "В Банке нет денег: продажа отклонена.",
                    "The Bank has no money: the sale is refused.",
                ),
                bank=state.bank,
            )
        )
    return None


def sell_effect(state: GameState, action: SellRaw, catalog: Catalog) -> Outcome:
    """The consequences of ``SellRaw`` once refuse_sell has allowed it."""
    rule = "L3.T3" if state.level == "3" else "L1.T8"
    player = state.current
    new_player = updated(
        player,
        money=player.money + BANK_SALE_PRICE,
        raw_cards=tuple(c for c in player.raw_cards if c != action.card),
    )
    new = replace_player(state, new_player).model_copy(
        update={"bank": state.bank - BANK_SALE_PRICE, "warehouse": (*state.warehouse, action.card)}
    )
    ruling = allowed(
        (rule,),
        f"Карточка {action.card} продана Банку за {BANK_SALE_PRICE} мР и ушла на Склад.",
        f"{action.card} sold to the Bank for {BANK_SALE_PRICE} мР; it goes to the Warehouse.",
    )
    return Outcome(ruling, new, (event("sell", ruling.reason_ru, ruling.reason_en),))


judge_sell: Judge[SellRaw] = guarded(
    refuse_sell, sell_effect, "Sell a raw card to the Bank (L1.T8, L3.T3)."
)


def refuse_warehouse(state: GameState, action: BuyRaw, catalog: Catalog) -> Outcome | None:
    """Why a Warehouse card may not be bought now (L1.T9, L3.T4); None when it may."""
    rule = "L3.T4" if state.level == "3" else "L1.T9"
    refusal = only_at_levels(
        state,
        FIELD_LEVELS,
        (rule,),
        "Склада на этом уровне нет",
        "there is no Warehouse at this level",
    )
    if refusal:
        return Outcome(refusal)
    player = state.current
    if action.card not in state.warehouse:
        return Outcome(
            refused(
                (rule,),
                lambda: (
                    f"На Складе нет карточки {action.card}.",
                    f"{action.card} is not in the Warehouse.",
                ),
                warehouse=list(state.warehouse),
            )
        )
    if player.money < WAREHOUSE_PRICE:
        return Outcome(
            refused(
                (rule,),
                lambda: (
                    f"Карточка со Склада стоит {WAREHOUSE_PRICE} мР, у игрока {player.money} мР.",
                    f"A Warehouse card costs {WAREHOUSE_PRICE} мР; "
                    f"the player has {player.money} мР.",
                ),
            )
        )
    room = capacity_left(state, player)
    if room == 0:
        return Outcome(
            refused(
                ("L3.S3",),
                lambda: (
                    f"Комбайн полон: в нём уже {COMBINE_CAPACITY} карточек.",
                    f"The combine is full: it holds {COMBINE_CAPACITY} cards.",
                ),
            )
        )
    return None


def warehouse_effect(state: GameState, action: BuyRaw, catalog: Catalog) -> Outcome:
    """The consequences of ``BuyRaw`` once refuse_warehouse has allowed it."""
    rule = "L3.T4" if state.level == "3" else "L1.T9"
    player = state.current
    new_player = updated(
        player, money=player.money - WAREHOUSE_PRICE, raw_cards=(*player.raw_cards, action.card)
    )
    new = replace_player(state, new_player).model_copy(
        update={
            "bank": state.bank + WAREHOUSE_PRICE,
            "warehouse": tuple(c for c in state.warehouse if c != action.card),
        }
    )
    new = mark_done(new, "warehouse")
    ruling = allowed(
        (rule,),
        f"{action.card} куплена со Склада за {WAREHOUSE_PRICE} мР.",
        f"{action.card} bought from the Warehouse for {WAREHOUSE_PRICE} мР.",
    )
    return Outcome(ruling, new, (event("warehouse", ruling.reason_ru, ruling.reason_en),))


judge_warehouse: Judge[BuyRaw] = guarded(
    refuse_warehouse, warehouse_effect, "Buy a raw card from the Warehouse (L1.T9, L3.T4)."
)


# Level 1 missions (L1.E1, L1.E2) -----------------------------------------------------------------

#: Refused claims remembered per catalog before the memory starts afresh.
_REMEMBERED_REFUSALS = 50_000


def judge_claim(state: GameState, action: Claim, catalog: Catalog) -> Outcome:
    """Claim a mission with raw cards at level 1 (L1.E1, L1.E2)."""
    rules = ("L1.E1", "L1.E2")
    refusal = only_at_levels(
        state,
        ("1",),
        rules,
        "миссии выполняют фишками на карте Миссий (L2.M1)",
        "missions are completed with tokens on the Mission card (L2.M1)",
    )
    if refusal:
        return Outcome(refusal)
    player = state.current
    if not action.cards:  # the claim of the whole hand, as legal_actions asks every turn
        known = catalog.memo("referee.claim-refusals").get(
            (action.mission, player.raw_cards, state.house_rules.mission_match)
        )
        if known is not None:
            return known  # type: ignore[no-any-return]
    try:
        mission = catalog.mission(action.mission)
    except KeyError:
        return Outcome(
            forbidden(
                rules,
                f"Нет миссии {action.mission}.",
                f"No mission {action.mission}.",
                missions=[m.id for m in catalog.missions],
            )
        )
    cards = action.cards or player.raw_cards
    if len(set(cards)) != len(cards):
        return Outcome(
            forbidden(rules, "Одна и та же карточка названа дважды.", "A card is named twice.")
        )
    missing = [c for c in cards if c not in player.raw_cards]
    if missing:
        return Outcome(forbidden(rules, f"У игрока нет {missing}.", f"The player lacks {missing}."))
    match = state.house_rules.mission_match
    if match == "whole-hand":
        cards = player.raw_cards
    # A refused claim depends only on the mission, the cards and the house rule: remember it.
    refusals = catalog.memo("referee.claim-refusals")
    memo_key = (mission.id, cards, match)
    refused = refusals.get(memo_key)
    if refused is not None:
        return refused  # type: ignore[no-any-return]
    hand = [raw_kind(catalog, c) for c in cards]
    ruling = decide_mission(catalog, mission, hand, [match] if match != "exact-subset" else [])
    if ruling.verdict != "complete":
        if len(refusals) >= _REMEMBERED_REFUSALS:
            refusals.clear()
        refused = refusals[memo_key] = Outcome(
            Ruling(
                "forbidden",
                ruling.rules,
                ruling.reason_ru,
                ruling.reason_en,
                ruling.facts,
                ruling.house_rules,
            )
        )
        return refused
    ruling = Ruling(
        ruling.verdict,
        (*ruling.rules, "L1.E2"),
        ruling.reason_ru + f" Победитель — {player.id}.",
        ruling.reason_en + f" {player.id} wins.",
        ruling.facts,
        ruling.house_rules,
    )
    new = state.model_copy(
        update={
            "ended": True,
            "end_code": "mission",
            "end_reason": f"{player.id} completed mission {mission.id}",
            "claimed": (player.id, mission.id),
        }
    )
    return Outcome(
        ruling, new, (event("end", ruling.reason_ru, ruling.reason_en, winner=player.id),)
    )
