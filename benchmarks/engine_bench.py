"""Game engine speed: random-policy games through legal_actions + apply, beside python-chess.

Run ``python benchmarks/engine_bench.py`` (about a minute) or ``--quick`` (a few seconds,
for the CI smoke test); ``--profile 1`` prints where a level's time goes instead. Nothing here
asserts on timings: the script prints figures for people to read, each beside a reference
measured in the same run. It exits with status 1 only on a correctness failure (a visited
state with a consistency problem, coins not conserved, a listed action that ``apply`` refuses,
a game stuck with no legal action, or a seed that does not replay the same game), never
because a run is slow.

What is measured
----------------
Whole games between random players, played through the public API only: ``deal(catalog,
level, players, seed)``, then until ``state.ended``: ``legal_actions(state, catalog)``, one of
them picked by ``random.Random(seed)``, ``apply(state, action, catalog)``. A step is one
applied action. The random player picks in one of two ways (``--choice``; both by default,
one table each): ``actions``, uniform over the listed actions (``rng.choice``), or ``kinds``,
a uniform kind of action first and then a uniform action of that kind (the ``random`` bot's
way, :class:`mhp_cards.sim.bots.RandomBot`). Uniform over actions mostly trades where trades
are listed (one per card and partner); uniform over kinds moves, reacts and ends turns as
often as it trades, so the two reach different states and weigh the engine's parts
differently. Levels 1, 2 and 3 are played by 2 to 5 players (seed s has 2 + s % 4
players), head to head (``1v1``) by 2; seeds 0..N-1 for every level. A game that reaches the
step cap (``--step-cap``) is stopped and counted in the table's ``capped`` column. A game's
time includes its deal (as a chess game's includes ``chess.Board()``). The ``legal/step``
column is the mean length of the list of legal actions (legal moves for chess): the work
each side does per step differs by that much. The games themselves (the deal, the random
player, the timed loop and its checked twin, the chess reference's games) are in
``engine_games.py`` beside this script.

The reference is python-chess (the ``chess`` package): random games from the initial
position, ``list(board.legal_moves)``, ``random.choice``, ``board.push``, until
``board.is_game_over()`` or the ply cap (``--ply-cap``). Plies per second of chess are set
against steps per second of the engine: the ratio column is engine steps/s over chess
plies/s, both best times.

Why the reference is fair: both are rules engines in pure Python doing the same work per step,
generating every legal move of the position, applying a random one, and deciding whether the
game is over; python-chess is a mature engine whose move generation (bitboards) and push have
been optimised for years, so it is a demanding yardstick. Neither side reads explanations or
validates its input on the way. A step of this game (a move on the field, a trade, a reaction)
is not a chess ply, and its list of legal actions is longer or shorter, which is why the ratio
is reported per level rather than as one number.

First plays: the timed repeats replay the same games, so from the second on the listing finds
the actions it makes already made and the verdicts it keeps already judged. A program that
plays new games (a simulation, a probe from outside) meets its hands, trades and freeings
anew, and at level 2 that costs two to three times the replays' time. So each level is
also played ``--repeats`` rounds of ``--games`` games on seeds of their own (from 1,000,000
for uniform over actions, 2,000,000 over kinds), each game once, a chess batch timed after
each round; their rate is all their steps over all their time, against all those chess
batches. They are checked afterwards, as the replayed games are, and must replay as they
were timed.

Timing: ``time.perf_counter``; best (the cost itself, least disturbed) and median (typical)
of ``--repeats`` repeats; the garbage collector runs as usual for both. The engine and chess
run in the same process in alternation (every timed group of engine games is followed by a
timed batch of chess games), so a busy machine slows both alike. Every game is played once,
untimed, before the timed repeats: that pass warms both up and checks correctness (below), so
the checks cost the timed loops nothing.

Correctness checked in the untimed pass: on every visited state the coins are conserved (the
players' money + the Bank + the box = ``COINS``); on every ``--check-every``-th state and the
last one ``status(state, catalog)`` finds no problem; no listed action is refused by
``apply``; a game that has not ended has a legal action. After the timed repeats every game
must have replayed exactly as in the untimed pass (same steps, same end): a seeded game is
deterministic.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import platform
import pstats
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import timing  # benchmarks/timing.py, beside this script
from engine_games import (  # benchmarks/engine_games.py, beside this script
    CHOICES,
    ChessRef,
    Played,
    checked_play,
    first_seed,
    play,
    players_for,
)

from mhp_cards.catalog.models import Catalog
from mhp_cards.rules.numbers import Level
from mhp_cards.validate import load_catalog

LEVELS: tuple[Level, ...] = ("1", "2", "1v1", "3")
HEADER = (
    "level",
    "players",
    "games",
    "steps",
    "legal/step",
    "steps/s best",
    "steps/s median",
    "games/s",
    "× chess",
    "capped",
    "how games ended",
)
NO_CHESS = "python-chess not installed: reference skipped (pip install chess)"
CHOICE_NOTES = {"actions": " (rng.choice of the list)", "kinds": " (a kind, then an action)"}


# --- the groups of games --------------------------------------------------------------------------


@dataclass
class Group:
    """The games of one level and player count, and their timings."""

    level: Level
    players: int
    seeds: list[int]
    choice: str = "actions"
    expected: list[Played] = field(default_factory=list)
    samples: list[float] = field(default_factory=list)
    chess: list[float] = field(default_factory=list)
    """The chess batches timed right after each of this group's samples."""
    replays: list[list[Played]] = field(default_factory=list)


def groups_for(
    levels: Sequence[Level], games: int, choices: Sequence[str] = ("actions",)
) -> list[Group]:
    groups: dict[tuple[str, str, int], Group] = {}
    for choice in choices:
        for level in levels:
            for seed in range(games):
                players = players_for(level, seed)
                group = groups.setdefault(
                    (choice, level, players), Group(level, players, [], choice)
                )
                group.seeds.append(seed)
    return sorted(
        groups.values(),
        key=lambda g: (CHOICES.index(g.choice), LEVELS.index(g.level), g.players),
    )


@dataclass
class FirstPlays:
    """Games of one level played once each, on seeds of their own, and their timings.

    The timed repeats replay the same games, so from the second on the listing finds every
    action it makes already made, and every verdict it keeps already judged. A first play
    meets its hands, trades and freeings anew, as a program that plays new games does.
    """

    level: Level
    choice: str
    seeds: list[int] = field(default_factory=list)
    results: list[Played] = field(default_factory=list)
    seconds: float = 0.0
    chess_seconds: float = 0.0
    chess_batches: int = 0


def first_plays(
    catalog: Catalog, args: argparse.Namespace, chess: Any, ref: ChessRef
) -> tuple[list[FirstPlays], list[str]]:
    """Time every level's first plays, a chess batch after each; then check each game.

    ``args.repeats`` rounds of ``args.games`` new games a level, each game played once: the
    rate is all their steps over all their time. Checked afterwards (untimed) as the
    replayed games are, and each must replay as it was timed.
    """
    firsts = [FirstPlays(level, choice) for choice in args.choice for level in args.levels]
    for repeat in range(args.repeats):
        for first in firsts:
            start = first_seed(first.choice) + repeat * args.games
            seeds = list(range(start, start + args.games))
            results: list[Played] = []

            def engine_work(
                first: FirstPlays = first, seeds: list[int] = seeds, results: list[Played] = results
            ) -> None:
                results.extend(
                    play(catalog, first.level, seed, args.step_cap, first.choice) for seed in seeds
                )

            first.seconds += timing.once(engine_work)
            first.seeds += seeds
            first.results += results
            if chess is not None:
                first.chess_seconds += timing.once(lambda: ref.batch(chess))
                first.chess_batches += 1
    failures = []
    for first in firsts:
        for seed, timed in zip(first.seeds, first.results, strict=True):
            played, problems = checked_play(
                catalog, first.level, seed, args.step_cap, args.check_every, first.choice
            )
            failures += problems
            if played != timed:
                failures.append(
                    f"level {first.level}, seed {seed}, uniform over {first.choice}: "
                    "a first play differs from its checked replay"
                )
    return firsts, failures


# --- timing and tables ----------------------------------------------------------------------------


def per_second(count: int, seconds: float) -> str:
    if seconds <= 0:
        return "-"
    rate = count / seconds
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M/s"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f} k/s"
    return f"{rate:.1f} /s"


def print_rows(header: Sequence[str], rows: Iterable[Sequence[str]]) -> None:
    rows = [list(row) for row in rows]
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return (
            "   "
            + "  ".join(
                str(c).ljust(w) if i in (0, len(cells) - 1) else str(c).rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()
        )

    head = line(header)
    print(head)
    print("   " + "-" * (len(head) - 3))
    for row in rows:
        print(line(row))


def ends_text(results: Iterable[Played]) -> str:
    return ", ".join(f"{end} {n}" for end, n in Counter(r.end for r in results).most_common())


def row(
    level: str,
    players: str,
    results: Sequence[Played],
    best: float,
    median: float,
    chess_rate: float | None,
) -> list[str]:
    steps = sum(r.steps for r in results)
    ratio = "-" if chess_rate is None or best <= 0 else f"{steps / best / chess_rate:.3g}×"
    return [
        level,
        players,
        str(len(results)),
        f"{steps:,}",
        f"{sum(r.options for r in results) / steps:.1f}" if steps else "-",
        per_second(steps, best),
        per_second(steps, median),
        per_second(len(results), best),
        ratio,
        str(sum(r.capped for r in results)),
        ends_text(results),
    ]


FIRST_HEADER = ("level", "games", "steps", "steps/s", "× chess", "capped", "how games ended")


def first_row(first: FirstPlays, plies_per_batch: int) -> list[str]:
    """A first plays' row: all their steps over all their time, beside chess's."""
    steps = sum(r.steps for r in first.results)
    ratio = "-"
    if first.chess_batches and first.seconds > 0 and first.chess_seconds > 0:
        chess_rate = plies_per_batch * first.chess_batches / first.chess_seconds
        ratio = f"{steps / first.seconds / chess_rate:.3g}×"
    return [
        first.level,
        str(len(first.results)),
        f"{steps:,}",
        per_second(steps, first.seconds),
        ratio,
        str(sum(r.capped for r in first.results)),
        ends_text(first.results),
    ]


# --- the run --------------------------------------------------------------------------------------


def benchmark(catalog: Catalog, args: argparse.Namespace) -> int:
    groups = groups_for(args.levels, args.games, args.choice)
    chess = ChessRef.load()
    ref = ChessRef(list(range(args.chess_games)), args.ply_cap)
    if chess is None:
        print(f"   {NO_CHESS}")
    else:
        print(f"   reference: python-chess {chess.__version__}")

    failures: list[str] = []
    for group in groups:
        for seed in group.seeds:
            played, problems = checked_play(
                catalog, group.level, seed, args.step_cap, args.check_every, group.choice
            )
            group.expected.append(played)
            failures += problems
    if chess is not None:
        ref.results = ref.counted_batch(chess)
        if ref.results != ref.batch(chess):
            failures.append("python-chess: a seeded random game did not replay the same")
    if failures:
        print("\n!! correctness failures (no timings taken):")
        for failure in failures[:20]:
            print(f"   {failure}")
        if len(failures) > 20:
            print(f"   … and {len(failures) - 20} more")
        return 1

    for _ in range(args.repeats):
        for group in groups:
            replay: list[Played] = []

            def engine_work(group: Group = group, replay: list[Played] = replay) -> None:
                replay.extend(
                    play(catalog, group.level, s, args.step_cap, group.choice) for s in group.seeds
                )

            group.samples.append(timing.once(engine_work))
            group.replays.append(replay)
            if chess is not None:
                group.chess.append(timing.once(lambda: ref.batch(chess)))
                ref.samples.append(group.chess[-1])

    replay_failures = [
        f"level {g.level}, {g.players} players, uniform over {g.choice}: "
        "a timed replay differs from the checked game"
        for g in groups
        if any(replay != g.expected for replay in g.replays)
    ]
    firsts, first_failures = first_plays(catalog, args, chess, ref)
    replay_failures += first_failures

    plies = sum(r.steps for r in ref.results)

    def chess_rate(of: Sequence[Group]) -> float | None:
        """Plies/s of the chess batches paired with these groups, as their games are added up:
        the sum of each group's best batch, so both sides have the same number of samples."""
        return None if chess is None else plies * len(of) / sum(min(g.chess) for g in of)

    for choice in args.choice:
        rows = []
        for level in args.levels:
            of_level = [g for g in groups if g.level == level and g.choice == choice]
            for group in of_level:
                rows.append(
                    row(
                        level,
                        str(group.players),
                        group.expected,
                        min(group.samples),
                        statistics.median(group.samples),
                        chess_rate([group]),
                    )
                )
            if len(of_level) > 1:
                rows.append(
                    row(
                        level,
                        "all",
                        [p for g in of_level for p in g.expected],
                        sum(min(g.samples) for g in of_level),
                        sum(statistics.median(g.samples) for g in of_level),
                        chess_rate(of_level),
                    )
                )
        if chess is not None:
            rows.append(
                row(
                    "chess",
                    "2",
                    ref.results,
                    min(ref.samples),
                    statistics.median(ref.samples),
                    plies / min(ref.samples),
                )
            )
        print(
            f"\nRandom games, uniform over {choice}{CHOICE_NOTES[choice]}: {args.games} per level "
            f"(seeds 0..{args.games - 1}), {args.repeats} timed repeat(s), "
            f"step cap {args.step_cap:,}"
        )
        print_rows(HEADER, rows)
    for choice in args.choice:
        print(
            f"\nFirst plays, uniform over {choice}: {args.repeats} round(s) of {args.games} new "
            f"games a level (seeds from {first_seed(choice):,}), each "
            "played once"
        )
        print_rows(
            FIRST_HEADER,
            (first_row(first, plies) for first in firsts if first.choice == choice),
        )
    print(
        "   × chess: the row's steps/s over the plies/s of the chess batches timed right after\n"
        "   its games, best against best (as many chess samples as engine samples); 'all' rows\n"
        "   add the groups' best (median) times; the chess row: the best (median) of every batch;\n"
        "   first plays: all their steps over all their time, against all the chess batches\n"
        "   timed after them (the replays' memories are warm, a first play's are not)"
    )
    if chess is not None:
        print(
            f"   chess: {len(ref.seeds)} random games from the initial position per batch, "
            f"{len(ref.samples)} batches timed in alternation, ply cap {ref.cap:,}"
        )
    else:
        print(f"   {NO_CHESS}")
    checked = sum(len(g.seeds) for g in groups)
    if replay_failures:
        print("\n!! correctness failures:")
        for failure in replay_failures:
            print(f"   {failure}")
        return 1
    print(
        f"   checked, untimed: {checked} games and {sum(len(f.seeds) for f in firsts)} first "
        f"plays; coins on every state, status() on every {args.check_every}th and the last; "
        "every timed replay identical"
    )
    return 0


def profile(catalog: Catalog, args: argparse.Namespace) -> int:
    level = args.profile
    seeds = list(range(args.games))
    choice = args.choice[0]
    for seed in seeds:  # untimed warm-up: caches filled as in the timed benchmark
        play(catalog, level, seed, args.step_cap, choice)
    profiler = cProfile.Profile()

    def games() -> list[Played]:
        results = []  # a loop, not a comprehension: one frame less in the profile
        for seed in seeds:
            results.append(play(catalog, level, seed, args.step_cap, choice))
        return results

    results = profiler.runcall(games)
    steps = sum(r.steps for r in results)
    print(
        f"\nProfile of level {level}, uniform over {choice}: {len(results)} games "
        f"(seeds 0..{len(seeds) - 1}), "
        f"{steps:,} steps, {sum(r.capped for r in results)} capped; ends: {ends_text(results)}"
    )
    table: dict[tuple[str, int, str], tuple[int, int, float, float, object]]
    table = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = max((entry[3] for entry in table.values()), default=0.0)  # the games, whole
    column = 3 if args.sort == "cumulative" else 2
    ordered = sorted(table.items(), key=lambda item: -(item[1][3] if column == 3 else item[1][2]))
    print(
        f"   {total:.2f} s profiled (with cProfile's overhead); the top {args.top} by "
        f"{'cumulative' if column == 3 else 'own'} time\n"
        "   own: in the function itself; cumulative: with what it calls"
    )
    print_rows(
        ["function", "calls", "own s", "own %", "cumulative s", "cumulative %", "per call"],
        (
            [
                where(key),
                f"{calls:,}",
                f"{own:.3f}",
                f"{100 * own / total:.1f} %" if total else "-",
                f"{cumulative:.3f}",
                f"{100 * cumulative / total:.1f} %" if total else "-",
                duration(cumulative / calls) if calls else "-",
            ]
            for key, (_, calls, own, cumulative, _) in ordered[: args.top]
        ),
    )
    return 0


def duration(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def where(key: tuple[str, int, str]) -> str:
    """A profiled function as ``package/module.py:line(name)``: short, yet unambiguous."""
    path, line, name = key
    if path == "~":
        return name  # a built-in
    parts = Path(path).parts
    for anchor, keep in (("mhp_cards", 0), ("site-packages", 1), ("benchmarks", 1)):
        if anchor in parts:
            start = len(parts) - 1 - parts[::-1].index(anchor) + keep
            return f"{'/'.join(parts[start:])}:{line}({name})"
    return f"{Path(path).name}:{line}({name})"


def level_list(text: str) -> tuple[Level, ...]:
    named = list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    levels = tuple(level for level in named if level in LEVELS)
    wrong = [level for level in named if level not in LEVELS]
    if wrong or not levels:
        raise argparse.ArgumentTypeError(
            f"unknown level {', '.join(wrong) or '(none)'}: expected some of {', '.join(LEVELS)}"
        )
    return levels


def choice_list(text: str) -> tuple[str, ...]:
    named = list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    wrong = [choice for choice in named if choice not in CHOICES]
    if wrong or not named:
        raise argparse.ArgumentTypeError(
            f"unknown choice {', '.join(wrong) or '(none)'}: expected some of {', '.join(CHOICES)}"
        )
    return tuple(choice for choice in CHOICES if choice in named)


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: expected a whole number of at least 1")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run for CI (a few seconds)")
    parser.add_argument("--levels", type=level_list, default=LEVELS, help="e.g. 1,2,1v1,3")
    parser.add_argument(
        "--choice",
        type=choice_list,
        default=CHOICES,
        help="how the random player picks: actions, kinds or both (default actions,kinds; "
        "--profile uses the first)",
    )
    parser.add_argument("--games", type=positive, help="games per level (default 8, quick 2)")
    parser.add_argument("--repeats", type=positive, help="timed repeats (default 5, quick 2)")
    parser.add_argument(
        "--chess-games", type=positive, help="chess games per timed batch (default 4, quick 2)"
    )
    parser.add_argument("--step-cap", type=positive, default=20_000, help="steps per game at most")
    parser.add_argument("--ply-cap", type=positive, default=2_000, help="plies per chess game")
    parser.add_argument(
        "--check-every",
        type=positive,
        help="run status() on every Nth visited state (default 10, quick 25)",
    )
    parser.add_argument(
        "--profile",
        choices=LEVELS,
        metavar="LEVEL",
        help="profile one level's games with cProfile instead of timing (1, 2, 1v1 or 3)",
    )
    parser.add_argument(
        "--sort",
        choices=("cumulative", "tottime"),
        default="cumulative",
        help="profile order (default cumulative)",
    )
    parser.add_argument("--top", type=positive, default=15, help="profile lines (default 15)")
    args = parser.parse_args(argv)
    quick = args.quick
    args.games = args.games or (2 if quick else 8)
    args.repeats = args.repeats or (2 if quick else 5)
    args.chess_games = args.chess_games or (2 if quick else 4)
    args.check_every = args.check_every or (25 if quick else 10)

    started = time.perf_counter()
    print(f"Engine benchmark ({'quick' if quick else 'full'} run)")
    print(f"   Python {platform.python_version()} on {platform.machine()}, {platform.system()}")
    print(f"   garbage collector {'on' if gc.isenabled() else 'off'}")
    catalog = load_catalog()
    code = profile(catalog, args) if args.profile else benchmark(catalog, args)
    print(f"\nTotal time: {time.perf_counter() - started:.1f} s")
    return code


if __name__ == "__main__":
    sys.exit(main())
