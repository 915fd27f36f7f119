"""The search bot against the greedy bot: win rate per level with 95 % intervals, and its cost.

Run ``python benchmarks/search_bench.py`` (400 games at level 2, the figure the simulation
guide gives, docs/guides/simulation.md: about ten minutes on two idle cores),
``--levels 1,2,1v1,3 --games 100`` for every level, or ``--quick`` (two games, for the CI smoke
test). Nothing here asserts on timings or on the win rate: the script prints a table for
people to read.

What is measured
----------------
Two-player games between ``search`` (default budget) and ``greedy``. Each deal is played
twice, once with the search bot in each seat (``--games`` is the total, so half the deals
each way): seat advantage cancels, and the two games of a deal differ only by the bots'
choices. A tie shares the win; ``win`` is the search bot's share of the points and ``95 %``
its Wilson score interval over the games (the same interval ``mhp simulate`` reports).

The reference, in the same run, is greedy against greedy over the same deals (by symmetry
its seat-swapped win rate is one half, so only its speed is printed): ``cost`` is the search
games' wall-clock time per game over the greedy games' time per game. ``moves/s`` counts the
actions of both seats per second of the search games (what a designer waits for); games/min
and moves/s are with ``--workers`` processes (default 2). With ``--workers 1`` the games run
in this process and ``cpu s/game`` gives the processor time per search game, a figure that
holds on a machine busy with other work.
"""

from __future__ import annotations

import argparse
import sys
import time

from mhp_cards.sim import simulate, wilson
from mhp_cards.validate import load_catalog

LEVELS = ("1", "2", "1v1", "3")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two games (CI smoke test)")
    parser.add_argument("--games", type=int, default=400, help="games per level (even)")
    parser.add_argument("--levels", default="2")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--max-steps", type=int, default=5000)
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.levels, args.max_steps = 2, "2", 400
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be even and at least 2, not {args.games}")
    catalog = load_catalog()
    half = args.games // 2
    print(
        f"search against greedy, 2 players, {args.games} games per level "
        f"({half} deal{'s' if half > 1 else ''}, each played with the search bot in both "
        f"seats), seed {args.seed}, {args.workers} workers"
    )
    header = (
        f"{'level':<5} {'games':>5} {'win':>6} {'95 %':>13} {'games/min':>9} {'moves/s':>8} "
        f"{'greedy g/min':>12} {'cost':>6} {'cpu s/game':>10}"
    )
    print(header)
    print("-" * len(header))
    for level in args.levels.split(","):
        if level not in LEVELS:
            parser.error(f"--levels: {level!r} is not one of {', '.join(LEVELS)}")

        def run(
            policies: tuple[str, str], level: str = level
        ) -> tuple[list[float], int, float, float]:
            started, cpu = time.perf_counter(), time.process_time()
            summary = simulate(
                catalog,
                level,  # type: ignore[arg-type]
                2,
                half,
                args.seed,
                policies,
                max_steps=args.max_steps,
                workers=args.workers,
            )
            elapsed = time.perf_counter() - started
            return summary.wins_by_seat, summary.steps.total, elapsed, time.process_time() - cpu

        first, steps_a, time_a, cpu_a = run(("search", "greedy"))
        second, steps_b, time_b, cpu_b = run(("greedy", "search"))
        _, _, reference, _ = run(("greedy", "greedy"))
        points = first[0] + second[1]
        low, high = wilson(points, args.games)
        elapsed = time_a + time_b
        per_game = elapsed / args.games
        greedy_per_game = reference / half
        print(
            f"{level:<5} {args.games:>5} {points / args.games:>6.3f} "
            f"{f'{low:.3f}–{high:.3f}':>13} {60 / per_game:>9.1f} "
            f"{(steps_a + steps_b) / elapsed:>8.0f} {60 / greedy_per_game:>12.1f} "
            f"{per_game / greedy_per_game:>6.1f} "
            + (f"{(cpu_a + cpu_b) / args.games:>10.3f}" if args.workers == 1 else f"{'-':>10}")
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
