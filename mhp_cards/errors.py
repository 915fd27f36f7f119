"""The error family of mhp-cards.

Every error a user can cause derives from :class:`MhpError`. Errors about a piece of text
(a formula, a reaction, an arrangement typed on the command line) carry the text and the
position of the fault and print a caret under it::

    unknown element symbol 'Xx' at 3
      NaXx2
        ^
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "AssemblyError",
    "CatalogError",
    "FormulaError",
    "IllegalPlayError",
    "MhpError",
    "ReactionError",
    "TextError",
]

_ECHO_LIMIT = 1000


class MhpError(Exception):
    """Base class of every error mhp-cards raises for bad input."""


def _visible(char: str) -> str:
    """One visible character standing for ``char`` in an echoed input line."""
    category = unicodedata.category(char)
    if category in {"Cc", "Cf", "Zl", "Zp"} or (category == "Zs" and char != " "):
        return "\N{REPLACEMENT CHARACTER}"
    return char


class TextError(MhpError, ValueError):
    """An error in a piece of text, located by a 0-based ``position`` into ``text``.

    ``str(error)`` is the message, then the text on its own line and a caret under the fault.
    Invisible characters in the echoed text are shown as U+FFFD so the caret stays aligned.
    """

    def __init__(self, message: str, text: str, position: int) -> None:
        self.message = message
        self.text = text
        self.position = max(0, min(position, len(text)))
        super().__init__(message)

    @property
    def column(self) -> int:
        """1-based column of the fault, as the message names it."""
        return self.position + 1

    def __str__(self) -> str:
        shown = "".join(_visible(char) for char in self.text[:_ECHO_LIMIT])
        if len(self.text) > _ECHO_LIMIT:
            shown += "…"
        caret = " " * min(self.position, len(shown)) + "^"
        return f"{self.message}\n  {shown}\n  {caret}"

    def __reduce__(self) -> tuple[type[TextError], tuple[str, str, int]]:
        return (type(self), (self.message, self.text, self.position))


class FormulaError(TextError):
    """A chemical formula that does not follow the grammar of :func:`parse_formula`."""


class ReactionError(TextError):
    """A reaction equation that cannot be read, or cannot be balanced."""


class CatalogError(MhpError):
    """A catalog that failed validation; ``issues`` holds every located problem."""

    def __init__(self, issues: tuple[object, ...], summary: str = "") -> None:
        self.issues = issues
        super().__init__(summary or f"the catalog has {len(issues)} problem(s)")


class AssemblyError(TextError):
    """An arrangement of reactor cards that cannot be read."""


class IllegalPlayError(MhpError):
    """An action the rules forbid; ``ruling`` explains why and cites the rule."""

    def __init__(self, ruling: object, message: str) -> None:
        self.ruling = ruling
        super().__init__(message)
