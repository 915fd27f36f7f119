"""``mhp build``: the print-and-play kit."""

import signal
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from mhp_cards.cli.app import app, check_lang, echo_json, fail, reports_errors

if TYPE_CHECKING:  # each command imports the library it uses when it runs
    from mhp_cards.catalog.models import Catalog
    from mhp_cards.pdf.kit import KitResult
    from mhp_cards.pdf.pack_cards import PackSource
    from mhp_cards.pdf.rebuild import KitRebuilder

#: The kit's sections for the help text, without importing the kit (reportlab) to print it;
#: a test checks that they are ``mhp_cards.pdf.SECTIONS``.
SECTION_NAMES = (
    "cover, rules, calibration, cutting, raw, fate, field, reactors, mission, tokens, aids, guides"
)


@app.command()
@reports_errors
def build(
    layout: Annotated[
        str,
        typer.Option(
            "--layout",
            help="Sheet profile: a4, letter, print-shop, print-shop-a3, or a YAML file.",
        ),
    ] = "a4",
    lang: Annotated[str, typer.Option("--lang", help="Language of the cards: ru or en.")] = "ru",
    only: Annotated[
        str | None,
        typer.Option("--only", help=f"Comma-separated sections: {SECTION_NAMES}."),
    ] = None,
    cards: Annotated[
        str | None,
        typer.Option(
            "--cards",
            help="Only these cards, comma-separated IDs (water-ice,4А,fate-3); ID*N for N copies. "
            "Writes mhp-cards.pdf.",
        ),
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="Output directory.")] = Path("output"),
    catalog_dir: Annotated[
        Path | None,
        typer.Option("--catalog", help="Catalog directory (default: the shipped game)."),
    ] = None,
    color: Annotated[
        str,
        typer.Option(
            "--color",
            help="Colours in the PDF: rgb (screens, home printers) or cmyk (a print shop that "
            "asks for CMYK).",
        ),
    ] = "rgb",
    back_offset: Annotated[
        str | None,
        typer.Option(
            "--back-offset",
            help="The calibration sheet's reading X,Y in mm (plus: right and down as you look "
            "at the back): every back moves by it. Replaces the profile's duplex offset.",
        ),
    ] = None,
    ink: Annotated[
        str,
        typer.Option(
            "--ink",
            help="full, or save: light backs and no floods (about a third of the ink).",
        ),
    ] = "full",
    pdfx: Annotated[
        bool,
        typer.Option(
            "--pdfx",
            help="PDF/X-4 in CMYK with an output intent, for a print shop (needs a CMYK ICC "
            "profile: --icc, else Debian's Ghostscript default_cmyk.icc).",
        ),
    ] = False,
    icc: Annotated[
        Path | None,
        typer.Option("--icc", help="The print shop's CMYK ICC profile for --pdfx."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print what was written as JSON.")
    ] = False,
    strict_art: Annotated[
        bool,
        typer.Option(
            "--strict-art",
            help="A card whose picture file is missing is an error (exit 1), not a placeholder.",
        ),
    ] = False,
    watch: Annotated[
        bool,
        typer.Option(
            "--watch",
            help="Build, then rebuild on every save of the catalog (or the layout): the "
            "changed card sections first, then the rulebook and the combined kit; an invalid "
            "catalog keeps the last good PDFs (needs mhp-cards[watch]).",
        ),
    ] = False,
) -> None:
    """Print the kit: one combined PDF plus one PDF per section, written atomically.

    Example: mhp build --layout letter --lang en --only raw,reactors

    For a print shop: mhp build --layout print-shop --color cmyk (or --pdfx --icc shop.icc)

    The rulebook alone (mhp-rules.pdf): mhp build --only rules

    After the calibration sheet: mhp build --back-offset 1.5,-0.5 (and --ink save for
    a home printer's cartridges)

    With --cards, only the named cards and their backs (one copy each, ID*N for N):
    mhp build --cards water-ice,4А
    """
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn

    from mhp_cards.decks import is_deck_pack
    from mhp_cards.errors import KitError, LayoutError
    from mhp_cards.pdf import SECTIONS, build_kit
    from mhp_cards.validate import load_catalog

    check_lang(lang)
    if color not in ("rgb", "cmyk"):
        fail(f"--color must be rgb or cmyk, not {color!r}", 2)
    colour: Literal["rgb", "cmyk"] = "cmyk" if color == "cmyk" else "rgb"
    if ink not in ("full", "save"):
        fail(f"--ink must be full or save, not {ink!r}", 2)
    inks: Literal["full", "save"] = "save" if ink == "save" else "full"
    offset = _offset(back_offset) if back_offset is not None else None
    if watch:
        if cards is not None or only or pdfx or as_json:
            fail("--watch rebuilds the whole kit: it takes no --cards, --only, --pdfx or --json", 2)
        _watch(catalog_dir, layout, lang, out, colour, offset, inks)
        return
    if is_deck_pack(catalog_dir):
        assert catalog_dir is not None
        _build_pack(
            catalog_dir,
            layout,
            lang,
            only,
            cards,
            pdfx,
            out,
            colour,
            offset,
            inks,
            as_json,
            strict_art,
        )
        return
    if cards is not None:
        if only:
            fail("--cards and --only exclude each other", 2)
        _build_cards(cards, layout, lang, out, catalog_dir, as_json, colour, offset)
        return
    sections = None
    if only:
        sections = [name.strip() for name in only.split(",") if name.strip()]
        unknown = [name for name in sections if name not in SECTIONS]
        if unknown and catalog_dir is None:
            fail(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}", 2)
    catalog = load_catalog(catalog_dir)
    extra = game_decks_of(catalog_dir, catalog)
    art_root = catalog_dir or _default_catalog_dir()
    _report_art(art_root, catalog, strict_art)
    if sections is not None:
        known = [*SECTIONS, *(deck.id for deck in (extra.pack.decks if extra else ()))]
        unknown = [name for name in sections if name not in known]
        if unknown:
            fail(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(known)}", 2)
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
            result = build_kit(
                catalog,
                layout,
                lang,
                sections,
                out,
                advance,
                colour,
                offset,
                inks,
                pdfx,
                icc,
                extra,
                art_root,
            )
        except (KitError, LayoutError) as error:
            fail(str(error))
    if as_json:
        echo_json(_written(result))
        return
    _say_written(result)
    if result.manifest is not None:
        typer.echo(f"wrote {result.manifest} (where every piece is in mhp-kit.pdf)")
    if result.pieces:
        typer.echo(f"{result.pieces} cards and tokens; print at 100 %, double-sided (long edge)")
    else:
        typer.echo("nothing to cut; print at 100 %, double-sided (long edge), on plain paper")


def _default_catalog_dir() -> Path:
    from mhp_cards.resources import default_catalog_dir

    return default_catalog_dir()


def _report_art(root: Path, catalog: "Catalog", strict: bool) -> None:
    """Say which of the catalog's pictures are missing (an error with --strict-art) or broken."""
    from mhp_cards.catalog.art import art_issues

    issues = art_issues(root, catalog)
    errors = [i for i in issues if i.severity == "error" or (strict and i.check == "art-missing")]
    if errors:
        fail("\n".join(str(issue) for issue in errors))
    for issue in issues:
        typer.echo(str(issue), err=True)


def game_decks_of(catalog_dir: Path | None, catalog: "Catalog") -> "PackSource | None":
    """The decks the game catalog declares beside its game (``decks.yaml``), or None.

    Exit 1 with every located problem when they are invalid.
    """
    from mhp_cards.decks import DECKS_FILE
    from mhp_cards.resources import default_catalog_dir

    directory = catalog_dir or default_catalog_dir()
    if not (directory / DECKS_FILE).is_file():
        return None
    from mhp_cards.decks.load import game_decks
    from mhp_cards.pdf.kit import SECTIONS
    from mhp_cards.pdf.pack_cards import PackSource

    checked = game_decks(directory, catalog.components.fate_cards.count, SECTIONS)
    if checked.pack is None:
        errors = [issue for issue in checked.issues if issue.severity == "error"]
        fail("\n".join(str(issue) for issue in errors))
    assert checked.pack is not None
    return PackSource(checked.pack, directory)


def _written(result: "KitResult") -> dict[str, object]:
    """What a build wrote, as ``--json`` prints it."""
    return {
        "pieces": result.pieces,
        "files": [
            {"path": str(f.path), "section": f.section, "pages": f.pages} for f in result.files
        ],
        "manifest": str(result.manifest) if result.manifest else None,
    }


def _say_written(result: "KitResult") -> None:
    """Each file a build wrote, with its pages."""
    for kit_file in result.files:
        noun = "page" if kit_file.pages == 1 else "pages"
        typer.echo(f"wrote {kit_file.path} ({kit_file.pages} {noun})")


def _watch(
    catalog_dir: Path | None,
    layout: str,
    lang: str,
    out: Path,
    colour: Literal["rgb", "cmyk"],
    offset: tuple[float, float] | None,
    ink: Literal["full", "save"],
) -> None:
    """``mhp build --watch``: build, then rebuild on every save until Ctrl+C."""
    try:
        from watchfiles import watch
    except ImportError:
        fail("mhp build --watch needs watchfiles: pip install 'mhp-cards[watch]'")
    from mhp_cards.pdf.rebuild import KitRebuilder

    rebuilder = KitRebuilder(catalog_dir, layout, lang, out, colour, offset, ink)
    output = out.resolve()

    def relevant(_change: object, path: str) -> bool:
        # The kit's own files and editors' swap files do not call for a rebuild.
        target = Path(path).resolve()
        return output not in target.parents and not target.name.startswith((".", "~"))

    # Ctrl+C (and a service manager's SIGTERM) stops the watch, even when the shell that
    # started it ignores SIGINT (a job in the background does).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    _report_rebuild(rebuilder)
    watched = rebuilder.watched
    ready = False
    try:
        # An empty batch at each timeout: the first one says the watcher is running, so an
        # edit from then on is seen.
        for changes in watch(
            *watched,
            watch_filter=relevant,
            debounce=50,
            step=20,
            rust_timeout=500,
            yield_on_timeout=True,
        ):
            if not changes:
                if not ready:
                    ready = True
                    typer.echo(f"watching {', '.join(map(str, watched))} (Ctrl+C to stop)")
                continue
            names = sorted({Path(path).name for _, path in changes})
            typer.echo(f"changed: {', '.join(names)}")
            _report_rebuild(rebuilder)
    except KeyboardInterrupt:
        pass


def _report_rebuild(rebuilder: "KitRebuilder") -> None:
    """One rebuild, each step reported as it ends."""
    for step in rebuilder.rebuild():
        if step.issues:
            typer.echo("the catalog has errors; the last good PDFs are kept:")
            for issue in step.issues:
                typer.echo(f"  {issue}")
        elif step.problems:
            typer.echo(f"the kit cannot be laid out; the last good PDFs are kept:\n{step.problems}")
        elif step.written:
            what = ", ".join(step.sections) if step.sections else "the combined kit"
            typer.echo(f"rebuilt {what} in {step.seconds:.2f} s")
            for path in step.written:
                typer.echo(f"  wrote {path}")
        else:
            typer.echo(f"{step.step}: unchanged ({step.seconds:.2f} s)")


def _build_pack(
    directory: Path,
    layout: str,
    lang: str,
    only: str | None,
    cards: str | None,
    pdfx: bool,
    out: Path,
    colour: Literal["rgb", "cmyk"],
    offset: tuple[float, float] | None,
    ink: Literal["full", "save"],
    as_json: bool,
    strict_art: bool,
) -> None:
    """``mhp build`` of a deck pack: one section per deck (``--only`` names decks)."""
    from mhp_cards.decks.load import load_pack, validate_pack
    from mhp_cards.errors import KitError, LayoutError
    from mhp_cards.pdf.kit import build_deck_kit

    if cards is not None or pdfx:
        fail("--cards and --pdfx are for the game's own catalog, not a deck pack", 2)
    missing = [issue for issue in validate_pack(directory).issues if issue.check == "art-missing"]
    if missing and strict_art:
        lines = "\n".join(f"  {issue}" for issue in missing)
        fail(f"{len(missing)} picture(s) missing (--strict-art):\n{lines}")
    for issue in missing:
        typer.echo(str(issue), err=True)
    pack = load_pack(directory)
    decks = None
    if only:
        decks = [name.strip() for name in only.split(",") if name.strip()]
        known = [deck.id for deck in pack.decks]
        unknown = [name for name in decks if name not in known]
        if unknown:
            fail(f"unknown deck(s) {', '.join(unknown)}; choose from {', '.join(known)}", 2)
    try:
        result = build_deck_kit(pack, layout, lang, decks, out, colour, offset, ink, directory)
    except (KitError, LayoutError) as error:
        fail(str(error))
    if as_json:
        echo_json(_written(result))
        return
    _say_written(result)
    typer.echo(f"{result.pieces} cards; print at 100 %, double-sided (long edge)")


def _build_cards(
    cards: str,
    layout: str,
    lang: str,
    out: Path,
    catalog_dir: Path | None,
    as_json: bool,
    colour: Literal["rgb", "cmyk"],
    offset: tuple[float, float] | None,
) -> None:
    from mhp_cards.pdf.selection import build_cards
    from mhp_cards.validate import load_catalog

    catalog = load_catalog(catalog_dir)
    result, chosen = build_cards(catalog, cards, layout, lang, out, colour, offset)
    written = result.files[0]
    if as_json:
        echo_json(
            {
                "pieces": result.pieces,
                "cards": [{"id": pick.design.id, "copies": pick.copies} for pick in chosen],
                "files": [{"path": str(written.path), "section": "cards", "pages": written.pages}],
            }
        )
        return
    noun = "page" if written.pages == 1 else "pages"
    typer.echo(f"wrote {written.path} ({written.pages} {noun})")
    listed = ", ".join(f"{pick.design.id} ×{pick.copies}" for pick in chosen)
    typer.echo(f"{result.pieces} cards ({listed}); print at 100 %, double-sided (long edge)")


def _offset(text: str) -> tuple[float, float]:
    """``X,Y`` in mm, as the calibration sheet reads them (a true minus sign is accepted)."""
    parts = [part.strip().replace("−", "-") for part in text.split(",")]
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(part) for part in parts)
    except ValueError:
        fail(
            f"--back-offset {text!r}: give the two readings of the calibration sheet in mm, "
            "X,Y (for example 1.5,-0.5)",
            2,
        )
    if abs(x) > 20 or abs(y) > 20:
        fail(f"--back-offset {text!r}: the calibration rulers read from -20 to +20 mm", 2)
    return x, y
