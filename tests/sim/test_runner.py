"""Playing games: determinism, the worker count, every level, the step cap, hidden cards."""

from __future__ import annotations

import gc
import random
import weakref

import pytest

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import GameState, deal, view
from mhp_cards.referee import Action, apply
from mhp_cards.referee.actions import Trade
from mhp_cards.referee.fight import fight_actor
from mhp_cards.sim import GreedyBot, RandomBot, game_seed, play_game, settle_heap, simulate
from mhp_cards.sim.runner import Table, simulate_tables
from mhp_cards.sim.summary import END_CODES

LEVEL_PLAYERS = [
    *(("1", n) for n in range(2, 6)),
    *(("2", n) for n in range(2, 6)),
    ("1v1", 2),
    *(("3", n) for n in range(2, 6)),
]


def _without_timing(document: dict) -> dict:
    return {key: value for key, value in document.items() if key != "games_per_second"}


def test_game_seeds_are_stable_and_distinct() -> None:
    # Pinned: the seed of a game must not change between releases (blake2b of "seed:index").
    assert game_seed(0, 0) == game_seed(0, 0)
    seeds = {game_seed(seed, index) for seed in range(5) for index in range(200)}
    assert len(seeds) == 1000
    assert all(0 <= s < 2**63 for s in seeds)
    assert game_seed(1, 2) != game_seed(2, 1)


@pytest.mark.parametrize(("level", "players"), LEVEL_PLAYERS)
def test_every_level_and_player_count_runs(catalog: Catalog, level: str, players: int) -> None:
    summary = simulate(
        catalog, level, players, games=2, seed=3, policies=("greedy",), max_steps=150, workers=1
    )
    document = summary.to_json()
    assert document["games"] == 2
    assert document["players"] == players
    assert sum(document["ended"].values()) == 2
    assert set(document["ended"]) >= set(END_CODES)
    assert len(document["wins_by_seat"]) == players
    assert sum(document["wins_by_seat"]) == pytest.approx(2)


def test_the_same_seed_gives_the_same_aggregate(catalog: Catalog) -> None:
    args = {
        "level": "2",
        "players": 3,
        "games": 4,
        "seed": 11,
        "policies": ("random",),
        "max_steps": 200,
    }
    first = simulate(catalog, workers=1, **args).to_json()
    second = simulate(catalog, workers=1, **args).to_json()
    other = simulate(catalog, workers=1, **{**args, "seed": 12}).to_json()
    assert _without_timing(first) == _without_timing(second)
    assert _without_timing(first) != _without_timing(other)


def test_one_worker_and_two_workers_give_the_same_aggregate(catalog: Catalog) -> None:
    args = {
        "level": "1",
        "players": 3,
        "games": 6,
        "seed": 5,
        "policies": ("greedy", "random", "greedy"),
    }
    alone = simulate(catalog, max_steps=300, workers=1, **args).to_json()
    pooled = simulate(catalog, max_steps=300, workers=2, **args).to_json()
    assert _without_timing(alone) == _without_timing(pooled)
    assert alone["policy"] == ["greedy", "random", "greedy"]


def test_the_step_cap_is_reported(catalog: Catalog) -> None:
    result = play_game(catalog, "1", 2, seed=1, policies=("random",), max_steps=5)
    assert result.ended_by == "step-cap"
    assert result.steps == 5
    assert result.winners  # scored at the cap
    summary = simulate(catalog, "1", 2, 3, seed=1, policies=("random",), max_steps=5, workers=1)
    assert summary.ended["step-cap"] == 3


def test_a_finished_game_reports_the_referees_end(catalog: Catalog) -> None:
    result = play_game(catalog, "1", 3, seed=5, policies=("greedy",), max_steps=5000)
    assert result.ended_by in ("mission", "field-empty")
    if result.ended_by == "mission":
        assert result.mission is not None
        assert result.first_completion_turn is not None


def test_greedy_completes_missions_at_level_1_more_than_random(catalog: Catalog) -> None:
    greedy = simulate(catalog, "1", 2, 6, seed=2, policies=("greedy",), workers=1)
    randomly = simulate(catalog, "1", 2, 6, seed=2, policies=("random",), max_steps=800, workers=1)
    assert greedy.ended["mission"] >= 4
    assert greedy.ended["mission"] > randomly.ended["mission"]


def test_greedy_reacts_at_level_2(catalog: Catalog) -> None:
    summary = simulate(catalog, "2", 3, 3, seed=4, policies=("greedy",), workers=1)
    assert sum(summary.installations.values()) > 0
    assert summary.ended["step-cap"] == 0


class Recorder:
    """Wraps a bot and logs, in one log shared by the seats, each view and the choice made."""

    def __init__(self, inner, log: list[tuple[GameState, Action]]) -> None:
        self.inner = inner
        self.log = log

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        action = self.inner.choose(view, legal, rng)
        self.log.append((view, action))
        return action


@pytest.mark.parametrize(("level", "players"), [("1", 3), ("2", 3), ("1v1", 2), ("3", 3)])
def test_bots_never_see_hidden_cards(catalog: Catalog, level: str, players: int) -> None:
    """Replay the game on the full state: no card hidden from the mover is in its view.

    The mover is the player whose turn it is, or in a fight the player who takes its next
    step (the winner chooses the spoils, having seen the loser's cards: Ruling L1.T4.R4).
    """
    log: list[tuple[GameState, Action]] = []
    recorders = [
        Recorder(GreedyBot(catalog) if seat % 2 == 0 else RandomBot(), log)
        for seat in range(players)
    ]
    seed = 9
    result = play_game(catalog, level, players, seed=seed, policies=recorders, max_steps=120)
    assert len(log) == result.steps > 0
    state = deal(catalog, level, players=players, seed=seed)
    checked = 0
    for seen, action in log:
        me = fight_actor(state) or state.current.id
        assert seen.viewer == me
        assert seen.seed == 0
        assert seen.rng == 0
        fight = state.fight
        shown = fight.loser if fight and fight.stage == "spoils" and fight.winner == me else None
        secret = {card for p in state.players if p.id not in (me, shown) for card in p.raw_cards}
        if state.field is not None:
            secret |= {cell.raw for cell in state.field.cells if cell.raw is not None}
            secret |= {cell.fate for cell in state.field.cells}
        for pile in state.piles:
            secret |= set(pile if level == "1v1" else pile[:-1])
        text = seen.to_json()
        leaked = [card for card in secret if f'"{card}"' in text]
        assert leaked == []
        checked += len(secret)
        assert seen == view(state, me)
        state, _ = apply(state, action, catalog)
    assert checked > 0  # there were hidden cards to leak


def test_a_wrong_number_of_policies_is_refused(catalog: Catalog) -> None:
    with pytest.raises(ValueError, match="one policy or one per seat"):
        simulate(catalog, "1", 3, 2, seed=0, policies=("greedy", "random"), workers=1)


class Proposer:
    """Offers the first trade listed whenever one is, else plays greedy; logs its offers."""

    def __init__(self, catalog: Catalog) -> None:
        self.greedy = GreedyBot(catalog)
        self.offers: list[tuple[int, Action]] = []

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        trades = [a for a in legal if isinstance(a, Trade)]
        if trades:
            self.offers.append((view.turn_number, trades[0]))
            return trades[0]
        return self.greedy.choose(view, legal, rng)


class Judge:
    """Plays greedy and gives one answer to every offer, logging who was asked what."""

    def __init__(self, catalog: Catalog, answer: bool) -> None:
        self.greedy = GreedyBot(catalog)
        self.answer = answer
        self.asked: list[tuple[str | None, Action]] = []

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        return self.greedy.choose(view, legal, rng)

    def accepts(self, view: GameState, offer: Action, rng: random.Random) -> bool:
        self.asked.append((view.viewer, offer))
        return self.answer


def test_an_offer_is_made_only_when_the_partner_agrees(catalog: Catalog) -> None:
    proposer, judge = Proposer(catalog), Judge(catalog, answer=False)
    result = play_game(catalog, "2", 2, seed=3, policies=[proposer, judge], max_steps=150)
    assert result.ended_by != "stuck"
    assert proposer.offers
    # Each refused offer was put to its partner, from the partner's own view ...
    assert [offer for _, offer in judge.asked] == [offer for _, offer in proposer.offers]
    assert {viewer for viewer, _ in judge.asked} == {"blue"}
    # ... and struck from the rest of that turn: never offered twice in a turn.
    assert len(set(proposer.offers)) == len(proposer.offers)
    # Agreed, the first offer of a turn is made: trades are one a turn (L2.T2).
    proposer, judge = Proposer(catalog), Judge(catalog, answer=True)
    play_game(catalog, "2", 2, seed=3, policies=[proposer, judge], max_steps=150)
    turns = [turn for turn, _ in proposer.offers]
    assert turns
    assert len(turns) == len(set(turns)) == len(judge.asked)


def test_the_greedy_partner_refuses_a_random_players_offers(catalog: Catalog) -> None:
    """A random player's offers (a trade whenever it picks that kind) rarely help greedy."""
    asked: list[bool] = []

    class Greedy(GreedyBot):
        def accepts(self, view: GameState, offer: Action, rng: random.Random) -> bool:
            answer = super().accepts(view, offer, rng)
            asked.append(answer)
            return answer

    play_game(catalog, "2", 2, seed=6, policies=[RandomBot(), Greedy(catalog)], max_steps=300)
    assert len(asked) > 10
    assert asked.count(True) < len(asked) / 2


def test_tables_in_one_pool_give_what_each_simulate_gives(catalog: Catalog) -> None:
    tables = [
        Table("1", 3, 5, 7, ("greedy",), max_steps=300),
        Table("2", 2, 3, 8, ("greedy", "random"), max_steps=300),
        Table("1v1", 2, 1, 9, ("random",), max_steps=300),
    ]
    seen: dict[int, list[int]] = {}
    pooled = simulate_tables(
        catalog, tables, workers=2, progress=lambda t, done: seen.setdefault(t, []).append(done)
    )
    alone = simulate_tables(catalog, tables, workers=1)
    for table, summary, serial in zip(tables, pooled, alone, strict=True):
        single = simulate(
            catalog,
            table.level,
            table.players,
            table.games,
            table.seed,
            table.policies,
            max_steps=table.max_steps,
            workers=1,
        )
        assert _without_timing(summary.to_json()) == _without_timing(single.to_json())
        assert _without_timing(serial.to_json()) == _without_timing(single.to_json())
    # Every table's progress counts up to its games, whichever worker played them.
    assert {t: max(done) for t, done in seen.items()} == {0: 5, 1: 3, 2: 1}
    assert all(done == sorted(done) for done in seen.values())


def test_tables_are_checked_before_any_game(catalog: Catalog) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        simulate_tables(catalog, [Table("1", 2, 2, 0), Table("1", 2, 0, 0)], workers=1)
    with pytest.raises(ValueError, match="one policy or one per seat"):
        simulate_tables(catalog, [Table("1", 3, 2, 0, ("greedy", "random"))], workers=1)


def test_settle_heap_collects_the_garbage_and_freezes_the_rest() -> None:
    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a  # a reference cycle: only the collector frees it
    dead = weakref.ref(a)
    kept = Node()
    del a, b
    frozen = gc.get_freeze_count()
    try:
        settle_heap()
        assert dead() is None
        assert gc.get_freeze_count() > frozen
        assert gc.is_tracked(kept)
    finally:
        gc.unfreeze()


class _GreedyHandedEverything:
    """The greedy bot without ``proposes_trades``: handed every action, trades too."""

    name = "greedy-everything"

    def __init__(self, catalog: Catalog) -> None:
        self.greedy = GreedyBot(catalog)

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        return self.greedy.choose(view, legal, rng)

    def accepts(self, view: GameState, offer: Action, rng: random.Random) -> bool:
        return self.greedy.accepts(view, offer, rng)


@pytest.mark.parametrize(("level", "players"), [("1", 3), ("2", 4), ("1v1", 2), ("3", 3)])
def test_a_greedy_bot_not_handed_the_trades_plays_the_same_games(
    catalog: Catalog, level: str, players: int
) -> None:
    """The simulator lists trades for the greedy bot only where it may propose one
    (GreedyBot.proposes_trades); its games are the games it plays handed every action."""
    for index in range(12):
        seed = game_seed(21, index)
        lazy = play_game(catalog, level, players, seed, [GreedyBot(catalog)] * players)
        everything = _GreedyHandedEverything(catalog)
        assert play_game(catalog, level, players, seed, [everything] * players) == lazy


def test_the_greedy_bot_proposes_trades_only_on_a_bare_level_3_field_short_of_money(
    catalog: Catalog,
) -> None:
    bot = GreedyBot(catalog)
    state = deal(catalog, "3", players=3, seed=4)
    assert state.field is not None
    assert not bot.proposes_trades(state)  # cards on the field
    bare = state.model_copy(
        update={
            "field": state.field.with_cards(
                tuple(c.model_copy(update={"raw": None}) for c in state.field.cells)
            )
        }
    )
    assert bare.field is not None
    assert bare.field.raw_left == 0
    assert bot.proposes_trades(bare)
    rich = tuple(p.model_copy(update={"money": 4}) for p in bare.players)
    assert not bot.proposes_trades(bare.model_copy(update={"players": rich}))
    assert not bot.proposes_trades(deal(catalog, "2", players=3, seed=4))


def test_on_a_bare_level_3_field_the_greedy_bot_is_handed_the_trades(catalog: Catalog) -> None:
    """A five-player level-3 game whose field runs bare: the greedy bot's offers there change
    the game, and it plays the game it plays handed every action."""
    seed = game_seed(21, 59)

    class NeverTrades(GreedyBot):
        def proposes_trades(self, view: GameState) -> bool:
            return False

    lazy = play_game(catalog, "3", 5, seed, [GreedyBot(catalog)] * 5)
    assert play_game(catalog, "3", 5, seed, [_GreedyHandedEverything(catalog)] * 5) == lazy
    assert play_game(catalog, "3", 5, seed, [NeverTrades(catalog)] * 5) != lazy
