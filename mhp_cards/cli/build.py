"""``mhp build``: the print-and-play kit."""

from pathlib import Path
from typing import Annotated

import typer

from mhp_cards.cli.app import app, echo_json, fail, reports_errors

#: The kit's sections for the help text, without importing the kit (reportlab) to print it;
#: a test checks that they are ``mhp_cards.pdf.SECTIONS``.
SECTION_NAMES = "cover, calibration, raw, fate, field, reactors, mission, tokens, aids, guides"


@app.command()
@reports_errors
def build(
    layout: Annotated[
        str, typer.Option("--layout", help="Sheet profile: a4, letter, print-shop, or a YAML file.")
    ] = "a4",
    lang: Annotated[str, typer.Option("--lang", help="Language of the cards: ru or en.")] = "ru",
    only: Annotated[
        str | None,
        typer.Option("--only", help=f"Comma-separated sections: {SECTION_NAMES}."),
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="Output directory.")] = Path("output"),
    catalog_dir: Annotated[
        Path | None,
        typer.Option("--catalog", help="Catalog directory (default: the shipped game)."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print what was written as JSON.")
    ] = False,
) -> None:
    """Print the kit: one combined PDF plus one PDF per section, written atomically.

    Example: mhp build --layout letter --lang en --only raw,reactors
    """
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn

    from mhp_cards.errors import KitError, LayoutError
    from mhp_cards.pdf import SECTIONS, build_kit
    from mhp_cards.validate import load_catalog

    if lang not in ("ru", "en"):
        fail(f"--lang must be ru or en, not {lang!r}", 2)
    sections = None
    if only:
        sections = [name.strip() for name in only.split(",") if name.strip()]
        unknown = [name for name in sections if name not in SECTIONS]
        if unknown:
            fail(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}", 2)
    catalog = load_catalog(catalog_dir)
    console = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        console=console,
        transient=True,
        disable=as_json,
    ) as progress:
        task = progress.add_task("laying out", total=len(sections or SECTIONS))

        def advance(name: str, done: int, total: int) -> None:
            progress.update(task, description=f"laid out {name}", completed=done, total=total)

        try:
            result = build_kit(catalog, layout, lang, sections, out, advance)
        except (KitError, LayoutError) as error:
            fail(str(error))
    if as_json:
        echo_json(
            {
                "pieces": result.pieces,
                "files": [
                    {"path": str(f.path), "section": f.section, "pages": f.pages}
                    for f in result.files
                ],
            }
        )
        return
    for kit_file in result.files:
        noun = "page" if kit_file.pages == 1 else "pages"
        typer.echo(f"wrote {kit_file.path} ({kit_file.pages} {noun})")
    typer.echo(f"{result.pieces} cards and tokens; print at 100 %, double-sided (long edge)")
