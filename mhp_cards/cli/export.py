"""``mhp export png|tts``: card images and Tabletop Simulator decks."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mhp_cards.cli.app import (
    CatalogDir,
    JsonOption,
    app,
    check_lang,
    echo_json,
    reports_errors,
)

if TYPE_CHECKING:  # each command imports the library it uses when it runs
    from mhp_cards.catalog.models import Catalog
    from mhp_cards.pdf.pack_cards import PackSource

export_app = typer.Typer(
    help="Export the cards as images: one PNG per face, or Tabletop Simulator decks.",
    no_args_is_help=True,
)
app.add_typer(export_app, name="export")

Layout = Annotated[
    str, typer.Option("--layout", help="Sheet profile giving card sizes and templates.")
]
Lang = Annotated[str, typer.Option("--lang", help="Language of the cards: ru or en.")]


@export_app.command("png")
@reports_errors
def png(
    out: Annotated[Path, typer.Option("--out", help="Output directory.")] = Path("output/png"),
    dpi: Annotated[float, typer.Option("--dpi", help="Resolution in pixels per inch.")] = 300,
    lang: Lang = "ru",
    bleed: Annotated[
        bool, typer.Option("--bleed", help="Add the profile's bleed (3 mm if it has none).")
    ] = False,
    layout: Layout = "a4",
    cards: Annotated[
        str | None,
        typer.Option("--cards", help="Only these cards, comma-separated IDs (water-ice,4А)."),
    ] = None,
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
) -> None:
    """One PNG per distinct card face, front and back, and an index cards.json.

    Example: mhp export png --out png --dpi 300 --bleed
    """
    check_lang(lang)
    from mhp_cards.pdf.export_png import export_png

    result = export_png(
        _source(catalog_dir),
        out,
        dpi=dpi,
        lang=lang,
        bleed=bleed,
        layout=layout,
        cards=cards,
        root=_root(catalog_dir),
    )
    if as_json:
        echo_json(
            {
                "index": str(result.index),
                "images": len(result.faces),
                "designs": result.designs,
                "cards": result.cards,
            }
        )
        return
    typer.echo(
        f"wrote {len(result.faces)} images of {result.designs} cards ({result.cards} with copies) "
        f"to {out}; index {result.index}"
    )


@export_app.command("tts")
@reports_errors
def tts(
    out: Annotated[Path, typer.Option("--out", help="Output directory.")] = Path("output/tts"),
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url", help="Where the images will be hosted (default: file:// URLs of --out)."
        ),
    ] = None,
    dpi: Annotated[
        float, typer.Option("--dpi", help="Resolution of the sheets (less if over 4096 px).")
    ] = 200,
    lang: Lang = "ru",
    layout: Layout = "a4",
    catalog_dir: CatalogDir = None,
    as_json: JsonOption = False,
) -> None:
    """Tabletop Simulator decks: deck sheets, backs and the saved object mhp-tts.json.

    Copy mhp-tts.json (and mhp-tts.png) to Documents/My Games/Tabletop Simulator/Saves/Saved
    Objects/, then in TTS: Objects → Saved Objects → МАРСХИМПРОМ.

    Example: mhp export tts --out tts --base-url https://example.org/mhp/
    """
    check_lang(lang)
    from mhp_cards.pdf.export_tts import export_tts

    result = export_tts(
        _source(catalog_dir),
        out,
        base_url=base_url,
        dpi=dpi,
        lang=lang,
        layout=layout,
        root=_root(catalog_dir),
    )
    if as_json:
        echo_json(
            {
                "saved_object": str(result.saved_object),
                "decks": [
                    {
                        "deck": deck.deck,
                        "cards": deck.cards,
                        "sheets": [str(sheet) for sheet in deck.sheets],
                        "back": str(deck.back),
                    }
                    for deck in result.decks
                ],
            }
        )
        return
    for deck in result.decks:
        sheets = ", ".join(sheet.name for sheet in deck.sheets)
        noun = "card" if deck.cards == 1 else "cards"
        typer.echo(f"{deck.deck}: {deck.cards} {noun} on {sheets}, back {deck.back.name}")
    typer.echo(
        f"wrote {result.saved_object}; copy it to Documents/My Games/Tabletop Simulator/Saves/"
        "Saved Objects/ and load it from Objects → Saved Objects"
    )


def _source(catalog_dir: Path | None) -> "Catalog | PackSource":
    """The validated game catalog, or the deck pack, in ``catalog_dir``."""
    from mhp_cards.decks import is_deck_pack

    if is_deck_pack(catalog_dir):
        from mhp_cards.decks.load import load_pack
        from mhp_cards.pdf.pack_cards import PackSource

        assert catalog_dir is not None
        return PackSource(load_pack(catalog_dir), catalog_dir)
    from mhp_cards.validate import load_catalog

    return load_catalog(catalog_dir)


def _root(catalog_dir: Path | None) -> Path:
    """The catalog's directory, which its cards' pictures are relative to."""
    from mhp_cards.resources import default_catalog_dir

    return catalog_dir or default_catalog_dir()
