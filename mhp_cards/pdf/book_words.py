"""How the rulebook's worked examples speak: players by colour, cards and formulas in words.

The context an example is set in (:class:`ExampleContext`), and the pieces of text every
example uses: a player by their colour, a raw card by its name and formula, a list of
substances, the example's heading and a paragraph of it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mhp_cards.catalog.models import Catalog
from mhp_cards.pdf.book_texts import EXAMPLE_TITLES, tr
from mhp_cards.pdf.bookflow import CAPTION_SIZE, Book
from mhp_cards.pdf.diagrams import DrawFace
from mhp_cards.pdf.examples import Example
from mhp_cards.pdf.layout import SheetProfile
from mhp_cards.pdf.style import MUTED
from mhp_cards.pdf.typeset import Run, formula_runs, text_runs
from mhp_cards.rules.numbers import Lang

__all__ = [
    "ExampleContext",
    "card_runs",
    "cards_runs",
    "example_heading",
    "formula_list_runs",
    "player_name",
    "player_whose",
    "ru_genitive_adjective",
    "say",
]


@dataclass(frozen=True, slots=True)
class ExampleContext:
    """What an example needs to be set: the book, the catalog, the sheet, the face drawer."""

    book: Book
    catalog: Catalog
    profile: SheetProfile
    draw_face: DrawFace
    lang: Lang


def _colour_name(ctx: ExampleContext, player: str) -> str:
    for colour in ctx.catalog.components.colours:
        if colour.id == player:
            return colour.name.get(ctx.lang).lower()
    return player


def player_name(ctx: ExampleContext, player: str, capital: bool = True) -> str:
    """A player by their colour: «Синий игрок», "Blue"."""
    name = _colour_name(ctx, player)
    text = f"{name} игрок" if ctx.lang == "ru" else name
    return text[:1].upper() + text[1:] if capital or ctx.lang == "en" else text


def player_whose(ctx: ExampleContext, player: str) -> str:
    """A player in the genitive: «красного игрока», "Red's"."""
    name = _colour_name(ctx, player)
    if ctx.lang != "ru":
        return name[:1].upper() + name[1:] + "'s"
    return ru_genitive_adjective(name) + " игрока"


def ru_genitive_adjective(adjective: str) -> str:
    """The genitive singular masculine of a Russian adjective: красный → красного.

    Enough for the kit's colour names (синий → синего).
    """
    for ending, genitive in (("ый", "ого"), ("ой", "ого"), ("ий", "его")):
        if adjective.endswith(ending):
            return adjective[: -len(ending)] + genitive
    return adjective


def card_runs(ctx: ExampleContext, instance: str) -> list[Run]:
    """A raw card in words: its name and its formula («сидерит FeCO₃»)."""
    raw = ctx.catalog.raw_material(instance.split("#", maxsplit=1)[0])
    return [*text_runs(raw.name.get(ctx.lang).lower() + " "), *formula_runs(raw.formula)]


def cards_runs(ctx: ExampleContext, instances: tuple[str, ...] | list[str]) -> list[Run]:
    """Raw cards in words, one after another, comma-separated."""
    runs: list[Run] = []
    for index, instance in enumerate(instances):
        if index:
            runs += text_runs(", ")
        runs += card_runs(ctx, instance)
    return runs


def formula_list_runs(substances: tuple[str, ...] | list[str], lang: Lang) -> list[Run]:
    """Substances as formulas, comma-separated, each once with its count («2 × H₂O»)."""
    runs: list[Run] = []
    counted = Counter(substances)
    for index, (substance, count) in enumerate(counted.items()):
        if index:
            runs += text_runs(", ")
        if count > 1:
            runs += text_runs(f"{count} × ")
        runs += formula_runs(substance)
    return runs


def example_heading(ctx: ExampleContext, example: Example, keep: float = 0.0) -> None:
    """An example's heading and the line saying which seeded game it comes from."""
    title = f"{tr('example', ctx.lang)}: {EXAMPLE_TITLES[example.key][ctx.lang]}"
    ctx.book.heading(title, size=10.5, keep=keep)
    players = len(example.before.players)
    ctx.book.paragraph(
        text_runs(tr("ex_from", ctx.lang, players=players, seed=example.seed), colour=MUTED),
        size=CAPTION_SIZE,
        after=0.8,
    )


def say(ctx: ExampleContext, runs: list[Run]) -> None:
    """A paragraph of an example's words."""
    ctx.book.paragraph(runs, size=9.0, after=1.2)
