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
from collections.abc import Mapping, Sequence
from typing import Protocol

from mhp_cards.issues import Issue

__all__ = [
    "ActionError",
    "ApiError",
    "AssemblyError",
    "CardIdError",
    "CardNameError",
    "CardSelectionError",
    "CatalogError",
    "CatalogUpdateError",
    "ExportError",
    "FormulaError",
    "HouseRuleError",
    "IllegalPlayError",
    "InputFileError",
    "KitError",
    "LayoutError",
    "MhpError",
    "OutputFileError",
    "PlacesError",
    "ReactionError",
    "RulebookError",
    "SetupError",
    "SimulationError",
    "StateFileError",
    "SweepError",
    "TextError",
    "TypesetError",
    "ViewError",
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


class AssemblyError(TextError):
    """An arrangement of reactor cards that cannot be read."""


class CardIdError(MhpError, ValueError):
    """Text that is not a reactor card ID."""


class CardNameError(MhpError, ValueError):
    """A card name that matches no raw card of the catalog."""


class CardSelectionError(TextError):
    """A list of card IDs (``mhp build --cards``) naming a card the catalog does not have."""


class ExportError(MhpError):
    """An export that cannot run: a missing optional dependency, an unusable option."""


class ActionError(TextError):
    """Text that is not an action: the word at fault, the form expected and an example."""


class HouseRuleError(MhpError, ValueError):
    """An unknown house rule, or two that exclude each other."""


class RulebookError(MhpError, ValueError):
    """The rulebook data is malformed; the message lists every problem found."""


class CatalogError(MhpError):
    """A catalog that failed validation; ``issues`` holds every located problem."""

    def __init__(self, issues: Sequence[Issue], summary: str = "") -> None:
        self.issues = tuple(issues)
        super().__init__(summary or f"the catalog has {len(self.issues)} problem(s)")


class CatalogUpdateError(MhpError):
    """A catalog variant that cannot be made: ``issues`` locates every change at fault."""

    def __init__(self, issues: Sequence[Issue]) -> None:
        self.issues = tuple(issues)
        super().__init__("\n".join(str(issue) for issue in self.issues))


class SweepError(MhpError):
    """A sweep that cannot run: a ``--vary`` or sweep file that cannot be read, located."""

    def __init__(self, issues: Sequence[Issue]) -> None:
        self.issues = tuple(issues)
        super().__init__("\n".join(str(issue) for issue in self.issues))


class SimulationError(MhpError):
    """A simulation that cannot run: a missing optional dependency, an unreachable cluster."""


class LayoutError(MhpError):
    """A layout file that cannot be used; ``issues`` locates every problem."""

    def __init__(self, issues: Sequence[Issue]) -> None:
        self.issues = tuple(issues)
        super().__init__("\n".join(str(issue) for issue in self.issues))


class InputFileError(MhpError):
    """A file the toolkit refuses to read: missing, not a file, too large, too deep, not UTF-8.

    ``issue`` locates the refusal (``file:line:column`` when a position is known) and names
    the limit and its value when a limit was reached.
    """

    def __init__(self, issue: Issue) -> None:
        self.issue = issue
        self.issues = (issue,)
        super().__init__(str(issue))

    def __reduce__(self) -> tuple[type[InputFileError], tuple[Issue]]:
        return (type(self), (self.issue,))


class OutputFileError(MhpError):
    """An output that cannot be written (no such directory, a directory in its place, disk full).

    The previous file at ``path``, if any, is left as it was.
    """

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot write {path}: {reason}")

    def __reduce__(self) -> tuple[type[OutputFileError], tuple[str, str]]:
        return (type(self), (self.path, self.reason))


class StateFileError(MhpError):
    """A game-state file that cannot be read, or whose content is not a game state."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        super().__init__(message)


class ViewError(MhpError, ValueError):
    """A player's view that cannot be made.

    Nobody plays that colour, or the state is already another player's view; ``players`` lists
    who plays.
    """

    def __init__(self, message: str, player: str, players: Sequence[str] = ()) -> None:
        self.player = player
        self.players = tuple(players)
        super().__init__(message)


class SetupError(MhpError):
    """The box does not allow this setup; ``failures`` lists the rules that fail."""

    def __init__(self, message: str, failures: Sequence[str] = ()) -> None:
        self.failures = tuple(failures)
        super().__init__(message)


class TypesetError(MhpError):
    """Text that cannot be set: it does not fit its region, or the font lacks a character."""

    def __init__(self, card: str, region: str, message: str, where: str = "") -> None:
        self.card = card
        self.region = region
        #: ``file:line:column`` of the template region or profile value at fault, if known.
        self.where = where
        super().__init__(f"{where + ': ' if where else ''}{card}, region {region!r}: {message}")


class PlacesError(TypesetError):
    """A container (or a Mission-card cell) too small for the token places it must show.

    A kind of :class:`TypesetError`, so the kit reports it with every other layout problem,
    naming the card and the container.
    """


class KitError(MhpError):
    """The kit could not be laid out; ``problems`` names every card and region at fault."""

    def __init__(self, problems: Sequence[TypesetError]) -> None:
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {problem}" for problem in self.problems)
        super().__init__(f"{len(self.problems)} problem(s) in the kit:\n{lines}")


class Verdict(Protocol):
    """What an :class:`IllegalPlayError` carries: the referee's ruling, verdict and rule IDs."""

    @property
    def verdict(self) -> str:
        """The verdict: ``"forbidden"``, ``"allowed"`` and so on."""

    @property
    def rules(self) -> tuple[str, ...]:
        """The IDs of the rules the ruling rests on."""


class IllegalPlayError(MhpError):
    """An action the rules forbid; ``ruling`` (a :class:`~mhp_cards.referee.Ruling`) says why."""

    def __init__(self, ruling: Verdict, message: str) -> None:
        self.ruling = ruling
        super().__init__(message)


class ApiError(MhpError):
    """A request the table server (``mhp serve``) refuses: an HTTP status and a JSON body.

    ``code`` names the kind of refusal (``bad-request``, ``not-found``, ``stale-version``…),
    ``message`` says what is wrong and what would be right, ``details`` carries the facts (the
    field at fault, the current version, the ruling of a forbidden action).
    """

    def __init__(
        self, status: int, code: str, message: str, details: Mapping[str, object] | None = None
    ) -> None:
        self.status = status
        self.code = code
        self.message = message
        self.details = dict(details or {})
        super().__init__(message)
