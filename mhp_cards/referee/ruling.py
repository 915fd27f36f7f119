"""A ruling: the referee's answer to a question at the table, as a value.

Every ruling has a verdict, the IDs of the rules it rests on, the reason in Russian and English,
the facts it used (what was needed, what was held, which cards) and the house rules in force
that changed the answer. The referee never invents rules: a question outside them gets the
verdict ``outside-rules``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Literal

from mhp_cards.rules.rulebook import load_rulebook

__all__ = ["Reason", "Ruling", "Verdict", "allowed", "forbidden", "refused"]

_NO_FACTS: Mapping[str, Any] = MappingProxyType({})

Verdict = Literal[
    "allowed",
    "forbidden",
    "complete",
    "incomplete",
    "ended",
    "in-progress",
    "score",
    "outside-rules",
]


#: A reason in Russian and English, or a function that writes it when it is first read.
Reason = tuple[str, str] | Callable[..., tuple[str, str]]


class Ruling:
    """Verdict, rule IDs, reason (ru and en), facts, house rules in force that mattered.

    The reason may be given as a function: it is then written only when someone reads it
    (``reason_ru``, ``reason_en``, the JSON), so a ruling asked for its verdict alone — as
    ``legal_actions`` asks — costs no text.
    """

    __slots__ = ("_reason", "facts", "house_rules", "rules", "verdict")

    def __init__(
        self,
        verdict: Verdict,
        rules: tuple[str, ...],
        reason_ru: str | Callable[..., tuple[str, str]],
        reason_en: str = "",
        facts: Mapping[str, Any] | None = None,
        house_rules: tuple[str, ...] = (),
    ) -> None:
        set_ = object.__setattr__
        set_(self, "verdict", verdict)
        set_(self, "rules", rules)
        set_(self, "_reason", reason_ru if callable(reason_ru) else (reason_ru, reason_en))
        set_(self, "facts", facts if facts is not None else _NO_FACTS)
        set_(self, "house_rules", house_rules)

    verdict: Verdict
    rules: tuple[str, ...]
    facts: Mapping[str, Any]
    house_rules: tuple[str, ...]
    _reason: Reason

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Ruling is immutable: cannot set {name!r}")

    def _texts(self) -> tuple[str, str]:
        reason = self._reason
        if callable(reason):
            reason = reason()
            object.__setattr__(self, "_reason", reason)
        return reason

    @property
    def reason_ru(self) -> str:
        """The reason in Russian."""
        return self._texts()[0]

    @property
    def reason_en(self) -> str:
        """The reason in English."""
        return self._texts()[1]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ruling):
            return NotImplemented
        return (self.verdict, self.rules, self._texts(), dict(self.facts), self.house_rules) == (
            other.verdict,
            other.rules,
            other._texts(),
            dict(other.facts),
            other.house_rules,
        )

    def __hash__(self) -> int:
        return hash((self.verdict, self.rules, self._texts(), self.house_rules))

    def __repr__(self) -> str:
        return (
            f"Ruling(verdict={self.verdict!r}, rules={self.rules!r}, reason_ru={self.reason_ru!r}, "
            f"reason_en={self.reason_en!r}, facts={dict(self.facts)!r}, "
            f"house_rules={self.house_rules!r})"
        )

    @property
    def ok(self) -> bool:
        """True for a verdict that lets the game go on as asked (allowed, complete, score…)."""
        return self.verdict not in ("forbidden", "incomplete", "outside-rules")

    @property
    def reason(self) -> dict[str, str]:
        """The reason by language."""
        return {"ru": self.reason_ru, "en": self.reason_en}

    def quotes(self, lang: str = "en") -> list[str]:
        """The text of each rule cited, in the project's words."""
        book = load_rulebook()
        out = []
        for rule_id in self.rules:
            if rule_id in book:
                out.append(book.rule(rule_id).quote(lang))
        for house_id in self.house_rules:
            try:
                out.append(book.house_rule(house_id).quote(lang))
            except KeyError:
                continue
        return out

    def to_json(self) -> dict[str, Any]:
        """The JSON form: verdict, rules, reason {ru, en}, facts, house_rules."""
        return {
            "verdict": self.verdict,
            "rules": list(self.rules),
            "reason": self.reason,
            "facts": _jsonable(self.facts),
            "house_rules": list(self.house_rules),
        }

    def __str__(self) -> str:
        rules = ", ".join(self.rules)
        return f"{self.verdict.upper()} [{rules}] {self.reason_en}"


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    return value


def allowed(rules: tuple[str, ...], ru: str, en: str, **facts: Any) -> Ruling:
    """An ``allowed`` ruling."""
    return Ruling("allowed", rules, ru, en, MappingProxyType(facts))


def forbidden(rules: tuple[str, ...], ru: str, en: str, **facts: Any) -> Ruling:
    """A ``forbidden`` ruling."""
    return Ruling("forbidden", rules, ru, en, MappingProxyType(facts))


def refused(rules: tuple[str, ...], reason: Callable[[], tuple[str, str]], **facts: Any) -> Ruling:
    """A ``forbidden`` ruling whose reason (ru, en) is written only when it is read."""
    return Ruling("forbidden", rules, reason, "", MappingProxyType(facts) if facts else None)
