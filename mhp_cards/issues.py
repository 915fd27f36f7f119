"""Validation as data: located issues, collected all at once.

A validator (of a catalog, an arrangement, a game state) returns a tuple of :class:`Issue`
values rather than raising at the first problem; ``is_valid()`` is "no errors among them".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Issue", "Path", "Severity", "format_path", "has_errors"]

Severity = Literal["error", "warning"]
#: A path into a document: mapping keys and list indices, from the root.
Path = tuple[str | int, ...]


def format_path(path: Path) -> str:
    """``("installations", 2, "cards", 0)`` → ``installations[2].cards[0]``."""
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            out += f".{step}" if out else step
    return out


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem: what check found it, where it is, what is wrong and what would be right."""

    check: str
    message: str
    file: str | None = None
    path: Path = ()
    line: int | None = None
    column: int | None = None
    hint: str = ""
    severity: Severity = "error"
    #: Characters into the scalar at ``path`` where the fault is (a formula's bad character).
    offset: int | None = field(default=None, compare=False)
    #: The rule of the game the problem breaks, when there is one (``L1.S3``).
    rule: str | None = None

    @classmethod
    def broken(cls, check: str, message: str, path: Path, rule: str, hint: str = "") -> Issue:
        """A problem of a game state: where it is in the state, and the rule it breaks."""
        return cls(check, message, path=path, rule=rule, hint=hint)

    @property
    def location(self) -> str:
        """``file:line:column`` (as much of it as is known)."""
        parts = [self.file or "<catalog>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        where = f" {format_path(self.path)}:" if self.path else ""
        rule = f" [{self.rule}]" if self.rule else ""
        hint = f" ({self.hint})" if self.hint else ""
        return f"{self.location}: {self.severity}{rule}:{where} {self.message}{hint}"

    def to_json(self) -> dict[str, object]:
        """The issue as a JSON-ready mapping."""
        return {
            "check": self.check,
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": format_path(self.path),
            "message": self.message,
            "hint": self.hint,
            "rule": self.rule,
        }


def has_errors(issues: Iterable[Issue]) -> bool:
    """True when any of ``issues`` is an error (warnings do not count)."""
    return any(issue.severity == "error" for issue in issues)
