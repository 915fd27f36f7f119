"""Decks from data: a deck pack's models, reading and checks (``decks.yaml``).

>>> from mhp_cards.decks import is_deck_pack
>>> is_deck_pack(None)
False
"""

from mhp_cards.decks.load import DECKS_FILE, PackValidation, is_deck_pack, load_pack, validate_pack
from mhp_cards.decks.models import Check, Deck, DeckCard, DeckFace, DeckPack, DeckRegion, FieldSpec

__all__ = [
    "DECKS_FILE",
    "Check",
    "Deck",
    "DeckCard",
    "DeckFace",
    "DeckPack",
    "DeckRegion",
    "FieldSpec",
    "PackValidation",
    "is_deck_pack",
    "load_pack",
    "validate_pack",
]
