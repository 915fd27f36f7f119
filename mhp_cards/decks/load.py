"""Reading and checking a deck pack: every problem located at ``decks.yaml:line:column``.

The checks, in order: YAML syntax and limits; the pack's shape (the models of
:mod:`mhp_cards.decks.models`); unique deck and card IDs; every card's fields against its
deck's declared fields (a missing required field, a field the deck does not declare, a number
that is not one, a choice outside its choices, a two-language text without both); every
region showing a field the deck has; the cross-checks the pack declares.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from mhp_cards.catalog.art import art_path, picture_problem
from mhp_cards.decks.files import DECKS_FILE, is_deck_pack
from mhp_cards.decks.models import RESERVED, Check, Deck, DeckPack
from mhp_cards.errors import CatalogError
from mhp_cards.issues import Issue, Severity, has_errors
from mhp_cards.issues import Path as DataPath
from mhp_cards.validate.schema_issues import model_issues
from mhp_cards.wording import listing, shown
from mhp_cards.yamldoc import YamlDocument, read_yaml_file

__all__ = [
    "DECKS_FILE",
    "PackValidation",
    "art_path",
    "game_decks",
    "is_deck_pack",
    "load_pack",
    "validate_pack",
]


@dataclass(frozen=True, slots=True)
class PackValidation:
    """The outcome of checking a deck pack: the pack (when valid) and every issue."""

    directory: Path
    pack: DeckPack | None
    issues: tuple[Issue, ...]

    def is_valid(self) -> bool:
        """True when no issue is an error."""
        return not has_errors(self.issues)


def validate_pack(directory: Path | str) -> PackValidation:
    """Check the deck pack in ``directory``; the pack is returned only when it has no error."""
    return _validated(Path(directory))[0]


def _validated(root: Path) -> tuple[PackValidation, YamlDocument | None]:
    """The pack's checks, and the document read (to locate more problems in it)."""
    document, issues = read_yaml_file(root / DECKS_FILE, str(root / DECKS_FILE))
    if document is None:
        return PackValidation(root, None, tuple(issues)), None
    try:
        pack = DeckPack.model_validate(document.data)
    except ValidationError as error:
        return PackValidation(root, None, tuple(model_issues(error, [document]))), document
    found = list(_problems(pack, document)) + list(_art_problems(pack, document, root))
    return PackValidation(root, None if has_errors(found) else pack, tuple(found)), document


def game_decks(
    directory: Path | str, fate_cards: int, taken: Collection[str], fate: str = "fate"
) -> PackValidation:
    """The decks a game catalog declares beside its game (its ``decks.yaml``), checked.

    The checks of a deck pack, and two more: a deck may not take the name of one of the kit's
    sections (``taken``), and the deck called ``fate`` (the Fate cards' fronts) prints exactly
    the catalog's ``fate_cards`` cards.
    """
    validation, document = _validated(Path(directory))
    pack = validation.pack
    if pack is None:
        return validation
    assert document is not None
    found: list[Issue] = []
    for index, deck in enumerate(pack.decks):
        path = ("decks", index, "id")
        line, column = document.locate(path)
        problem: tuple[str, str, str, str | None] | None = None
        if deck.id != fate and deck.id in taken:
            problem = (
                "deck-ids",
                f"deck {deck.id!r} has the name of a section of the kit",
                f"name it otherwise; the kit's sections are {listing(sorted(taken))}",
                None,
            )
        elif deck.id == fate and deck.printed != fate_cards:
            problem = (
                "fate-fronts",
                f"the fate deck prints {deck.printed} cards; the game has {fate_cards} Fate "
                "cards (components.fate_cards.count)",
                f"give the deck {fate_cards} cards, copies counted",
                "L1.S1",
            )
        if problem is not None:
            check, message, hint, rule = problem
            found.append(
                Issue(
                    check,
                    message,
                    file=document.file,
                    path=path,
                    line=line,
                    column=column,
                    hint=hint,
                    rule=rule,
                )
            )
    issues = (*validation.issues, *found)
    return PackValidation(validation.directory, None if has_errors(found) else pack, issues)


def load_pack(directory: Path | str) -> DeckPack:
    """The valid deck pack in ``directory``; :class:`CatalogError` with every issue if not."""
    validation = validate_pack(directory)
    if validation.pack is None:
        errors = [issue for issue in validation.issues if issue.severity == "error"]
        raise CatalogError(
            validation.issues,
            f"the deck pack in {validation.directory} has {len(errors)} error(s); first: "
            f"{errors[0]}\nrun 'mhp validate {validation.directory}' for the full report",
        )
    return validation.pack


def _problems(pack: DeckPack, document: YamlDocument) -> Iterator[Issue]:
    def issue(check: str, message: str, path: DataPath, hint: str, key: bool = False) -> Issue:
        line, column = document.locate(path, at_key=key)
        return Issue(
            check, message, file=document.file, path=path, line=line, column=column, hint=hint
        )

    seen_decks: set[str] = set()
    for d, deck in enumerate(pack.decks):
        if deck.id in seen_decks:
            yield issue(
                "deck-ids",
                f"a second deck called {deck.id!r}",
                ("decks", d, "id"),
                "give every deck its own id",
            )
        seen_decks.add(deck.id)
        yield from _deck_problems(deck, ("decks", d), issue)
    for c, check in enumerate(pack.checks):
        yield from _check_problems(pack, check, ("checks", c), issue)


def _art_problems(pack: DeckPack, document: YamlDocument, root: Path) -> Iterator[Issue]:
    """Every picture a card names: missing (a warning: a placeholder is printed) or unreadable."""
    for d, deck in enumerate(pack.decks):
        fields = {
            region.image
            for face in (deck.front, deck.back)
            for region in face.regions.values()
            if region.image is not None
        }
        for c, card in enumerate(deck.cards):
            for name in sorted(fields):
                value = card.fields.get(name)
                if not isinstance(value, str) or not value:
                    continue
                path = ("decks", d, "cards", c, name)
                found = picture_problem(root, value)
                if found is not None:
                    check, message, hint, kind = found
                    severity: Severity = "warning" if kind == "warning" else "error"
                    line, column = document.locate(path)
                    yield Issue(
                        check,
                        f"card {card.id!r}: {message}",
                        file=document.file,
                        path=path,
                        line=line,
                        column=column,
                        hint=hint,
                        severity=severity,
                    )


def _deck_problems(deck: Deck, at: DataPath, issue: Any) -> Iterator[Issue]:
    names = [spec.name for spec in deck.fields]
    for f, name in enumerate(names):
        if name in RESERVED or name in names[:f]:
            yield issue(
                "deck-fields",
                f"field {name!r} is declared twice or is reserved",
                (*at, "fields", f, "name"),
                "id and copies are every card's own; declare each other field once",
            )
    known = ["id", *names]
    for side in ("front", "back"):
        face = deck.front if side == "front" else deck.back
        for region_name, region in face.regions.items():
            if region.image is not None and region.image not in names:
                yield issue(
                    "deck-regions",
                    f"region {region_name!r} shows the picture named by field "
                    f"{region.image!r}, which the deck does not declare",
                    (*at, side, "regions", region_name, "image"),
                    f"use one of {listing(names, 'or')}",
                )
            if region.field is not None and region.field not in known:
                yield issue(
                    "deck-regions",
                    f"region {region_name!r} shows field {region.field!r}, which the deck "
                    "does not declare",
                    (*at, side, "regions", region_name, "field"),
                    f"use one of {listing(known, 'or')}",
                )
            if side == "back" and (region.image is not None or region.field is not None):
                yield issue(
                    "deck-regions",
                    f"back region {region_name!r} shows a card's field: every back must look "
                    "the same, or the cards are known from behind",
                    (*at, side, "regions", region_name, "field"),
                    "give the back fixed texts only (text: {ru: …, en: …})",
                )
    seen: set[str] = set()
    for c, card in enumerate(deck.cards):
        where = (*at, "cards", c)
        if card.id in seen:
            yield issue(
                "card-ids",
                f"a second card called {card.id!r} in deck {deck.id!r}",
                (*where, "id"),
                "give every card of a deck its own id",
            )
        seen.add(card.id)
        values = card.fields
        for name, value in values.items():
            spec = deck.field(name)
            if spec is None:
                yield issue(
                    "card-fields",
                    f"card {card.id!r} has a field {name!r} that deck {deck.id!r} does not declare",
                    (*where, name),
                    f"declare it under the deck's fields, or use one of {listing(known, 'or')}",
                    key=True,
                )
                continue
            problem = _value_problem(spec.type, spec.choices, value)
            if problem is not None:
                yield issue(
                    "card-fields",
                    f"card {card.id!r}: {name} {problem[0]}",
                    (*where, name),
                    problem[1],
                )
        for spec in deck.fields:
            if spec.required and spec.name not in values:
                yield issue(
                    "card-fields",
                    f"card {card.id!r} has no {spec.name!r}",
                    where,
                    f"every card of deck {deck.id!r} gives {spec.name}",
                )


def _value_problem(kind: str, choices: list[str] | None, value: object) -> tuple[str, str] | None:
    """What is wrong with one field value, and what would be right; None if nothing is."""
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, int):
            return f"is {shown(value)}, not a whole number", "write a number such as 3"
        return None
    if kind == "names":
        if (
            not isinstance(value, Mapping)
            or set(value) != {"ru", "en"}
            or not all(isinstance(v, str) and v.strip() for v in value.values())
        ):
            return (
                f"is {shown(value)}, not a text in both languages",
                "write {ru: …, en: …}",
            )
        return None
    if not isinstance(value, str) or not value.strip():
        return f"is {shown(value)}, not a text", "write a text (quote it if it looks like a number)"
    if kind == "choice" and choices is not None and value not in choices:
        return f"is {value!r}, not one of its choices", f"use one of {listing(choices, 'or')}"
    return None


def _check_problems(pack: DeckPack, check: Check, at: DataPath, issue: Any) -> Iterator[Issue]:
    deck = pack.deck(check.deck)
    if deck is None:
        yield issue(
            "checks",
            f"the check names deck {check.deck!r}, which the pack does not have",
            (*at, "deck"),
            f"use one of {listing([d.id for d in pack.decks], 'or')}",
        )
        return
    if check.field != "id" and deck.field(check.field) is None:
        yield issue(
            "checks",
            f"deck {deck.id!r} has no field {check.field!r}",
            (*at, "field"),
            f"use one of {listing(['id', *(s.name for s in deck.fields)], 'or')}",
        )
        return
    d = pack.decks.index(deck)
    if check.kind == "refers":
        assert check.to is not None
        target_id, target_field = check.to.split(".")
        target = pack.deck(target_id)
        if target is None or (target_field != "id" and target.field(target_field) is None):
            yield issue(
                "checks",
                f"the check's target {check.to!r} is no deck field of the pack",
                (*at, "to"),
                "write it as deck.field, e.g. nature.symbol",
            )
            return
        allowed = {card.shown(target_field, "ru") for card in target.cards}
        for c, card in enumerate(deck.cards):
            value = card.shown(check.field, "ru")
            if value and value not in allowed:
                yield issue(
                    "checks",
                    f"card {card.id!r}: {check.field} {value!r} is no {target_field} of deck "
                    f"{target.id!r}",
                    ("decks", d, "cards", c, check.field),
                    f"use one of {listing(sorted(allowed), 'or')}",
                )
        return
    by_id = {card.id: card for card in deck.cards}
    for c, card in enumerate(deck.cards):
        other_id = card.shown(check.field, "ru")
        other = by_id.get(other_id)
        where = ("decks", d, "cards", c, check.field)
        if other is None or other_id == card.id:
            yield issue(
                "checks",
                f"card {card.id!r}: its {check.field} {other_id!r} is no other card of deck "
                f"{deck.id!r}",
                where,
                f"name one of {listing(sorted(set(by_id) - {card.id}), 'or')}",
            )
        elif other.shown(check.field, "ru") != card.id:
            yield issue(
                "checks",
                f"card {card.id!r} names {other_id!r} as its {check.field}, but {other_id!r} "
                f"names {other.shown(check.field, 'ru')!r}",
                where,
                f"opposites name each other: give {other_id!r} {check.field}: {card.id}",
            )
