"""``mhp referee``: rulings at the table — missions, moves, scores — each citing its rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from mhp_cards.cli.app import (
    CatalogDir,
    JsonOption,
    app,
    check_lang,
    echo_json,
    fail,
    reports_errors,
)

if TYPE_CHECKING:  # each command imports the library it uses when it runs
    from mhp_cards.referee import Action, Ruling

referee_app = typer.Typer(help="Rulings at the table, each citing its rule.", no_args_is_help=True)
app.add_typer(referee_app, name="referee")


def _known_lang(lang: str) -> str:
    check_lang(lang)
    return lang


Lang = Annotated[
    str,
    typer.Option("--lang", help="Language of the reason: en or ru.", callback=_known_lang),
]


def ruling_text(ruling: Ruling, lang: str) -> str:
    """A ruling for people: verdict, reason, the rules quoted, the facts."""
    reason = ruling.reason_ru if lang == "ru" else ruling.reason_en
    lines = [f"{ruling.verdict.upper()}: {reason}", f"rules: {', '.join(ruling.rules)}"]
    lines += [f"  {quote}" for quote in ruling.quotes(lang)]
    if ruling.house_rules:
        lines.append(f"house rules in force: {', '.join(ruling.house_rules)}")
    return "\n".join(lines)


def read_action(text: str) -> Action:
    """An action from its text form, or from JSON when it starts with '{'."""
    from mhp_cards.referee.actions import parse_action, parse_action_json

    return parse_action_json(text) if text.lstrip().startswith("{") else parse_action(text)


@referee_app.command("mission")
@reports_errors
def mission(
    mission_id: Annotated[
        str | None, typer.Option("--mission", help="Mission ID, e.g. M1 (with --state: optional).")
    ] = None,
    cards: Annotated[
        str | None,
        typer.Option("--cards", help="Level 1: raw cards held, formulas or IDs, comma-separated."),
    ] = None,
    state_file: Annotated[
        Path | None,
        typer.Option("--state", help="Levels 2 and 3: the game state whose Mission card to read."),
    ] = None,
    house_rule: Annotated[
        list[str] | None,
        typer.Option("--house-rule", help="whole-hand or at-least (default: exact-subset)."),
    ] = None,
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
    lang: Lang = "en",
) -> None:
    """Is a mission complete? Level 1: with these raw cards (L1.E1); levels 2/3: on the card.

    Example: mhp referee mission --mission M1 --cards "CO2, H2O, H2O, CO2, H2O, H2O"
    """
    from mhp_cards.game.statefile import read_game
    from mhp_cards.referee import decide_mission, mission_status
    from mhp_cards.referee.cards import read_cards
    from mhp_cards.validate import load_catalog

    unknown = [
        rule for rule in house_rule or () if rule not in ("whole-hand", "at-least", "exact-subset")
    ]
    if unknown:
        fail(
            f"unknown house rule {unknown[0]!r}; for a mission: whole-hand, at-least "
            "(default exact-subset)",
            2,
        )
    catalog = load_catalog(catalog_dir)
    notes: list[str] = []
    if state_file is not None:
        ruling = mission_status(read_game(state_file, catalog), mission_id)
    else:
        if mission_id is None or cards is None:
            fail("give --mission and --cards (level 1), or --state (levels 2 and 3)", 2)
        try:
            chosen = catalog.mission(mission_id)
        except KeyError:
            fail(
                f"no mission {mission_id!r}; the card has "
                f"{', '.join(m.id for m in catalog.missions)}"
            )
        hand, notes = read_cards(catalog, cards)
        ruling = decide_mission(catalog, chosen, hand, house_rule or ())
    if as_json:
        document: dict[str, Any] = ruling.to_json()
        document["notes"] = notes
        echo_json(document)
    else:
        for note in notes:
            typer.echo(f"note: {note}")
        typer.echo(ruling_text(ruling, lang))
    if ruling.verdict != "complete":
        raise typer.Exit(1)


@referee_app.command("check")
@reports_errors
def check(
    state_file: Annotated[Path, typer.Argument(help="The game state (JSON).")],
    action: Annotated[str, typer.Argument(help="The action, e.g. 'move 3,4' or JSON.")],
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
    lang: Lang = "en",
) -> None:
    """May the player do this? The ruling with its rules; exit 1 when forbidden.

    Example: mhp referee check game.json "buy solar-battery"
    """
    from mhp_cards.game.statefile import read_game
    from mhp_cards.referee import judge
    from mhp_cards.validate import load_catalog

    catalog = load_catalog(catalog_dir)
    state = read_game(state_file, catalog)
    outcome = judge(state, read_action(action), catalog)
    if as_json:
        echo_json(outcome.ruling.to_json())
    else:
        typer.echo(ruling_text(outcome.ruling, lang))
    if outcome.state is None:
        raise typer.Exit(1)


@referee_app.command("apply")
@reports_errors
def apply_command(
    state_file: Annotated[Path, typer.Argument(help="The game state (JSON); it is not changed.")],
    action: Annotated[str, typer.Argument(help="The action, e.g. 'end' or JSON.")],
    out: Annotated[Path | None, typer.Option("--out", help="Write the new state here.")] = None,
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
    lang: Lang = "en",
) -> None:
    """Apply an action: the ruling, the events, and the new state (with --out).

    Example: mhp referee apply game.json "move 4,3" --out game2.json
    """
    from mhp_cards.fileio import write_text_atomic
    from mhp_cards.game.statefile import read_game
    from mhp_cards.referee import judge
    from mhp_cards.validate import load_catalog

    catalog = load_catalog(catalog_dir)
    state = read_game(state_file, catalog)
    outcome = judge(state, read_action(action), catalog)
    if outcome.state is not None and out is not None:
        write_text_atomic(out, outcome.state.to_json() + "\n")
    if as_json:
        echo_json(
            {
                "ruling": outcome.ruling.to_json(),
                "events": [event.to_json() for event in outcome.events],
                "state": json.loads(outcome.state.to_json()) if outcome.state else None,
            }
        )
    else:
        typer.echo(ruling_text(outcome.ruling, lang))
        for event in outcome.events:
            typer.echo(f"  • {event.ru if lang == 'ru' else event.en}")
        if out is not None and outcome.state is not None:
            typer.echo(f"wrote {out}")
    if outcome.state is None:
        raise typer.Exit(1)


@referee_app.command("score")
@reports_errors
def score_command(
    state_file: Annotated[Path, typer.Argument(help="The game state (JSON).")],
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
    lang: Lang = "en",
) -> None:
    """The score, line by line, with the rules, and the winner.

    Example: mhp referee score game.json
    """
    from mhp_cards.game.statefile import read_game
    from mhp_cards.referee import score
    from mhp_cards.validate import load_catalog

    catalog = load_catalog(catalog_dir)
    state = read_game(state_file, catalog)
    result = score(state, catalog)
    if as_json:
        echo_json(result.ruling.to_json())
        return
    for line in result.lines:
        typer.echo(f"  {line.player:<7} {line.value:>4}  {line.what}  [{line.rule}]")
    typer.echo(ruling_text(result.ruling, lang))


@referee_app.command("legal")
@reports_errors
def legal(
    state_file: Annotated[Path, typer.Argument(help="The game state (JSON).")],
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
) -> None:
    """List what the current player may do now (trades aside: they need a partner).

    Example: mhp referee legal game.json
    """
    from mhp_cards.game.statefile import read_game
    from mhp_cards.referee import format_action, legal_actions
    from mhp_cards.validate import load_catalog

    catalog = load_catalog(catalog_dir)
    state = read_game(state_file, catalog)
    actions = legal_actions(state, catalog)
    if as_json:
        echo_json(
            [
                {"text": format_action(action), **action.model_dump(mode="json", exclude_none=True)}
                for action in actions
            ]
        )
        return
    typer.echo(f"{state.current.id} may:")
    for action in actions:
        typer.echo(f"  {format_action(action)}")
