"""Identity checks: unique IDs, card IDs, groups of cards, the electrolysers."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from mhp_cards.catalog.cardid import ELECTROLYSER, CardIdError, read_card_id
from mhp_cards.catalog.models import CARD_LETTERS, ReactorCard
from mhp_cards.chem.formula import Formula
from mhp_cards.issues import Issue, Path
from mhp_cards.validate.checks.fields import parses, reactor_cards
from mhp_cards.validate.checks.parts import (
    COMPONENTS,
    INSTALLATIONS,
    MISSIONS,
    RAW,
    SUBSTANCES,
    Parts,
)
from mhp_cards.validate.checks.registry import check
from mhp_cards.wording import listing, shown

__all__: list[str] = []


@check("unique-ids", "IDs, numbers and substances are unique")
def _check_unique(parts: Parts) -> Iterator[Issue]:
    seen_formulas: dict[Formula, int] = {}
    for i, substance in enumerate(parts.substances or ()):
        if not parses(substance.formula):
            continue
        if substance.parsed in seen_formulas:
            first = seen_formulas[substance.parsed]
            yield Issue(
                "unique-ids",
                f"{substance.formula} has the same composition as substances[{first}] "
                f"({parts.substances[first].formula})",  # type: ignore[index]
                file=SUBSTANCES,
                path=("substances", i, "formula"),
                hint="list each substance once",
            )
        else:
            seen_formulas[substance.parsed] = i
    yield from _unique(
        RAW, ((("raw_materials", i, "id"), r.id) for i, r in enumerate(parts.raw_materials or ()))
    )
    yield from _unique_numbers(parts)
    yield from _unique(
        INSTALLATIONS, (((*path, "id"), card.id) for path, card in reactor_cards(parts))
    )
    yield from _unique(
        MISSIONS,
        ((("mission_card", "missions", i, "id"), m.id) for i, m in enumerate(parts.missions or ())),
    )
    if parts.components is not None:
        yield from _unique(
            COMPONENTS,
            (
                (("components", "colours", i, "id"), c.id)
                for i, c in enumerate(parts.components.colours)
            ),
        )
        yield from _unique(
            COMPONENTS,
            (
                (("components", "upgrades", i, "id"), u.id)
                for i, u in enumerate(parts.components.upgrades)
            ),
        )


def _unique(file: str, values: Iterator[tuple[Path, str]]) -> Iterator[Issue]:
    first: dict[str, Path] = {}
    for path, value in values:
        if value in first:
            yield Issue(
                "unique-ids",
                f"{value!r} is used twice (first at {_short(first[value])})",
                file=file,
                path=path,
                hint="give it another ID",
            )
        else:
            first[value] = path


def _unique_numbers(parts: Parts) -> Iterator[Issue]:
    """A number used twice, with the fix its cards point to (their IDs name the intended one)."""
    installations = parts.installations or ()
    used = {installation.number for installation in installations}
    first: dict[int, int] = {}
    for i, installation in enumerate(installations):
        if installation.number not in first:
            first[installation.number] = i
            continue
        named = _card_numbers(installation.cards)
        if len(named) == 1 and (intended := next(iter(named))) not in used:
            hint = (
                f"its cards name installation {intended}, which no other has: "
                f"write number: {intended}"
            )
        else:
            hint = (
                f"give it a number no other installation has, e.g. {max(used) + 1}, "
                "and number its cards to match"
            )
        yield Issue(
            "unique-ids",
            f"installation number {installation.number} is used twice "
            f"(first at installations[{first[installation.number]}].number)",
            file=INSTALLATIONS,
            path=("installations", i, "number"),
            hint=hint,
        )


def _card_numbers(cards: Iterable[ReactorCard]) -> set[int]:
    numbers: set[int] = set()
    for card in cards:
        try:
            card_id = read_card_id(card.id)
        except CardIdError:
            continue
        if not card_id.is_electrolyser:
            numbers.add(card_id.number)
    return numbers


def _short(path: Path) -> str:
    from mhp_cards.issues import format_path  # noqa: PLC0415

    return format_path(path)


def _card_number_hint(parts: Parts, number: int, named: int) -> str:
    """When the installation's own number is the duplicate, the card ID is right and it is not."""
    numbers = [installation.number for installation in parts.installations or ()]
    if numbers.count(number) > 1 and named and named not in numbers:
        return f"installation number {number} is used twice: write number: {named} for this one"
    return ""


@check("card-ids", "card IDs are the installation number and a Cyrillic letter", INSTALLATIONS)
def _check_card_ids(parts: Parts) -> Iterator[Issue]:
    for i, installation in enumerate(parts.installations or ()):
        letters = []
        for j, card in enumerate(installation.cards):
            path = ("installations", i, "cards", j, "id")
            try:
                card_id = read_card_id(card.id)
            except CardIdError as error:
                yield Issue("card-ids", str(error), file=INSTALLATIONS, path=path)
                continue
            if card_id.latin_lookalikes:
                yield Issue(
                    "card-ids",
                    f"card ID {card.id!r} uses the Latin letter {card_id.latin_lookalikes!r}",
                    file=INSTALLATIONS,
                    path=path,
                    offset=len(card.id) - 1,
                    hint=f"write the Cyrillic {card_id.letter!r}: {card_id.text}",
                )
            if card_id.is_electrolyser or card_id.number != installation.number:
                yield Issue(
                    "card-ids",
                    f"card {card.id} is in installation {installation.number} but its ID names "
                    + (
                        "an electrolyser"
                        if card_id.is_electrolyser
                        else f"installation {card_id.number}"
                    ),
                    file=INSTALLATIONS,
                    path=path,
                    hint=_card_number_hint(parts, installation.number, card_id.number)
                    or f"number it {installation.number}{card_id.letter}",
                )
            letters.append(card_id.letter)
        expected = list(CARD_LETTERS[: len(letters)])
        if letters and sorted(letters, key=_letter_rank) != expected:
            yield Issue(
                "card-ids",
                f"installation {installation.number} uses the letters {''.join(letters)}",
                file=INSTALLATIONS,
                path=("installations", i, "cards"),
                hint=f"letter its cards {', '.join(expected)} in order",
                severity="warning",
            )
    for j, card in enumerate(parts.electrolysers or ()):
        try:
            is_electrolyser = read_card_id(card.id).is_electrolyser
        except CardIdError:
            is_electrolyser = False
        if not is_electrolyser:
            yield Issue(
                "card-ids",
                f"electrolyser card ID {card.id!r} does not start with {ELECTROLYSER!r}",
                file=INSTALLATIONS,
                path=("electrolysers", j, "id"),
                hint=f"name them {ELECTROLYSER}1..{ELECTROLYSER}5",
            )


def _letter_rank(letter: str) -> int:
    return CARD_LETTERS.find(letter) if letter in CARD_LETTERS else len(CARD_LETTERS)


@check(
    "card-groups", "one main card per installation; electrolysers only as group 2", INSTALLATIONS
)
def _check_groups(parts: Parts) -> Iterator[Issue]:
    for i, installation in enumerate(parts.installations or ()):
        mains = [j for j, card in enumerate(installation.cards) if card.group == "main"]
        if len(mains) != 1:
            yield Issue(
                "card-groups",
                f"installation {installation.number} has {len(mains)} main cards (red circle)",
                file=INSTALLATIONS,
                path=("installations", i, "cards", mains[1])
                if len(mains) > 1
                else ("installations", i, "cards"),
                hint="exactly one card of an installation has group: main",
                rule="L2.S1",
            )
        for j, card in enumerate(installation.cards):
            if card.group == "electrolyser":
                yield Issue(
                    "card-groups",
                    f"{card.id} has group electrolyser inside installation {installation.number}",
                    file=INSTALLATIONS,
                    path=("installations", i, "cards", j, "group"),
                    hint="list electrolysers under 'electrolysers:'; use group main or part here",
                    rule="L2.S1",
                )
    for j, card in enumerate(parts.electrolysers or ()):
        if card.group != "electrolyser":
            yield Issue(
                "card-groups",
                f"{card.id} is listed under electrolysers with group {card.group}",
                file=INSTALLATIONS,
                path=("electrolysers", j, "group"),
                hint="write group: electrolyser",
                rule="L2.S1",
            )


@check("electrolysers", "there are five identical electrolyser cards", INSTALLATIONS)
def _check_electrolysers(parts: Parts) -> Iterator[Issue]:
    electrolysers = parts.electrolysers or ()
    if len(electrolysers) != 5:
        yield Issue(
            "electrolysers",
            f"{len(electrolysers)} electrolyser cards; the game has five, one per player",
            file=INSTALLATIONS,
            path=("electrolysers",),
            hint="list exactly five identical electrolyser cards",
            rule="L2.S1",
        )
    if not electrolysers:
        return
    model = electrolysers[0].model_dump(exclude={"id"})
    for j, card in enumerate(electrolysers[1:], start=1):
        difference = _first_difference(model, card.model_dump(exclude={"id"}), ())
        if difference is None:
            continue
        where, theirs, ours = difference
        field = ".".join(str(step) for step in where)
        yield Issue(
            "electrolysers",
            f"electrolyser {card.id} differs from {electrolysers[0].id} at {field}: "
            f"{_in_words(ours)} here, {_in_words(theirs)} on {electrolysers[0].id}",
            file=INSTALLATIONS,
            path=("electrolysers", j, *where),
            hint=f"the five electrolysers are identical cards: write {_in_words(theirs)}",
            rule="L2.S1",
        )


def _in_words(value: object) -> str:
    """A dumped port, container or list of them as a designer reads it."""
    if isinstance(value, dict) and {"edge", "position", "substance", "direction"} <= set(value):
        optional = " (optional)" if value.get("optional") else ""
        return (
            f"{value['substance']} {value['direction']} at the {value['edge']} edge, "
            f"position {value['position']}{optional}"
        )
    if isinstance(value, dict) and {"substance", "role"} <= set(value):
        places = f", {value['places']} places" if value.get("places") else ""
        return f"a {value['role']} container of {value['substance']}{places}"
    if isinstance(value, list | tuple):
        return listing(_in_words(item) for item in value) if value else "none"
    return shown(value)


def _first_difference(a: object, b: object, path: Path) -> tuple[Path, object, object] | None:
    """The first place where two dumped models differ: (path, value in a, value in b)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in dict.fromkeys([*a, *b]):
            found = _first_difference(a.get(key), b.get(key), (*path, key))
            if found is not None:
                return found
        return None
    if isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_difference(x, y, (*path, index))
            if found is not None:
                return found
        return None
    return None if a == b else (path, a, b)
