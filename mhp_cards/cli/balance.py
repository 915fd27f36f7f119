"""``mhp balance``: greedy bots play every level; each soundness figure is set against its bound."""

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mhp_cards.cli.app import CatalogDir, JsonOption, app, echo_json, fail, reports_errors

if TYPE_CHECKING:  # each command imports the library it uses when it runs
    from mhp_cards.catalog.models import Catalog
    from mhp_cards.sim.balance import BalanceReport, Row


@app.command("balance")
@reports_errors
def balance_command(
    games: Annotated[
        int, typer.Option("--games", help="Games per level and player count (DESIGN.md: 400).")
    ] = 400,
    seed: Annotated[int, typer.Option("--seed", help="The same seed gives the same games.")] = 0,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Worker processes (default: the cores).")
    ] = None,
    level: Annotated[
        list[str] | None,
        typer.Option("--level", help="Only this level: 1, 2, 1v1 or 3 (repeatable)."),
    ] = None,
    robust_games: Annotated[
        int | None,
        typer.Option(
            "--robust-games",
            help="Games a table under noisy-greedy and lookahead (default: games / 8; 0: none).",
        ),
    ] = None,
    skill_games: Annotated[
        int | None,
        typer.Option(
            "--skill-games",
            help="Two-player games of greedy against random at each level (default: --games).",
        ),
    ] = None,
    search_games: Annotated[
        int,
        typer.Option(
            "--search-games",
            help="Two-player games of search against greedy at levels 2 and 3 (default 0: "
            "not measured; the search bot is slow).",
        ),
    ] = 0,
    policy: Annotated[
        str,
        typer.Option(
            "--policy",
            help="The policy whose games every figure is judged on: greedy, search, "
            "noisy-greedy, lookahead or random (the others play the robustness tables); "
            "search:N, search:Ts or search:N:Ts for the search bot with a budget of N cost "
            "units or T seconds a choice.",
        ),
    ] = "greedy",
    matrix_games: Annotated[
        int,
        typer.Option(
            "--matrix-games",
            help="Two-player games for each pair of the matrix's policies at each level: the "
            "policy matrix, reported beside the figures (default 0: none).",
        ),
    ] = 0,
    matrix_policy: Annotated[
        list[str] | None,
        typer.Option(
            "--matrix-policy",
            help="A policy of the matrix (repeatable; default: greedy, lookahead, "
            "noisy-greedy and random; add search to rank it too, slowly).",
        ),
    ] = None,
    decide: Annotated[
        int,
        typer.Option(
            "--decide",
            metavar="MOST",
            help="Play each table with an undecided figure on (at least doubling its games) "
            "until its figures are decided, to at most MOST games a table (default 0: off).",
        ),
    ] = 0,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict", help="Exit 1 also when a figure is undecided, not only when one fails."
        ),
    ] = False,
    report_file: Annotated[
        Path | None,
        typer.Option(
            "--report",
            metavar="FILE.html",
            help="Also write the report as one self-contained HTML page.",
        ),
    ] = None,
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
) -> None:
    """Check that the catalog plays as a sound and deep game (DESIGN.md, the catalog figures).

    Greedy bots play every level with 2 to 5 players, then noisy-greedy and lookahead bots
    (robustness), then greedy against random (skill); the command prints each figure against
    its bound (the depth bands come from the catalog's design: in missions.yaml) and exits 1
    when one fails: when its 95 % interval lies wholly outside the bound. A figure the games
    do not decide is listed with the games that would; --decide plays those tables on.

    Example: mhp balance --games 400 --seed 0 --decide 3200
    """
    from mhp_cards.rules.numbers import LEVELS
    from mhp_cards.sim.balance import MATRIX_POLICIES, ROWS, balance
    from mhp_cards.sim.policies import is_policy, policy_names
    from mhp_cards.validate import load_catalog

    if games < 1:
        fail(f"--games must be at least 1, not {games}", 2)
    for name, value in (
        ("--robust-games", robust_games),
        ("--skill-games", skill_games),
        ("--search-games", search_games),
        ("--matrix-games", matrix_games),
        ("--decide", decide),
    ):
        if value is not None and value < 0:
            fail(f"{name} must be 0 or more, not {value}", 2)
    if 0 < decide <= games:
        fail(f"--decide must be more than --games ({games}), or 0 for off, not {decide}", 2)
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, not {workers}", 2)
    unknown = [name for name in level or () if name not in LEVELS]
    if unknown:
        fail(f"--level must be one of {', '.join(LEVELS)}, not {', '.join(unknown)}", 2)
    known = f"{', '.join(policy_names())} (search:N, search:Ts or search:N:Ts for a budget)"
    if not is_policy(policy):
        fail(f"--policy must be one of {known}, not {policy}", 2)
    matrix_policies = tuple(dict.fromkeys(matrix_policy or MATRIX_POLICIES))
    wrong = [name for name in matrix_policies if not is_policy(name)]
    if wrong:
        fail(f"--matrix-policy must be one of {known}, not {', '.join(wrong)}", 2)
    if len(matrix_policies) < 2:
        fail(f"--matrix-policy needs two policies or more, not {matrix_policies[0]} alone", 2)
    if report_file is not None and report_file.suffix.lower() != ".html":
        fail(f"--report writes an .html page, not {report_file.name}", 2)
    rows = [row for row in ROWS if not level or row.level in level]
    catalog = load_catalog(catalog_dir)
    report = balance(
        catalog,
        games,
        seed,
        workers=workers,
        rows=rows,
        progress=_progress(len(rows), games),
        robust_games=robust_games,
        skill_games=skill_games,
        search_games=search_games,
        policy=policy,
        matrix_games=matrix_games,
        decide=decide,
        matrix_policies=matrix_policies,
    )
    if report_file is not None:
        from mhp_cards.sim.balance_html import write_balance_report

        label = "the default game" if catalog_dir is None else str(catalog_dir)
        write_balance_report(report, report_file, label)
    if as_json:
        echo_json(report.to_json())
    else:
        typer.echo(report_text(report, catalog))
    if not report.passed or (strict and report.undecided):
        raise typer.Exit(1)


def _progress(rows: int, games: int) -> "Callable[[Row, int], None] | None":
    """A one-line progress note on stderr for a terminal (runs take minutes)."""
    if not sys.stderr.isatty():
        return None
    done_rows: list[str] = []

    def advance(row: "Row", done: int) -> None:
        key = f"{row.level}/{row.players}"
        if done == games and key not in done_rows:
            done_rows.append(key)
        if done > games:  # a table played on to decide a figure
            sys.stderr.write(
                f"\r  deciding level {row.level}, {row.players} players: {done} games\033[K"
            )
        else:
            sys.stderr.write(
                f"\r  level {row.level}, {row.players} players: {done}/{games} games "
                f"({len(done_rows)}/{rows} tables done)\033[K"
            )
        if len(done_rows) == rows:
            sys.stderr.write("\r\033[K")
        sys.stderr.flush()

    return advance


def report_text(report: "BalanceReport", catalog: "Catalog") -> str:
    """The report as a table for people."""
    alone = ", ".join(str(i.number) for i in catalog.installations_running_alone)
    lines = [
        f"{report.games} {report.policy} games per table, {report.robust_games} under each "
        f"robustness policy, seed {report.seed}",
        f"head to head deals installations {alone} (they run from raw cards alone)",
        "",
        f"{'policy':<13}{'level':<8}{'players':<8}{'figure':<36}{'value':>22}  {'bound':<9}",
    ]
    for figure in report.figures:
        lines.append(
            f"{figure.policy:<13}{figure.level:<8}{figure.players or '':<8}{figure.subject:<36}"
            f"{figure.shown:>22}  {figure.bound:<9}{figure.verdict_shown}"
        )
    if report.matchups or report.matrix:
        lines += ["", "skill duels and policy matrix (two players, seats swapped half the games):"]
        for duel in [*report.matchups, *report.matrix]:
            lines.append(
                f"  level {duel.level:<4} {duel.policy} beats {duel.opponent} in "
                f"{duel.share:.1%} [{duel.low:.1%}, {duel.high:.1%}] of {duel.games} games"
            )
    if report.decide:
        played_on = [run for run in report.runs if run.games > _games_of(report, run.policy[0])]
        lines += ["", f"tables played on to decide a figure (at most {report.decide:,} games):"]
        lines += [
            f"  {run.policy[0]} level {run.level}, {run.players} players: {run.games:,} games"
            for run in played_on
        ] or ["  none"]
    undecided = report.undecided
    if undecided:
        lines += [
            "",
            "figures these games do not decide (their 95 % interval reaches across the bound);",
            "the games a table that would decide each, were its rate to hold:",
        ]
        for figure in undecided:
            needed = figure.games_to_decide
            lines.append(
                f"  {figure.policy} level {figure.level}, {figure.players} players, "
                f"{figure.subject} {figure.value_shown}: "
                + (
                    "on its bound: no number of games would decide it"
                    if needed is None
                    else f"~{needed:,} games"
                )
            )
    lines += ["", report.verdict_line]
    return "\n".join(lines)


def _games_of(report: "BalanceReport", policy: str) -> int:
    """The games a table was first played with under ``policy``."""
    return report.games if policy == report.policy else report.robust_games
