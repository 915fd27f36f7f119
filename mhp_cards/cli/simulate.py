"""``mhp simulate``: seeded bots play many games; the aggregate shows how the game balances."""

import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from mhp_cards.cli.app import CatalogDir, JsonOption, app, echo_json, fail, reports_errors

if TYPE_CHECKING:  # each command imports the library it uses when it runs
    from mhp_cards.catalog.models import Catalog
    from mhp_cards.sim import Summary

#: The policy names for the help text, without importing the bots to print it; a test checks
#: that they are ``mhp_cards.sim.POLICIES``.
POLICY_NAMES = "random, greedy, search, noisy-greedy, lookahead"


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
    search_steps: Annotated[
        int | None,
        typer.Option(
            "--search-steps",
            metavar="N",
            help="The search bot's budget: cost units per choice, about a simulated action "
            "each (default: the level's, about 0.02-0.12 s of CPU a choice on average). Same as "
            "--policy search:N.",
        ),
    ] = None,
    search_seconds: Annotated[
        float | None,
        typer.Option(
            "--search-seconds",
            metavar="S",
            help="A time limit per choice of the search bot, besides its units: no search "
            "goes on past S seconds (the games then depend on the machine's speed). Same as "
            "--policy search:Ss.",
        ),
    ] = None,
    house_rule: Annotated[
        list[str] | None, typer.Option("--house-rule", help="A house rule in force (repeatable).")
    ] = None,
    max_steps: Annotated[
        int, typer.Option("--max-steps", help="Stop a game after this many actions (reported).")
    ] = 5000,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Worker processes (default: the cores).")
    ] = None,
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask",
            metavar="ADDRESS",
            help="Play on a Dask distributed cluster: its scheduler (tcp://host:8786), or "
            "local:N to start N worker processes on 127.0.0.1 (needs mhp-cards[cluster]).",
        ),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            metavar="FILE",
            help="Write the balance report with its plots: FILE.html (self-contained) or "
            "FILE.pdf (needs mhp-cards[report]).",
        ),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(
            "--vary",
            metavar="PATH=VALUES",
            help="Run over catalog variants: a field path and a range or list, e.g. "
            "copies.water-ice=6..9 or price.CH4=3,4,5; repeat for a grid.",
        ),
    ] = None,
    vary_file: Annotated[
        Path | None,
        typer.Option(
            "--vary-file",
            metavar="FILE",
            help="Read the variations from a YAML sweep file (vary: and/or variants:).",
        ),
    ] = None,
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
) -> None:
    """Let bots play many seeded games and report ends, lengths, missions and seat win rates.

    Example: mhp simulate --level 1 --players 3 --games 1000 --seed 7 --policy greedy

    Sweep: mhp simulate --level 2 --players 3 --games 200 --vary copies.water-ice=6..9
    --report balance.html
    """
    from mhp_cards.rules.numbers import LEVELS
    from mhp_cards.sim import POLICIES
    from mhp_cards.sim.policies import is_policy

    if level not in LEVELS:
        fail(f"--level must be one of {', '.join(LEVELS)}, not {level!r}", 2)
    if games < 1:
        fail(f"--games must be at least 1, not {games}", 2)
    if max_steps < 1:
        fail(f"--max-steps must be at least 1, not {max_steps}", 2)
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, not {workers}", 2)
    if workers is not None and dask is not None:
        fail("--workers and --dask exclude each other: the cluster has its own workers", 2)
    if report is not None and report.suffix.lower() not in (".html", ".pdf"):
        fail(f"--report {report}: the report is a .html or a .pdf file", 2)
    names = [name.strip() for name in policy.split(",")]
    if search_steps is not None and search_steps < 1:
        fail(f"--search-steps must be at least 1, not {search_steps}", 2)
    if search_seconds is not None and not 0 < search_seconds < math.inf:
        fail(f"--search-seconds must be more than 0, not {search_seconds}", 2)
    if search_steps is not None or search_seconds is not None:
        budget = ":".join(
            part
            for part in (
                None if search_steps is None else str(search_steps),
                None if search_seconds is None else f"{search_seconds!r}s",
            )
            if part is not None
        )
        names = [f"search:{budget}" if name == "search" else name for name in names]
    unknown = [name for name in names if not is_policy(name)]
    if unknown:
        fail(f"unknown policy {', '.join(unknown)}; the policies are {', '.join(POLICIES)}", 2)
    if len(names) not in (1, players):
        fail(f"--policy: give one policy or one per seat ({players}), not {len(names)}", 2)
    if dask is not None:
        from mhp_cards.sim.cluster import local_workers

        local_workers(dask)  # a bad local:N is refused before anything runs
    if report is not None:
        from mhp_cards.sim.report import require_matplotlib

        require_matplotlib()  # before the games, not after them
    from mhp_cards.validate import load_catalog

    catalog = load_catalog(catalog_dir)
    variants = _variants(vary or [], vary_file)
    settings: dict[str, Any] = {
        "level": level,
        "players": players,
        "games": games,
        "seed": seed,
        "policies": names,
        "max_steps": max_steps,
        "workers": workers,
        "house_rules": house_rule or (),
        "dask": dask,
    }
    if variants is None:
        with _Progress(games) as advance:
            summaries = [_run(catalog, settings, advance)]
    else:
        from mhp_cards.sim.sweep import make_variants

        catalogs = make_variants(catalog, variants)  # every variant checked before any game
        summaries = []
        with _Progress(games * len(variants)) as advance:
            for n, (variant, variant_catalog) in enumerate(zip(variants, catalogs, strict=True)):
                done = n * games
                summary = _run(variant_catalog, settings, _shifted(advance, done))
                summaries.append(summary.model_copy(update={"variant": variant.values()}))
    if report is not None:
        from mhp_cards.sim.report import ReportInfo, write_report

        info = ReportInfo(
            catalog=str(catalog_dir) if catalog_dir is not None else "the default game",
            max_steps=max_steps,
            house_rules=tuple(house_rule or ()),
            installation_names={str(i.number): i.name.en for i in catalog.installations},
        )
        write_report(report, summaries, info)
    if as_json:
        if variants is None:
            echo_json(summaries[0].to_json())
        else:
            echo_json([summary.to_json() for summary in summaries])
    else:
        text = summary_text(summaries[0]) if variants is None else sweep_text(summaries)
        typer.echo(text)
    if report is not None:
        typer.echo(f"wrote {report}", err=True)


def _run(
    catalog: "Catalog", settings: dict[str, Any], progress: Callable[[int], None]
) -> "Summary":
    from mhp_cards.sim import simulate

    return simulate(
        catalog,
        settings["level"],
        settings["players"],
        settings["games"],
        settings["seed"],
        settings["policies"],
        max_steps=settings["max_steps"],
        workers=settings["workers"],
        house_rules=settings["house_rules"],
        progress=progress,
        dask=settings["dask"],
    )


def _shifted(advance: Callable[[int], None], done: int) -> Callable[[int], None]:
    """A progress callback for one variant of a sweep: ``done`` games came before it."""
    return lambda finished: advance(done + finished)


def _variants(vary: Sequence[str], vary_file: Path | None) -> "list[Any] | None":
    """The sweep's variants, or None for a plain run."""
    if not vary and vary_file is None:
        return None
    from mhp_cards.sim.sweep import grid, parse_vary, read_sweep_file

    variations = [parse_vary(text, n) for n, text in enumerate(vary, start=1)]
    explicit: list[Any] = []
    if vary_file is not None:
        from_file, explicit = read_sweep_file(vary_file)
        variations += from_file
    return grid(variations) + explicit


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
        line = f"  {mission:<{width}}  {count:>6}  {_percent(count, summary.games)}"
        first = summary.mission_first_turn.get(mission)
        if first is not None:
            line += f"   first completed on turn {first.median:g} (median; p10–p90 "
            line += f"{first.p10:g}–{first.p90:g})"
        lines.append(line)
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


def sweep_text(summaries: Sequence["Summary"]) -> str:
    """The variants of a sweep side by side: one column per variant."""
    first = summaries[0]
    labels = [
        ", ".join(f"{path}={value}" for path, value in (s.variant or {}).items()) or "as printed"
        for s in summaries
    ]
    rows: list[tuple[str, list[str]]] = []
    rows.append(("", [f"#{n}" for n in range(1, len(summaries) + 1)]))
    for seat in range(first.players):
        rows.append(
            (f"seat {seat + 1} wins", [f"{s.seat_win_rate[seat].rate:.1%}" for s in summaries])
        )
        rows.append(
            (
                "  95 % interval",
                [
                    f"{s.seat_win_rate[seat].low:.0%}–{s.seat_win_rate[seat].high:.0%}"
                    for s in summaries
                ],
            )
        )
    for code in first.ended:
        if any(s.ended.get(code, 0) for s in summaries):
            rows.append((f"ended: {code}", [_percent(s.ended[code], s.games) for s in summaries]))
    for mission in first.missions:
        rows.append(
            (f"mission {mission}", [_percent(s.missions[mission], s.games) for s in summaries])
        )
    rows.append(("rounds median", [f"{s.rounds.median:g}" for s in summaries]))
    rows.append(("rounds p10–p90", [f"{s.rounds.p10:g}–{s.rounds.p90:g}" for s in summaries]))
    rows.append(("steps median", [f"{s.steps.median:g}" for s in summaries]))
    rows.append(
        ("reactions/game", [f"{sum(s.installations.values()) / s.games:.1f}" for s in summaries])
    )
    width = max(len(name) for name, _ in rows)
    column = max(9, *(len(v.strip()) for _, values in rows for v in values))
    lines = [
        f"level {first.level}, {first.players} players, {first.games} games per variant, "
        f"seed {first.seed}, policy {','.join(first.policy)}",
        "",
        "variants:",
        *(f"  #{n}  {label}" for n, label in enumerate(labels, start=1)),
        "",
    ]
    for name, values in rows:
        lines.append(f"{name:<{width}}  " + "  ".join(f"{v.strip():>{column}}" for v in values))
    return "\n".join(lines)


def _percent(count: int, total: int) -> str:
    return f"{count / total:6.1%}"
