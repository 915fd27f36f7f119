"""The ``search`` bot: information-set Monte Carlo tree search over the player's view.

At each real choice the bot lists its candidates (the distinct actions it may take, the
greedy bot's choice first, and the sales of a card to another player that the partner would
agree to), then spends a budget of simulated actions on an information-set Monte Carlo tree
search (single observer, after Cowling, Powley and Whitehouse). The tree is the viewer's: a
node is what the viewer knows after a sequence of its own choices from the root (its
children keyed by the choice; the other seats' actions and the dice between are not branched
on). Each iteration samples one world consistent with what its view shows (a
*determinisation*: the cards it cannot see, dealt at random among the places it cannot see),
then walks down the tree in that world: at each of the viewer's choices, a choice never
tried is expanded (one node an iteration, greedy's choice first, then moves that collect
more), else UCB1 picks among the choices legal in this world, each explored against the
iterations it was available in (availability counts), greedy's choice with a head start that
shrinks as its visits grow (a progressive bias, by level: ``budget.PRIORS``). The other seats,
and every fight step, play greedy (the model of the other players). From the node expanded a
*rollout* plays on, greedy for every seat, the viewer's own choices greedy too unless
``noise`` makes it pick among the first few in greedy's order (a noisy greedy with move
ordering: off by default, as it played worse at level 2, docs/guides/simulation.md); the
value is backed up the path. The candidate visited most is played (ties: the better mean,
then greedy's). The budget bounds the search: candidates it cannot afford a rollout for (the
last in greedy's order) are not played, and the iteration that reaches it stops there.

An iteration plays to the end of the game or to a horizon of turns from the choice (by
level: to the end head to head, a short race; three turns at level 2, where a rollout to the
end leaves the budget a few games to judge by; a level-3 game is long and a level-1 action
costly), and is scored: a finished game by who won, an unfinished one at levels 2,
head to head and 3 by the lead at the rules' prices (:func:`mhp_cards.referee.score`: the
substances under each player's tokens, the Mission card and the money) — at levels 2 and 3
with what each position promises added (:func:`mhp_cards.sim.prospects.promise`: the runs
its cards and products go towards, its tokens on missions nearly complete; at level 3 a raw
card held at the Bank's price too), for a card taken towards a run scores nothing yet — and
at level 1 by who is closer to a mission (a claim wins outright there).

What it knows is the view only: the real state's hidden cards never reach it, so a view
whose hidden cards were dealt otherwise gives the same choice. Its randomness comes from the
game's seeded generator (one draw per choice that is searched), and its budget is counted in
cost units, not in seconds, so the same seed gives the same game on any machine (an optional
time limit trades that for a bound on the time per choice). A unit is a simulated action, and
at level 1 also a quarter of one for each action listed before it (``budget.LISTING_COST``: there
the listing is most of an action's cost, and grows with the hand), so that the units track
the time: the levels' budgets (``budget.STEPS``) cost about 0.06 to 0.12 s of one core on the
machine of docs/guides/simulation.md. The garbage collector is off while the bot searches
(the states it makes are freed as they go, none in a reference cycle) and runs between
choices: a full collection in the middle of one was its slowest part. A pause that is not the
search's (a core shared with other work) can still stretch a choice: ``seconds`` bounds the
time.

It is cheap where there is no choice: a claim at level 1 (it wins the game), a single
candidate, or candidates that are the same choice (selling or buying one of two cards of the
same kind, running a reaction with one or another card of the same kinds, taking the hidden
top card of one pile or another, in the tree too), cost no rollout; so does, at level 1, a
mission it can finish on this turn by selling cards the mission does not use to the Bank and
buying the cards it lacks from the Warehouse (:func:`mhp_cards.sim.finish.finishing_step`:
the sales, then the purchases, then the claim, one choice at a time; greedy, the model of
the other players, makes no such plan); head to head, the installation kept on the first
turn (Ruling V1.2-choose) is the greedy bot's, weighed over whole imagined games
(:func:`mhp_cards.sim.holdings.game_worth`), and so is the card picked of two drawn (Ruling
V1.3-draw-two); a sale of a raw card to the Bank is
searched at the root only as the greedy bot's choice. Offers to other players: a sale of one
raw card is a candidate when the partner would agree to it as the greedy bot does
(:meth:`GreedyBot.accepts`, asked in a sampled world from the partner's seat); other trades
only when nothing else is allowed. Rollouts make no offers. It agrees to every offer made to
it.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.dealer import raw_instances
from mhp_cards.game.state import GameState, Player
from mhp_cards.game.visibility import is_hidden
from mhp_cards.game.visibility import view as view_of
from mhp_cards.referee.actions import (
    Action,
    Trade,
)
from mhp_cards.referee.end import game_end
from mhp_cards.referee.engine import apply
from mhp_cards.referee.fight import fight_actor
from mhp_cards.referee.legal import legal_actions
from mhp_cards.referee.scoring import totals as score_totals
from mhp_cards.rules.numbers import BANK_SALE_PRICE, WAREHOUSE_PRICE
from mhp_cards.sim import choices
from mhp_cards.sim.bots import GreedyBot, mission_elements
from mhp_cards.sim.budget import (
    HORIZONS,
    LISTING_COST,
    PRIORS,
    STEPS,
    Meter,
    SearchBudget,
)
from mhp_cards.sim.finish import finishing_step
from mhp_cards.sim.holdings import is_card_sale
from mhp_cards.sim.prospects import promise
from mhp_cards.sim.worlds import determinise, unseen

__all__ = ["HORIZONS", "PRIORS", "STEPS", "SearchBot", "SearchBudget", "determinise"]

#: Money (мР) by which a lead at the horizon counts about as much as a won game, for the
#: evaluation of a rollout that stops before the end: tanh(lead / scale).
LEAD_SCALE: Final = 6.0
#: The levels at which a rollout stopped at the horizon counts what the position promises
#: besides the score (:meth:`SearchBot._standings`).
PROMISED: Final = frozenset({"2", "3"})
#: Elements by which being closer to a mission counts about as much as a won game (level 1).
MISSION_SCALE: Final = 3.0
#: Actions after which a rollout stops whatever its horizon (a guard: games end long before).
ROLLOUT_STEPS: Final = 2000
#: Sales of a card to another player tried at most, as candidates.
MAX_OFFERS: Final = 3
#: The exploration constant of UCB1 (values run from 0 to 1).
EXPLORATION: Final = 0.7
#: A noisy rollout choice of the bot's own is one of this many first candidates in greedy's
#: order (greedy's choice, then the moves that collect more).
NOISE_CHOICES: Final = 3


@dataclass(slots=True)
class _Node:
    """A node of the tree: the viewer's information after a sequence of its own choices.

    ``available``: the iterations in which the choice leading here was legal (the parent's
    visits with it available), the count UCB1 explores against.
    """

    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[Hashable, _Node] = field(default_factory=dict)


class SearchBot:
    """Information-set Monte Carlo tree search over the view, greedy rollouts (see the module)."""

    name: Final = "search"

    def __init__(
        self,
        catalog: Catalog,
        budget: SearchBudget | None = None,
        *,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """``clock``: the seconds the time limit (``budget.seconds``) is measured with."""
        self.catalog = catalog
        self.budget = budget or SearchBudget()
        self._clock = clock
        self._greedy = GreedyBot(catalog)
        self._box: Final = tuple(raw_instances(catalog))
        # Farther than any reachable mission: more elements than the largest mission has.
        self._far = 1 + max(sum(mission_elements(m).values()) for m in catalog.missions)
        self.searched = 0
        """Choices that were searched (more than one distinct candidate)."""
        self.rollouts = 0
        """Rollouts played so far (one an iteration of the tree search)."""
        self.nodes = 0
        """Tree nodes made so far (one an iteration, unless the iteration had no choice)."""
        self.steps = 0
        """Simulated actions played so far."""
        self.spent = 0.0
        """Cost units spent so far (see :class:`SearchBudget`)."""

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        """The candidate whose rollouts from sampled worlds score best for the viewer.

        ``view`` must be a player's view (:func:`mhp_cards.game.view`): ValueError for a full
        state, whose hidden cards the bot must not see.
        """
        if view.viewer is None:
            raise ValueError("the search bot plays from a player's view, not from the full state")
        asked = self._clock() if self.budget.seconds is not None else 0.0
        if view.fight is not None:
            return self._greedy.choose(view, legal, rng)
        if any(action.kind in ("keep", "pick") for action in legal):
            # Head to head, the installation kept is a choice for the whole game (Ruling
            # V1.2-choose): greedy weighs each over 200 imagined games (game_worth), where a
            # budget of rollouts to the end would see a few. A card picked of two (Ruling
            # V1.3-draw-two) is the same: a handful of rollouts judged it worse than greedy's
            # rule (search won 33.8 % of 40 games against greedy so, 40.0 % with greedy's).
            return self._greedy.choose(view, legal, rng)
        if view.level == "1":
            # A mission claimed at level 1 wins the game (L1.E2): nothing to search.
            claim = next((a for a in legal if a.kind == "claim"), None)
            if claim is not None:
                return claim
            finish = finishing_step(view, legal, self.catalog)
            if finish is not None:
                return finish
        candidates = choices.candidates(view, legal)
        offering = view.level in ("2", "3") and any(is_card_sale(a) for a in legal)
        if len(candidates) == 1 and not offering:
            if choices.is_blind_take(view, candidates[0]):
                # Which face-down pile stays greedy's (any, at random): the first listed
                # every time drains one pile, whose top soon holds the cards the player put
                # back under it (V1.3-draw-two), and lost games greedy won.
                return self._greedy.choose(view, legal, rng)
            return candidates[0]
        # One draw from the game's generator per search: the game stays a function of its seed.
        search_rng = random.Random(rng.getrandbits(64))
        preferred = self._greedy.choose(view, legal, search_rng)
        candidates = choices.ordered(view, preferred, candidates)
        offers = self._offers(view, legal, search_rng)
        candidates += [a for a in offers if a not in candidates]
        if len(candidates) == 1:
            return candidates[0]
        self.searched += 1
        # No collection pause inside the search (it makes thousands of short-lived states,
        # none in a reference cycle): the collector runs between choices. A full collection
        # in the middle of a choice was its slowest part (docs/guides/simulation.md).
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._search(view, candidates, search_rng, asked)
        finally:
            if collecting:
                gc.enable()

    def _search(
        self, view: GameState, candidates: list[Action], rng: random.Random, asked: float
    ) -> Action:
        """Information-set MCTS from the viewer's seat: one sampled world an iteration.

        ``asked``: when the choice was asked for, on the bot's clock (read only with a time
        limit).
        """
        me = view.viewer
        assert me is not None
        budget = self.budget
        horizon = budget.horizon if budget.horizon is not None else HORIZONS.get(view.level)
        allowed = budget.steps if budget.steps is not None else STEPS.get(view.level, 400)
        stop = None if horizon is None else view.turn_number + horizon
        prior = budget.prior if budget.prior is not None else PRIORS.get(view.level, 0.25)
        face_down = any(pile and is_hidden(pile[-1]) for pile in view.piles)
        root = _Node()
        keys = [choices.choice_key(view, a, face_down) for a in candidates]
        per_listed = LISTING_COST.get(view.level, 0.0)
        pool = unseen(view, self.catalog, self._box)  # the same for every world sampled
        seconds, clock = budget.seconds, self._clock
        spent, iterations = 0.0, 0
        while iterations < max(budget.worlds, len(candidates)):
            # The budget is a bound: the candidates it cannot afford a rollout for (the last
            # in greedy's order) are not played. So is the clock, if set: after the first
            # iteration none is begun past it, and each stops there (the meter reads it).
            if spent >= allowed or (
                iterations and seconds is not None and clock() - asked >= seconds
            ):
                break
            meter = Meter(allowed - spent, per_listed)
            if seconds is not None:
                meter.deadline, meter.clock = asked + seconds, clock
            world = determinise(view, self.catalog, rng, pool=pool)
            self._iterate(
                root,
                world,
                candidates,
                keys,
                me,
                rng.getrandbits(64),
                stop,
                face_down,
                prior,
                meter,
            )
            spent += meter.spent
            iterations += 1
        return candidates[_most_visited(root, keys, prior)]

    def _iterate(
        self,
        root: _Node,
        world: GameState,
        candidates: list[Action],
        keys: list[Hashable],
        me: str,
        seed: int,
        stop: int | None,
        face_down: bool,
        prior: float,
        meter: Meter,
    ) -> None:
        """One iteration: select and expand in ``world``, roll out, back up (``meter`` charged)."""
        self.rollouts += 1
        rng = random.Random(seed)
        node, path, state, steps = root, [root], world, 0
        options: list[Action] | None = candidates
        option_keys: list[Hashable] = keys
        expanded = False
        meter.charge(len(candidates))  # the root's action (the candidates listed already)
        while True:
            if options is None:
                # The viewer's later choice in this world (trades left out, see _advance).
                options, option_keys = self._options(state, me, rng, face_down, meter)
            if not options:
                break
            if len(options) == 1:
                action, child = options[0], None
            else:
                index = _select(node, option_keys, prior)
                action, key = options[index], option_keys[index]
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node()
                    self.nodes += 1
                    expanded = True
            state = self._act(state, action, me, rng)
            steps += 1
            if child is not None:
                node = child
                path.append(node)
            # The others (and forced fight steps) play greedy until the viewer chooses again.
            state, played = self._advance(state, me, rng, stop, meter, in_tree=True)
            steps += played
            if expanded or self._over(state, stop) or meter.out:
                break
            options = None
        state, played = self._advance(state, me, rng, stop, meter, in_tree=False)
        steps += played
        value = self._value(state, me)
        for visited in path:
            visited.visits += 1
            visited.total += value
        self.steps += steps
        self.spent += meter.spent

    def _options(
        self, state: GameState, me: str, rng: random.Random, face_down: bool, meter: Meter
    ) -> tuple[list[Action], list[Hashable]]:
        """The viewer's candidates in a tree node below the root, greedy's first."""
        legal = legal_actions(choices.no_trades(state), self.catalog)
        meter.charge(len(legal))
        distinct = choices.distinct(legal, lambda a: choices.choice_key(state, a, face_down))
        if len(distinct) > 1:
            distinct = choices.ordered(state, self._greedy.choose(state, legal, rng), distinct)
        return distinct, [choices.choice_key(state, a, face_down) for a in distinct]

    def _act(self, state: GameState, action: Action, me: str, rng: random.Random) -> GameState:
        """``action`` applied; an offer the partner refuses leaves the state as it was."""
        if isinstance(action, Trade) and not self._greedy.accepts(
            view_of(state, action.partner), action, rng
        ):
            return choices.no_trades(state)
        return apply(state, action, self.catalog)[0]

    @staticmethod
    def _over(state: GameState, stop: int | None) -> bool:
        return state.ended or (stop is not None and state.turn_number >= stop)

    def _advance(
        self,
        state: GameState,
        me: str,
        rng: random.Random,
        stop: int | None,
        meter: Meter,
        *,
        in_tree: bool,
    ) -> tuple[GameState, int]:
        """Play on until the viewer has a choice (``in_tree``) or the rollout's end.

        The rollout ends at the horizon, at the end of the game, or when the iteration's
        budget (``meter``) is spent.

        The other seats and every fight step play greedy (the model of the others); the
        viewer's own rollout choices are greedy's, or with probability ``noise`` one of the
        first few candidates in greedy's order (a noisy greedy with move ordering).
        """
        steps = 0
        noise = self.budget.noise
        for _ in range(ROLLOUT_STEPS):
            if self._over(state, stop) or meter.out:
                break
            # Trades are left out of rollouts: greedy proposes none while anything else is
            # allowed, and at level 2 listing the trades is half the cost of listing actions.
            if state.fight is None:
                state = choices.no_trades(state)
            actor = fight_actor(state) or state.current.id
            if in_tree and actor == me and state.fight is None:
                break
            legal = legal_actions(state, self.catalog)
            if not legal:
                break
            meter.charge(len(legal))
            choice = self._greedy.choose(state, legal, rng)
            if actor == me and noise and state.fight is None and rng.random() < noise:
                ordered = choices.ordered(state, choice, choices.distinct(legal, lambda a: None))
                choice = rng.choice(ordered[:NOISE_CHOICES])
            state, _ = apply(state, choice, self.catalog)
            steps += 1
        return state, steps

    def _offers(self, view: GameState, legal: list[Action], rng: random.Random) -> list[Action]:
        """Sales of one raw card that the partner agrees to in a sampled world, dearest first.

        The price: the most the partner would pay (under the Warehouse price, within its
        money). The partner is taken to answer as the greedy bot does
        (:meth:`GreedyBot.accepts`).
        """
        sales = [a for a in legal if is_card_sale(a) and isinstance(a, Trade) and len(a.give) == 1]
        if not sales or view.level in ("1", "1v1"):
            return []
        world = determinise(view, self.catalog, rng, box=self._box)
        offers: list[Action] = []
        seen: set[tuple[str, str]] = set()
        for sale in sales:
            assert isinstance(sale, Trade)
            key = (sale.partner, sale.give[0].rsplit("#", 1)[0])
            if key in seen:
                continue
            seen.add(key)
            partner = world.player(sale.partner)
            for price in range(min(WAREHOUSE_PRICE - 1, partner.money), -1, -1):
                offer = sale.model_copy(update={"pay": -price})
                if self._greedy.accepts(view_of(world, sale.partner), offer, rng):
                    offers.append(offer)
                    break
            if len(offers) >= MAX_OFFERS:
                break
        return offers

    def _value(self, state: GameState, me: str) -> float:
        """1 for a won game, a share of 1 for a tie, 0 for a loss; between, by the lead."""
        end = game_end(state, self.catalog)
        if end is not None:
            return 1 / len(end.winners) if me in end.winners else 0.0
        if state.level == "1":
            return self._mission_race(state, me)
        return self._lead(state, me)

    def _lead(self, state: GameState, me: str) -> float:
        """The lead over the best other player, from 0 to 1, by :meth:`_standings`."""
        standings = self._standings(state)
        mine = standings[me]
        best_other = max(total for player, total in standings.items() if player != me)
        return 0.5 + 0.5 * math.tanh((mine - best_other) / LEAD_SCALE)

    def _standings(self, state: GameState) -> dict[str, float]:
        """Each player's standing in мР: the score at the rules' prices and what is promised.

        At levels 2 and 3 a position is better than its score says when its cards and
        products go towards a run, or its tokens stand on a mission nearly complete
        (:func:`mhp_cards.sim.prospects.promise`); at level 3 a raw card held also counts what
        the Bank pays for it (a card in hand scores nothing there). A rollout that stops at
        the horizon is judged so: by the score alone, a card taken towards a run or a walk to
        the Base shows no gain (docs/guides/simulation.md). Head to head a rollout plays to
        the end, judged by who won.
        """
        totals = score_totals(state, self.catalog)
        if state.level not in PROMISED:
            return dict(totals)
        held = BANK_SALE_PRICE if state.level == "3" else 0
        return {
            p.id: totals.get(p.id, 0) + held * len(p.raw_cards) + promise(state, self.catalog, p.id)
            for p in state.players
        }

    def _mission_race(self, state: GameState, me: str) -> float:
        """Level 1, unfinished: who is closer to claiming a mission, by elements missing.

        The score at level 1 (raw cards and money) says little while nobody has claimed:
        a mission claimed wins outright. Each player's distance is what the closest
        reachable mission still lacks (the greedy bot's measure); cards held break ties.
        """
        distance = {p.id: self._distance(p) for p in state.players}
        cards = {p.id: len(p.raw_cards) for p in state.players}
        others = [p.id for p in state.players if p.id != me]
        lead = (
            min(distance[o] for o in others)
            - distance[me]
            + 0.1 * (cards[me] - max(cards[o] for o in others))
        )
        return 0.5 + 0.5 * math.tanh(lead / MISSION_SCALE)

    def _distance(self, player: Player) -> int:
        missing = self._greedy.missing(player)
        return self._far if missing is None else sum(missing.values())


def _select(node: _Node, keys: Sequence[Hashable], prior: float) -> int:
    """The option to play: the first never tried, else the best by UCB1 (greedy's biased).

    Only the options legal in this world take part (the others' statistics are left alone),
    and each counts the iterations it was available in, not the parent's visits.
    """
    best, best_score = 0, -math.inf
    for index, key in enumerate(keys):
        child = node.children.get(key)
        if child is None:
            return index
        child.available += 1
    for index, key in enumerate(keys):
        child = node.children[key]
        mean = _mean(child, index, prior)
        score = mean + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
        if score > best_score:
            best, best_score = index, score
    return best


def _mean(node: _Node, index: int, prior: float) -> float:
    """The mean value; greedy's choice (index 0) has a head start that shrinks with visits."""
    return (node.total + (prior if index == 0 else 0.0)) / node.visits


def _most_visited(root: _Node, keys: Sequence[Hashable], prior: float) -> int:
    """The root's choice: the most visited, then the best mean, then greedy's."""

    def rank(index: int) -> tuple[int, float, int]:
        child = root.children.get(keys[index])
        if child is None or not child.visits:
            return (0, -math.inf, -index)
        return (child.visits, _mean(child, index, prior), -index)

    return max(range(len(keys)), key=rank)
