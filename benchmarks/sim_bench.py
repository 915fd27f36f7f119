"""Simulator speed: games per second by level and policy, in one process and in a pool.

Run ``python benchmarks/sim_bench.py`` (a few minutes) or ``--quick`` (a few seconds, for the
CI smoke test). Nothing here asserts on timings: the script prints a table for people to read.
It exits with status 1 only on a correctness failure: a pooled run whose aggregate differs
from the single-process run of the same seed.

What is measured
----------------
``mhp_cards.sim.simulate`` for each level (1, 2, 1v1, 3; 3 players, 2 head to head) and each
policy: G games from one seed, with ``workers=1`` and with ``--workers`` processes (default 2).
``games/s`` is games over the wall-clock time of the call (deal, every step, the aggregate;
for the pool also starting the processes and sending the catalog to each).

The reference is the engine alone, in the same run: the same number of games dealt from the
same seeds, played by a uniform choice over ``legal_actions`` with ``apply``, no bot and no
player view. ``sim steps/s`` over ``engine steps/s`` is the ``vs engine`` column: what the
bots and the per-step view cost on top of the referee (1.0 would be no cost; the bot's
choices change the games, so steps are compared, not games). ``speed-up`` is the single-
process time over the pooled time; ``per worker`` divides it by the number of workers (1.0 is
perfect scaling). ``--dask ADDRESS`` (``local:N`` or a scheduler) adds a ``dask g/s`` column
and its ``dask ×`` speed-up over one process, the cluster started once per row (its start-up
is in the time, as a user would see it), and checks its aggregate too. Timing:
``time.perf_counter``, best of ``--repeats``.

The ``search`` policy (Monte Carlo search in sampled worlds with greedy rollouts,
``mhp_cards.sim.search``) spends hundreds of simulated actions on one choice, so its rows play
``--search-games`` games (default a tenth of ``--games``, at least 2) capped at
``--search-steps`` actions (default ``--max-steps``; ``--quick``: one game of 40 actions).
Its win rate against greedy is ``benchmarks/search_bench.py``'s business.

``--balance G`` adds the time of the whole ``mhp balance --games G`` run (``balance`` from
``mhp_cards.sim.balance``: every table, the robustness tables, the skill duels, in one pool of
``--workers`` processes), once, with the games it played and its games per second.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import deal
from mhp_cards.referee import apply, legal_actions
from mhp_cards.sim import game_seed, simulate
from mhp_cards.sim.balance import balance
from mhp_cards.validate import load_catalog

LEVELS = ("1", "2", "1v1", "3")


def engine_steps_per_second(
    catalog: Catalog, level: str, players: int, games: int, seed: int, cap: int
) -> float:
    """Steps/s of the bare engine: uniform random play, no bot, no view."""
    steps = 0
    started = time.perf_counter()
    for index in range(games):
        game = game_seed(seed, index)
        rng = random.Random(game)
        state = deal(catalog, level, players=players, seed=game)  # type: ignore[arg-type]
        while not state.ended and steps < cap * (index + 1):
            legal = legal_actions(state, catalog)
            if not legal:
                break
            state, _ = apply(state, rng.choice(legal), catalog)
            steps += 1
    return steps / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds (CI smoke test)")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--max-steps", type=int, default=2000)
    parser.add_argument("--policies", default="greedy,random,search")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--dask", default=None, help="also run on Dask: local:N or an address")
    parser.add_argument("--search-games", type=int, default=None)
    parser.add_argument("--search-steps", type=int, default=None)
    parser.add_argument("--balance", type=int, default=0, help="also time mhp balance --games G")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.repeats, args.max_steps = 4, 1, 200
        args.search_games, args.search_steps = 1, 40
    search_games = args.search_games or max(2, args.games // 10)
    search_steps = args.search_steps or args.max_steps
    catalog = load_catalog()
    seed = 1
    failures = 0
    header = (
        f"{'level':<5} {'policy':<7} {'games/s':>8} {'steps/s':>8} {'vs engine':>9} "
        f"{'pooled g/s':>10} {'speed-up':>8} {'per worker':>10}"
    ) + (f" {'dask g/s':>9} {'dask ×':>7}" if args.dask else "")
    print(
        f"{args.games} games per row ({search_games} of at most {search_steps} actions for "
        f"search), {args.workers} workers in the pool, seed {seed}"
    )
    print(header)
    print("-" * len(header))
    for level in args.levels.split(","):
        players = 2 if level == "1v1" else 3
        engine = max(
            engine_steps_per_second(catalog, level, players, args.games, seed, args.max_steps)
            for _ in range(args.repeats)
        )
        for policy in args.policies.split(","):
            games, cap = (
                (search_games, search_steps) if policy == "search" else (args.games, args.max_steps)
            )
            timings: dict[int | str, float] = {}
            documents: dict[int | str, dict[str, object]] = {}
            runs: list[int | str] = [1, args.workers, *([args.dask] if args.dask else [])]
            for run in runs:
                best = float("inf")
                for _ in range(args.repeats):
                    started = time.perf_counter()
                    summary = simulate(
                        catalog,
                        level,  # type: ignore[arg-type]
                        players,
                        games,
                        seed,
                        (policy,),
                        max_steps=cap,
                        workers=run if isinstance(run, int) else None,
                        dask=run if isinstance(run, str) else None,
                    )
                    best = min(best, time.perf_counter() - started)
                    if run == 1:
                        single_summary = summary
                timings[run] = best
                document = summary.to_json()
                document.pop("games_per_second")
                documents[run] = document
            for run in runs[1:]:
                if documents[1] != documents[run]:
                    print(
                        f"FAIL: level {level} {policy}: the aggregate on {run} differs",
                        file=sys.stderr,
                    )
                    failures += 1
            summary = single_summary
            steps = summary.steps.total
            single = games / timings[1]
            pooled = games / timings[args.workers]
            speed_up = timings[1] / timings[args.workers]
            sim_steps = steps / timings[1]
            print(
                f"{level:<5} {policy:<7} {single:>8.1f} {sim_steps:>8.0f} "
                f"{sim_steps / engine:>9.2f} {pooled:>10.1f} {speed_up:>8.2f} "
                f"{speed_up / args.workers:>10.2f}"
                + (
                    f" {games / timings[args.dask]:>9.1f} {timings[1] / timings[args.dask]:>7.2f}"
                    if args.dask
                    else ""
                )
            )
    if args.balance:
        print(balance_line(catalog, args.balance, args.workers))
    return 1 if failures else 0


def balance_line(catalog: Catalog, games: int, workers: int) -> str:
    """The wall-clock time of a whole balance report of ``games`` games a table."""
    started = time.perf_counter()
    report = balance(catalog, games, seed=0, workers=workers)
    elapsed = time.perf_counter() - started
    played = sum(run.games for run in report.runs) + sum(duel.games for duel in report.matchups)
    return (
        f"balance --games {games}: {elapsed:.1f} s on {workers} workers, {played} games "
        f"({played / elapsed:.1f} games/s), {len(report.failures)} of {len(report.figures)} "
        "figures fail"
    )


if __name__ == "__main__":
    sys.exit(main())
