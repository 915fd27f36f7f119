"""The referee's reasons: each reason code and its Russian and English text.

A ruling or an event carries a code and its facts; its text is rendered from them here when
someone reads it (the CLI, JSON, ``ruling.reason_en``). Most texts are templates filled from
the facts (``str.format`` fields); a few are written by a function. The codes are grouped by
area of the rules, like the referee's modules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["TEXTS", "Render", "render"]

#: Writes (ru, en) from a reason's values (its facts and words).
Render = Callable[[Mapping[str, Any]], tuple[str, str]]

TEXTS: dict[str, Render] = {}


def render(code: str, values: Mapping[str, Any]) -> tuple[str, str]:
    """The (ru, en) text of reason ``code`` with ``values``; KeyError for an unknown code."""
    return TEXTS[code](values)


def said(code: str, ru: str, en: str) -> None:
    """Register ``code``'s text as two templates filled from the reason's values."""
    if code in TEXTS:
        raise ValueError(f"reason code {code!r} is registered twice")
    TEXTS[code] = lambda values: (ru.format_map(values), en.format_map(values))


def written(code: str) -> Callable[[Render], Render]:
    """Register a function that writes ``code``'s text (for texts that are more than a fill)."""

    def register(function: Render) -> Render:
        if code in TEXTS:
            raise ValueError(f"reason code {code!r} is registered twice")
        TEXTS[code] = function
        return function

    return register
