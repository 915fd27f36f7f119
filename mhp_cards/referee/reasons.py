"""The referee's reasons: each reason code and its Russian and English text.

A ruling or an event carries a code and its facts; its text is rendered from them here when
someone reads it (the CLI, JSON, ``ruling.reason_en``). Most texts are templates filled from
the facts (``str.format`` fields); a few are written by a function. The codes are grouped by
area of the rules, like the referee's modules.

A template fills its fields with the values as people read them: a list of cards is
``water-ice#5 и calcite#1`` / ``water-ice#5 and calcite#1``, never ``['water-ice#5', …]``;
a cell is ``(3, 4)``; nothing is ``—`` / ``nothing``, never ``None``.

>>> TEXTS["cards.player-lacks"]({"missing": ["water-ice#5", "calcite#1"]})[1]
'The player lacks water-ice#5 and calcite#1.'
"""

from __future__ import annotations

import datetime
import string
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any, Final

from mhp_cards.referee.words import CASES, counted, declined

__all__ = ["PLAYER_FACTS", "TEMPLATES", "TEXTS", "PlayerName", "Render", "render", "spoken"]

#: Writes (ru, en) from a reason's values (its facts and words).
Render = Callable[[Mapping[str, Any]], tuple[str, str]]

TEXTS: dict[str, Render] = {}
#: The (ru, en) templates of the codes whose text is a fill (the others are written by code).
TEMPLATES: dict[str, tuple[str, str]] = {}

_AND = {"ru": "и", "en": "and"}
_NOTHING = {"ru": "—", "en": "nothing"}
_YES_NO = {"ru": ("да", "нет"), "en": ("yes", "no")}


def spoken(value: Any, lang: str) -> Any:
    """``value`` as a template shows it in ``lang``: lists read as a sentence, no Python reprs.

    Numbers and text are kept as they are (a template may format them); a cell ``(x, y)``
    stays a pair.

    >>> spoken(["water-ice#5", "calcite#1", "ice#2"], "en")
    'water-ice#5, calcite#1 and ice#2'
    >>> spoken((3, 4), "ru"), spoken(None, "en"), spoken([], "ru")
    ('(3, 4)', 'nothing', '—')
    """
    if value is None:
        return _NOTHING[lang]
    if isinstance(value, bool):
        return _YES_NO[lang][0 if value else 1]
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        return ", ".join(f"{key} {spoken(item, lang)}" for key, item in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else list(value)
        if len(items) == 2 and all(type(item) is int for item in items):
            return f"({items[0]}, {items[1]})"
        texts = [str(spoken(item, lang)) for item in items]
        if not texts:
            return _NOTHING[lang]
        if len(texts) == 1:
            return texts[0]
        return f"{', '.join(texts[:-1])} {_AND[lang]} {texts[-1]}"
    return value


class _Spoken(Mapping[str, Any]):
    """A reason's values as a template in one language reads them (see :func:`spoken`)."""

    def __init__(self, values: Mapping[str, Any], lang: str) -> None:
        self._values = values
        self._lang = lang

    def __getitem__(self, key: str) -> Any:
        value = self._values[key]
        if key in PLAYER_FACTS:
            value = _player_value(value, self._lang)
            if isinstance(value, PlayerName):
                return value
        return spoken(value, self._lang)

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


#: The facts that name a player (a colour ID), shown as the player's colour name.
PLAYER_FACTS: Final = frozenset(
    {
        "player",
        "partner",
        "winner",
        "loser",
        "attacker",
        "defender",
        "target",
        "next",
        "owner",
        "from",
        "to",
        "buyer",
        "seller",
        "winners",
        "holders",
        "viewer",
        "current",
        "turn",
        "actor",
        "players",
    }
)


@cache
def _colour_names() -> dict[str, tuple[str, str]]:
    """Colour ID → (ru, en) name, from the default game's components."""
    from mhp_cards.validate import load_catalog  # noqa: PLC0415  (the referee's texts only)

    return {c.id: (c.name.ru, c.name.en) for c in load_catalog().components.colours}


class PlayerName:
    """A player in a sentence: their colour's name, declined by the template's format spec.

    ``{partner:ins}`` gives «Красным» in Russian (Red in English); no spec, the nominative;
    ``{partner:id}`` the colour ID, as an action's text writes it.
    """

    __slots__ = ("colour", "lang")

    def __init__(self, colour: str, lang: str) -> None:
        self.colour = colour
        self.lang = lang

    def __str__(self) -> str:
        return self.__format__("")

    def __repr__(self) -> str:
        # A template's !r quotes what a player typed: the name as text, in quotes.
        return repr(str(self))

    def __format__(self, spec: str) -> str:
        if spec == "id":  # inside an action's text to type: the colour ID itself
            return self.colour
        names = _colour_names().get(self.colour)
        if names is None:
            return self.colour
        if self.lang == "en":
            return names[1]
        case = spec or "nom"
        if case not in CASES:
            raise ValueError(f"{case!r} is no case (one of {', '.join(CASES)})")
        return declined(names[0], case)


class _Formatter(string.Formatter):
    """Fills a template: players declined by case, counts with their plural form.

    ``{n:фишка|фишки|фишек}`` writes «1 фишка», «3 фишки», «5 фишек» (``counted``).
    """

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec and isinstance(value, int) and not isinstance(value, bool):
            forms = format_spec.split("|")
            if len(forms) == 3:
                return counted(value, (forms[0], forms[1], forms[2]))
            if len(forms) == 2:  # English: one, other
                return f"{value} {forms[0] if value == 1 else forms[1]}"
        return str(super().format_field(value, format_spec))


_FORMATTER: Final = _Formatter()


def _player_value(value: Any, lang: str) -> Any:
    if isinstance(value, str):
        return PlayerName(value, lang)
    if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
        return spoken([str(PlayerName(item, lang)) for item in value], lang)
    return value


def render(code: str, values: Mapping[str, Any]) -> tuple[str, str]:
    """The (ru, en) text of reason ``code`` with ``values``; KeyError for an unknown code."""
    return TEXTS[code](values)


def said(code: str, ru: str, en: str) -> None:
    """Register ``code``'s text as two templates filled from the reason's values."""
    if code in TEXTS:
        raise ValueError(f"reason code {code!r} is registered twice")
    TEMPLATES[code] = (ru, en)
    TEXTS[code] = lambda values: (
        _FORMATTER.vformat(ru, (), _Spoken(values, "ru")),
        _FORMATTER.vformat(en, (), _Spoken(values, "en")),
    )


def written(code: str) -> Callable[[Render], Render]:
    """Register a function that writes ``code``'s text (for texts that are more than a fill)."""

    def register(function: Render) -> Render:
        if code in TEXTS:
            raise ValueError(f"reason code {code!r} is registered twice")
        TEXTS[code] = function
        return function

    return register
