"""The search bot: it sees only the view, it is a function of the seed, it beats greedy."""

from __future__ import annotations

import gc
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import GameState, deal, view
from mhp_cards.game.dealer import raw_instances
from mhp_cards.game.visibility import is_hidden
from mhp_cards.referee import Action, apply, legal_actions
from mhp_cards.referee.actions import EndTurn, React, SellRaw, TakeRaw, Trade
from mhp_cards.referee.scoring import totals as score_totals
from mhp_cards.sim import GreedyBot, game_seed, make_policy, play_game
from mhp_cards.sim import search as search_module
from mhp_cards.sim.bots import mission_elements
from mhp_cards.sim.choices import candidates, ordered
from mhp_cards.sim.holdings import needed
from mhp_cards.sim.policies import is_policy, search_budget
from mhp_cards.sim.prospects import promise
from mhp_cards.sim.search import SearchBot, SearchBudget, determinise
from mhp_cards.validate import load_catalog
from tests.sim.conftest import played

SMALL = SearchBudget(worlds=2, horizon=2)
LEVELS = ("1", "2", "1v1", "3")


def _searched_choice(catalog: Catalog, level: str, seed: int) -> tuple[GameState, list[Action]]:
    """A state (not ended) where the searching player has two distinct candidates or more.

    Not a keep or a pick head to head: those are greedy's, unsearched.
    """
    state = played(catalog, level, 2, seed, 0)
    rng = random.Random(seed)
    bot = GreedyBot(catalog)
    for _ in range(400):
        legal = legal_actions(state, catalog)
        searched = candidates(view(state, state.current.id), legal)
        greedy_s = any(action.kind in ("keep", "pick") for action in legal)
        if len(searched) > 1 and state.turn_number > 2 and state.fight is None and not greedy_s:
            return state, legal
        state, _ = apply(state, bot.choose(view(state, state.current.id), legal, rng), catalog)
    raise AssertionError("no choice found")


def _rehidden(state: GameState, catalog: Catalog, seed: int) -> GameState:
    """The same game with the cards that the current player cannot see dealt otherwise."""
    me = state.current.id
    other = determinise(view(state, me), catalog, random.Random(seed))
    # The dice and the seed of the real game stay: only the hidden cards differ.
    return other.model_copy(update={"seed": state.seed, "rng": state.rng})


@pytest.mark.parametrize("level", LEVELS)
def test_a_view_with_other_hidden_cards_gives_the_same_choice(catalog: Catalog, level: str) -> None:
    state, legal = _searched_choice(catalog, level, seed=11)
    me = state.current.id
    other = _rehidden(state, catalog, seed=99)
    hidden_here = [c for c, _ in view(state, me).raw_locations() if is_hidden(c)]
    assert hidden_here, "the test needs hidden cards"
    # The two games differ in hidden cards (so a bot that peeked could tell them apart)...
    assert sorted(c for c, _ in other.raw_locations()) == sorted(
        c for c, _ in state.raw_locations()
    )
    assert [c for c, _ in other.raw_locations()] != [c for c, _ in state.raw_locations()]
    # ...and look the same from the seat: the bot, given the same seed, chooses the same.
    assert view(other, me) == view(state, me)
    first = SearchBot(catalog, SMALL)
    second = SearchBot(catalog, SMALL)
    assert first.choose(view(state, me), legal, random.Random(5)) == second.choose(
        view(other, me), legal_actions(other, catalog), random.Random(5)
    )
    assert first.rollouts > 0


def test_the_full_state_is_refused(catalog: Catalog) -> None:
    state = deal(catalog, "2", players=2, seed=1)
    with pytest.raises(ValueError, match="player's view"):
        SearchBot(catalog, SMALL).choose(state, legal_actions(state, catalog), random.Random(0))


@settings(max_examples=25, deadline=None)
@given(
    level=st.sampled_from(LEVELS),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 120),
    sample=st.integers(0, 2**32),
)
def test_a_determinisation_is_consistent_with_the_view(
    level: str, seed: int, steps: int, sample: int
) -> None:
    catalog = _catalog()
    state = played(catalog, level, 3 if level != "1v1" else 2, seed, steps)
    me = state.current.id
    seen = view(state, me)
    world = determinise(seen, catalog, random.Random(sample))
    # A full state: no placeholder left, every raw card of the box exactly once...
    assert world.viewer is None
    cards = [card for card, _ in world.raw_locations()]
    assert not any(is_hidden(card) for card in cards)
    assert Counter(cards) == Counter(raw_instances(catalog))
    # ...which the player could not tell from the real one.
    assert view(world, me) == seen


def test_cards_in_sight_are_never_dealt_again(catalog: Catalog) -> None:
    state = played(catalog, "2", 2, seed=4, steps=30)
    me = state.current.id
    seen = view(state, me)
    in_sight = {card for card, _ in seen.raw_locations() if not is_hidden(card)}
    for sample in range(20):
        world = determinise(seen, catalog, random.Random(sample))
        dealt = [
            card
            for (card, _), (was, _) in zip(world.raw_locations(), seen.raw_locations(), strict=True)
            if is_hidden(was)
        ]
        assert in_sight.isdisjoint(dealt)


_CATALOG: list[Catalog] = []


def _catalog() -> Catalog:
    if not _CATALOG:
        _CATALOG.append(load_catalog())
    return _CATALOG[0]


def test_no_rollout_without_a_choice(catalog: Catalog) -> None:
    state = deal(catalog, "2", players=2, seed=1)
    seen = view(state, state.current.id)
    bot = SearchBot(catalog, SMALL)
    # One action of its own (the trades need a partner who could refuse): no search.
    only = [Trade(partner=state.players[1].id), TakeRaw(pile=2)]
    assert bot.choose(seen, only, random.Random(0)) == TakeRaw(pile=2)
    # Two sales of raw cards of one kind are one choice.
    same = [SellRaw(card="water-ice#1"), SellRaw(card="water-ice#4")]
    assert bot.choose(seen, same, random.Random(0)) == SellRaw(card="water-ice#1")
    assert (bot.searched, bot.rollouts) == (0, 0)
    # Only trades allowed: a trade it is, still without a search.
    trade = Trade(partner=state.players[1].id)
    assert bot.choose(seen, [trade], random.Random(0)) == trade
    assert bot.rollouts == 0


def test_reactions_with_cards_of_the_same_kinds_are_one_choice(catalog: Catalog) -> None:
    state = deal(catalog, "1v1", players=2, seed=1)
    seen = view(state, state.current.id)
    one = React(installation=6, cards=("water-ice#2", "sulfur#3", "water-ice#3"))
    same = React(installation=6, cards=("sulfur#1", "water-ice#7", "water-ice#5"))
    other = React(installation=6, cards=("polar-ice#1", "sulfur#3", "water-ice#3"))
    assert candidates(seen, [one, same, EndTurn()]) == [one, EndTurn()]
    assert candidates(seen, [one, other]) == [one, other]
    bot = SearchBot(catalog, SMALL)
    assert bot.choose(seen, [one, same], random.Random(0)) == one
    assert bot.rollouts == 0


def test_hidden_pile_tops_are_one_choice_and_visible_ones_are_not(catalog: Catalog) -> None:
    takes: list[Action] = [TakeRaw(pile=1), TakeRaw(pile=2), TakeRaw(pile=3)]
    # Head to head the piles lie face down: which pile is the same gamble, not searched, and
    # the pile taken is greedy's (any, at random), not the first listed every time: that
    # drained one pile, whose top soon held the cards put back under it (V1.3-draw-two).
    face_down = deal(catalog, "1v1", players=2, seed=1)
    seen = view(face_down, face_down.current.id)
    bot, greedy = SearchBot(catalog, SMALL), GreedyBot(catalog)
    taken = [bot.choose(seen, takes, random.Random(seed)) for seed in range(12)]
    assert taken == [greedy.choose(seen, takes, random.Random(seed)) for seed in range(12)]
    assert {take.pile for take in taken if isinstance(take, TakeRaw)} == {1, 2, 3}
    assert bot.rollouts == 0
    # Searched against another choice, the gamble is still played from greedy's pile, once.
    merged = candidates(seen, [*takes, EndTurn()])
    assert ordered(seen, TakeRaw(pile=3), merged) == [TakeRaw(pile=3), EndTurn()]
    # At level 2 the tops are seen: three choices, each played out at least once (more than
    # the budget's two worlds).
    face_up = deal(catalog, "2", players=2, seed=1)
    bot.choose(view(face_up, face_up.current.id), takes, random.Random(0))
    assert bot.rollouts == 3


def test_a_search_grows_a_tree_below_the_root(catalog: Catalog) -> None:
    state, legal = _searched_choice(catalog, "2", seed=3)
    bot = SearchBot(catalog, SearchBudget(steps=100_000, worlds=60, horizon=4))
    bot.choose(view(state, state.current.id), legal, random.Random(0))
    distinct = {a for a in legal if not isinstance(a, Trade)}
    assert len(distinct) > 2
    assert bot.searched == 1
    # One sampled world an iteration, the worlds' budget spent (the steps' is far off)...
    assert bot.rollouts == 60
    assert bot.steps < 100_000
    # ...and a node made in each: the root's candidates, then the viewer's later choices.
    assert len(distinct) < bot.nodes <= 60


@pytest.mark.parametrize("collecting", [True, False])
def test_no_collection_runs_inside_a_search_and_the_collector_is_left_as_found(
    catalog: Catalog, collecting: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    state, legal = _searched_choice(catalog, "2", seed=3)
    seen: list[bool] = []
    iterate = SearchBot._iterate

    def watched(self: SearchBot, *args: object) -> None:
        seen.append(gc.isenabled())
        iterate(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(SearchBot, "_iterate", watched)
    bot = SearchBot(catalog, SearchBudget(worlds=8, horizon=2))
    (gc.enable if collecting else gc.disable)()
    try:
        bot.choose(view(state, state.current.id), legal, random.Random(0))
        assert gc.isenabled() is collecting
    finally:
        gc.enable()
    assert bot.searched == 1
    assert seen
    assert not any(seen)


def test_the_step_budget_bounds_a_search(catalog: Catalog) -> None:
    state, legal = _searched_choice(catalog, "2", seed=3)
    seen = view(state, state.current.id)
    distinct = {a for a in legal if not isinstance(a, Trade)}
    # The budget is a bound: one unit buys one iteration, greedy's choice, cut short after its
    # first action (at level 2 an action costs one unit).
    small = SearchBot(catalog, SearchBudget(steps=1, worlds=50, horizon=2))
    chosen = small.choose(seen, legal, random.Random(0))
    assert (small.rollouts, small.steps, small.spent) == (1, 1, 1)
    assert chosen == GreedyBot(catalog).choose(seen, legal, random.Random(0))
    # The search stops when the budget is spent, the last iteration cut short within one
    # action of it: the same search (same seed) one iteration shorter falls short of it.
    budget = 300
    full = SearchBot(catalog, SearchBudget(steps=budget, horizon=3))
    full.choose(seen, legal, random.Random(0))
    assert len(distinct) < full.rollouts < 256
    assert budget <= full.spent < budget + 1
    shorter = SearchBot(catalog, SearchBudget(steps=budget, worlds=full.rollouts - 1, horizon=3))
    shorter.choose(seen, legal, random.Random(0))
    assert shorter.rollouts == full.rollouts - 1
    assert shorter.spent < budget


def test_listing_counts_towards_the_budget_at_level_1(catalog: Catalog) -> None:
    state, legal = _searched_choice(catalog, "1", seed=3)
    seen = view(state, state.current.id)
    bot = SearchBot(catalog, SearchBudget(steps=200, horizon=2))
    bot.choose(seen, legal, random.Random(0))
    # Each action costs one unit and a quarter of one for each action listed before it.
    assert bot.spent >= 200
    assert bot.spent > bot.steps * 1.5


def test_a_time_budget_stops_after_the_first_world(catalog: Catalog) -> None:
    state, legal = _searched_choice(catalog, "2", seed=3)
    bot = SearchBot(catalog, SearchBudget(worlds=50, horizon=2, seconds=1e-9))
    bot.choose(view(state, state.current.id), legal, random.Random(0))
    # One iteration (greedy's choice), then the clock stops it.
    assert bot.rollouts == 1


class _Ticks:
    """A clock for the time limit: each reading one second after the last, all kept."""

    def __init__(self) -> None:
        self.readings: list[float] = []

    def __call__(self) -> float:
        self.readings.append(float(len(self.readings)))
        return self.readings[-1]


def test_a_time_limit_bounds_the_search(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    # The clock is the search's work: the simulated actions it has applied so far. No action
    # is applied at or past the limit, not even inside an iteration; the search uses the time
    # it is given but for one iteration at most; a limit it never reaches changes nothing.
    state, legal = _searched_choice(catalog, "2", seed=3)
    seen = view(state, state.current.id)
    applied = [0]
    real_apply = search_module.apply

    def counted(*args: Any, **kwargs: Any) -> Any:
        applied[0] += 1
        return real_apply(*args, **kwargs)

    monkeypatch.setattr(search_module, "apply", counted)

    def clock() -> float:
        return float(applied[0])

    def searched(seconds: float | None) -> tuple[Action, SearchBot, int]:
        applied[0] = 0
        budget = SearchBudget(steps=400, horizon=2, seconds=seconds)
        bot = SearchBot(catalog, budget, clock=clock)
        choice = bot.choose(seen, legal, random.Random(0))
        return choice, bot, applied[0]

    choice, unlimited, full = searched(None)
    longest = max(unlimited.steps // unlimited.rollouts, 1) * 4
    for limit in (1, 5, full // 4, full // 2):
        _, bot, used = searched(limit)
        assert used <= limit, limit
        assert used > limit - longest, limit
        assert bot.rollouts >= 1
    same, bot, used = searched(full + 1)
    assert (same, bot.rollouts, used) == (choice, unlimited.rollouts, full)


def test_without_a_time_limit_the_clock_is_not_read(catalog: Catalog) -> None:
    state, legal = _searched_choice(catalog, "2", seed=3)
    clock = _Ticks()
    bot = SearchBot(catalog, SearchBudget(steps=60, horizon=2), clock=clock)
    bot.choose(view(state, state.current.id), legal, random.Random(0))
    assert bot.rollouts > 1
    assert clock.readings == []


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        ({"worlds": 0}, "at least one world"),
        ({"steps": 0}, "at least one step"),
        ({"noise": 1.5}, "from 0 to 1"),
        ({"horizon": 0}, "at least one turn"),
        ({"seconds": 0.0}, "must be positive"),
        ({"prior": -0.5}, "must not be negative"),
    ],
)
def test_a_budget_is_checked(budget: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SearchBudget(**budget)  # type: ignore[arg-type]


def test_the_same_seed_gives_the_same_game(catalog: Catalog) -> None:
    def game(seed: int) -> object:
        bots = (SearchBot(catalog, SMALL), "greedy")
        return play_game(catalog, "2", 2, seed, bots, max_steps=80)

    first, again, other = game(7), game(7), game(8)
    assert first == again
    assert first != other


@pytest.mark.parametrize(
    ("level", "players", "run"), [("1", 2, 5), ("2", 3, 5), ("1v1", 2, 21), ("3", 2, 5)]
)
def test_search_plays_complete_games_at_every_level(
    catalog: Catalog, level: str, players: int, run: int
) -> None:
    policies = [SearchBot(catalog, SMALL), *("greedy" for _ in range(players - 1))]
    # Head to head the pinned deal below is the literal one (V1.2, V1.3, V1.4): one
    # installation each, one card a draw, sales to the Bank only when out of tokens.
    house = ("installation-at-random", "draw-one", "sell-when-out") if level == "1v1" else ()
    result = play_game(catalog, level, players, game_seed(run, 0), policies, house_rules=house)  # type: ignore[arg-type]
    assert result.ended_by not in ("step-cap", "stuck")
    bot = policies[0]
    assert isinstance(bot, SearchBot)
    if level == "1v1":
        # In this deal the seat has installation 7 (NaCl + H2O -> NaOH + HCl). M2 has one place
        # for each of its products, so after the first run they stay on 7 and the seat weighs
        # running again against freeing a token; every other turn is a take from a face-down
        # pile (one gamble whichever pile, taken from greedy's) and its end, and costs no
        # rollout. Pinned: thirty searches and eighty-nine rollouts in this game (two worlds
        # a search, or one a candidate when there are more).
        assert (bot.searched, bot.rollouts) == (30, 89)
    else:
        assert bot.searched > 0


def test_search_keeps_an_installation_head_to_head(catalog: Catalog) -> None:
    """Ruling V1.2-choose: the search bot's first turn is a keep, and the game plays out."""
    policies = [SearchBot(catalog, SMALL), "greedy"]
    result = play_game(catalog, "1v1", 2, game_seed(21, 0), policies)  # type: ignore[arg-type]
    assert result.ended_by not in ("step-cap", "stuck")
    assert len(result.reactions) <= 2  # two installations ran at most: one kept each


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_keep_and_the_pick_are_greedy_s_without_a_search(catalog: Catalog, seed: int) -> None:
    """The keep is weighed over whole imagined games (game_worth), not by a few rollouts."""
    state = deal(catalog, "1v1", players=2, seed=seed)
    seen = view(state, state.current.id)
    legal = legal_actions(state, catalog)
    assert {action.kind for action in legal} >= {"keep"}
    bot = SearchBot(catalog, SMALL)
    kept = bot.choose(seen, legal, random.Random(0))
    assert kept == GreedyBot(catalog).choose(seen, legal, random.Random(0))
    assert kept.kind == "keep"
    # So is the card picked of two drawn (Ruling V1.3-draw-two).
    state, _ = apply(state, kept, catalog)
    state, _ = apply(state, TakeRaw(pile=1), catalog)
    seen = view(state, state.current.id)
    picks = legal_actions(state, catalog)
    assert {action.kind for action in picks} == {"pick"}
    assert len(picks) == 2
    picked = bot.choose(seen, picks, random.Random(0))
    assert picked == GreedyBot(catalog).choose(seen, picks, random.Random(0))
    assert (bot.searched, bot.rollouts) == (0, 0)


def test_search_is_a_policy_by_name(catalog: Catalog) -> None:
    assert isinstance(make_policy("search", catalog), SearchBot)
    bot = make_policy("search:50", catalog)
    assert isinstance(bot, SearchBot)
    assert bot.budget.steps == 50
    for wrong in ("search:0", "search:x", "greedy:5"):
        with pytest.raises(KeyError):
            make_policy(wrong, catalog)


@pytest.mark.parametrize(
    ("name", "steps", "seconds"),
    [
        ("search:800", 800, None),
        ("search:0.2s", None, 0.2),
        ("search:800:0.2s", 800, 0.2),
        ("search:1:3s", 1, 3.0),
    ],
)
def test_a_search_name_sets_its_budget(name: str, steps: int | None, seconds: float | None) -> None:
    budget = search_budget(name)
    assert budget is not None
    assert (budget.steps, budget.seconds) == (steps, seconds)
    assert is_policy(name)


@pytest.mark.parametrize(
    "name",
    [
        "search:",
        "search:0",
        "search:0s",
        "search:-1s",
        "search:nans",
        "search:infs",
        "search:0.2",
        "search:0.2s:800",
        "search:800:",
        "search:800:0.2s:1",
        "search:800:900",
        "greedy:0.2s",
    ],
)
def test_a_wrong_search_name_is_no_policy(catalog: Catalog, name: str) -> None:
    assert search_budget(name) is None
    assert not is_policy(name)
    with pytest.raises(KeyError):
        make_policy(name, catalog)


def test_search_beats_random_head_to_head_at_level_2(catalog: Catalog) -> None:
    # Deterministic given the seeds: 12 deals, the search bot (default budget) in each seat
    # half the time against the random bot (against greedy: docs/guides/simulation.md,
    # benchmarks/search_bench.py); a search that chose no better than chance would share about
    # 6 points, and 10 or more happens by luck in 2 % of such runs. (With 8 deals and 7 points
    # it scored 6.5 once two players took 10 tokens, Ruling L2.S7-two: random loses less.)
    points = 0.0
    for index in range(12):
        seat = index % 2
        policies: list[object] = ["random", "random"]
        policies[seat] = SearchBot(catalog)
        result = play_game(catalog, "2", 2, game_seed(2026, index), policies)  # type: ignore[arg-type]
        if seat in result.winners:
            points += 1 / len(result.winners)
    assert points >= 10


def test_at_level_1_the_closer_mission_leads(catalog: Catalog) -> None:
    state = deal(catalog, "1", players=2, seed=1)
    me, other = state.players[0].id, state.players[1].id
    bot = SearchBot(catalog)
    mission = catalog.missions[0]
    useful = next(
        raw
        for raw in catalog.raw_materials
        if set(raw.parsed.elements) <= set(mission_elements(mission))
    )

    def holding(player: str, cards: tuple[str, ...]) -> GameState:
        players = tuple(
            p.model_copy(update={"raw_cards": cards}) if p.id == player else p
            for p in state.players
        )
        return state.model_copy(update={"players": players})

    # Nobody holds anything: even. A card that starts a mission: ahead; the other's: behind.
    assert bot._value(state, me) == pytest.approx(0.5)
    ahead = bot._value(holding(me, (f"{useful.id}#1",)), me)
    behind = bot._value(holding(other, (f"{useful.id}#1",)), me)
    assert ahead > 0.5 > behind
    assert ahead + behind == pytest.approx(1)
    # A claimed mission is the end: the claimant has won.
    won = state.model_copy(
        update={"ended": True, "end_code": "mission", "claims": ((me, mission.id),)}
    )
    assert bot._value(won, me) == 1.0
    assert bot._value(won, other) == 0.0


def test_mhp_simulate_takes_search_per_seat(cli) -> None:  # type: ignore[no-untyped-def]
    args = ("simulate", "--level", "1v1", "--players", "2", "--games", "2", "--seed", "3")
    result = cli(*args, "--policy", "search,greedy", "--workers", "1", "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["policy"] == ["search", "greedy"]
    assert sum(document["ended"].values()) == 2
    assert document["ended"]["step-cap"] == 0


def test_mhp_simulate_takes_a_search_budget(cli) -> None:  # type: ignore[no-untyped-def]
    args = ("simulate", "--level", "1v1", "--players", "2", "--games", "2", "--seed", "3")
    result = cli(*args, "--policy", "search,greedy", "--search-steps", "30", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["policy"] == ["search:30", "greedy"]
    wrong = cli(*args, "--policy", "search", "--search-steps", "0")
    assert wrong.exit_code == 2
    assert "--search-steps" in wrong.stderr


def test_mhp_simulate_takes_a_time_limit(cli) -> None:  # type: ignore[no-untyped-def]
    args = ("simulate", "--level", "1v1", "--players", "2", "--games", "2", "--seed", "3")
    both = ("--search-steps", "30", "--search-seconds", "5")
    result = cli(*args, "--policy", "greedy,search", *both, "--workers", "1", "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["policy"] == ["greedy", "search:30:5.0s"]
    alone = cli(*args, "--policy", "search,greedy", "--search-seconds", "0.05", "--json")
    assert alone.exit_code == 0, alone.stderr
    assert json.loads(alone.stdout)["policy"] == ["search:0.05s", "greedy"]
    for seconds in ("0", "-1", "inf", "nan"):
        wrong = cli(*args, "--policy", "search", "--search-seconds", seconds)
        assert wrong.exit_code == 2, seconds
        assert "--search-seconds must be more than 0" in wrong.stderr


def test_a_card_sale_the_partner_accepts_is_a_candidate(catalog: Catalog) -> None:
    # Seed 0 at level 2, after 11 greedy actions: the seat holds a card that lets the other
    # player's installation run, and the other (greedy) pays up to 3 мР for it.
    state = played(catalog, "2", 2, seed=0, steps=11)
    me = state.current.id
    legal = legal_actions(state, catalog)
    bot = SearchBot(catalog, SMALL)
    offers = bot._offers(view(state, me), legal, random.Random(0))
    assert offers
    greedy = GreedyBot(catalog)
    for offer in offers:
        assert isinstance(offer, Trade)
        assert offer.give
        assert not offer.receive
        assert offer.pay < 0
        # The price named is the most the partner agrees to, asked from its real seat.
        partner = view(state, offer.partner)
        assert greedy.accepts(partner, offer, random.Random(0))
        dearer = offer.model_copy(update={"pay": offer.pay - 1})
        assert not greedy.accepts(partner, dearer, random.Random(0))
    # Without such a sale listed (no trade at all), no offer.
    own = [a for a in legal if not isinstance(a, Trade)]
    assert bot._offers(view(state, me), own, random.Random(0)) == []


def test_noisy_rollouts_are_seeded_too(catalog: Catalog) -> None:
    # The viewer's own rollout choices drawn among greedy's first few (noise=1: all of them):
    # still a function of the seed, and a different search from the noiseless one.
    state, legal = _searched_choice(catalog, "2", seed=9)
    seen = view(state, state.current.id)
    noisy = SearchBudget(worlds=12, horizon=3, noise=1.0)

    def steps(budget: SearchBudget) -> int:
        bot = SearchBot(catalog, budget)
        bot.choose(seen, legal, random.Random(0))
        return bot.steps

    assert steps(noisy) == steps(noisy)
    assert steps(noisy) != steps(SearchBudget(worlds=12, horizon=3))


def _run_in_hand(catalog: Catalog, level: str) -> tuple[GameState, Callable[[str], GameState]]:
    """A fresh deal, and the same with one player holding the inputs of a run open to the first.

    The first player's own installation, or a shared one, and no other card in either hand.
    """
    state = deal(catalog, level, players=2, seed=3)  # type: ignore[arg-type]
    me = state.players[0].id
    installation = next(i for i in state.installations if i.owner in (None, me))
    cards = tuple(
        f"{next(r.id for r in catalog.raw_materials if r.parsed == formula)}#{n}"
        for formula, count in needed(installation).items()
        for n in range(1, count + 1)
    )

    def holding(player: str) -> GameState:
        players = tuple(
            p.model_copy(update={"raw_cards": cards if p.id == player else ()})
            for p in state.players
        )
        return state.model_copy(update={"players": players})

    return state, holding


@pytest.mark.parametrize("level", ["2", "3"])
def test_at_levels_2_and_3_the_cards_for_a_run_lead(catalog: Catalog, level: str) -> None:
    state, holding = _run_in_hand(catalog, level)
    me, other = state.players[0].id, state.players[1].id
    bot = SearchBot(catalog)
    even = holding("nobody")
    assert score_totals(even, catalog) == score_totals(holding(me), catalog)  # the score alone
    assert bot._value(even, me) == pytest.approx(0.5)
    ahead, behind = bot._value(holding(me), me), bot._value(holding(other), me)
    assert ahead > 0.5 > behind
    assert ahead + behind == pytest.approx(1)


def test_head_to_head_a_rollout_is_judged_by_the_score_alone(catalog: Catalog) -> None:
    state, holding = _run_in_hand(catalog, "1v1")
    me = state.players[0].id
    assert promise(holding(me), catalog, me) > 0  # a promise there is, and it is not counted
    assert SearchBot(catalog)._value(holding(me), me) == pytest.approx(0.5)
