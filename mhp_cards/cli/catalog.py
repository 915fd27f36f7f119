"""``mhp validate``, ``mhp schema``, ``mhp catalog export`` and ``mhp catalog figures``."""

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mhp_cards.cli.app import CatalogDir, JsonOption, app, echo_json, fail, reports_errors

if TYPE_CHECKING:  # each command imports the library it uses when it runs
    from mhp_cards.validate import Validation

catalog_app = typer.Typer(help="The catalog as data.", no_args_is_help=True)
app.add_typer(catalog_app, name="catalog")


def validation_report(validation: "Validation") -> str:
    """The human report: what was checked, then the problems grouped by file."""
    descriptions = validation.descriptions
    lines = [f"Catalog: {validation.directory}", "", "Checks:"]
    for name, status in validation.checks.items():
        mark = "✓" if status == "ok" else "–" if status.startswith("skipped") else "✗"
        lines.append(f"  {mark} {name:<18} {descriptions.get(name, '')}")
        if status != "ok":
            lines.append(f"      {status}")
    by_file: dict[str, list[str]] = defaultdict(list)
    for issue in validation.issues:
        by_file[issue.file or "<catalog>"].append(str(issue))
    for file_name, entries in by_file.items():
        lines += ["", f"{file_name}:", *(f"  {entry}" for entry in entries)]
    errors, warnings = len(validation.errors), len(validation.warnings)
    verdict = "VALID" if validation.is_valid() else "INVALID"
    lines += ["", f"{verdict}: {errors} error(s), {warnings} warning(s)"]
    return "\n".join(lines)


@app.command()
def validate(
    directory: Annotated[
        Path | None, typer.Argument(help="Catalog directory (default: the game shipped with mhp).")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Validate a catalog: every problem with file:line:column, what is wrong, what would be right.

    Example: mhp validate catalog/
    """
    from mhp_cards.decks import is_deck_pack
    from mhp_cards.validate import validate_catalog

    if is_deck_pack(directory):
        assert directory is not None
        _validate_pack(directory, as_json)
        return
    validation = validate_catalog(directory)
    validation = _with_game_decks(validation)
    if as_json:
        echo_json(
            {
                "directory": str(validation.directory),
                "valid": validation.is_valid(),
                "errors": len(validation.errors),
                "warnings": len(validation.warnings),
                "checks": validation.checks,
                "issues": [issue.to_json() for issue in validation.issues],
            }
        )
    else:
        typer.echo(validation_report(validation))
    if not validation.is_valid():
        raise typer.Exit(1)


def _with_game_decks(validation: "Validation") -> "Validation":
    """The game's validation with its pictures' and its own decks' (``decks.yaml``), if any."""
    import dataclasses

    from mhp_cards.cli.build import SECTION_NAMES
    from mhp_cards.decks import DECKS_FILE

    catalog = validation.catalog
    if catalog is None:
        return validation
    from mhp_cards.catalog.art import art_issues

    # The pictures are checked apart from the cached validation: a file saved again is seen.
    pictures = art_issues(validation.directory, catalog)
    if pictures:
        status = "ok" if not any(i.severity == "error" for i in pictures) else "errors"
        validation = dataclasses.replace(
            validation,
            issues=(*validation.issues, *pictures),
            checks={**validation.checks, "art": status},
        )
    if not (validation.directory / DECKS_FILE).is_file():
        return validation
    from mhp_cards.decks.load import game_decks

    sections = [name.strip() for name in SECTION_NAMES.split(",")]
    count = catalog.components.fate_cards.count
    decks = game_decks(validation.directory, count, sections)
    checks = {**validation.checks, "decks": "ok" if decks.is_valid() else "errors"}
    return dataclasses.replace(
        validation, issues=(*validation.issues, *decks.issues), checks=checks
    )


def _validate_pack(directory: Path, as_json: bool) -> None:
    """``mhp validate`` of a deck pack: its issues, located, and the verdict (exit 1 if invalid)."""
    from mhp_cards.decks.load import validate_pack

    validation = validate_pack(directory)
    issues = validation.issues
    errors = sum(issue.severity == "error" for issue in issues)
    if as_json:
        echo_json(
            {
                "directory": str(validation.directory),
                "kind": "deck-pack",
                "valid": validation.is_valid(),
                "errors": errors,
                "warnings": len(issues) - errors,
                "decks": [
                    {"id": deck.id, "cards": len(deck.cards), "printed": deck.printed}
                    for deck in (validation.pack.decks if validation.pack else [])
                ],
                "issues": [issue.to_json() for issue in issues],
            }
        )
    else:
        lines = [f"Deck pack: {validation.directory}"]
        if validation.pack is not None:
            lines.append("")
            for deck in validation.pack.decks:
                lines.append(
                    f"  {deck.id:<18} {len(deck.cards)} cards, {deck.printed} printed "
                    f"({deck.name.en})"
                )
        lines += ["", *(str(issue) for issue in issues)] if issues else []
        verdict = "VALID" if validation.is_valid() else "INVALID"
        lines += ["", f"{verdict}: {errors} error(s), {len(issues) - errors} warning(s)"]
        typer.echo("\n".join(lines))
    if not validation.is_valid():
        raise typer.Exit(1)


@app.command()
def schema(
    write: Annotated[
        bool, typer.Option("--write", help="Write the schema files (atomically).")
    ] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Exit with 1 when the files differ from the models.")
    ] = False,
    directory: Annotated[
        Path | None,
        typer.Option("--dir", help="Catalog schema directory (default: the catalog's)."),
    ] = None,
    layouts_directory: Annotated[
        Path | None,
        typer.Option("--layouts-dir", help="Layout schema directory (default: the layouts')."),
    ] = None,
) -> None:
    """Print, write or check the JSON Schema of the catalog, state and layout files.

    Example: mhp schema --write
    """
    from mhp_cards.catalog.schema import check_schemas, write_schemas
    from mhp_cards.decks.schema import DECKS_SCHEMA, decks_schema
    from mhp_cards.pdf.layout import layout_schemas
    from mhp_cards.resources import default_catalog_dir, default_layouts_dir
    from mhp_cards.validate.schemas import all_schemas

    targets = [
        (
            directory or default_catalog_dir() / "schema",
            {**all_schemas(), DECKS_SCHEMA: decks_schema()},
        ),
        (layouts_directory or default_layouts_dir() / "schema", layout_schemas()),
    ]
    if directory is not None and layouts_directory is None:
        targets = targets[:1]  # a catalog schema directory given alone: check or write just it
    if write:
        for target, schemas in targets:
            for path in write_schemas(target, schemas):
                typer.echo(f"wrote {path}")
        return
    if check:
        stale = [
            target / name for target, schemas in targets for name in check_schemas(target, schemas)
        ]
        for path in stale:
            typer.echo(f"stale: {path}", err=True)
        if stale:
            typer.echo("run 'mhp schema --write' to regenerate", err=True)
            raise typer.Exit(1)
        typer.echo("up to date: " + ", ".join(str(target) for target, _ in targets))
        return
    typer.echo(json.dumps({**all_schemas(), **layout_schemas()}, ensure_ascii=False, indent=2))


@catalog_app.command("export")
@reports_errors
def export(
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
    csv_dir: Annotated[
        Path | None,
        typer.Option("--csv", metavar="DIR", help="Write the four sheets as DIR/<sheet>.csv."),
    ] = None,
    xlsx_file: Annotated[
        Path | None,
        typer.Option(
            "--xlsx",
            metavar="FILE",
            help="Write the four sheets as one workbook (needs mhp-cards[sheets]).",
        ),
    ] = None,
) -> None:
    """Print the whole validated catalog as one JSON document, or write it as spreadsheets.

    Example: mhp catalog export --json > catalog.json

    Spreadsheets (raw_materials, substances, reactor_cards, missions; a row per card):
    mhp catalog export --csv sheets/ (or --xlsx catalog.xlsx)
    """
    from mhp_cards.decks import is_deck_pack
    from mhp_cards.validate import load_catalog

    if csv_dir is not None or xlsx_file is not None:
        from mhp_cards.fileio import write_bytes_atomic
        from mhp_cards.sheets import SHEETS, Sheet, export_tables, write_csv_folder, xlsx_bytes

        sheets: tuple[Sheet, ...] = SHEETS
        if is_deck_pack(catalog_dir):
            from mhp_cards.decks.load import load_pack
            from mhp_cards.decks.sheets import deck_sheets

            assert catalog_dir is not None
            sheets = deck_sheets(load_pack(catalog_dir))
        else:
            load_catalog(catalog_dir)  # a valid catalog only
        tables = export_tables(catalog_dir, sheets)
        rows = ", ".join(f"{name} {len(table.rows)}" for name, table in tables.items())
        if csv_dir is not None:
            for path in write_csv_folder(tables, csv_dir):
                typer.echo(f"wrote {path}")
        if xlsx_file is not None:
            write_bytes_atomic(xlsx_file, xlsx_bytes(tables))
            typer.echo(f"wrote {xlsx_file}")
        typer.echo(f"rows: {rows}")
        return
    catalog = load_catalog(catalog_dir)
    if as_json:
        typer.echo(json.dumps(catalog.model_dump(mode="json"), ensure_ascii=False, indent=2))
        return
    typer.echo(
        f"{len(catalog.substances)} substances, {len(catalog.raw_materials)} raw-material kinds "
        f"({catalog.raw_deck_size} cards), {len(catalog.installations)} installations "
        f"({sum(len(i.cards) for i in catalog.installations)} cards), "
        f"{len(catalog.electrolysers)} electrolysers, {len(catalog.missions)} missions; "
        "add --json for the document"
    )


@catalog_app.command("import")
@reports_errors
def import_sheets(
    catalog_dir: Annotated[
        Path,
        typer.Option("--catalog", help="The catalog directory to update (its YAML files)."),
    ],
    csv_dir: Annotated[
        Path | None,
        typer.Option("--csv", metavar="DIR", help="Read DIR/<sheet>.csv (the sheets present)."),
    ] = None,
    xlsx_file: Annotated[
        Path | None,
        typer.Option("--xlsx", metavar="FILE", help="Read the workbook's sheets."),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Say what would change; write nothing.")
    ] = False,
) -> None:
    """Bring edited sheets back into the catalog's YAML: only the rows that changed are written.

    Every problem is named at its sheet!cell (a cell that does not read, a duplicate key, a
    catalog error of the result), exit 1, and nothing is written.

    Example: mhp catalog import --csv sheets/ --catalog catalog/
    """
    from mhp_cards.decks import is_deck_pack
    from mhp_cards.fileio import write_files_atomic
    from mhp_cards.issues import Issue
    from mhp_cards.sheets import SHEETS, Sheet, import_tables, read_csv_folder, read_xlsx

    if (csv_dir is None) == (xlsx_file is None):
        fail("give one of --csv DIR or --xlsx FILE", 2)
    sheets: tuple[Sheet, ...] = SHEETS
    validate: Callable[[Path], Sequence[Issue]] | None = None
    if is_deck_pack(catalog_dir):
        from mhp_cards.decks.load import load_pack
        from mhp_cards.decks.sheets import deck_sheets, pack_errors

        sheets, validate = deck_sheets(load_pack(catalog_dir)), pack_errors
    elif not (catalog_dir / "raw_materials.yaml").is_file():
        fail(f"{catalog_dir} is not a catalog directory (no raw_materials.yaml)", 2)
    names = [sheet.name for sheet in sheets]
    source = csv_dir if csv_dir is not None else xlsx_file
    assert source is not None
    if not source.exists():
        fail(f"{source} does not exist", 2)
    tables = read_csv_folder(source, names) if csv_dir is not None else read_xlsx(source, names)
    if not tables:
        fail(f"{source} holds none of the sheets {', '.join(names)}")
    result = import_tables(tables, catalog_dir, sheets, validate)
    for issue in result.issues:
        typer.echo(str(issue), err=issue.severity == "error")
    if not result.ok:
        typer.echo(f"nothing written: {len(result.issues)} problem(s)", err=True)
        raise typer.Exit(1)
    for name, (changed, added, removed) in result.changed.items():
        typer.echo(f"{name}: {changed} changed, {added} added, {removed} removed")
    if dry_run:
        for path in result.files:
            typer.echo(f"would write {path}")
        return
    write_files_atomic(result.files)
    for path in result.files:
        typer.echo(f"wrote {path}")
    if not result.files:
        typer.echo("the catalog already says what the sheets say: nothing to write")


@catalog_app.command("figures")
@reports_errors
def figures(catalog_dir: CatalogDir = None, as_json: JsonOption = False) -> None:
    """The design figures of the game as played, computed as the referee plays it.

    Each installation's run and its value, each mission's fewest runs and level-1 solutions,
    where each raw kind serves, the production steps of each product.

    Example: mhp catalog figures > figures.md
    """
    import dataclasses

    from mhp_cards.validate import load_catalog
    from mhp_cards.validate.figures import catalog_figures, figures_markdown

    found = catalog_figures(load_catalog(catalog_dir))
    if as_json:
        echo_json({**dataclasses.asdict(found), "idle_kinds": list(found.idle_kinds)})
        return
    typer.echo(figures_markdown(found), nl=False)
