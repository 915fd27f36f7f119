"""A ruling: the referee's answer to a question at the table, as a value.

Every ruling has a verdict, the IDs of the rules it rests on, a reason *code* (what the answer
turns on, such as ``"move.already-moved"``), the facts it used (what was needed, what was held,
which cards) and the house rules in force that changed the answer. Its Russian and English
reason is rendered from the code and the facts by :mod:`mhp_cards.referee.reasons` only when
someone reads it, so a ruling asked for its verdict alone — as ``legal_actions`` asks — costs no
text. The referee never invents rules: a question outside them gets the verdict
``outside-rules``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal

from mhp_cards.referee.reasons import render
from mhp_cards.rules.rulebook import load_rulebook

__all__ = ["Ruling", "Verdict", "allowed", "forbidden", "refused"]

_NONE: Mapping[str, Any] = MappingProxyType({})

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
"""The referee's verdicts, one vocabulary by kind of question.

An action (``check``, ``apply``, ``legal_actions``) is ``allowed`` or ``forbidden``, and nothing
else: a winning level-1 claim is ``allowed`` (its code, ``claim.won``, says it won). A question
about the table has its own answers: a mission is ``complete`` or ``incomplete``, a game
``ended`` or ``in-progress``, a score is a ``score``, and a question the rules do not settle is
``outside-rules``.
"""


class Ruling:
    """Verdict, rule IDs, reason code, facts, house rules in force that mattered.

    ``words`` are values the reason's text needs beyond the facts (a mission's name, a list
    already written out); they are not part of the ruling's facts or its JSON.
    """

    __slots__ = ("_texts", "code", "facts", "house_rules", "rules", "verdict", "words")

    verdict: Verdict
    rules: tuple[str, ...]
    code: str
    facts: Mapping[str, Any]
    house_rules: tuple[str, ...]
    words: Mapping[str, Any]
    _texts: tuple[str, str] | None

    def __init__(
        self,
        verdict: Verdict,
        rules: tuple[str, ...],
        code: str,
        facts: Mapping[str, Any] | None = None,
        house_rules: tuple[str, ...] = (),
        words: Mapping[str, Any] | None = None,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "verdict", verdict)
        set_(self, "rules", rules)
        set_(self, "code", code)
        set_(self, "facts", facts if facts is not None else _NONE)
        set_(self, "house_rules", house_rules)
        set_(self, "words", words if words is not None else _NONE)
        set_(self, "_texts", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Ruling is immutable: cannot set {name!r}")

    def texts(self) -> tuple[str, str]:
        """The reason in Russian and English, rendered from the code on first reading."""
        texts = self._texts
        if texts is None:
            texts = render(self.code, {**self.facts, **self.words})
            object.__setattr__(self, "_texts", texts)
        return texts

    @property
    def reason_ru(self) -> str:
        """The reason in Russian."""
        return self.texts()[0]

    @property
    def reason_en(self) -> str:
        """The reason in English."""
        return self.texts()[1]

    def replace(self, **changes: Any) -> Ruling:
        """A copy with some fields changed (``verdict``, ``rules``, ``code``, ``facts``, …)."""
        fields: dict[str, Any] = {
            "verdict": self.verdict,
            "rules": self.rules,
            "code": self.code,
            "facts": self.facts,
            "house_rules": self.house_rules,
            "words": self.words,
        }
        fields.update(changes)
        return Ruling(**fields)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ruling):
            return NotImplemented
        return (
            self.verdict,
            self.rules,
            self.code,
            self.texts(),
            dict(self.facts),
            self.house_rules,
        ) == (
            other.verdict,
            other.rules,
            other.code,
            other.texts(),
            dict(other.facts),
            other.house_rules,
        )

    def __hash__(self) -> int:
        return hash((self.verdict, self.rules, self.code, self.texts(), self.house_rules))

    def __repr__(self) -> str:
        return (
            f"Ruling(verdict={self.verdict!r}, rules={self.rules!r}, code={self.code!r}, "
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
        ru, en = self.texts()
        return {"ru": ru, "en": en}

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
        """The JSON form: verdict, rules, code, reason {ru, en}, facts, house_rules."""
        return {
            "verdict": self.verdict,
            "rules": list(self.rules),
            "code": self.code,
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


def allowed(
    rules: tuple[str, ...], code: str, words: Mapping[str, Any] | None = None, **facts: Any
) -> Ruling:
    """An ``allowed`` ruling whose reason is ``code``'s text."""
    return Ruling("allowed", rules, code, MappingProxyType(facts) if facts else None, (), words)


def forbidden(
    rules: tuple[str, ...], code: str, words: Mapping[str, Any] | None = None, **facts: Any
) -> Ruling:
    """A ``forbidden`` ruling whose reason is ``code``'s text."""
    return Ruling("forbidden", rules, code, MappingProxyType(facts) if facts else None, (), words)


refused = forbidden
