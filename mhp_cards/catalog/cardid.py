"""Reactor card IDs: the installation number and a Cyrillic letter (``5А``), or ``Э`` + n.

The Cyrillic letter is canonical. Users often type the Latin look-alike (``5A``, ``5B``, ``5E``):
:func:`read_card_id` accepts it and says how it was read; the catalog validator points it out
where a designer wrote it.

>>> read_card_id("5A")
CardId(text='5А', number=5, letter='А', latin_lookalikes='A')
>>> read_card_id("Э2").is_electrolyser
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from mhp_cards.chem.lookalikes import CYRILLIC_OF
from mhp_cards.errors import CardIdError

__all__ = ["ELECTROLYSER", "CardId", "CardIdError", "read_card_id"]

#: The prefix of electrolyser cards (and the name of "any electrolyser" in an arrangement).
ELECTROLYSER: Final = "Э"
_CARD: Final = re.compile(r"^(?P<number>[1-9][0-9]*)(?P<letter>\w)$")
_ELECTROLYSER: Final = re.compile(rf"^{ELECTROLYSER}(?P<number>[1-9][0-9]*)?$")


@dataclass(frozen=True, slots=True)
class CardId:
    """A card ID read from text: canonical text, installation number, letter."""

    text: str
    #: Installation number; 0 for an electrolyser.
    number: int
    letter: str
    #: The Latin letters that were read as Cyrillic ones ('' when the text was canonical).
    latin_lookalikes: str = ""

    @property
    def is_electrolyser(self) -> bool:
        """True for ``Э`` and ``Э1``…``Э5``."""
        return self.number == 0


def read_card_id(text: str) -> CardId:
    """Read a card ID, accepting a Latin look-alike for the letter; CardIdError if not one."""
    stripped = text.strip()
    electrolyser = _ELECTROLYSER.match(stripped)
    if electrolyser:
        return CardId(stripped, 0, ELECTROLYSER)
    match = _CARD.match(stripped)
    if not match:
        raise CardIdError(
            f"{text!r} is not a card ID; write the installation number and a Cyrillic letter "
            f"(5А, 5Б) or {ELECTROLYSER} for an electrolyser"
        )
    letter = match.group("letter")
    lookalike = ""
    if letter in CYRILLIC_OF:
        lookalike, letter = letter, CYRILLIC_OF[letter]
    if not ("А" <= letter <= "Я" or letter == "Ё"):
        raise CardIdError(
            f"{text!r}: the letter of a card ID is a capital Cyrillic letter (А, Б, В, Г…)"
        )
    number = int(match.group("number"))
    return CardId(f"{number}{letter}", number, letter, lookalike)
