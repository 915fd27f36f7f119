"""Referee speed: mission decisions against a brute force, and check()/apply() per second.

Run ``python benchmarks/referee_bench.py`` (about 30 s) or ``--quick`` (under 10 s, for the
CI smoke test). Nothing here asserts on timings: the script prints figures for people to read,
each beside a reference measured in the same run. It exits with status 1 only when two
methods disagree on a verdict (a correctness failure, not a slow run).

What is measured
----------------
1. Level-1 mission decisions (RULES.md L1.E1, default exact-subset): ``decide_mission`` on
   random hands of 6, 12 and 24 cards (drawn without replacement from the raw deck, seeded)
   for each of the four missions, and on the whole raw deck as one hand.

   * Pruned brute force: a depth-first search over the sub-multisets of the hand (cards of
     one kind are interchangeable: how many of each kind to take, 0..c_k), pruned by the
     element bounds a careful programmer writes first: kinds holding an element the mission
     lacks are left out; a branch stops as soon as its sum exceeds the mission in any element,
     or when the kinds still to decide cannot bring some element up to the mission's count.
     It stops at the first exact sum. A hand set whose search passes ``--brute-limit`` nodes
     (choices tried) is marked N/A; "max sub-multisets" shows how many an unpruned
     enumeration would face.
   * Integer program (optional): the same question as a feasibility MILP — integer x_k in
     [0, c_k] with sum_k x_k·a_k = target — solved by ``scipy.optimize.milp`` or PuLP/CBC,
     whichever is importable; skipped with a note when neither is.

   Every method must give the same verdict on every hand; the brute force and the integer
   program only answer complete or not, so only that is compared. Rates count decisions
   (hand × mission) per second.

2. ``check()`` and ``apply()`` per second on random legal actions: dealt games of levels 1,
   2, head to head and 3 are played with random legal actions (a policy that makes progress),
   recording every (state, action) pair; then each pair is checked, and applied, in a timed
   loop. ``legal_actions()`` per state is timed too. A fight is its three listed steps (the
   dice, the winner's spoils, the loser's retreat).

Timing: ``time.perf_counter``; best (the cost itself, least disturbed) and median (typical)
of the repeats; the garbage collector runs as usual.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import timing  # benchmarks/timing.py, beside this script

from mhp_cards.catalog.models import Catalog, Mission, RawMaterial
from mhp_cards.game import GameState, deal
from mhp_cards.referee import Action, apply, check, decide_mission, legal_actions
from mhp_cards.validate import load_catalog

SIZES = (6, 12, 24)


# --- timing and tables ----------------------------------------------------------------------------


def rate(count: int, seconds: float) -> str:
    if seconds <= 0:
        return "-"
    per_second = count / seconds
    if per_second >= 1e6:
        return f"{per_second / 1e6:.2f} M/s"
    if per_second >= 1e3:
        return f"{per_second / 1e3:.1f} k/s"
    return f"{per_second:.1f} /s"


def micro(seconds: float) -> str:
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def print_rows(header: Sequence[str], rows: Iterable[Sequence[str]]) -> None:
    rows = [list(row) for row in rows]
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return "   " + "  ".join(
            str(c).rjust(w) if i else str(c).ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    head = line(header)
    print(head)
    print("   " + "-" * (len(head) - 3))
    for row in rows:
        print(line(row))


# --- 1. mission decisions -------------------------------------------------------------------------


def deck(catalog: Catalog) -> list[RawMaterial]:
    return [raw for raw in catalog.raw_materials for _ in range(raw.copies)]


def kinds_of(
    mission: Mission, hand: Sequence[RawMaterial], *, every_kind: bool = False
) -> tuple[list[tuple[int, ...]], list[int], tuple[int, ...]]:
    """The hand as count vectors, how many cards of each kind, and the goal vector.

    The vectors run over the mission's elements and, with ``every_kind``, over every element
    of the hand too (the goal is 0 there); otherwise kinds holding an element the mission
    lacks are left out.
    """
    counts = Counter(raw.id for raw in hand)
    by_id = {raw.id: raw for raw in hand}
    keys = set(mission.elements)
    if every_kind:
        for raw in by_id.values():
            keys |= set(raw.parsed.elements)
    ordered = sorted(keys)
    goal = tuple(mission.elements.get(k, 0) for k in ordered)
    vectors, available = [], []
    for kind, n in counts.items():
        elements = by_id[kind].parsed.elements
        if set(elements) <= keys:
            vectors.append(tuple(elements.get(k, 0) for k in ordered))
            available.append(n)
    return vectors, available, goal


def sub_multisets(hand: Sequence[RawMaterial]) -> int:
    total = 1
    for n in Counter(raw.id for raw in hand).values():
        total *= n + 1
    return total


class BudgetExceededError(Exception):
    """The pruned brute force tried more choices than it was allowed."""


def brute_force(mission: Mission, hand: Sequence[RawMaterial], budget: int) -> bool:
    """Is there a sub-multiset of the hand whose element counts are exactly the mission's?

    A depth-first search: for each kind in turn, take 0, 1, … of its cards; a branch ends when
    its sum passes the mission in an element (counts only grow) or when the kinds left cannot
    reach the mission in an element. Raises :class:`BudgetExceededError` past ``budget`` choices.
    """
    vectors, available, goal = kinds_of(mission, hand)  # kinds with a foreign element: out
    width = len(goal)
    kinds = len(vectors)
    # reach[k][i]: the most element i the kinds k.. can still add
    reach = [[0] * width for _ in range(kinds + 1)]
    for k in range(kinds - 1, -1, -1):
        reach[k] = [reach[k + 1][i] + vectors[k][i] * available[k] for i in range(width)]
    target = list(goal)
    tried = 0

    def search(k: int, total: list[int]) -> bool:
        nonlocal tried
        if total == target:
            return True
        if k == kinds:
            return False
        if any(total[i] + reach[k][i] < target[i] for i in range(width)):
            return False
        vector = vectors[k]
        for taken in range(available[k] + 1):
            tried += 1
            if tried > budget:
                raise BudgetExceededError
            if taken:
                total = [t + v for t, v in zip(total, vector, strict=True)]
                if any(t > g for t, g in zip(total, target, strict=True)):
                    break
            if search(k + 1, total):
                return True
        return False

    return search(0, [0] * width)


def integer_program(
    choice: str = "auto",
) -> tuple[str, Callable[[Mission, Sequence[RawMaterial]], bool]] | None:
    """A MILP feasibility reference from scipy or PuLP (``choice``: auto, scipy, pulp or
    none), or None when the one asked for is not importable."""
    if choice == "none":
        return None
    try:
        if choice == "pulp":
            raise ImportError
        import numpy as np  # noqa: PLC0415 - optional
        from scipy.optimize import Bounds, LinearConstraint, milp  # noqa: PLC0415 - optional
    except ImportError:
        pass
    else:

        def scipy_decide(mission: Mission, hand: Sequence[RawMaterial]) -> bool:
            vectors, available, goal = kinds_of(mission, hand)
            if not vectors:
                return not any(goal)
            matrix = np.array(vectors, dtype=float).T
            target = np.array(goal, dtype=float)
            result = milp(
                c=np.zeros(len(vectors)),
                constraints=LinearConstraint(matrix, target, target),
                integrality=np.ones(len(vectors)),
                bounds=Bounds(0, np.array(available, dtype=float)),
            )
            return bool(result.status == 0)

        return "scipy.optimize.milp", scipy_decide
    if choice == "scipy":
        return None
    try:
        import pulp  # noqa: PLC0415 - optional
    except ImportError:
        return None

    def pulp_decide(mission: Mission, hand: Sequence[RawMaterial]) -> bool:
        vectors, available, goal = kinds_of(mission, hand)
        problem = pulp.LpProblem("mission", pulp.LpMinimize)
        xs = [pulp.LpVariable(f"x{i}", 0, n, cat="Integer") for i, n in enumerate(available)]
        problem += pulp.lpSum([])
        for row, wanted in enumerate(goal):
            problem += pulp.lpSum(v[row] * x for v, x in zip(vectors, xs, strict=True)) == wanted
        problem.solve(pulp.PULP_CBC_CMD(msg=False))
        return pulp.LpStatus[problem.status] == "Optimal"

    return "PuLP (CBC)", pulp_decide


def hand_sets(
    catalog: Catalog, hands_per_size: int
) -> list[tuple[str, list[tuple[Mission, list[RawMaterial]]]]]:
    """(label, [(mission, hand)…]): random hands against every mission, hands drawn from the
    mission's own kinds (the hard case: nothing can be ruled out), the whole deck."""
    full = deck(catalog)
    missions = list(catalog.missions)
    rng = random.Random(2019)
    sets = []
    for size in SIZES:
        hands = [rng.sample(full, size) for _ in range(hands_per_size)]
        sets.append((f"{size} random", [(m, h) for h in hands for m in missions]))
        own = []
        for k in range(hands_per_size):
            mission = missions[k % len(missions)]
            pool = [r for r in full if set(r.parsed.elements) <= set(mission.elements)]
            own.append((mission, rng.sample(pool, min(size, len(pool)))))
        sets.append((f"{size} of the mission's kinds", own))
    sets.append((f"whole deck ({len(full)})", [(m, list(full)) for m in missions]))
    return sets


def bench_missions(
    catalog: Catalog, hands_per_size: int, repeats: int, limit: int, ip_choice: str
) -> int:
    print("\n1. Level-1 mission decisions (exact-subset): decide_mission against references")
    ip = integer_program(ip_choice)
    if ip is None:
        why = {
            "auto": "neither scipy nor PuLP is importable",
            "scipy": "scipy is not importable",
            "pulp": "PuLP is not importable",
            "none": "not asked for (--ip none)",
        }[ip_choice]
        print(f"   integer program: {why}; column skipped")
    mismatches = 0
    rows = []
    for label, pairs in hand_sets(catalog, hands_per_size):
        decisions = len(pairs)
        verdicts = [decide_mission(catalog, m, h).verdict == "complete" for m, h in pairs]
        # decide_mission remembers each hand's answer with the catalog (play revisits hands);
        # here every decision is computed afresh: the memory is emptied before each repeat.
        memory = catalog.memo("referee.decide_mission")

        def decide_all(pairs: list = pairs, memory: dict = memory) -> object:
            memory.clear()
            return [decide_mission(catalog, m, h) for m, h in pairs]

        ours = timing.best_median(timing.times(decide_all, repeats))
        largest = max(sub_multisets(h) for _, h in pairs)
        try:
            brute_verdicts = [brute_force(m, h, limit) for m, h in pairs]
        except BudgetExceededError:
            brute_rate, ratio = "N/A", "N/A"
        else:
            mismatches += sum(a != b for a, b in zip(verdicts, brute_verdicts, strict=True))
            brute = timing.best_median(
                timing.times(
                    lambda pairs=pairs: [brute_force(m, h, limit) for m, h in pairs],
                    max(1, repeats // 2),
                )
            )
            brute_rate, ratio = rate(decisions, brute[0]), f"{brute[0] / ours[0]:.2g}×"
        if ip is not None:
            ip_verdicts = [ip[1](m, h) for m, h in pairs]
            mismatches += sum(a != b for a, b in zip(verdicts, ip_verdicts, strict=True))
            ip_time = timing.best_median(
                timing.times(
                    lambda pairs=pairs: [ip[1](m, h) for m, h in pairs], max(1, repeats // 2)
                )
            )
            ip_rate, ip_ratio = rate(decisions, ip_time[0]), f"{ip_time[0] / ours[0]:.2g}×"
        else:
            ip_rate, ip_ratio = "skipped", "-"
        rows.append(
            [
                label,
                str(decisions),
                f"{sum(verdicts)}/{decisions}",
                f"{largest:,}",
                rate(decisions, ours[0]),
                micro(ours[1] / decisions),
                brute_rate,
                ratio,
                ip_rate,
                ip_ratio,
            ]
        )
    print_rows(
        [
            "hands",
            "decisions",
            "complete",
            "max sub-multisets",
            "decide_mission",
            "median each",
            "pruned brute",
            "brute/ours",
            "integer program",
            "IP/ours",
        ],
        rows,
    )
    if ip is not None:
        print(f"   integer program: {ip[0]}")
    print(
        f"   pruned brute force: subset search with element bounds; N/A where a hand needs more "
        f"than {limit:,} choices (--brute-limit)"
    )
    print("   brute/ours > 1: decide_mission is faster; the ratios compare best times")
    print("   hands of the mission's kinds hold fewer cards when the deck has fewer (M2: 16)")
    if mismatches:
        print(f"   !! {mismatches} verdict(s) differ between the methods")
    else:
        print("   every method that ran agrees on every verdict")
    return mismatches


# --- 2. check() and apply() -----------------------------------------------------------------------


def choose(state: GameState, actions: list[Action], rng: random.Random) -> Action:
    for kind in ("fight", "spoils", "retreat", "react", "take"):
        wanted = [a for a in actions if a.kind == kind]
        if wanted and rng.random() < 0.9:
            return rng.choice(wanted)
    moves = [a for a in actions if a.kind == "move"]
    if moves:
        return rng.choice(moves)
    ends = [a for a in actions if a.kind == "end"]
    if ends and rng.random() < 0.7:
        return ends[0]
    return rng.choice(actions)


def recorded_play(
    catalog: Catalog, level: str, players: int, seed: int, steps: int
) -> tuple[list[tuple[GameState, Action]], list[GameState]]:
    """(state, legal action) pairs of one random game, and the states visited."""
    state = deal(catalog, level, players, seed)
    rng = random.Random(seed)
    pairs: list[tuple[GameState, Action]] = []
    states: list[GameState] = []
    while not state.ended and len(states) < steps:
        states.append(state)
        actions = legal_actions(state, catalog)
        if not actions:
            break
        pairs += [(state, action) for action in actions]
        state, _ = apply(state, choose(state, actions, rng), catalog)
    return pairs, states


def bench_referee(catalog: Catalog, steps: int, repeats: int) -> None:
    print("\n2. check() and apply() on random legal actions from dealt games")
    rows = []
    for level, players in (("1", 3), ("2", 3), ("1v1", 2), ("3", 3)):
        pairs: list[tuple[GameState, Action]] = []
        states: list[GameState] = []
        for seed in (1, 2):
            more_pairs, more_states = recorded_play(catalog, level, players, seed, steps)
            pairs += more_pairs
            states += more_states
        checks = timing.best_median(
            timing.times(lambda pairs=pairs: [check(s, a, catalog) for s, a in pairs], repeats)
        )
        applies = timing.best_median(
            timing.times(lambda pairs=pairs: [apply(s, a, catalog) for s, a in pairs], repeats)
        )
        legal = timing.best_median(
            timing.times(lambda states=states: [legal_actions(s, catalog) for s in states], repeats)
        )
        kinds = Counter(a.kind for _, a in pairs)
        rows.append(
            [
                f"{level} ({players} players)",
                str(len(states)),
                str(len(pairs)),
                rate(len(pairs), checks[0]),
                micro(checks[1] / len(pairs)),
                rate(len(pairs), applies[0]),
                f"{applies[0] / checks[0]:.2f}×",
                rate(len(states), legal[0]),
                ", ".join(f"{k} {n}" for k, n in kinds.most_common(4)),
            ]
        )
    print_rows(
        [
            "level",
            "states",
            "actions",
            "check()",
            "median each",
            "apply()",
            "apply/check",
            "legal_actions()",
            "most common actions",
        ],
        rows,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run for CI (< 10 s)")
    parser.add_argument(
        "--brute-limit",
        type=int,
        default=None,
        help="most choices the pruned brute force may try on one hand before it gives up",
    )
    parser.add_argument(
        "--ip",
        choices=("auto", "scipy", "pulp", "none"),
        default="auto",
        help="integer-programming reference: the first importable (auto), one of them, or none",
    )
    args = parser.parse_args(argv)
    quick = args.quick
    hands = 20 if quick else 100
    repeats = 3 if quick else 7
    limit = args.brute_limit or (200_000 if quick else 2_000_000)
    steps = 60 if quick else 250
    started = time.perf_counter()
    print(f"Referee benchmark ({'quick' if quick else 'full'} run)")
    print(f"   Python {platform.python_version()} on {platform.machine()}, {platform.system()}")
    catalog = load_catalog()
    mismatches = bench_missions(catalog, hands, repeats, limit, args.ip)
    bench_referee(catalog, steps, repeats)
    print(f"\nTotal time: {time.perf_counter() - started:.1f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
