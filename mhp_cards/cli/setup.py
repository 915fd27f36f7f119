"""``mhp setup check`` and ``mhp setup deal``: setups for every level and 2–5 players."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mhp_cards.cli.app import CatalogDir, app, check_lang, echo_json, fail, reports_errors

if TYPE_CHECKING:  # each command imports the library it uses when it runs
    from mhp_cards.game.setups import SetupCheck

#: The field shapes for the help text, without importing the dealer (the game models) to print
#: it; a test checks that they are ``mhp_cards.game.SHAPES``.
SHAPE_NAMES = "rectangle, cross, ring, random"

setup_app = typer.Typer(help="Check or deal the setup of a game.", no_args_is_help=True)
app.add_typer(setup_app, name="setup")

HouseRules = Annotated[
    list[str] | None, typer.Option("--house-rule", help="A house rule in force (repeatable).")
]


@setup_app.command("check")
@reports_errors
def check(
    state_file: Annotated[
        Path | None, typer.Argument(help="A game state (JSON) to check instead of a level.")
    ] = None,
    level: Annotated[str | None, typer.Option("--level", help="1, 2, 1v1 or 3.")] = None,
    players: Annotated[int | None, typer.Option("--players", help="2 to 5.")] = None,
    house_rule: HouseRules = None,
    catalog_dir: CatalogDir = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Check that the box allows a setup (a checklist with rule IDs), or check a state file.

    Example: mhp setup check --level 2 --players 5
    """
    from mhp_cards.game import status
    from mhp_cards.game.setups import check_setup
    from mhp_cards.game.statefile import read_state
    from mhp_cards.rules.numbers import LEVELS
    from mhp_cards.validate import load_catalog

    catalog = load_catalog(catalog_dir)
    if state_file is not None:
        state = read_state(state_file)
        checklist = check_setup(catalog, state.level, len(state.players))
        problems = status(state, catalog)
        if as_json:
            document = checklist.to_json()
            document["state_valid"] = not problems
            document["problems"] = [issue.to_json() for issue in problems]
            echo_json(document)
        else:
            _print_checklist(checklist)
            typer.echo("")
            if problems:
                typer.echo(f"the state has {len(problems)} problem(s):")
                for issue in problems:
                    typer.echo(f"  ✗ [{issue.rule}] {issue.message}")
            else:
                typer.echo("the state is consistent")
        if problems or not checklist.is_valid():
            raise typer.Exit(1)
        return
    if level is None or players is None:
        fail("give --level and --players, or a state file", 2)
    if level not in LEVELS:
        fail(f"--level must be one of {', '.join(LEVELS)}, not {level!r}", 2)
    checklist = check_setup(catalog, level, players)
    if as_json:
        echo_json(checklist.to_json())
    else:
        _print_checklist(checklist)
    if not checklist.is_valid():
        raise typer.Exit(1)


def _print_checklist(checklist: "SetupCheck") -> None:
    typer.echo(f"Setup of level {checklist.level} for {checklist.players} players:")
    for item in checklist.items:
        mark = "✓" if item.ok else "✗"
        hint = f" — {item.hint}" if not item.ok and item.hint else ""
        typer.echo(f"  {mark} [{item.rule}] {item.text}{hint}")
    verdict = "possible" if checklist.is_valid() else "IMPOSSIBLE"
    typer.echo(f"setup {verdict}")


@setup_app.command("deal")
@reports_errors
def deal_command(
    level: Annotated[str, typer.Option("--level", help="1, 2, 1v1 or 3.")],
    players: Annotated[int, typer.Option("--players", help="2 to 5.")],
    seed: Annotated[int, typer.Option("--seed", help="The same seed gives the same deal.")],
    shape: Annotated[
        str, typer.Option("--shape", help=f"Field shape: {SHAPE_NAMES}.")
    ] = "rectangle",
    house_rule: HouseRules = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the state (JSON) here.")] = None,
    pdf: Annotated[
        Path | None, typer.Option("--pdf", help="Write a one-page setup sheet (PDF) here.")
    ] = None,
    lang: Annotated[str, typer.Option("--lang", help="Language of the sheet: ru or en.")] = "ru",
    catalog_dir: CatalogDir = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the state as JSON.")] = False,
) -> None:
    """Deal a game by the rules and print the field and the players (or the JSON state).

    Example: mhp setup deal --level 3 --players 4 --seed 7 --out game.json --pdf setup.pdf
    """
    from mhp_cards.fileio import write_text_atomic
    from mhp_cards.game import SHAPES, deal
    from mhp_cards.game.views import field_map, summary
    from mhp_cards.pdf.setup_sheet import write_setup_sheet
    from mhp_cards.rules.numbers import LEVELS
    from mhp_cards.validate import load_catalog

    if level not in LEVELS:
        fail(f"--level must be one of {', '.join(LEVELS)}, not {level!r}", 2)
    check_lang(lang)
    if shape not in SHAPES:
        fail(f"--shape must be one of {', '.join(SHAPES)}, not {shape!r}", 2)
    catalog = load_catalog(catalog_dir)
    state = deal(catalog, level, players, seed, shape, house_rule or ())
    if out is not None:
        write_text_atomic(out, state.to_json() + "\n")
    if pdf is not None:
        write_setup_sheet(state, catalog, pdf, lang=lang)
    if as_json:
        typer.echo(state.to_json())
        return
    typer.echo(summary(state, catalog))
    if state.field is not None:
        typer.echo("")
        typer.echo(field_map(state))
    for written in (out, pdf):
        if written is not None:
            typer.echo(f"wrote {written}")
