"""Moving and collecting on the field (L1.T1–L1.T3, L1.T5, L3.S3), battery included."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from itertools import pairwise
from typing import Any

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.rng import Rng
from mhp_cards.game.state import Cell, Fight, GameState, Player, Position
from mhp_cards.referee.actions import Move
from mhp_cards.referee.common import (
    FIELD_LEVELS,
    Judge,
    Outcome,
    capacity_left,
    event,
    guarded,
    once_a_turn,
    only_at_levels,
)
from mhp_cards.referee.reasons import PlayerName, said, spoken, written
from mhp_cards.referee.ruling import Ruling, allowed, forbidden
from mhp_cards.referee.table import adjacent, occupant
from mhp_cards.referee.words import counted
from mhp_cards.rules.numbers import (
    COMBINE_CAPACITY,
    FIRST_MOVE_CARDS,
)


def steps_allowed(player: Player) -> int:
    """The most cells the combine may move this turn (L1.T1–L1.T3)."""
    assert player.combine is not None
    if not player.combine.moved:
        return FIRST_MOVE_CARDS  # L1.T2: the first move from the Base crosses two cards
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
    return iter(path_list(state, player, attacks))


def path_list(state: GameState, player: Player, attacks: bool = True) -> list[tuple[Position, ...]]:
    """:func:`paths` as a list, worked out once for the last state asked about."""
    key = (id(state), player.id, attacks)
    known = _PATHS.get(key)
    if known is not None and known[0] is state:
        return known[1]
    found = list(_paths(state, player, attacks))
    _PATHS.clear()  # only the last state's: the listing and the judges ask about it in turn
    _PATHS[key] = (state, found)
    return found


#: The paths of the last state asked about (see :func:`paths`).
_PATHS: dict[tuple[int, str, bool], tuple[GameState, list[tuple[Position, ...]]]] = {}


def _paths(state: GameState, player: Player, attacks: bool) -> Iterator[tuple[Position, ...]]:
    assert player.combine is not None
    assert state.field is not None
    length = steps_allowed(player)
    start = player.combine.position
    base = state.field.base
    up_to = battery_up_to_two(state, player)

    # Who stands where, the mover aside; the Base is never occupied (occupant's rule).
    others = {
        p.combine.position: p.id
        for p in state.players
        if p.id != player.id and p.combine is not None and p.combine.position != base
    }
    neighbours = state.field.neighbours(state.house_rules.diagonal_adjacency)

    def walk(path: tuple[Position, ...]) -> Iterator[tuple[Position, ...]]:
        here = path[-1] if path else start
        for cell in neighbours.get(here, ()):
            if cell == start or cell in path:
                continue
            taken = others.get(cell)
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
    full = [path for path in found if len(path) == length or path[-1] in others or path[-1] == base]
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
        "move.field-levels",
    )
    if refusal:
        return Outcome(refusal)
    refusal = once_a_turn(
        state,
        "move",
        base_rules,
        "move.already-moved",
    )
    if refusal:
        return Outcome(refusal)
    player = state.current
    assert player.combine is not None
    assert state.field is not None
    path = tuple(action.path)
    if path not in path_list(state, player):
        rules = _move_rules(state, player, path)
        return Outcome(_why_not_path(state, player, path, steps_allowed(player), rules))
    target = occupant(state, path[-1], besides=player.id)
    if target is not None:
        combine = player.combine
        if combine.repair_turn == state.turn_number:
            return Outcome(forbidden(("L1.T5",), "move.under-repair"))
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
    field = state.field
    cells: list[Cell] | None = None
    emptied: set[Position] = set()
    on_path = 0
    for index in sorted(i for i in map(field.cell_index, path) if i is not None):
        cell = field.cells[index]
        if cell.raw:
            on_path += 1
            if capacity is not None and len(collected) >= capacity:
                continue
            collected.append(cell.raw)
            emptied.add((cell.x, cell.y))
            if cells is None:
                cells = list(field.cells)
            cells[index] = cell.model_copy(update={"raw": None})
    made_up: tuple[str, ...] = ()
    changes: dict[str, Any] = {}
    missing = 0
    if not player.combine.moved:
        missing = FIRST_MOVE_CARDS - on_path
        if capacity is not None:
            missing = min(missing, capacity - len(collected))
    if not state.house_rules.first_move_as_found:
        made_up, changes = _make_up(state, missing)
        if made_up:
            rules = (*rules, "L1.T2-two-cards")
    combine = player.combine.model_copy(update={"position": path[-1], "moved": True})
    update: dict[str, Any] = {"combine": combine}
    if collected or made_up:
        update["raw_cards"] = (*player.raw_cards, *collected, *made_up)
    players = list(state.players)
    players[state.turn] = player.model_copy(update=update)
    gained = collected or made_up
    changes |= {
        "players": tuple(players),
        # The field object stays when nothing was collected, with the facts it has worked out.
        "field": field
        if cells is None
        else field.with_cards(tuple(cells), raw_positions=field.raw_positions - emptied),
        "done_this_turn": (*state.done_this_turn, "move", *(("collect",) if gained else ())),
    }
    if target is not None:
        changes["fight"] = Fight(attacker=player.id, defender=target, cell=path[-1])
    new = state.model_copy(update=changes)
    words = {"player": player.id, "to": path[-1], "collected": collected}
    cells_walked = [list(p) for p in path]
    events = [event("move", "event.move", words, path=cells_walked, collected=collected)]
    if made_up:
        made_words = {"player": player.id, "cards": list(made_up)}
        events.append(event("make-up", "event.make-up", made_words, cards=list(made_up)))
    full = capacity is not None and len(collected) < on_path
    if full:
        rules = (*rules, "L3.S3", "L3.S3.R1")
        events.append(event("capacity", "event.capacity", {"capacity": COMBINE_CAPACITY}))
    if target is not None:
        events.append(event("attack", "event.attack", {"player": player.id}, defender=target))
        rules = (*rules, "L1.T4")
    ruling = allowed(
        rules,
        "move.moved",
        {"path_list": list(path), "full": full, "capacity": COMBINE_CAPACITY, "target": target},
        path=cells_walked,
        collected=collected,
        **({"made_up": list(made_up)} if made_up else {}),
    )
    if missing > 0 and state.warehouse and state.house_rules.first_move_as_found:
        ruling = ruling.replace(
            rules=(*ruling.rules, "L1.T2-two-cards"),
            house_rules=(*ruling.house_rules, "first-move-as-found"),
        )
    # A diagonal step is legal only under the house rule: then name it in the ruling.
    if state.house_rules.diagonal_adjacency and any(
        a[0] != b[0] and a[1] != b[1] for a, b in pairwise([player.combine.position, *path])
    ):
        ruling = ruling.replace(
            rules=(*ruling.rules, "L1.T1.R1"),
            house_rules=(*ruling.house_rules, "diagonal-adjacency"),
        )
    return Outcome(ruling, new, tuple(events))


def _make_up(state: GameState, missing: int) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The cards a first move's emptied cells make up, and the state's changes (L1.T2-two-cards).

    As many as ``missing``, drawn at random from the Warehouse while it has cards. The last
    combines to leave the Base find the cells beside it emptied by those before them; without
    the draw the fifth player of five starts a card behind and stays behind.
    """
    if missing <= 0 or not state.warehouse:
        return (), {}
    rng = Rng(state.rng)
    left = list(state.warehouse)
    drawn = tuple(left.pop(rng.randrange(len(left))) for _ in range(min(missing, len(left))))
    return drawn, {"warehouse": tuple(left), "rng": rng.state}


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
    facts: dict[str, Any] = {
        "from": list(player.combine.position),
        "path": [list(p) for p in path],
        "steps": length,
    }
    if not path:
        return forbidden(rules, "move.no-cells", **facts)
    here = player.combine.position
    for cell in path:
        if cell not in state.field.positions:
            return forbidden(rules, "move.no-such-cell", {"cell": cell}, **facts)
        if cell not in adjacent(state, here):
            code = (
                "move.not-a-neighbour"
                if state.house_rules.diagonal_adjacency
                else "move.not-an-edge-neighbour"
            )
            return forbidden((*rules, "L1.T1.R1"), code, {"cell": cell, "here": here}, **facts)
        here = cell
    for cell in path[:-1]:
        if occupant(state, cell, besides=player.id):
            return forbidden((*rules, "L1.T4"), "move.blocked", {"cell": cell}, **facts)
        if cell == state.field.base:
            return forbidden((*rules, "L1.T3-up-to-two"), "move.base-ends", **facts)
    if len(path) > length and battery_up_to_two(state, player):
        return forbidden((*rules, "L1.T3-up-to-two"), "move.battery-one-or-two", **facts)
    if len(path) != length:
        if not player.combine.moved:
            code = "move.first-two"
        elif player.combine.solar_battery:
            code = "move.battery-two"
            if state.house_rules.battery_exactly_two:
                # The house rule, not the default ruling, forbids stopping after one cell.
                return forbidden(rules, code, **facts).replace(house_rules=("battery-exactly-two",))
        else:
            code = "move.one-cell"
        return forbidden(rules, code, **facts)
    return forbidden(rules, "move.repeats", **facts)


said("move.field-levels", "на поле играют только уровни 1 и 3", "only levels 1 and 3 have a field")
said(
    "move.already-moved",
    "Комбайн уже ходил в этот ход.",
    "The combine has already moved this turn.",
)
said(
    "move.under-repair",
    "После схватки комбайн ремонтируется: в этот ход нападать нельзя.",
    "The combine is under repair after a fight: no attack this turn.",
)


@written("event.move")
def _moved_event(values: Mapping[str, Any]) -> tuple[str, str]:
    player, to, collected = values["player"], values["to"], values["collected"]
    ru_name, en_name = PlayerName(player, "ru"), PlayerName(player, "en")
    return (
        f"{ru_name}: комбайн перешёл на {spoken(to, 'ru')}, собрано: "
        f"{spoken(list(collected), 'ru')}.",
        f"{en_name}: the combine moved to {spoken(to, 'en')}, collected: "
        f"{spoken(list(collected), 'en')}.",
    )


said(
    "event.capacity",
    "Комбайн полон: больше {capacity:карточки|карточек|карточек} он не берёт (L3.S3).",
    "The combine is full: it takes no more than {capacity} cards (L3.S3).",
)
said(
    "event.make-up",
    "{player}: первый ход прошёл по пустым клеткам — со Склада взято: {cards}.",
    "{player}: the first move crossed emptied cells; from the Warehouse: {cards}.",
)
said(
    "event.attack",
    "{player} нападает на {defender:acc}: «Напал!»",
    "{player} attacks {defender}: “Напал!”",
)


@written("move.moved")
def _moved(values: Mapping[str, Any]) -> tuple[str, str]:
    target, capacity = values["target"], values["capacity"]
    path = ", ".join(str(spoken(cell, "en")) for cell in values["path_list"])
    ru, en = f"Ход по клеткам {path}", f"Move through {path}"
    if values["full"]:
        cards = counted(capacity, ("карточка", "карточки", "карточек"))
        ru += f"; комбайн полон ({cards}) и больше не собирает"
        en += f"; the combine is full ({capacity} cards) and collects no more"
    if target is not None:
        ru += f" и нападение на {PlayerName(target, 'ru'):acc}"
        en += f" and an attack on {PlayerName(target, 'en')}"
    return ru + ".", en + "."


said("move.no-cells", "Укажите клетки хода.", "Give the cells of the move.")
said("move.no-such-cell", "Клетки {cell} нет на поле.", "There is no cell {cell}.")
said(
    "move.not-a-neighbour",
    "Клетка {cell} — не соседняя клетки {here}.",
    "{cell} is not a neighbour of {here}.",
)
said(
    "move.not-an-edge-neighbour",
    "Клетка {cell} — не соседняя по стороне клетки {here}.",
    "{cell} is not a neighbour sharing an edge of {here}.",
)
said(
    "move.blocked",
    "На {cell} стоит чужой комбайн: сквозь него не проехать.",
    "An opponent's combine stands on {cell}: no passing through it.",
)
said("move.base-ends", "Заезд на базу заканчивает ход.", "Entering the Base ends the move.")
said(
    "move.battery-one-or-two",
    "С солнечной батареей комбайн проходит одну или две клетки.",
    "With a solar battery the combine moves one or two cells.",
)
said(
    "move.first-two",
    "Первый ход от базы — ровно через две карточки.",
    "The first move from the Base crosses exactly two cards.",
)
said(
    "move.battery-two",
    "С солнечной батареей комбайн проходит две клетки.",
    "With a solar battery the combine moves two cells.",
)
said("move.one-cell", "Комбайн проходит одну клетку за ход.", "The combine moves one cell a turn.")
said(
    "move.repeats",
    "Так пройти нельзя: клетки повторяются или путь возвращается на старт.",
    "That path is not allowed: it repeats a cell or returns to the start.",
)
