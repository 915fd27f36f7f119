"""What is wrong with an arrangement of reactor cards, as a value that names the place."""

from __future__ import annotations

from dataclasses import dataclass

from mhp_cards.catalog.models import Port

__all__ = ["AssemblyProblem", "port_name"]


@dataclass(frozen=True, slots=True)
class AssemblyProblem:
    """Why an arrangement is not valid: which card, edge and position; expected and found."""

    code: str
    message: str
    card: str | None = None
    edge: str | None = None
    position: int | None = None
    expected: str | None = None
    found: str | None = None

    def __str__(self) -> str:
        return self.message

    def to_json(self) -> dict[str, object]:
        """The problem as a JSON-ready mapping."""
        return {
            "code": self.code,
            "message": self.message,
            "card": self.card,
            "edge": self.edge,
            "position": self.position,
            "expected": self.expected,
            "found": self.found,
        }


def _describe(port: Port) -> str:
    return f"{port.substance} {port.direction}"


def port_name(card_id: str, port: Port) -> str:
    """``2А right edge, position 2 (H2 out)``: a port as messages name it."""
    return f"{card_id} {port.edge} edge, position {port.position} ({_describe(port)})"
