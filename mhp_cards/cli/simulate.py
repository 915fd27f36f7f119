"""``mhp simulate``: seeded bots play many games; the aggregate shows how the game balances."""

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer

from mhp_cards.cli.app import CatalogDir, JsonOption, app, echo_json, fail, reports_errors

if TYPE_CHECKING:  # each command imports the library it uses when it runs
    from mhp_cards.sim import Summary

#: The policy names for the help text, without importing the bots to print it; a test checks
#: that they are ``mhp_cards.sim.POLICIES``.
POLICY_NAMES = "random, greedy, search"


@app.command("simulate")
@reports_errors
def simulate_command(
    level: Annotated[str, typer.Option("--level", help="1, 2, 1v1 or 3.")],
    players: Annotated[int, typer.Option("--players", help="2 to 5.")],
    games: Annotated[int, typer.Option("--games", help="How many games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="The same seed gives the same games.")] = 0,
    policy: Annotated[
        str,
        typer.Option(
            "--policy",
            help=f"One policy for every seat, or one per seat, comma-separated: {POLICY_NAMES}.",
        ),
    ] = "greedy",
    house_rule: Annotated[
        list[str] | None, typer.Option("--house-rule", help="A house rule in force (repeatable).")
    ] = None,
    max_steps: Annotated[
        int, typer.Option("--max-steps", help="Stop a game after this many actions (reported).")
    ] = 5000,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Worker processes (default: the cores).")
    ] = None,
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
) -> None:
    """Let bots play many seeded games and report ends, lengths, missions and seat win rates.

    Example: mhp simulate --level 1 --players 3 --games 1000 --seed 7 --policy greedy
    """
    from mhp_cards.rules.numbers import LEVELS
    from mhp_cards.sim import POLICIES, simulate
    from mhp_cards.validate import load_catalog

    if level not in LEVELS:
        fail(f"--level must be one of {', '.join(LEVELS)}, not {level!r}", 2)
    if games < 1:
        fail(f"--games must be at least 1, not {games}", 2)
    if max_steps < 1:
        fail(f"--max-steps must be at least 1, not {max_steps}", 2)
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, not {workers}", 2)
    names = [name.strip() for name in policy.split(",")]
    unknown = [name for name in names if name not in POLICIES]
    if unknown:
        fail(f"unknown policy {', '.join(unknown)}; the policies are {', '.join(POLICIES)}", 2)
    if len(names) not in (1, players):
        fail(f"--policy: give one policy or one per seat ({players}), not {len(names)}", 2)
    catalog = load_catalog(catalog_dir)
    with _Progress(games) as advance:
        summary = simulate(
            catalog,
            level,
            players,
            games,
            seed,
            names,
            max_steps=max_steps,
            workers=workers,
            house_rules=house_rule or (),
            progress=advance,
        )
    if as_json:
        echo_json(summary.to_json())
    else:
        typer.echo(summary_text(summary))


class _Progress:
    """A rich progress bar on stderr, shown once a run has lasted a second, on a terminal only."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.started = time.monotonic()
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> Callable[[int], None]:
        return self.advance

    def advance(self, done: int) -> None:
        if self.bar is None:
            if time.monotonic() - self.started < 1.0 or not sys.stderr.isatty():
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn("games"),
                BarColumn(),
                TextColumn("{task.completed}/{task.total}"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task("games", total=self.total)
        self.bar.update(self.task, completed=done)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def summary_text(summary: "Summary") -> str:
    """The summary as a table for people."""
    lines = [
        f"level {summary.level}, {summary.players} players, {summary.games} games, "
        f"seed {summary.seed}, policy {','.join(summary.policy)}",
        "",
        "ended by:",
    ]
    width = max(len(code) for code in summary.ended)
    for code, count in summary.ended.items():
        lines.append(f"  {code:<{width}}  {count:>6}  {_percent(count, summary.games)}")
    lines += ["", "missions completed:"]
    for mission, count in summary.missions.items():
        lines.append(f"  {mission:<{width}}  {count:>6}  {_percent(count, summary.games)}")
    if summary.first_completion_turn is not None:
        first = summary.first_completion_turn
        lines.append(f"  first completion on turn: median {first.median:g}, max {first.max}")
    lines += ["", "seat   wins      rate   95 % interval"]
    for rate, wins in zip(summary.seat_win_rate, summary.wins_by_seat, strict=True):
        lines.append(
            f"  {rate.seat + 1:<3}  {wins:>7.1f}  {rate.rate:>6.1%}  "
            f"[{rate.low:.1%}, {rate.high:.1%}]"
        )
    lines += ["", "            median    p10    p90    max"]
    for name, dist in (("steps", summary.steps), ("rounds", summary.rounds)):
        lines.append(
            f"  {name:<8}  {dist.median:>6g}  {dist.p10:>5g}  {dist.p90:>5g}  {dist.max:>5}"
        )
    lines += ["", "reactions by installation:"]
    lines.append(
        "  " + "  ".join(f"{number}: {count}" for number, count in summary.installations.items())
    )
    lines += ["", f"{summary.games_per_second:.1f} games/s"]
    return "\n".join(lines)


def _percent(count: int, total: int) -> str:
    return f"{count / total:6.1%}"
