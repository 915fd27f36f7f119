"""What a level-3 position promises a player beyond its score: the lookahead's sense of progress.

The score (L3.P1) counts what is already made. A player one card short of running an
installation, or holding the cards for a shared installation a step from the Base, is better
placed than the score says, and so is a player whose tokens stand on a mission about to be
completed (their substances count double then). :func:`prospects` puts a number on that, in
мР, for :class:`~mhp_cards.sim.lookahead.LookaheadBot` to add to the score it compares, and
(:func:`promise`, at levels 2 and 3) for the search bot to judge a rollout that stops at its
horizon. It judges the position as it stands: it plans no walk and no purchase.

- A run of an installation is worth its products at their printed prices, a product that takes
  a free place on a mission more by the share of that mission then filled, less a Bank price for
  every input spent; an installation with a product container full (no run until a token on it
  is freed, L2.T5), or needing more free tokens than the player has, promises nothing. The
  player's cards and products are shared out among the installations open to them (their own
  and the shared ones), the runs whose every input is held first, then the most promising;
  each is credited :data:`HOPE` of its run's worth times the square of the share of its inputs
  held (the last card counts most). A shared
  installation runs only at the Base (L3.S5): once every input is held, its promise keeps
  :data:`REACH` of itself for every turn the combine needs to get there. (Only then: a pull
  towards the Base for a run still short of cards kept combines circling it, the field
  uncollected, until the step cap.)
- Each of the player's tokens on a mission not yet completed is credited its substance's price
  times :data:`HOPE` and the share of that mission's places filled.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Final, NamedTuple

from mhp_cards.catalog.models import Catalog
from mhp_cards.chem.formula import Formula
from mhp_cards.game.state import GameState, InstallationState, Player, Position
from mhp_cards.game.tablememo import TableMemo
from mhp_cards.referee.move import steps_allowed
from mhp_cards.referee.scoring import printed_price
from mhp_cards.rules.numbers import BANK_SALE_PRICE
from mhp_cards.sim.holdings import missions_with_place, needed, shared_holdings
from mhp_cards.sim.reach import distances

__all__ = ["HOPE", "REACH", "promise", "prospects"]

#: The share of what a promise is worth that the position is credited: a run not yet made
#: may never be (cards are lost in a fight, tokens run out, the game ends first).
HOPE: Final = 0.5
#: What a shared installation's promise keeps for each turn the combine needs to reach the Base.
REACH: Final = 0.8


def prospects(view: GameState, catalog: Catalog, player_id: str) -> float:
    """The promise of the position for the player, in мР (see the module); 0 off level 3."""
    if view.level != "3":
        return 0.0
    return promise(view, catalog, player_id)


def promise(view: GameState, catalog: Catalog, player_id: str) -> float:
    """The promise of the position for the player, in мР, at any level with installations.

    :func:`prospects` off level 3 too: the runs the player's cards and products go towards
    and the tokens on missions not yet complete (off level 3 there is no Base to walk to).
    """
    me = view.player(player_id)
    return _runs(view, catalog, me) + _missions(view, catalog, player_id)


def _runs(view: GameState, catalog: Catalog, me: Player) -> float:
    """The installations' promise (see the module), the best promise first.

    Remembered for the table (as :func:`_worths`), the hand, the free tokens and the turns to
    the Base: the actions a player weighs mostly leave all of these alone but one.
    """
    free = view.free_tokens(me.id)
    turns = _turns_to_base(view, me)
    extra = (me.id, me.raw_cards, free, turns)
    found = _PROMISES.get(view, catalog, *extra)
    if found is not None:
        return found
    return _PROMISES.put(view, catalog, _shared_out(view, catalog, me, free, turns), *extra)


#: Hands on a table whose promise is remembered before the memory starts afresh.
_PROMISES: TableMemo[float] = TableMemo(8192)


def _shared_out(view: GameState, catalog: Catalog, me: Player, free: int, turns: int) -> float:
    """:func:`_runs` worked out: the player's cards and products shared out."""
    held = shared_holdings(catalog, view, me)
    if not held:
        return 0.0
    # A plain dict, not a Counter: what a run takes is subtracted below, and a Counter's
    # subtraction (which drops what is not positive) and missing keys go through Python code.
    have: dict[Formula | None, int] = dict(held)
    options: list[tuple[bool, float, float, _Run]] = []
    runs, by_input = _worths(view, catalog)
    # Only the runs that take something held can have a share of it: most take nothing the
    # player holds, and are passed over without a look (in their order, for the sort's ties).
    taking = sorted(
        {
            i
            for formula, n in have.items()
            if n > 0 and formula is not None
            for i in by_input.get(formula, ())
        }
    )
    for run in map(runs.__getitem__, taking):
        if run.owner not in (None, me.id) or run.tokens > free:
            continue
        factor = HOPE * run.worth
        share = _held_share(run.wanted, run.size, have)
        if share == 0:
            continue
        if run.owner is None and share == 1:
            factor *= REACH**turns
        options.append((share < 1, factor * share**2, factor, run))
    total = 0.0
    # Runs whose every input is held take their cards first: a run short of cards may never
    # get them (the field runs out), and a hand shared out to such runs first left the runs it
    # could make at the Base with nothing, so no step towards the Base promised more and the
    # combines wandered until the step cap.
    for _, _, factor, run in sorted(options, key=lambda o: (o[0], -o[1])):
        share = _held_share(run.wanted, run.size, have)
        total += factor * share**2
        # A card or product serves one run: the next gets what is left (none below nothing).
        for formula, count in run.wanted.items():
            left = have.get(formula, 0) - count
            have[formula] = left if left > 0 else 0
    return total


class _Run(NamedTuple):
    """What a run of one installation takes and adds (:func:`_worths`)."""

    owner: str | None
    wanted: Counter[Formula]
    """Its inputs (:func:`~mhp_cards.sim.holdings.needed`)."""
    size: int
    """How many inputs it takes."""
    tokens: int
    """The free tokens it needs: one a product container (L2.T4)."""
    worth: float
    """What it adds (:func:`_run_worth`)."""


def _worths(
    view: GameState, catalog: Catalog
) -> tuple[tuple[_Run, ...], Mapping[Formula, tuple[int, ...]]]:
    """Each installation that a run would gain by, worked out once for the table's tokens.

    With them, for each input, the runs that take it (by their index). The states after
    each action a player weighs share their installations and Mission card with the view
    unless the action moved a token: the answer is kept for those two values (kept alive
    with it, so that their ids stay theirs).
    """
    found = _WORTHS.get(view, catalog, view.level)
    if found is not None:
        return found
    runs = [
        run
        for run in (_run_of(view, catalog, installation) for installation in view.installations)
        if run is not None
    ]
    by_input: dict[Formula, list[int]] = {}
    for index, run in enumerate(runs):
        for formula in run.wanted:
            by_input.setdefault(formula, []).append(index)
    indexed = (tuple(runs), {formula: tuple(taken) for formula, taken in by_input.items()})
    return _WORTHS.put(view, catalog, indexed, view.level)


#: Tables (installations and Mission card) whose worths are remembered before starting afresh.
_WORTHS: TableMemo[tuple[tuple[_Run, ...], Mapping[Formula, tuple[int, ...]]]] = TableMemo(1024)


def _run_of(view: GameState, catalog: Catalog, installation: InstallationState) -> _Run | None:
    """The run of one installation, if it would gain by one (for :func:`_worths`).

    Worked out once for the installation and the Mission card: a token moved changes one
    installation and leaves the others' objects, and their runs, as they were.
    """
    key = (id(installation), id(view.missions), id(catalog))
    known = _RUNS.get(key)
    if (
        known is not None
        and known[0] is installation
        and known[1] is view.missions
        and known[2] is catalog
    ):
        return known[3]
    run = None
    wanted = needed(installation)
    if wanted:
        worth = _run_worth(view, catalog, installation, wanted)
        if worth > 0:
            tokens = sum(1 for c in installation.containers if c.role == "product")
            run = _Run(installation.owner, wanted, sum(wanted.values()), tokens, worth)
    if len(_RUNS) >= _RUNS_REMEMBERED:
        _RUNS.clear()
    _RUNS[key] = (installation, view.missions, catalog, run)
    return run


#: Runs by installation, Mission card and catalog (all kept alive, so their ids stay theirs).
_RUNS: dict[tuple[int, int, int], tuple[object, object, Catalog, _Run | None]] = {}
_RUNS_REMEMBERED: Final = 8192


def _held_share(wanted: Counter[Formula], size: int, have: Mapping[Formula | None, int]) -> float:
    """The share of the ``size`` inputs ``wanted`` that ``have`` covers."""
    held = have.get
    covered = 0
    for formula, n in wanted.items():  # a loop, not sum(min(...)): the lookahead's hot spot
        h = held(formula, 0)
        covered += n if h >= n else h
    return covered / size


def _run_worth(
    view: GameState, catalog: Catalog, installation: InstallationState, wanted: Counter[Formula]
) -> float:
    """What one run adds: its products (mission places by the share then filled), less inputs.

    Nothing for an installation that cannot run for a full product container.
    """
    worth = 0.0
    for container in installation.containers:
        if container.role != "product":
            continue
        price = printed_price(catalog, container.substance)
        missions = missions_with_place(view, container.substance)
        if missions:
            worth += price * (1 + max(_filled_after(view, m) for m in missions))
        elif None in container.places:
            worth += price
        else:
            return 0.0  # a full container: no run until a token on it is freed (L2.T5)
    return worth - BANK_SALE_PRICE * sum(wanted.values())


def _filled_after(view: GameState, mission_id: str) -> float:
    """The share of a mission's places filled once one more is."""
    mission = next(m for m in view.missions if m.id == mission_id)
    places = [token for _, tokens in mission.places for token in tokens]
    return (sum(token is not None for token in places) + 1) / len(places)


def _missions(view: GameState, catalog: Catalog, player_id: str) -> float:
    """The player's tokens on missions not yet completed, by how full each mission is.

    Remembered for the table: the actions a player weighs mostly move no token.
    """
    found = _MISSION_PROMISES.get(view, catalog, player_id)
    if found is not None:
        return found
    return _MISSION_PROMISES.put(view, catalog, _missions_of(view, catalog, player_id), player_id)


#: Tables whose players' mission promises are remembered before starting afresh.
_MISSION_PROMISES: TableMemo[float] = TableMemo(4096)


def _missions_of(view: GameState, catalog: Catalog, player_id: str) -> float:
    """:func:`_missions` worked out."""
    total = 0.0
    for mission in view.missions:
        if mission.complete:
            continue  # the score doubles these already
        places = [(formula, token) for formula, tokens in mission.places for token in tokens]
        filled = sum(token is not None for _, token in places) / len(places)
        mine = sum(printed_price(catalog, f) for f, token in places if token == player_id)
        total += HOPE * filled * mine
    return total


def _turns_to_base(view: GameState, me: Player) -> int:
    """The turns the player's combine needs to reach the Base (0 when on it or without one)."""
    field = view.field
    if field is None or me.combine is None or me.combine.position == field.base:
        return 0
    neighbours = field.neighbours(view.house_rules.diagonal_adjacency)
    # The field's geometry is carried from state to state (FieldState.with_cards): the steps
    # to the Base are worked out once for it, kept with the mapping so that its id stays its.
    known = _TO_BASE.get(id(neighbours))
    if known is None or known[0] is not neighbours:
        if len(_TO_BASE) >= _FIELDS_REMEMBERED:
            _TO_BASE.clear()
        known = _TO_BASE[id(neighbours)] = (neighbours, distances(neighbours, {field.base}))
    steps = known[1].get(me.combine.position, len(field.cells))
    return -(-steps // steps_allowed(me))


#: Fields whose steps to the Base are remembered before the memory starts afresh.
_FIELDS_REMEMBERED: Final = 256
_TO_BASE: dict[int, tuple[Mapping[Position, tuple[Position, ...]], dict[Position, int]]] = {}
