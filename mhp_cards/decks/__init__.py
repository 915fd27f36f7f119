"""Decks from data: a deck pack's models (:mod:`.models`), reading and checks (:mod:`.load`).

The package itself holds only what tells a deck pack from a game catalog, which reads no YAML:
``mhp validate`` of a game catalog stays as fast as before.

>>> from mhp_cards.decks import is_deck_pack
>>> is_deck_pack(None)
False
"""

from mhp_cards.decks.files import DECKS_FILE, is_deck_pack

__all__ = ["DECKS_FILE", "is_deck_pack"]
