"""The lookahead's prospects: what it remembers gives what it would work out afresh."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from mhp_cards.catalog.models import Catalog, formula_of
from mhp_cards.chem.formula import Formula
from mhp_cards.game import deal, view
from mhp_cards.game.state import GameState, Player
from mhp_cards.referee import apply, legal_actions
from mhp_cards.referee.table import card_formula
from mhp_cards.sim import prospects as module
from mhp_cards.sim.holdings import holdings
from mhp_cards.sim.policies import make_policy
from mhp_cards.sim.prospects import HOPE, REACH, prospects


def _views(catalog: Catalog, players: int, seed: int, steps: int) -> Iterator[GameState]:
    """The current player's view after each step of a level-3 game of random kinds."""
    rng = random.Random(seed)
    state = deal(catalog, "3", players=players, seed=seed)
    for _ in range(steps):
        if state.ended:
            return
        yield view(state, state.current.id)
        legal = legal_actions(state, catalog)
        kind = rng.choice(sorted({a.kind for a in legal}))
        state, _ = apply(state, rng.choice([a for a in legal if a.kind == kind]), catalog)


def _counted(catalog: Catalog, state: GameState, me: Player) -> Counter[Formula | None]:
    """The player's cards and the products under their tokens, counted card by card."""
    have: Counter[Formula | None] = Counter(card_formula(catalog, c) for c in me.raw_cards)
    for installation in state.installations:
        for container in installation.containers:
            if container.role == "product":
                formula = formula_of(container.substance)
                have[formula] = have.get(formula, 0) + container.places.count(me.id)
    return have


def _shared_out(catalog: Catalog, state: GameState, me: Player) -> float:
    """The installations' promise as the module describes it, with a Counter shared out."""
    have = _counted(catalog, state, me)
    if not have:
        return 0.0
    free = state.free_tokens(me.id)
    turns = module._turns_to_base(state, me)
    options = []
    for run in module._worths(state, catalog)[0]:
        if run.owner not in (None, me.id) or run.tokens > free:
            continue
        factor = HOPE * run.worth
        share = sum(min(have[f], n) for f, n in run.wanted.items()) / run.size
        if share == 0:
            continue
        if run.owner is None and share == 1:
            factor *= REACH**turns
        options.append((share < 1, factor * share**2, factor, run))
    total = 0.0
    for _, _, factor, run in sorted(options, key=lambda o: (o[0], -o[1])):
        share = sum(min(have[f], n) for f, n in run.wanted.items()) / run.size
        total += factor * share**2
        have -= run.wanted
    return total


def test_prospects_are_the_runs_shared_out_and_the_missions(catalog: Catalog) -> None:
    """On every view of a few games (each worked out twice: once afresh, once remembered),
    the prospects are the promise of the runs, the hand shared out with a Counter, plus
    the tokens on missions; the views of the states whose runs promise something count."""
    promising = 0
    for players, seed in ((2, 3), (3, 5), (4, 8)):
        for seen in _views(catalog, players, seed, 120):
            for player in seen.players:
                runs = _shared_out(catalog, seen, player)
                missions = module._missions_of(seen, catalog, player.id)
                for _ in range(2):
                    assert prospects(seen, catalog, player.id) == runs + missions
                promising += runs > 0
    assert promising > 20


def test_the_mission_promise_follows_the_tokens(catalog: Catalog) -> None:
    """A token placed on a mission changes the remembered promise of that player."""
    state = deal(catalog, "3", players=3, seed=2)
    me = state.players[0].id
    assert module._missions(state, catalog, me) == 0.0
    mission = state.missions[0]
    (formula, tokens), *rest = mission.places
    placed = mission.model_copy(update={"places": ((formula, (me, *tokens[1:])), *rest)})
    after = state.model_copy(update={"missions": (placed, *state.missions[1:])})
    assert module._missions(after, catalog, me) > 0.0
    assert module._missions(state, catalog, me) == 0.0


def test_holdings_count_each_hand_on_the_same_table(catalog: Catalog) -> None:
    """Hands remembered apart from the table's products: each hand counted as itself."""
    for seen in _views(catalog, 3, 4, 80):
        for player in seen.players:
            assert holdings(catalog, seen, player) == _counted(catalog, seen, player)


def test_remembered_runs_are_the_runs_worked_out_afresh(catalog: Catalog) -> None:
    """Each installation's run is remembered for the installation and the Mission card: on
    every view of greedy games (tokens placed on installations and missions, freed, sold),
    the runs and the index of their inputs are those worked out with no memory but the
    previous view's."""
    changed = 0
    for players, seed in ((2, 3), (3, 5), (4, 8)):
        bot, rng = make_policy("greedy", catalog), random.Random(seed)
        state = deal(catalog, "3", players=players, seed=seed)
        previous = None
        while not state.ended and state.turn_number < 60:
            seen = view(state, state.current.id)
            remembered = module._worths(seen, catalog)
            module._RUNS.clear()
            module._WORTHS._known.clear()
            assert remembered == module._worths(seen, catalog)
            if previous is not None and previous.installations != seen.installations:
                changed += previous.missions == seen.missions  # the runs of others kept
            previous = seen
            legal = legal_actions(state, catalog)
            state, _ = apply(state, bot.choose(seen, legal, rng), catalog)
    assert changed > 10
