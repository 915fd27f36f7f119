"""A ruling: the referee's answer to a question at the table, as a value.

Every ruling has a verdict, the IDs of the rules it rests on, the reason in Russian and English,
the facts it used (what was needed, what was held, which cards) and the house rules in force
that changed the answer. The referee never invents rules: a question outside them gets the
verdict ``outside-rules``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from mhp_cards.rules.rulebook import load_rulebook

__all__ = ["Ruling", "Verdict", "allowed", "forbidden"]

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


@dataclass(frozen=True, slots=True)
class Ruling:
    """Verdict, rule IDs, reason (ru and en), facts, house rules in force that mattered."""

    verdict: Verdict
    rules: tuple[str, ...]
    reason_ru: str
    reason_en: str
    facts: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    house_rules: tuple[str, ...] = ()

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
