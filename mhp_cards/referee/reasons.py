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
from collections.abc import Callable, Iterator, Mapping
from typing import Any

__all__ = ["TEMPLATES", "TEXTS", "Render", "render", "spoken"]

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
        return spoken(self._values[key], self._lang)

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


def render(code: str, values: Mapping[str, Any]) -> tuple[str, str]:
    """The (ru, en) text of reason ``code`` with ``values``; KeyError for an unknown code."""
    return TEXTS[code](values)


def said(code: str, ru: str, en: str) -> None:
    """Register ``code``'s text as two templates filled from the reason's values."""
    if code in TEXTS:
        raise ValueError(f"reason code {code!r} is registered twice")
    TEMPLATES[code] = (ru, en)
    TEXTS[code] = lambda values: (
        ru.format_map(_Spoken(values, "ru")),
        en.format_map(_Spoken(values, "en")),
    )


def written(code: str) -> Callable[[Render], Render]:
    """Register a function that writes ``code``'s text (for texts that are more than a fill)."""

    def register(function: Render) -> Render:
        if code in TEXTS:
            raise ValueError(f"reason code {code!r} is registered twice")
        TEXTS[code] = function
        return function

    return register
