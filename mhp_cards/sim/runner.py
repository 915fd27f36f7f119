"""Playing games with bots: one game to its end (or a step cap), many games in a process pool.

Each game's seed derives from the run's seed and the game's index by a stable hash, and the
results are put in the order of the index, so the aggregate is the same whatever the number
of worker processes.
"""

from __future__ import annotations

import gc
import hashlib
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.dealer import deal
from mhp_cards.game.state import GameState
from mhp_cards.game.visibility import view
from mhp_cards.referee.actions import Action, BuyUpgrade, FreeToken, React, Trade, partner_of
from mhp_cards.referee.end import game_end
from mhp_cards.referee.engine import apply
from mhp_cards.referee.fight import fight_actor
from mhp_cards.referee.legal import legal_actions
from mhp_cards.referee.scoring import score, totals
from mhp_cards.rules.numbers import Level
from mhp_cards.sim.bots import Partner, Policy, Trader
from mhp_cards.sim.cluster import play_on_dask
from mhp_cards.sim.policies import make_policy
from mhp_cards.sim.result import GameResult
from mhp_cards.sim.summary import Summary, summarise

__all__ = [
    "DEFAULT_MAX_STEPS",
    "STEP_CAP",
    "GameResult",
    "Table",
    "game_seed",
    "play_game",
    "play_tables",
    "settle_heap",
    "simulate",
    "simulate_tables",
    "table_summary",
]

#: Actions a game may take before the simulator stops it (reported as ``step-cap``).
DEFAULT_MAX_STEPS = 5000
#: The end code of a game stopped by the step cap.
STEP_CAP = "step-cap"
#: The end code of a game in which the referee listed no action (a bug, reported, not hidden).
STUCK = "stuck"


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``: a stable hash of both (63 bits)."""
    digest = hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def play_game(
    catalog: Catalog,
    level: Level,
    players: int,
    seed: int,
    policies: Sequence[str | Policy] = ("greedy",),
    max_steps: int = DEFAULT_MAX_STEPS,
    house_rules: Sequence[str] = (),
    index: int = 0,
) -> GameResult:
    """Deal a game from ``seed`` and let the policies play it to its end or ``max_steps``.

    ``policies`` holds one policy (by name or as an object) for every seat, or one per seat.
    The referee lists the actions on the full state; each bot chooses from its own view. An
    offer to another player (a trade, a sale of a product) is made only when the partner's
    policy agrees (:class:`~mhp_cards.sim.bots.Partner`); a refused offer is struck from the
    rest of that turn's actions.
    """
    bots = _seat_policies(policies, players, catalog)
    # Asked once a seat: a check against a runtime protocol reads the class's attributes.
    traders = [bot if isinstance(bot, Trader) else None for bot in bots]
    rng = random.Random(seed)
    state = deal(catalog, level, players=players, seed=seed, house_rules=house_rules)
    reactions: Counter[int] = Counter()
    first: int | None = None
    mission_turns: dict[str, int] = {}
    round_scores: list[tuple[int, ...]] = []
    round_missions: list[int] = []
    steps = 0
    attacks = armour = 0
    ended_by: str | None = None
    refused: set[Action] = set()
    refused_turn = -1
    while not state.ended:
        if steps >= max_steps:
            ended_by = STEP_CAP
            break
        if state.turn_number != refused_turn:
            refused, refused_turn = set(), state.turn_number
        seat, seen = _chooser(state)
        # A bot that says it will propose no trade here is not handed the trades (listing
        # them is the referee's dearest work); unless nothing else is allowed.
        trader = traders[seat]
        trading = trader is None or trader.proposes_trades(seen)
        legal = legal_actions(state, catalog, trades=trading)
        if refused:
            legal = [a for a in legal if a not in refused]
        if not legal and not trading:
            legal = [a for a in legal_actions(state, catalog) if a not in refused]
        action = _agreed_choice(bots, state, seat, seen, legal, refused, rng)
        if action is None:
            ended_by = STUCK
            break
        turn = state.turn_number
        fighting = state.fight is not None
        state, _ = apply(state, action, catalog)
        steps += 1
        if isinstance(action, React):
            reactions[action.installation] += 1
        elif isinstance(action, BuyUpgrade) and action.upgrade == "armour":
            armour += 1
        if state.fight is not None and not fighting:
            attacks += 1
        _note_missions(state, turn, mission_turns)
        if first is None and mission_turns:
            first = turn
        # The position after the last action of a round is the round's end: one score per
        # round, not per step, keeps the curves cheap.
        while len(round_scores) < state.round - 1:
            round_scores.append(_totals(state, catalog))
            round_missions.append(len(mission_turns))
    round_scores.append(_totals(state, catalog))
    round_missions.append(len(mission_turns))
    ids = [p.id for p in state.players]
    end = game_end(state, catalog)
    code: str
    if end is not None:
        winners, mission, code = end.winners, end.mission, end.code
    else:
        winners, mission, code = score(state, catalog).winners, None, ended_by or STUCK
    return GameResult(
        index=index,
        seed=seed,
        steps=steps,
        rounds=state.round,
        ended_by=code,
        mission=mission,
        winners=tuple(sorted(ids.index(w) for w in winners)),
        reactions=tuple(sorted(reactions.items())),
        first_completion_turn=first,
        round_scores=tuple(round_scores),
        round_missions=tuple(round_missions),
        mission_turns=tuple(sorted(mission_turns.items(), key=lambda item: (item[1], item[0]))),
        attacks=attacks,
        armour=armour,
    )


def _chooser(state: GameState) -> tuple[int, GameState]:
    """The seat that chooses now and its view.

    The current player's, or during a fight the one who takes its next step (Ruling L1.T4.R4).
    """
    actor = fight_actor(state)
    seat = state.turn if actor is None else [p.id for p in state.players].index(actor)
    return seat, view(state, state.players[seat].id)


def _agreed_choice(
    bots: Sequence[Policy],
    state: GameState,
    seat: int,
    seen: GameState,
    legal: list[Action],
    refused: set[Action],
    rng: random.Random,
) -> Action | None:
    """The current player's choice; an offer to another player only once that player agrees.

    A trade or a sale to another player is agreed by both (Ruling "Trades at the table"): the
    partner's policy answers it from its own view (a policy without ``accepts`` agrees). A
    refused offer is struck, as listed, from this turn's actions and the player chooses again.
    None when nothing is left to choose. During a fight the player who takes its next step
    chooses (``seat``, whose view is ``seen``: :func:`_chooser`): the winner the spoils, the
    loser the retreat (Ruling L1.T4.R4).
    """
    while legal:
        action = bots[seat].choose(seen, legal, rng)
        partner = partner_of(action)
        if partner is None:
            return action
        seats = [player.id for player in state.players]
        judge = bots[seats.index(partner)] if partner in seats else None
        if not isinstance(judge, Partner) or judge.accepts(view(state, partner), action, rng):
            return action
        listed = _as_listed(action)
        if listed not in legal:
            raise ValueError(f"{action!r} was refused and is not one of the listed actions")
        refused.add(listed)
        legal = [a for a in legal if a != listed]
    return None


def _as_listed(action: Action) -> Action:
    """The offer as :func:`legal_actions` lists it: with no price named."""
    if isinstance(action, Trade):
        return action.model_copy(update={"pay": 0})
    if isinstance(action, FreeToken):
        return action.model_copy(update={"price": 0})
    return action


def _note_missions(state: GameState, turn: int, seen: dict[str, int]) -> None:
    """Record in ``seen`` each mission completed for the first time on ``turn``."""
    for _, claimed in state.claims:
        seen.setdefault(claimed, turn)
    for mission in state.missions:
        if mission.id not in seen and mission.complete:
            seen[mission.id] = turn


def _totals(state: GameState, catalog: Catalog) -> tuple[int, ...]:
    sums = totals(state, catalog)
    return tuple(sums.get(player.id, 0) for player in state.players)


def _seat_policies(
    policies: Sequence[str | Policy], players: int, catalog: Catalog
) -> list[Policy]:
    if len(policies) not in (1, players):
        raise ValueError(f"give one policy or one per seat ({players}), not {len(policies)}")
    made = [make_policy(p, catalog) if isinstance(p, str) else p for p in policies]
    return made * players if len(made) == 1 else made


@dataclass(frozen=True, slots=True)
class Table:
    """One run of :func:`simulate_tables`: what :func:`simulate` is given, as a value."""

    level: Level
    players: int
    games: int
    seed: int
    policies: tuple[str, ...] = ("greedy",)
    max_steps: int = DEFAULT_MAX_STEPS
    house_rules: tuple[str, ...] = ()
    start: int = 0
    """The index of the table's first game: a table played on from game ``start``."""

    @property
    def indices(self) -> range:
        """The indices of the table's games (each dealt from :func:`game_seed`)."""
        return range(self.start, self.start + self.games)

    def settings(self) -> dict[str, object]:
        """The settings :func:`play_batch` plays a game of this table with."""
        return {
            "level": self.level,
            "players": self.players,
            "seed": self.seed,
            "policies": self.policies,
            "max_steps": self.max_steps,
            "house_rules": self.house_rules,
        }


# The pool: each worker process receives the catalog and every table's settings once; a task
# names a table and a range of its games.
_WORKER: dict[str, object] = {}


def _init_worker(catalog: Catalog, settings: Sequence[dict[str, object]]) -> None:
    _WORKER["catalog"] = catalog
    _WORKER["tables"] = settings


def _play_range(table: int, start: int, stop: int) -> tuple[int, list[GameResult], float]:
    """Games ``start``…``stop - 1`` of table ``table``, with the time they took."""
    catalog = _WORKER["catalog"]
    tables = _WORKER["tables"]
    assert isinstance(catalog, Catalog)
    assert isinstance(tables, Sequence)
    started = time.perf_counter()
    results = [_play(catalog, tables[table], index) for index in range(start, stop)]
    return table, results, time.perf_counter() - started


def play_batch(
    catalog: Catalog, settings: dict[str, object], indices: Sequence[int]
) -> list[GameResult]:
    """Play the games ``indices`` of a run with ``settings`` (a task sent to a cluster)."""
    return [_play(catalog, settings, index) for index in indices]


def settle_heap() -> None:
    """Collect the garbage and freeze what survives (:func:`gc.freeze`), between two games.

    What outlives a game (the catalog, the referee's and the bots' memories) would otherwise be
    scanned again by every full collection of the games after it; frozen, it is left out, and a
    full collection in the middle of a game scans that game's objects alone. A search bot's
    slowest choices were such collections (0.06-0.15 s of one at level 1). Frozen objects are
    still freed when nothing refers to them; only a reference cycle among them would stay.
    """
    gc.collect()
    gc.freeze()


def _play(catalog: Catalog, settings: dict[str, object], index: int) -> GameResult:
    seed = settings["seed"]
    assert isinstance(seed, int)
    settle_heap()
    return play_game(
        catalog,
        settings["level"],  # type: ignore[arg-type]
        settings["players"],  # type: ignore[arg-type]
        game_seed(seed, index),
        settings["policies"],  # type: ignore[arg-type]
        settings["max_steps"],  # type: ignore[arg-type]
        settings["house_rules"],  # type: ignore[arg-type]
        index=index,
    )


def simulate(
    catalog: Catalog,
    level: Level,
    players: int,
    games: int,
    seed: int,
    policies: Sequence[str] = ("greedy",),
    max_steps: int = DEFAULT_MAX_STEPS,
    workers: int | None = None,
    house_rules: Sequence[str] = (),
    progress: Callable[[int], None] | None = None,
    dask: str | None = None,
) -> Summary:
    """Play ``games`` games and aggregate them; the same for any number of ``workers``.

    Game ``i`` is dealt from :func:`game_seed` (``seed``, ``i``). ``workers`` > 1 plays in a
    process pool (default: the machine's cores); ``dask`` plays on a Dask distributed cluster
    instead: the address of its scheduler (``tcp://host:8786``), or ``local:N`` for a local
    cluster of N worker processes on 127.0.0.1 started for the run (see
    :mod:`mhp_cards.sim.cluster`). ``progress`` is called with the number of games finished
    so far. The aggregate is the same in every case.
    """
    table = Table(level, players, games, seed, tuple(policies), max_steps, tuple(house_rules))
    if dask is None:
        started = time.perf_counter()
        advance = None if progress is None else (lambda _, done: progress(done))
        (summary,) = simulate_tables(catalog, [table], workers, advance)
        # One table: its rate is over the wall-clock time of the call, as it always was.
        return _timed(summary, time.perf_counter() - started)
    _check(catalog, table)
    started = time.perf_counter()
    results = play_on_dask(dask, play_batch, catalog, table.settings(), games, progress)
    return table_summary(catalog, table, results, time.perf_counter() - started)


def simulate_tables(
    catalog: Catalog,
    tables: Sequence[Table],
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Summary]:
    """Play every table in one process pool; the summaries in the order of ``tables``.

    Each summary is the one :func:`simulate` gives for its table, whatever the number of
    ``workers`` (default: the machine's cores): the pool is started once for the whole run,
    its tasks (a few games of a table each) drawn by whichever worker is free, so no worker
    waits for another's last games of a table. A summary's ``games_per_second`` counts the
    time the workers spent on its games, shared out over the workers. ``progress`` is called
    with a table's position in ``tables`` and the number of its games finished so far.
    """
    return [
        table_summary(catalog, table, results, seconds)
        for table, (results, seconds) in zip(
            tables, play_tables(catalog, tables, workers, progress), strict=True
        )
    ]


def play_tables(
    catalog: Catalog,
    tables: Sequence[Table],
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[tuple[list[GameResult], float]]:
    """Play every table in one process pool (:func:`simulate_tables`), before any summary.

    For each table in order: its games' results by index, and the seconds the workers spent on
    them shared out over the workers (what :func:`table_summary` rates the games by).
    """
    for table in tables:
        _check(catalog, table)
    workers = (os.cpu_count() or 1) if workers is None else workers
    results: list[list[GameResult]] = [[] for _ in tables]
    spent = [0.0] * len(tables)
    total = sum(table.games for table in tables)
    settings = [table.settings() for table in tables]
    if workers <= 1 or total == 1:
        for number, table in enumerate(tables):
            for index in table.indices:
                started = time.perf_counter()
                results[number].append(_play(catalog, settings[number], index))
                spent[number] += time.perf_counter() - started
                if progress is not None:
                    progress(number, len(results[number]))
        return list(zip(results, spent, strict=True))
    workers = min(workers, total)
    with ProcessPoolExecutor(
        max_workers=workers, initializer=_init_worker, initargs=(catalog, settings)
    ) as pool:
        tasks = [
            pool.submit(_play_range, number, start, min(start + chunk, table.indices.stop))
            for number, table in enumerate(tables)
            for chunk in (_chunk(table.games, workers),)
            for start in table.indices[::chunk]
        ]
        for task in as_completed(tasks):
            number, played, seconds = task.result()
            results[number] += played
            spent[number] += seconds
            if progress is not None:
                progress(number, len(results[number]))
    return [(_sorted(r), s / workers) for r, s in zip(results, spent, strict=True)]


def table_summary(
    catalog: Catalog, table: Table, results: Iterable[GameResult], seconds: float
) -> Summary:
    """The summary of ``table`` from its games' ``results``, rated over ``seconds``."""
    names = table.policies
    return summarise(
        _sorted(results),
        catalog=catalog,
        level=table.level,
        players=table.players,
        seed=table.seed,
        policies=names * table.players if len(names) == 1 else names,
        elapsed=seconds,
    )


def _chunk(games: int, workers: int) -> int:
    """Games a task: few enough that the workers finish together, enough to keep IPC small."""
    return max(1, min(_MOST_A_TASK, games // (workers * 4)))


#: The most games one task of the pool plays.
_MOST_A_TASK = 8


def _check(catalog: Catalog, table: Table) -> None:
    """Refuse a wrong game count, policy count, player count or house rule before any game."""
    if table.games < 1:
        raise ValueError(f"the number of games must be at least 1, not {table.games}")
    _seat_policies(table.policies, table.players, catalog)
    deal(
        catalog, table.level, players=table.players, seed=table.seed, house_rules=table.house_rules
    )


def _timed(summary: Summary, elapsed: float) -> Summary:
    """``summary`` with its rate over ``elapsed`` seconds."""
    rate = summary.games / elapsed if elapsed > 0 else 0.0
    return summary.model_copy(update={"games_per_second": rate})


def _sorted(results: Iterable[GameResult]) -> list[GameResult]:
    return sorted(results, key=lambda r: r.index)
