"""A deck pack's cards as the kit's designs: one per card, with its deck's size and templates.

The same :class:`~mhp_cards.pdf.cards.CardDesign` values as the game's cards, so the kit, the
PNG export and the Tabletop Simulator export print a pack as they print the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from mhp_cards.decks.models import Deck, DeckPack
from mhp_cards.pdf.cards import CardDesign, Side
from mhp_cards.pdf.deck_faces import deck_side, face_template
from mhp_cards.pdf.layout import CardSize, SheetProfile, Template, Templates

__all__ = ["PackSource", "deck_kind", "pack_designs", "pack_sheets"]


@dataclass(frozen=True, slots=True)
class PackSource:
    """A deck pack and its directory (the cards' pictures are relative to it)."""

    pack: DeckPack
    root: Path | None = None


def deck_kind(deck: Deck) -> str:
    """The card size's name of a deck in the sheet profile (``deck:organisms``)."""
    return f"deck:{deck.id}"


def pack_sheets(decks: Iterable[Deck], profile: SheetProfile) -> tuple[SheetProfile, Templates]:
    """``profile`` with the decks' card sizes added, and the decks' face templates."""
    sizes = dict(profile.card_sizes)
    faces: dict[str, Template] = {}
    for deck in decks:
        kind = deck_kind(deck)
        sizes[kind] = CardSize(
            width=deck.size.width, height=deck.size.height, corner_radius=deck.size.corner_radius
        )
        faces[kind] = face_template(deck.front)
        faces[f"{kind}-back"] = face_template(deck.back)
    return profile.model_copy(update={"card_sizes": sizes}), Templates(templates=faces)


def pack_designs(source: PackSource, lang: str) -> tuple[CardDesign, ...]:
    """Every card of the pack, deck by deck, with the back its deck shares."""
    designs: list[CardDesign] = []
    for deck in source.pack.decks:
        kind = deck_kind(deck)
        back = Side(
            f"{kind}-back",
            partial(
                deck_side, side=deck.back, card=None, label=f"{deck.id} back", root=source.root
            ),
            f"{deck.id}-back",
        )
        for card in deck.cards:
            front = Side(
                kind,
                partial(
                    deck_side,
                    side=deck.front,
                    card=card,
                    label=f"{deck.id}/{card.id}",
                    root=source.root,
                ),
                f"{deck.id}-{card.id}",
            )
            name = card.shown("name", lang) or card.id
            designs.append(CardDesign(card.id, deck.id, kind, name, card.copies, front, back))
    return tuple(designs)
