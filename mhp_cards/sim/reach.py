"""The field seen by a level-3 bot: what its combine can reach and who could still progress.

Under the house rule quiet-round-ends a game at level 3 ends after a whole round without
progress (Ruling L3.E1-no-progress), so a bot weighs its moves against what the players after
it could do: these are the judgements on the field that
:class:`~mhp_cards.sim.bots.GreedyBot` makes, on the player's view. By default a quiet round
goes on, and every move survives it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Set
from typing import Final

from mhp_cards.game.state import FieldState, GameState, Player, Position
from mhp_cards.game.visibility import HIDDEN_RAW
from mhp_cards.referee.actions import Action, Move
from mhp_cards.referee.engine import PROGRESS, quiet_round_can_end
from mhp_cards.referee.move import steps_allowed
from mhp_cards.rules.numbers import COMBINE_CAPACITY, WAREHOUSE_PRICE

__all__ = [
    "best_move",
    "best_moves",
    "can_collect",
    "could_progress",
    "distances",
    "moved",
    "others_can_progress",
    "progressed",
    "raw_cells",
    "raw_distances",
    "round_survives",
]


def best_move(
    view: GameState,
    moves: list[Action],
    rng: random.Random,
    *,
    peaceful: bool = True,
    goal: Position | None = None,
) -> Action | None:
    """The move collecting the most raw cards, never onto another combine; None if none.

    Among equal moves, the one ending nearest ``goal`` (default: the nearest raw card), drawn
    from :func:`best_moves` by ``rng``. When the combine must move (the referee lists no end
    of the turn before the move) and every move meets another combine, ``peaceful`` is False
    and the best of them is taken.
    """
    best = best_moves(view, moves, peaceful=peaceful, goal=goal)
    return rng.choice(best) if best else None


def best_moves(
    view: GameState,
    moves: list[Action],
    *,
    peaceful: bool = True,
    goal: Position | None = None,
) -> list[Move]:
    """The moves :func:`best_move` draws from, in the order listed; empty if it has none."""
    field = view.field
    if field is None:
        return []
    occupied = {
        p.combine.position
        for p in view.players
        if p.combine is not None and p.id != view.current.id
    }
    with_raw = raw_cells(field)
    calm = [m for m in moves if isinstance(m, Move) and occupied.isdisjoint(m.path)]
    if not calm:
        if peaceful:
            return []
        calm = [m for m in moves if isinstance(m, Move)]
    full = view.level == "3" and len(view.current.raw_cards) >= COMBINE_CAPACITY
    distance = raw_distances(field, view.house_rules.diagonal_adjacency, goal)
    far = len(field.positions)

    now = distance.get(view.current.combine.position, far) if view.current.combine else far

    def worth(move: Move) -> tuple[int, ...]:
        gain = 0 if full else sum(1 for c in move.path if c in with_raw)
        after = distance.get(move.path[-1], far)
        if goal is None:
            return gain, -after
        # On the way to the goal, collect what lies on a path that still gets closer.
        return int(after < now), gain, -after

    scores = [worth(m) for m in calm]
    best = max(scores)
    return [m for m, score in zip(calm, scores, strict=True) if score == best]


def others_can_progress(view: GameState) -> bool:
    """Whether a player still to play before a quiet round ends could collect or buy.

    Seen from the table: a raw card within the combine's reach (one cell, two with a solar
    battery), or the money for a Warehouse card while the Warehouse has one. Hands are hidden,
    so a reaction is not counted on.
    """
    if view.field is None or not quiet_round_can_end(view):
        return True
    players = len(view.players)
    after = players - view.quiet_turns - 1
    raw = raw_cells(view.field)
    return any(
        could_progress(view, view.players[(view.turn + step) % players], raw)
        for step in range(1, after + 1)
    )


def round_survives(view: GameState, move: Move, *, progress: bool) -> bool:
    """Whether, after this move, somebody could still progress before a quiet round ends.

    ``progress`` tells whether the turn makes progress (a collection on the way, a reaction
    at the end of the walk): then a new quiet round starts with the next player and ends with
    the mover's next turn, so the mover counts too, from where the move ends. Otherwise only
    the players left in the current quiet round do.
    """
    field = view.field
    if field is None or not quiet_round_can_end(view):
        return True
    if not progress:
        return others_can_progress(moved(view, move))
    raw = raw_cells(field)
    collected = raw & set(move.path)
    after = moved(view, move, collected=len(collected))
    players = len(view.players)
    return any(
        could_progress(after, after.players[(view.turn + step) % players], raw - collected)
        for step in range(1, players + 1)
    )


def could_progress(view: GameState, player: Player, raw: Set[Position]) -> bool:
    """Whether the player could collect or buy on a turn from the position seen.

    ``raw`` are the cells that hold a raw card (:func:`raw_cells`, less any emptied meanwhile).
    A reaction is not counted on: hands are hidden.
    """
    field = view.field
    if field is None or player.combine is None:
        return False
    if view.warehouse and player.money >= WAREHOUSE_PRICE:
        return True
    if len(player.raw_cards) >= COMBINE_CAPACITY:
        return False
    neighbours = field.neighbours(view.house_rules.diagonal_adjacency)
    # Entering the Base or another combine's cell ends a move (L1.T3-up-to-two).
    stops = {field.base} | {
        p.combine.position for p in view.players if p.combine is not None and p.id != player.id
    }
    start = player.combine.position
    reach, frontier = set(), {start}
    for _ in range(steps_allowed(player)):
        entered = {near for cell in frontier for near in neighbours.get(cell, ())} - {start}
        reach |= entered
        frontier = entered - stops
    return bool((reach - stops) & raw)  # a stop collects nothing


def progressed(view: GameState) -> bool:
    """Whether the current turn already made progress (Ruling L3.E1-no-progress)."""
    return not PROGRESS.isdisjoint(view.done_this_turn)


def moved(view: GameState, move: Move, *, collected: int = 0) -> GameState:
    """The view with the current player's combine where the move ends.

    The field is left as it is; ``collected`` hidden cards are added to the mover's hand
    (their faces do not matter to the judgements here, only how full the combine is).
    """
    me = view.current
    assert me.combine is not None
    combine = me.combine.model_copy(update={"position": move.path[-1]})
    hand = me.raw_cards + (HIDDEN_RAW,) * collected
    players = tuple(
        p.model_copy(update={"combine": combine, "raw_cards": hand}) if p.id == me.id else p
        for p in view.players
    )
    return view.model_copy(update={"players": players})


def raw_cells(field: FieldState) -> frozenset[Position]:
    """The cells that still hold a raw card (the field's :attr:`~FieldState.raw_positions`)."""
    return field.raw_positions


def raw_distances(
    field: FieldState, diagonal: bool, goal: Position | None = None
) -> dict[Position, int]:
    """:func:`distances` to the goal, or (None) to the raw cards: kept, not to be changed.

    The states of a game share the field object until a card is collected on it: the answer
    is kept for it (kept alive, so its id stays its own).
    """
    key = (id(field), diagonal, goal)
    known = _DISTANCES.get(key)
    if known is not None and known[0] is field:
        return known[1]
    found = distances(field.neighbours(diagonal), {goal} if goal is not None else raw_cells(field))
    if len(_DISTANCES) >= _FIELDS_REMEMBERED:
        _DISTANCES.clear()
    _DISTANCES[key] = (field, found)
    return found


#: Fields whose distances are remembered before the memory starts afresh.
_FIELDS_REMEMBERED: Final = 1024
_DISTANCES: dict[tuple[int, bool, Position | None], tuple[FieldState, dict[Position, int]]] = {}


def can_collect(view: GameState, moves: list[Action]) -> bool:
    """Whether one of the moves collects a raw card."""
    if view.field is None or (
        view.level == "3" and len(view.current.raw_cards) >= COMBINE_CAPACITY
    ):
        return False
    with_raw = raw_cells(view.field)
    return any(isinstance(m, Move) and with_raw & set(m.path) for m in moves)


def distances(
    neighbours: Mapping[Position, tuple[Position, ...]], targets: Set[Position]
) -> dict[Position, int]:
    """Steps from every position to the nearest of ``targets`` (breadth first)."""
    distance = dict.fromkeys(targets, 0)
    frontier = list(targets)
    while frontier:
        following = []
        for position in frontier:
            for near in neighbours.get(position, ()):
                if near not in distance:
                    distance[near] = distance[position] + 1
                    following.append(near)
        frontier = following
    return distance
