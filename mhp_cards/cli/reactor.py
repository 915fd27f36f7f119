"""``mhp reactor check|solve|show``: reactor assembly from the command line."""

from typing import Annotated

import typer

from mhp_cards.cli.app import (
    CatalogDir,
    JsonOption,
    app,
    echo_json,
    fail,
    installation_or_fail,
    reports_errors,
)

reactor_app = typer.Typer(help="Assemble installations from reactor cards.", no_args_is_help=True)
app.add_typer(reactor_app, name="reactor")


@reactor_app.command("check")
@reports_errors
def check(
    arrangement: Annotated[
        str,
        typer.Argument(help="Rows separated by '/', '.' for an empty cell; or a YAML/JSON file."),
    ],
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
) -> None:
    """Check an arrangement of reactor cards: every pipe, every card, the net reaction.

    Example: mhp reactor check ". 2А / Э 2Б"
    """
    from mhp_cards.assembly.arrangement import check_arrangement, read_arrangement
    from mhp_cards.validate import load_catalog

    catalog = load_catalog(catalog_dir)
    report = check_arrangement(catalog, read_arrangement(arrangement))
    if as_json:
        echo_json(report.to_json())
    else:
        for note in report.notes:
            typer.echo(f"note: {note}")
        if report.is_valid():
            typer.echo(f"valid: installation {report.installation} — {report.arrangement}")
        else:
            typer.echo(f"INVALID: {report.arrangement}")
            for problem in report.problems:
                typer.echo(f"  - {problem}")
    if not report.is_valid():
        raise typer.Exit(1)


@reactor_app.command("solve")
@reports_errors
def solve(
    number: Annotated[int, typer.Argument(help="Installation number.")],
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
) -> None:
    """Find every valid arrangement of an installation (up to translation).

    Example: mhp reactor solve 2
    """
    from mhp_cards.assembly.solver import solve_installation
    from mhp_cards.validate import load_catalog

    catalog = load_catalog(catalog_dir)
    installation_or_fail(catalog, number)
    solution = solve_installation(catalog, number)
    if as_json:
        echo_json(solution.to_json())
    elif solution.canonical is None:
        typer.echo(f"installation {number} cannot be assembled: {solution.reason}")
    else:
        typer.echo(
            f"installation {number}: {len(solution.arrangements)} arrangement(s), "
            f"{solution.electrolysers} electrolyser(s)"
        )
        for arrangement in solution.arrangements:
            typer.echo(f"  {arrangement}")
    if solution.canonical is None:
        raise typer.Exit(1)


@reactor_app.command("show")
@reports_errors
def show(
    number: Annotated[int, typer.Argument(help="Installation number.")],
    catalog_dir: CatalogDir = None,
) -> None:
    """Draw an installation, assembled, as a text diagram with its pipes.

    Example: mhp reactor show 4
    """
    from mhp_cards.assembly.diagram import render_arrangement
    from mhp_cards.assembly.solver import solve_installation
    from mhp_cards.validate import load_catalog

    catalog = load_catalog(catalog_dir)
    installation = installation_or_fail(catalog, number)
    solution = solve_installation(catalog, number)
    if solution.canonical is None:
        fail(f"installation {number} cannot be assembled: {solution.reason}")
    typer.echo(f"{installation.number}. {installation.name.ru} / {installation.name.en}")
    typer.echo(f"   {installation.reaction}")
    typer.echo(f"   {solution.canonical}")
    typer.echo(render_arrangement(catalog, solution.canonical))
