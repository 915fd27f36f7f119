"""``mhp build --cards``: a PDF of just some cards, to replace a lost or worn one.

The cards are imposed as in the kit — on the profile's sheets, each front page followed by the
mirrored page of its backs — so they print double-sided like the kit and match its cards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.fileio import write_bytes_atomic
from mhp_cards.pdf.cards import Selected, card_designs, select_cards
from mhp_cards.pdf.kit import Item, KitFile, KitResult, plan_cards, with_back_offset
from mhp_cards.pdf.layout import load_profile, load_templates
from mhp_cards.pdf.render import ColourMode, render_pdf

__all__ = ["CARDS_PDF", "build_cards"]

CARDS_PDF: Final = "mhp-cards.pdf"


def build_cards(
    catalog: Catalog,
    cards: str,
    layout: str = "a4",
    lang: str = "ru",
    out_dir: Path = Path("output"),
    colour: ColourMode = "rgb",
    back_offset: tuple[float, float] | None = None,
) -> tuple[KitResult, tuple[Selected, ...]]:
    """Write ``mhp-cards.pdf`` holding the cards ``cards`` names (see :func:`select_cards`).

    Each ID prints one card, ``ID*N`` prints N; raises CardSelectionError for an unknown ID
    before anything is written.
    """
    chosen = select_cards(card_designs(catalog, lang), cards)
    profile = with_back_offset(load_profile(layout), back_offset)
    layout_path = Path(layout)
    templates = load_templates(profile, layout_path.parent if layout_path.suffix else None)
    items = [
        (
            pick.design.kind,
            Item(
                pick.design.front.template,
                pick.design.front.draw,
                pick.design.back.template,
                pick.design.back.draw,
                f"{pick.design.id}#{copy}",
            ),
        )
        for pick in chosen
        for copy in range(1, pick.copies + 1)
    ]
    section = plan_cards(catalog, profile, templates, lang, items)
    names = ", ".join(pick.design.id for pick in chosen)
    data = render_pdf(section.pages, f"МАРСХИМПРОМ — {names}", "cards to replace", lang, colour)
    path = out_dir / CARDS_PDF
    write_bytes_atomic(path, data)
    return KitResult((KitFile(path, "cards", len(section.pages)),), section.pieces), chosen
