"""The rulebook of МХП as data: every rule of RULES.md, our Rulings, house rules, player aids.

The rules live in ``rules.yaml`` beside this module (it ships in the wheel); each entry has the
stable ID of RULES.md, a level, a section, a title and a text in Russian and English, and the
IDs it builds on. A Ruling is an entry of its own whose ``ruling_for`` names the rule it
settles. The referee quotes rules by ID; the printed player aids take their short lines from
``player_aids``.

>>> book = load_rulebook()
>>> print(book.rule("L3.P1").quote("en"))
L3.P1 — Scoring: Scores are counted as in L2.P1.
>>> [ruling.id for ruling in book.rulings_for("L1.E1")]
['L1.E1.R1', 'L1.E1.R2', 'L1.E1.R3']
>>> book.house_rule("armour-sum").replaces
'L1.T6.R1'
"""

from __future__ import annotations

import difflib
import functools
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Literal, TypeAlias

import yaml

from mhp_cards.errors import RulebookError
from mhp_cards.rules.numbers import LANGS, LEVELS, Lang, Level
from mhp_cards.yamldoc import read_yaml_file

__all__ = [
    "AID_FIELDS",
    "AID_SUMMARY_LIMIT",
    "LANGS",
    "LEVELS",
    "SECTIONS",
    "AidLine",
    "HouseRule",
    "Lang",
    "Level",
    "Rule",
    "Rulebook",
    "RulebookError",
    "Section",
    "load_rulebook",
    "parse_rulebook",
    "read_rulebook",
]

Section: TypeAlias = Literal["setup", "turn", "end", "scoring", "mission"]

SECTIONS: Final[tuple[Section, ...]] = ("setup", "turn", "end", "scoring", "mission")
AID_SUMMARY_LIMIT: Final = 70
"""The longest summary line, in characters, that fits a printed player aid."""
AID_FIELDS: Final = ("removed", "field", "warehouse")
"""The counts a player-aid summary may leave to the printed aid, which computes them for the box:
``{removed}`` Fate cards to put aside, ``{field}`` cards left for the field, ``{warehouse}`` raw
cards for the Warehouse."""

_RESOURCE: Final = "rules.yaml"
_LEVEL_NAMES: Final[dict[str, Level]] = {level: level for level in LEVELS}
_SECTION_NAMES: Final[dict[str, Section]] = {section: section for section in SECTIONS}

Texts: TypeAlias = Mapping[Lang, str]
"""One short text in every language of :data:`LANGS`, read-only."""


def _lang(lang: str) -> Lang:
    if lang == "ru":
        return "ru"
    if lang == "en":
        return "en"
    raise ValueError(f"unknown language {lang!r}; the rulebook has {', '.join(LANGS)}")


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of RULES.md, or one of our Rulings on it (then ``ruling_for`` is set).

    ``title`` and ``text`` map each language (``"ru"``, ``"en"``) to a string; ``refs`` are
    the IDs of the rules this one builds on.
    """

    id: str
    level: Level
    section: Section
    title: Texts = field(hash=False)
    text: Texts = field(hash=False)
    refs: tuple[str, ...] = ()
    ruling_for: str | None = None
    book: Texts | None = field(default=None, hash=False)
    """The text the printed rulebook gives a rule, for players, with its default Rulings merged
    in (None: the book prints ``text``)."""
    merged: bool = False
    """A Ruling the book prints within its rule's ``book`` text, not on its own."""

    @property
    def is_ruling(self) -> bool:
        """True for our Rulings, False for the author's rules."""
        return self.ruling_for is not None

    def quote(self, lang: Lang | str = "en") -> str:
        """The rule as a referee cites it: ``"L1.T4 — Attack: …"``."""
        code = _lang(lang)
        return f"{self.id} — {self.title[code]}: {self.text[code]}"

    def book_text(self, lang: Lang | str = "en") -> str:
        """The text the printed rulebook gives the rule (its ``book`` text, else its text)."""
        code = _lang(lang)
        return (self.book or self.text)[code]


@dataclass(frozen=True, slots=True)
class HouseRule:
    """An optional variant a table may switch on.

    ``replaces`` is the ID of the default it switches off (a Ruling or another house rule), or
    None; ``ruling_for`` is the rule it varies; ``default`` marks the option that is in force
    when no house rule is chosen (``exact-subset``).
    """

    id: str
    title: Texts = field(hash=False)
    text: Texts = field(hash=False)
    replaces: str | None = None
    ruling_for: str | None = None
    default: bool = False

    def quote(self, lang: Lang | str = "en") -> str:
        """The house rule as a referee cites it: ``"armour-sum — Armour rolls added: …"``."""
        code = _lang(lang)
        return f"{self.id} — {self.title[code]}: {self.text[code]}"


@dataclass(frozen=True, slots=True)
class AidLine:
    """One line of a printed player aid: a rule ID and its short summary per language."""

    id: str
    summary: Texts = field(hash=False)


class Rulebook:
    """All rules and Rulings (in file order), the house rules and the player-aid lists.

    The constructor checks the whole book: unique IDs, every reference resolvable, player-aid
    levels and summary lengths; it raises :class:`RulebookError` listing every problem.
    """

    __slots__ = ("_aids", "_house", "_house_index", "_index", "_rules")

    def __init__(
        self,
        rules: Iterable[Rule],
        house_rules: Iterable[HouseRule] = (),
        player_aids: Mapping[Level, Sequence[AidLine]] | None = None,
    ) -> None:
        self._rules: tuple[Rule, ...] = tuple(rules)
        self._house: tuple[HouseRule, ...] = tuple(house_rules)
        self._aids: dict[Level, tuple[AidLine, ...]] = {
            level: tuple(lines) for level, lines in (player_aids or {}).items()
        }
        self._index: dict[str, Rule] = {}
        self._house_index: dict[str, HouseRule] = {}
        problems: list[str] = []
        for rule in self._rules:
            if rule.id in self._index:
                problems.append(f"duplicate rule id {rule.id!r}")
            self._index[rule.id] = rule
        for house in self._house:
            if house.id in self._index or house.id in self._house_index:
                problems.append(f"duplicate id {house.id!r} (house rule)")
            self._house_index[house.id] = house
        problems.extend(self._problems())
        if problems:
            raise RulebookError("invalid rulebook:\n  " + "\n  ".join(problems))

    def _problems(self) -> list[str]:
        known = self._index.keys() | self._house_index.keys()
        problems: list[str] = []
        for rule in self._rules:
            problems.extend(
                f"{rule.id}: refs names unknown id {ref!r}" for ref in rule.refs if ref not in known
            )
            if rule.ruling_for is not None and rule.ruling_for not in self._index:
                problems.append(f"{rule.id}: ruling_for names unknown rule {rule.ruling_for!r}")
            problems.extend(_text_problems(rule.id, rule.title, rule.text))
            if rule.merged and (
                rule.ruling_for is None
                or rule.ruling_for not in self._index
                or self._index[rule.ruling_for].book is None
            ):
                problems.append(
                    f"{rule.id}: 'book: merged' needs a Ruling whose rule has a book text"
                )
        for house in self._house:
            if house.ruling_for is not None and house.ruling_for not in self._index:
                problems.append(f"{house.id}: ruling_for names unknown rule {house.ruling_for!r}")
            if house.replaces is not None and house.replaces not in known:
                problems.append(f"{house.id}: replaces unknown id {house.replaces!r}")
            problems.extend(_text_problems(house.id, house.title, house.text))
        for level, lines in self._aids.items():
            for line in lines:
                where = f"player aid {level}, {line.id}"
                if line.id not in self._index:
                    problems.append(f"{where}: unknown rule id")
                for lang in LANGS:
                    summary = line.summary.get(lang, "")
                    if not summary.strip():
                        problems.append(f"{where}: empty {lang} summary")
                    elif unknown := _unknown_fields(summary):
                        problems.append(
                            f"{where}: {lang} summary names unknown count(s) {unknown};"
                            f" known: {', '.join(AID_FIELDS)}"
                        )
                    elif len(summary) > AID_SUMMARY_LIMIT:
                        problems.append(
                            f"{where}: {lang} summary has {len(summary)} characters,"
                            f" more than {AID_SUMMARY_LIMIT}"
                        )
        return problems

    @property
    def rules(self) -> tuple[Rule, ...]:
        """Every rule and Ruling, in the order of ``rules.yaml`` (Rulings follow their rule)."""
        return self._rules

    @property
    def house_rules(self) -> tuple[HouseRule, ...]:
        """The house rules, in file order."""
        return self._house

    @property
    def ids(self) -> tuple[str, ...]:
        """The IDs of all rules and Rulings, in file order."""
        return tuple(rule.id for rule in self._rules)

    @property
    def aid_levels(self) -> tuple[Level, ...]:
        """The levels that have a player aid."""
        return tuple(level for level in LEVELS if level in self._aids)

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._index or rule_id in self._house_index

    def __len__(self) -> int:
        return len(self._rules)

    def rule(self, rule_id: str) -> Rule:
        """The rule or Ruling with this ID; KeyError naming the closest IDs when there is none."""
        try:
            return self._index[rule_id]
        except KeyError:
            pass
        if rule_id in self._house_index:
            raise KeyError(
                f"{rule_id!r} is a house rule, not a rule: use Rulebook.house_rule()"
            ) from None
        raise KeyError(_unknown("rule", rule_id, self._index)) from None

    def house_rule(self, house_id: str) -> HouseRule:
        """The house rule with this ID; KeyError naming the closest IDs when there is none."""
        try:
            return self._house_index[house_id]
        except KeyError:
            raise KeyError(_unknown("house rule", house_id, self._house_index)) from None

    def rulings_for(self, rule_id: str) -> tuple[Rule, ...]:
        """Our Rulings on the rule ``rule_id``, in file order (empty when it has none)."""
        self.rule(rule_id)
        return tuple(rule for rule in self._rules if rule.ruling_for == rule_id)

    def house_rules_for(self, rule_id: str) -> tuple[HouseRule, ...]:
        """The house rules that vary the rule ``rule_id``, in file order."""
        self.rule(rule_id)
        return tuple(house for house in self._house if house.ruling_for == rule_id)

    def player_aid(self, level: Level | int | str) -> list[tuple[Rule, Texts]]:
        """The lines of a level's printed player aid: each rule with its short summary."""
        name = str(level)
        if name not in _LEVEL_NAMES or _LEVEL_NAMES[name] not in self._aids:
            raise KeyError(
                f"no player aid for level {level!r}; there are: {', '.join(self.aid_levels)}"
            )
        return [(self._index[line.id], line.summary) for line in self._aids[_LEVEL_NAMES[name]]]


def _unknown_fields(summary: str) -> str:
    """The format fields of an aid summary that are not :data:`AID_FIELDS`, or ``""``."""
    try:
        names = [name for _, name, _, _ in string.Formatter().parse(summary) if name is not None]
    except ValueError:
        return "(a lone { or })"
    return ", ".join(sorted({name for name in names if name not in AID_FIELDS}))


def _unknown(kind: str, wanted: str, known: Iterable[str]) -> str:
    """The message for an unknown ID, naming up to five close IDs (case-insensitively)."""
    by_folded = {key.casefold(): key for key in known}
    close = difflib.get_close_matches(wanted.casefold(), list(by_folded), n=5, cutoff=0.6)
    hint = f"; did you mean {', '.join(by_folded[key] for key in close)}?" if close else ""
    return f"no {kind} {wanted!r}{hint}"


def _text_problems(entry_id: str, title: Texts, text: Texts) -> list[str]:
    return [
        f"{entry_id}: empty {name} [{lang}]"
        for name, texts in (("title", title), ("text", text))
        for lang in LANGS
        if not texts.get(lang, "").strip()
    ]


# ------------------------------------------------------------------------- reading the YAML


class _Reader:
    """Typed access to the untyped YAML, collecting every problem with its location."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def mapping(self, value: Any, where: str) -> Mapping[Any, Any]:
        if isinstance(value, Mapping):
            return value
        self.problems.append(f"{where}: expected a mapping, got {type(value).__name__}")
        return {}

    def sequence(self, value: Any, where: str) -> Sequence[Any]:
        if isinstance(value, list | tuple):
            return value
        self.problems.append(f"{where}: expected a list, got {type(value).__name__}")
        return ()

    def string(self, entry: Mapping[Any, Any], key: str, where: str) -> str:
        value = entry.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        self.problems.append(f"{where}: {key!r} must be a non-empty string")
        return ""

    def optional(self, entry: Mapping[Any, Any], key: str, where: str) -> str | None:
        value = entry.get(key)
        if value is None:
            return None
        if isinstance(value, str) and value.strip():
            return value.strip()
        self.problems.append(f"{where}: {key!r} must be a string or null")
        return None

    def texts(self, entry: Mapping[Any, Any], key: str, where: str) -> Texts:
        raw = self.mapping(entry.get(key), f"{where}.{key}")
        extra = sorted(str(lang) for lang in raw if lang not in LANGS)
        if extra:
            self.problems.append(f"{where}.{key}: unknown language(s) {', '.join(extra)}")
        return MappingProxyType({lang: self.string(raw, lang, f"{where}.{key}") for lang in LANGS})

    def level(self, value: Any, where: str) -> Level:
        name = str(value)
        if name in _LEVEL_NAMES:
            return _LEVEL_NAMES[name]
        self.problems.append(f"{where}: level {value!r} is not one of {', '.join(LEVELS)}")
        return "1"

    def section(self, value: Any, where: str) -> Section:
        if isinstance(value, str) and value in _SECTION_NAMES:
            return _SECTION_NAMES[value]
        self.problems.append(f"{where}: section {value!r} is not one of {', '.join(SECTIONS)}")
        return "setup"

    def refs(self, entry: Mapping[Any, Any], where: str) -> tuple[str, ...]:
        refs = self.sequence(entry.get("refs", []) or [], f"{where}.refs")
        if not all(isinstance(ref, str) for ref in refs):
            self.problems.append(f"{where}.refs: every ref must be a string")
        return tuple(str(ref) for ref in refs)

    def rule(self, value: Any, position: int) -> Rule:
        entry = self.mapping(value, f"rules[{position}]")
        where = f"rules[{position}] ({entry.get('id', '?')})"
        book_value = entry.get("book")
        book: Texts | None = None
        merged = book_value == "merged"
        if isinstance(book_value, Mapping):
            book = self.texts(entry, "book", where)
        elif book_value is not None and not merged:
            self.problems.append(f"{where}: 'book' must be texts {{ru, en}} or 'merged'")
        return Rule(
            id=self.string(entry, "id", where),
            level=self.level(entry.get("level"), where),
            section=self.section(entry.get("section"), where),
            title=self.texts(entry, "title", where),
            text=self.texts(entry, "text", where),
            refs=self.refs(entry, where),
            ruling_for=self.optional(entry, "ruling_for", where),
            book=book,
            merged=merged,
        )

    def house_rule(self, value: Any, position: int) -> HouseRule:
        entry = self.mapping(value, f"house_rules[{position}]")
        where = f"house_rules[{position}] ({entry.get('id', '?')})"
        default = entry.get("default", False)
        if not isinstance(default, bool):
            self.problems.append(f"{where}: 'default' must be true or false")
        return HouseRule(
            id=self.string(entry, "id", where),
            title=self.texts(entry, "title", where),
            text=self.texts(entry, "text", where),
            replaces=self.optional(entry, "replaces", where),
            ruling_for=self.optional(entry, "ruling_for", where),
            default=default is True,
        )

    def aids(self, value: Any) -> dict[Level, tuple[AidLine, ...]]:
        aids: dict[Level, tuple[AidLine, ...]] = {}
        for key, lines in self.mapping(value, "player_aids").items():
            level = self.level(key, f"player_aids[{key!r}]")
            parsed = []
            for position, raw in enumerate(self.sequence(lines, f"player_aids[{key!r}]")):
                where = f"player_aids[{key!r}][{position}]"
                entry = self.mapping(raw, where)
                parsed.append(
                    AidLine(
                        id=self.string(entry, "id", where),
                        summary=self.texts(entry, "summary", where),
                    )
                )
            aids[level] = tuple(parsed)
        return aids


def parse_rulebook(data: Any) -> Rulebook:
    """A :class:`Rulebook` from the parsed YAML document (``rules``, ``house_rules``, ...)."""
    reader = _Reader()
    document = reader.mapping(data, "rulebook")
    rules = [
        reader.rule(value, position)
        for position, value in enumerate(reader.sequence(document.get("rules"), "rules"))
    ]
    house = [
        reader.house_rule(value, position)
        for position, value in enumerate(
            reader.sequence(document.get("house_rules", []), "house_rules")
        )
    ]
    aids = reader.aids(document.get("player_aids", {}))
    if reader.problems:
        raise RulebookError("invalid rulebook:\n  " + "\n  ".join(reader.problems))
    return Rulebook(rules, house, aids)


def read_rulebook(path: Path | str) -> Rulebook:
    """A :class:`Rulebook` read from a YAML file (uncached; for other or edited rulebooks)."""
    source = Path(path)
    document, issues = read_yaml_file(source)
    if document is None or issues:
        raise RulebookError("invalid rulebook:\n  " + "\n  ".join(map(str, issues)))
    return parse_rulebook(document.data)


@functools.cache
def load_rulebook() -> Rulebook:
    """The project's rulebook, ``rules.yaml`` shipped inside the package (read once, cached)."""
    text = resources.files(__package__ or "mhp_cards").joinpath(_RESOURCE).read_text("utf-8")
    return parse_rulebook(yaml.safe_load(text))
