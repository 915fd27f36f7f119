"""Reactor card IDs: the installation number and a Cyrillic letter (``5А``), or ``Э`` + n.

The Cyrillic letter is canonical. Users often type the Latin look-alike (``5A``):
:func:`read_card_id` accepts it when its look and its place in the alphabet name the same
letter (only A does) and says how it was read; the catalog validator points it out where a
designer wrote it. A Latin ``B`` looks like В but stands for Б in the English edition, so it is
refused with both readings rather than guessed.

>>> read_card_id("5A")
CardId(text='5А', number=5, letter='А', latin_lookalikes='A')
>>> read_card_id("Э2").is_electrolyser
True

The English edition prints the letters as Latin ones *by their place in the alphabet*
(:data:`LATIN_LETTERS`: А→A, Б→B, В→C, Г→D…; the electrolyser Э→E), never by their look:
«2Б» must not read as "26", nor «4В» as "4B". :func:`english_card_id` gives the printed
form, :func:`card_id_from_english` reads it back.

>>> english_card_id("2Б"), english_card_id("4В"), english_card_id("Э3")
('2B', '4C', 'E3')
>>> card_id_from_english("4c")
'4В'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from mhp_cards.chem.lookalikes import CYRILLIC_OF
from mhp_cards.errors import CardIdError

__all__ = [
    "ELECTROLYSER",
    "LATIN_LETTERS",
    "CardId",
    "CardIdError",
    "card_id_from_english",
    "english_card_id",
    "printed_card_id",
    "read_card_id",
]

#: The prefix of electrolyser cards (and the name of "any electrolyser" in an arrangement).
ELECTROLYSER: Final = "Э"
#: The Cyrillic letters of card IDs in alphabetical order, each with the Latin letter of the same
#: place that the English edition prints (Ё, Й, Ъ, Ы, Ь are not used to number things).
LATIN_LETTERS: Final = dict(
    zip("АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩ", "ABCDEFGHIJKLMNOPQRSTUVWXY", strict=True)
)
#: The electrolyser's mark in the English edition.
ELECTROLYSER_EN: Final = "E"
_CYRILLIC_BY_PLACE: Final = {latin: cyrillic for cyrillic, latin in LATIN_LETTERS.items()}
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
        by_look = CYRILLIC_OF[letter]
        by_place = _CYRILLIC_BY_PLACE.get(letter.upper())
        if by_place is not None and by_place != by_look:
            # "2B" is 2В by its look but 2Б as the English edition prints it: ask, never guess.
            number = match.group("number")
            raise CardIdError(
                f"{text!r} has the Latin letter {letter}: write {number}{by_place} if you mean "
                f"the card printed {number}{letter} in the English edition, or the Cyrillic "
                f"{number}{by_look}"
            )
        lookalike, letter = letter, by_look
    if not ("А" <= letter <= "Я" or letter == "Ё"):
        raise CardIdError(
            f"{text!r}: the letter of a card ID is a capital Cyrillic letter (А, Б, В, Г…)"
        )
    number = int(match.group("number"))
    return CardId(f"{number}{letter}", number, letter, lookalike)


def english_card_id(card_id: str) -> str:
    """The card ID as the English edition prints it: the letter by its place, Э as E.

    Anything that is not a card ID comes back unchanged (an arrangement's ``.``, a name).
    """
    if card_id.startswith(ELECTROLYSER):
        return ELECTROLYSER_EN + card_id.removeprefix(ELECTROLYSER)
    match = _CARD.match(card_id)
    if match is None or match.group("letter") not in LATIN_LETTERS:
        return card_id
    return match.group("number") + LATIN_LETTERS[match.group("letter")]


def card_id_from_english(text: str) -> str:
    """The canonical ID of a card ID written as the English edition prints it (``4C`` → ``4В``).

    Case does not matter; CardIdError for text that is not one.
    """
    stripped = text.strip().upper()
    if stripped == ELECTROLYSER_EN or (
        stripped.startswith(ELECTROLYSER_EN) and stripped[1:].isdigit()
    ):
        return ELECTROLYSER + stripped[1:]
    match = _CARD.match(stripped)
    if match is None or match.group("letter") not in _CYRILLIC_BY_PLACE:
        raise CardIdError(
            f"{text!r} is not a card ID of the English edition; write the installation number "
            f"and a Latin letter (5A, 5B, 4C) or {ELECTROLYSER_EN} for an electrolyser"
        )
    return match.group("number") + _CYRILLIC_BY_PLACE[match.group("letter")]


def printed_card_id(card_id: str, lang: str) -> str:
    """The card ID as the edition in ``lang`` prints it (Cyrillic in Russian, Latin in English)."""
    return english_card_id(card_id) if lang == "en" else card_id
