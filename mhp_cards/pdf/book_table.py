"""The rulebook's picture of the table: a real deal, as each level's setup leaves it.

The field with its raw cards and combines, or the three piles, and who holds which
installation, drawn from the deal of :data:`SETUP_SEED` for :data:`SETUP_PLAYERS` players
(two head to head).
"""

from __future__ import annotations

from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.dealer import deal
from mhp_cards.game.state import GameState
from mhp_cards.pdf import raw_face
from mhp_cards.pdf.book_setup import ru_raw_cards
from mhp_cards.pdf.book_texts import tr
from mhp_cards.pdf.bookflow import CAPTION_SIZE, Book
from mhp_cards.pdf.diagrams import DrawFace, field_extent
from mhp_cards.pdf.layout import SheetProfile
from mhp_cards.pdf.pictures import draw_field_state, draw_hand
from mhp_cards.pdf.typeset import Run, text_runs
from mhp_cards.rules.numbers import Lang, Level

__all__ = ["SETUP_PLAYERS", "SETUP_SEED", "dealt", "holders", "pile_caption", "setup_picture"]

#: The deal every setup picture shows: the first seed, three players.
SETUP_SEED: Final = 1
SETUP_PLAYERS: Final = 3


def dealt(catalog: Catalog, level: Level) -> GameState:
    """The deal a level's setup picture shows (two players head to head)."""
    players = 2 if level == "1v1" else SETUP_PLAYERS
    return deal(catalog, level, players=players, seed=SETUP_SEED)


def setup_picture(
    book: Book, catalog: Catalog, profile: SheetProfile, level: Level, draw_face: DrawFace
) -> None:
    """The table of a real deal.

    The field with its raw cards and combines, or the piles and who holds which installation.
    """
    lang = book.lang
    state = dealt(catalog, level)
    book.heading(tr("setup_picture", lang), size=10.5)
    if state.field is not None:
        cells = len(state.field.cells)
        columns, rows = field_extent(cells)
        height = min(80.0, book.column_width / max(columns, 1) * rows + 2)

        def field_picture(x: float, y: float, width: float) -> None:
            draw_field_state(book.sketch, catalog, profile, state, x, y, width, height, draw_face)

        book.block(height, field_picture)
        caption = tr(
            "fig_deal_field",
            lang,
            players=len(state.players),
            cells=cells,
            warehouse=ru_raw_cards(len(state.warehouse)) if lang == "ru" else len(state.warehouse),
        )
        book.paragraph(text_runs(caption), size=CAPTION_SIZE, after=1.5)
    if state.piles:
        tops = [pile[-1] for pile in state.piles if pile]

        def piles(x: float, y: float, width: float) -> None:
            if level == "1v1":
                card = profile.card_sizes["raw"].width
                size = min(20.0, width / 4)
                for k in range(len(state.piles)):
                    with book.sketch.at(x + k * (size + 3), y, size / card):
                        draw_face(raw_face.raw_back, book.sketch, "raw-back", "raw")
            else:
                draw_hand(book.sketch, catalog, profile, tops, x, y, width * 0.75, draw_face, 20)

        book.block(21, piles)
        book.paragraph(text_runs(pile_caption(state, lang)), size=CAPTION_SIZE, after=1)
    if state.installations:
        for line in holders(catalog, state, lang):
            book.paragraph(line, size=CAPTION_SIZE, indent=4, after=0.3)
        book.space(1.5)


def pile_caption(state: GameState, lang: Lang) -> str:
    """The caption under the three piles: how many cards, face up or down."""
    sizes = ", ".join(str(len(pile)) for pile in state.piles)
    if state.level == "1v1":
        return (
            f"Три стопки сырья рубашкой вверх ({sizes} карточек)."
            if lang == "ru"
            else f"Three raw piles, face down ({sizes} cards)."
        )
    return (
        f"Три стопки сырья лицом вверх ({sizes} карточек): видны верхние карточки."
        if lang == "ru"
        else f"Three raw piles, face up ({sizes} cards): their top cards show."
    )


def holders(catalog: Catalog, state: GameState, lang: Lang) -> list[list[Run]]:
    """Who holds which installation in a deal, one line a player, then the shared ones."""
    names = {c.id: c.name.get(lang) for c in catalog.components.colours}
    lines: list[list[Run]] = []
    for player in state.players:
        owned = [i for i in state.installations if i.owner == player.id]
        parts = ", ".join(
            f"{i.number} «{catalog.installation(i.number).name.get(lang)}»" for i in owned
        )
        who = names.get(player.id, player.id)
        label = f"{who[:1].upper()}{who[1:]}: "
        lines.append(
            [
                Run(label, bold=True),
                *text_runs(
                    (
                        ("установка" if len(owned) == 1 else "установки")
                        if lang == "ru"
                        else ("installation" if len(owned) == 1 else "installations")
                    )
                    + f" {parts}"
                    + (
                        f"; {player.money} мР, {player.tokens} фишек"
                        if lang == "ru"
                        else f"; {player.money} mR, {player.tokens} tokens"
                    )
                ),
            ]
        )
    shared = [i.number for i in state.installations if i.owner is None]
    if shared:
        where = (" — на базе" if lang == "ru" else " — at the Base") if state.level == "3" else ""
        text = ", ".join(map(str, shared))
        lines.append(
            text_runs(
                f"Общие установки: {text}{where}." if lang == "ru" else f"Shared: {text}{where}."
            )
        )
    return lines
