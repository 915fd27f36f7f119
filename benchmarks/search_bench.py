"""The search bot against the greedy bot: win rate per level with 95 % intervals, and its cost.

Run ``python benchmarks/search_bench.py --levels 1,2,1v1,3 --games 200`` for every level
(the figures of the simulation guide, docs/guides/simulation.md), or ``--quick`` (two games,
for the CI smoke test). Nothing here asserts on timings or on the win rate: the script prints
a table for people to read.

What is measured
----------------
Two-player games between ``search`` (default budget, or ``--worlds``/``--seconds``) and
``greedy``. Each deal is played twice, once with the search bot in each seat (``--games`` is
the total, so half the deals each way): seat advantage cancels, and the two games of a deal
differ only by the bots' choices. A tie shares the win; ``win`` is the search bot's share of
the points and ``95 %`` its Wilson score interval over the games (the same interval
``mhp simulate`` reports).

The cost is processor time (``time.process_time``) spent in the search bot's ``choose``,
measured inside the process that plays the game, so it holds on a machine busy with other
work and for any ``--workers``: ``decisions`` is the search bot's choices per game (every call,
a forced one included), ``cpu s/dec`` their mean processor time, ``max s/dec`` the slowest
one, ``p99 s/dec`` the 99th percentile (a machine busy with other work stretches a few
choices far beyond what their budget costs: a garbage-collection pause, a core shared), and
``cpu s/game`` the bot's processor time per game. ``greedy s/dec`` is the greedy
bot's mean processor time per choice in the same games, for scale.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState
from mhp_cards.referee.actions import Action
from mhp_cards.sim import game_seed, play_game, settle_heap, wilson
from mhp_cards.sim.bots import GreedyBot, Policy
from mhp_cards.sim.search import SearchBot, SearchBudget
from mhp_cards.validate import load_catalog

LEVELS = ("1", "2", "1v1", "3")


class Timed:
    """A policy that counts its choices and the processor time they take."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.name = getattr(policy, "name", "policy")
        self.times: list[float] = []
        """The processor time of each choice, in order."""

    @property
    def calls(self) -> int:
        """The choices made."""
        return len(self.times)

    @property
    def cpu(self) -> float:
        """The processor time of all the choices."""
        return sum(self.times)

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        started = time.process_time()
        action = self.policy.choose(view, legal, rng)
        self.times.append(time.process_time() - started)
        return action

    def accepts(self, view: GameState, offer: Action, rng: random.Random) -> bool:
        answer = getattr(self.policy, "accepts", None)
        return True if answer is None else bool(answer(view, offer, rng))


@dataclass(frozen=True)
class Game:
    """One game's outcome for the search bot and the two bots' costs."""

    points: float
    calls: int
    cpu: float
    times: tuple[float, ...]
    greedy_calls: int
    greedy_cpu: float


_CATALOG: list[Catalog] = []


def _play(task: tuple[str, int, int, int, SearchBudget, int]) -> Game:
    level, seed, index, seat, budget, max_steps = task
    if not _CATALOG:
        _CATALOG.append(load_catalog())
    catalog = _CATALOG[0]
    search, greedy = Timed(SearchBot(catalog, budget)), Timed(GreedyBot(catalog))
    policies: list[Policy] = [greedy, greedy]
    policies[seat] = search
    settle_heap()  # as the simulator does between games: no full collection of the last ones
    result = play_game(catalog, level, 2, game_seed(seed, index), policies, max_steps)  # type: ignore[arg-type]
    points = 1 / len(result.winners) if seat in result.winners else 0.0
    return Game(
        points,
        search.calls,
        search.cpu,
        tuple(search.times),
        greedy.calls,
        greedy.cpu,
    )


def _percentile(games: list[Game], share: float) -> float:
    """The time within which ``share`` of the search bot's choices in ``games`` took (1: the
    slowest)."""
    times = sorted(t for g in games for t in g.times)
    return times[min(len(times) - 1, int(share * len(times)))] if times else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two games (CI smoke test)")
    parser.add_argument("--games", type=int, default=200, help="games per level (even)")
    parser.add_argument("--levels", default="1,2,1v1,3")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--max-steps", type=int, default=5000)
    parser.add_argument("--steps", type=int, default=None, help="the budget's steps")
    parser.add_argument("--worlds", type=int, default=None, help="the budget's worlds")
    parser.add_argument("--horizon", type=int, default=None, help="turns (default: by level)")
    parser.add_argument("--noise", type=float, default=None, help="the rollouts' noise")
    parser.add_argument("--prior", type=float, default=None, help="greedy's head start")
    parser.add_argument("--seconds", type=float, default=None, help="a time limit per choice")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.levels, args.max_steps = 2, "2", 400
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be even and at least 2, not {args.games}")
    levels = args.levels.split(",")
    for level in levels:
        if level not in LEVELS:
            parser.error(f"--levels: {level!r} is not one of {', '.join(LEVELS)}")
    default = SearchBudget()
    budget = SearchBudget(
        steps=default.steps if args.steps is None else args.steps,
        worlds=default.worlds if args.worlds is None else args.worlds,
        horizon=args.horizon,
        noise=default.noise if args.noise is None else args.noise,
        seconds=args.seconds,
        prior=args.prior,
    )
    half = args.games // 2
    print(
        f"search ({budget}) against greedy, 2 players, {args.games} games per level "
        f"({half} deal{'s' if half > 1 else ''}, each played with the search bot in both "
        f"seats), seed {args.seed}, {args.workers} workers"
    )
    header = (
        f"{'level':<5} {'games':>5} {'win':>6} {'95 %':>13} {'decisions':>9} "
        f"{'greedy s/dec':>12} {'max s/dec':>9} {'p99 s/dec':>9} {'cpu s/game':>10} "
        f"{'cpu s/dec':>9}"
    )
    print(header)
    print("-" * len(header))
    for level in levels:
        tasks = [
            (level, args.seed, index, seat, budget, args.max_steps)
            for index in range(half)
            for seat in (0, 1)
        ]
        if args.workers <= 1:
            games = [_play(task) for task in tasks]
        else:
            with ProcessPoolExecutor(max_workers=args.workers) as pool:
                games = list(pool.map(_play, tasks, chunksize=1))
        points = sum(g.points for g in games)
        low, high = wilson(points, args.games)
        calls = sum(g.calls for g in games)
        cpu = sum(g.cpu for g in games)
        greedy = sum(g.greedy_cpu for g in games) / max(1, sum(g.greedy_calls for g in games))
        print(
            f"{level:<5} {args.games:>5} {points / args.games:>6.3f} "
            f"{f'{low:.3f}–{high:.3f}':>13} {calls / args.games:>9.1f} {greedy:>12.5f} "
            f"{_percentile(games, 1.0):>9.3f} {_percentile(games, 0.99):>9.3f} "
            f"{cpu / args.games:>10.3f} "
            f"{cpu / max(1, calls):>9.4f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
