"""Checks of the catalog's meaning: chemistry, references, assembly, reachability, setup counts.

Each check is a function registered with the catalog files it needs; the runner skips a check
when one of those files could not be read (its errors are reported already) so that every
other problem is still found in the same run. A check yields :class:`Issue` values carrying a
file and a path into it; the loader turns paths into lines and columns.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Final

from mhp_cards.cardflow import card_flow_problems
from mhp_cards.cardid import ELECTROLYSER, CardIdError, read_card_id
from mhp_cards.catalog.models import (
    CARD_LETTERS,
    Catalog,
    Components,
    Installation,
    Mission,
    RawMaterial,
    ReactorCard,
    Substance,
    formula_of,
    reaction_of,
)
from mhp_cards.errors import FormulaError, ReactionError
from mhp_cards.formula import Formula
from mhp_cards.issues import Issue, Path
from mhp_cards.missions import find_exact_sum
from mhp_cards.setups import LEVELS, PLAYERS, SetupItem, check_setup
from mhp_cards.solver import solve

__all__ = ["CHECKS", "Check", "Parts", "run_checks"]

SUBSTANCES: Final = "substances.yaml"
RAW: Final = "raw_materials.yaml"
INSTALLATIONS: Final = "installations.yaml"
MISSIONS: Final = "missions.yaml"
COMPONENTS: Final = "components.yaml"


@dataclass(frozen=True, slots=True)
class Parts:
    """The catalog files that could be read (None for a file with structural errors)."""

    substances: tuple[Substance, ...] | None = None
    raw_materials: tuple[RawMaterial, ...] | None = None
    installations: tuple[Installation, ...] | None = None
    electrolysers: tuple[ReactorCard, ...] | None = None
    missions: tuple[Mission, ...] | None = None
    components: Components | None = None

    def catalog(self) -> Catalog | None:
        """The whole catalog, when every part is there."""
        if (
            self.substances is None
            or self.raw_materials is None
            or self.installations is None
            or self.electrolysers is None
            or self.missions is None
            or self.components is None
        ):
            return None
        return Catalog(
            substances=self.substances,
            raw_materials=self.raw_materials,
            installations=self.installations,
            electrolysers=self.electrolysers,
            missions=self.missions,
            components=self.components,
        )


CheckFunction = Callable[[Parts], Iterator[Issue]]


@dataclass(frozen=True, slots=True)
class Check:
    """A registered check: its name, what it verifies, the files it needs."""

    name: str
    description: str
    needs: tuple[str, ...]
    run: CheckFunction


CHECKS: list[Check] = []


class SkipCheck(Exception):  # noqa: N818 - a signal, not an error
    """Raised by a check that cannot judge yet (its status then says why)."""


def check(name: str, description: str, *needs: str) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check function under ``name``."""

    def register(function: CheckFunction) -> CheckFunction:
        CHECKS.append(Check(name, description, needs, function))
        return function

    return register


def _available(parts: Parts, file: str) -> bool:
    return {
        SUBSTANCES: parts.substances is not None,
        RAW: parts.raw_materials is not None,
        INSTALLATIONS: parts.installations is not None,
        MISSIONS: parts.missions is not None,
        COMPONENTS: parts.components is not None,
    }[file]


def run_checks(parts: Parts) -> tuple[list[Issue], dict[str, str]]:
    """Run every check whose files are available; return the issues and each check's status."""
    issues: list[Issue] = []
    status: dict[str, str] = {}
    broken = _broken_formulas(parts)
    for registered in CHECKS:
        missing = [file for file in registered.needs if not _available(parts, file)]
        if missing:
            status[registered.name] = f"skipped: {', '.join(missing)} has errors"
            continue
        try:
            found = [
                issue
                for issue in registered.run(parts)
                if registered.name in {"formulas", "reactions"} or not _mentions(issue, broken)
            ]
        except SkipCheck as skipped:
            status[registered.name] = f"skipped: {skipped}"
            continue
        issues.extend(found)
        errors = sum(issue.severity == "error" for issue in found)
        warnings = len(found) - errors
        status[registered.name] = (
            "ok"
            if not found
            else ", ".join(
                part
                for part in (
                    f"{errors} error(s)" if errors else "",
                    f"{warnings} warning(s)" if warnings else "",
                )
                if part
            )
        )
    return issues, status


def _mentions(issue: Issue, broken: set[str]) -> bool:
    """True when an issue is only a consequence of a formula that does not parse."""
    return any(
        f"'{text}'" in issue.message or f" {text} " in f" {issue.message} " for text in broken
    )


def _broken_formulas(parts: Parts) -> set[str]:
    broken = set()
    for _, _, text in _formula_fields(parts):
        try:
            formula_of(text)
        except FormulaError:
            broken.add(text)
    return broken


# Where formulas and reactions stand --------------------------------------------------------------


def _cards(parts: Parts) -> Iterator[tuple[Path, ReactorCard]]:
    for i, installation in enumerate(parts.installations or ()):
        for j, card in enumerate(installation.cards):
            yield ("installations", i, "cards", j), card
    for j, card in enumerate(parts.electrolysers or ()):
        yield ("electrolysers", j), card


def _formula_fields(parts: Parts) -> Iterator[tuple[str, Path, str]]:
    """Every formula written in the catalog: (file, path, text)."""
    for i, substance in enumerate(parts.substances or ()):
        yield SUBSTANCES, ("substances", i, "formula"), substance.formula
    for i, raw in enumerate(parts.raw_materials or ()):
        yield RAW, ("raw_materials", i, "formula"), raw.formula
    for path, card in _cards(parts):
        for k, container in enumerate(card.containers):
            yield INSTALLATIONS, (*path, "containers", k, "substance"), container.substance
        for k, port in enumerate(card.ports):
            yield INSTALLATIONS, (*path, "ports", k, "substance"), port.substance
    for i, mission in enumerate(parts.missions or ()):
        for k, place in enumerate(mission.places):
            yield MISSIONS, ("mission_card", "missions", i, "places", k, "formula"), place.formula


def _reaction_fields(parts: Parts) -> Iterator[tuple[Path, str]]:
    for i, installation in enumerate(parts.installations or ()):
        yield ("installations", i, "reaction"), installation.reaction
    for path, card in _cards(parts):
        for k, text in enumerate(card.reactions):
            yield (*path, "reactions", k), text


def _parsed_reactions(parts: Parts) -> Iterator[tuple[Path, str]]:
    """The reaction fields that parse (the others are reported by the "reactions" check)."""
    for path, text in _reaction_fields(parts):
        try:
            reaction_of(text)
        except ReactionError:
            continue
        yield path, text


# Chemistry ---------------------------------------------------------------------------------------


@check("formulas", "every formula follows the grammar")
def _check_formulas(parts: Parts) -> Iterator[Issue]:
    for file, path, text in _formula_fields(parts):
        try:
            formula_of(text)
        except FormulaError as error:
            yield Issue(
                "formulas",
                f"formula {text!r}: {error.message}",
                file=file,
                path=path,
                offset=error.position,
                hint="see the formula grammar in the README",
            )


@check("reactions", "every reaction reads and balances (elements and charge)", INSTALLATIONS)
def _check_reactions(parts: Parts) -> Iterator[Issue]:
    for path, text in _reaction_fields(parts):
        try:
            reaction = reaction_of(text)
        except ReactionError as error:
            yield Issue(
                "reactions",
                f"reaction {text!r}: {error.message}",
                file=INSTALLATIONS,
                path=path,
                offset=error.position,
            )
            continue
        if reaction.is_balanced:
            continue
        difference = ", ".join(f"{key} {n:+d}" for key, n in reaction.imbalance.items())
        try:
            hint = f"balanced it reads {reaction.balance()}"
        except ReactionError as error:
            reason = error.message.removeprefix("cannot be balanced: ")
            hint = f"no coefficients fix it: {reason}; check the species"
        yield Issue(
            "reactions",
            f"reaction {text!r} does not balance: {difference} (products − reactants)",
            file=INSTALLATIONS,
            path=path,
            hint=hint,
        )


@check("known-substances", "every formula used is listed in substances.yaml", SUBSTANCES)
def _check_known_substances(parts: Parts) -> Iterator[Issue]:
    substances = parts.substances or ()
    if not all(_parses(s.formula) for s in substances):
        # Which substance a broken formula meant is unknown: every use would look unlisted.
        raise SkipCheck("a formula in substances.yaml does not parse (reported by 'formulas')")
    known = {s.parsed for s in substances}
    for file, path, text in _formula_fields(parts):
        if file == SUBSTANCES or not _parses(text):
            continue
        if formula_of(text) not in known:
            yield Issue(
                "known-substances",
                f"{text} is not listed in substances.yaml",
                file=file,
                path=path,
                hint=f"add '- formula: {text}' with its names and price to substances.yaml",
            )
    if parts.installations is None:
        return
    for path, text in _parsed_reactions(parts):
        reaction = reaction_of(text)
        reported: set[Formula] = set()
        for index, formula in enumerate(reaction.species):
            if formula.is_electron or formula in known or formula in reported:
                continue
            reported.add(formula)
            yield Issue(
                "known-substances",
                f"{formula} in reaction {text!r} is not listed in substances.yaml",
                file=INSTALLATIONS,
                path=path,
                offset=_species_offset(reaction.positions, index, text),
                hint=f"add '- formula: {formula}' with its names and price to substances.yaml",
            )


def _species_offset(positions: tuple[int, ...], index: int, text: str) -> int:
    """Where the formula of species ``index`` starts in the reaction text (past its coefficient)."""
    start = positions[index] if index < len(positions) else 0
    while start < len(text) and (text[start].isdigit() or text[start] == " "):
        start += 1
    return start


def _parses(text: str) -> bool:
    try:
        formula_of(text)
    except FormulaError:
        return False
    return True


# Identity ----------------------------------------------------------------------------------------


@check("unique-ids", "IDs, numbers and substances are unique")
def _check_unique(parts: Parts) -> Iterator[Issue]:
    seen_formulas: dict[Formula, int] = {}
    for i, substance in enumerate(parts.substances or ()):
        if not _parses(substance.formula):
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
    yield from _unique(
        INSTALLATIONS,
        (
            (("installations", i, "number"), str(inst.number))
            for i, inst in enumerate(parts.installations or ())
        ),
    )
    yield from _unique(INSTALLATIONS, (((*path, "id"), card.id) for path, card in _cards(parts)))
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


def _short(path: Path) -> str:
    from mhp_cards.issues import format_path  # noqa: PLC0415

    return format_path(path)


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
                    hint=f"number it {installation.number}{card_id.letter}",
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
        shown = ".".join(str(step) for step in where)
        yield Issue(
            "electrolysers",
            f"electrolyser {card.id} differs from {electrolysers[0].id} at {shown}: "
            f"{ours!r} here, {theirs!r} on {electrolysers[0].id}",
            file=INSTALLATIONS,
            path=("electrolysers", j, *where),
            hint=f"the five electrolysers are identical cards: write {theirs!r}",
            rule="L2.S1",
        )


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


# Cards and assembly ------------------------------------------------------------------------------


def _chemistry_ok(card: ReactorCard) -> bool:
    try:
        for text in card.reactions:
            reaction_of(text)
        for container in card.containers:
            formula_of(container.substance)
        for port in card.ports:
            formula_of(port.substance)
    except (FormulaError, ReactionError):
        return False
    return True


@check("card-flow", "what enters a card is used or passed on; what leaves is made", INSTALLATIONS)
def _check_card_flow(parts: Parts) -> Iterator[Issue]:
    for path, card in _cards(parts):
        if not _chemistry_ok(card):
            continue
        for problem in card_flow_problems(card):
            if problem.edge is not None:
                index = next(
                    k
                    for k, port in enumerate(card.ports)
                    if port.edge == problem.edge and port.position == problem.position
                )
                where: Path = (*path, "ports", index, "substance")
            else:
                index = next(
                    (k for k, c in enumerate(card.containers) if c.substance == problem.found), 0
                )
                where = (*path, "containers", index, "substance")
            yield Issue(
                "card-flow",
                problem.message,
                file=INSTALLATIONS,
                path=where,
                hint=f"expected {problem.expected}",
            )


@check("assembly", "every installation assembles, and in one way", INSTALLATIONS)
def _check_assembly(parts: Parts) -> Iterator[Issue]:
    electrolysers = parts.electrolysers or ()
    electrolyser = electrolysers[0] if electrolysers else None
    if electrolyser is not None and not _chemistry_ok(electrolyser):
        return
    for i, installation in enumerate(parts.installations or ()):
        if not all(_chemistry_ok(card) for card in installation.cards):
            continue
        try:
            overall = installation.parsed_reaction
        except ReactionError:
            continue
        if not overall.is_balanced:
            continue  # the "reactions" check reports it; no card set could match it
        solution = solve(installation.cards, electrolyser, overall)
        path: Path = ("installations", i)
        if not solution.arrangements:
            hint = (
                "check the card reactions and the overall reaction"
                if solution.failure == "net-reaction"
                else "check the ports: positions on facing edges, substances, in/out"
            )
            yield Issue(
                "assembly",
                f"installation {installation.number} cannot be assembled: {solution.reason}",
                file=INSTALLATIONS,
                path=path,
                hint=hint,
            )
        elif len(solution.arrangements) > 1:
            shown = "; ".join(str(a) for a in solution.arrangements[:3])
            yield Issue(
                "assembly",
                f"installation {installation.number} assembles in {len(solution.arrangements)} "
                f"ways ({shown}…)",
                file=INSTALLATIONS,
                path=path,
                hint="place the ports so that the cards fit together in one way only",
                severity="warning",
            )


# Reachability ------------------------------------------------------------------------------------


def _products_by_installation(parts: Parts) -> dict[Formula, list[str]]:
    makers: dict[Formula, list[str]] = defaultdict(list)
    for installation in parts.installations or ():
        try:
            reaction = installation.parsed_reaction
        except ReactionError:
            continue
        for _, formula in reaction.products:
            makers[formula].append(f"installation {installation.number}")
    electrolysers = parts.electrolysers or ()
    if electrolysers:
        for text in electrolysers[0].reactions:
            try:
                reaction = reaction_of(text)
            except ReactionError:
                continue
            for _, formula in reaction.products:
                makers[formula].append("the electrolyser")
    return makers


def _require_raw_formulas(parts: Parts) -> None:
    """Skip a check of what can be obtained while a raw card's formula does not parse.

    Which substance the broken card was meant to be is unknown, so every conclusion drawn
    from the deck would be a guess (and a cascade of follow-up errors).
    """
    if not all(_parses(raw.formula) for raw in parts.raw_materials or ()):
        raise SkipCheck("a raw card's formula does not parse (reported by 'formulas')")


def _raw_substances(parts: Parts) -> set[Formula]:
    return {raw.parsed for raw in parts.raw_materials or () if _parses(raw.formula)}


@check(
    "inputs-obtainable",
    "every installation input is a raw card, another installation's product or an electrolyser's",
    INSTALLATIONS,
    RAW,
)
def _check_inputs(parts: Parts) -> Iterator[Issue]:
    _require_raw_formulas(parts)
    raw = _raw_substances(parts)
    makers = _products_by_installation(parts)
    for i, installation in enumerate(parts.installations or ()):
        try:
            reaction = installation.parsed_reaction
        except ReactionError:
            continue
        own = f"installation {installation.number}"
        for _, formula in reaction.reactants:
            others = [m for m in makers.get(formula, []) if m != own]
            if formula not in raw and not others:
                yield Issue(
                    "inputs-obtainable",
                    f"installation {installation.number} needs {formula}, which is no raw card "
                    "and no product of another installation or of the electrolyser",
                    file=INSTALLATIONS,
                    path=("installations", i, "reaction"),
                    hint=f"add a raw card of {formula} or an installation that makes it",
                )


def obtainable(parts: Parts) -> set[Formula]:
    """Substances a level-2 player can get: raw cards, then what installations make of them."""
    have = set(_raw_substances(parts))
    processes: list[tuple[list[Formula], list[Formula]]] = []
    reactions = [installation.reaction for installation in parts.installations or ()]
    if parts.electrolysers:
        reactions += list(parts.electrolysers[0].reactions)
    for text in reactions:
        try:
            reaction = reaction_of(text)
        except ReactionError:
            continue
        processes.append(([f for _, f in reaction.reactants], [f for _, f in reaction.products]))
    changed = True
    while changed:
        changed = False
        for inputs, outputs in processes:
            if all(f in have for f in inputs) and not all(f in have for f in outputs):
                have.update(outputs)
                changed = True
    return have


@check(
    "missions-level-2",
    "every mission product is made by an installation from obtainable inputs (level 2)",
    INSTALLATIONS,
    RAW,
    MISSIONS,
)
def _check_missions_level_2(parts: Parts) -> Iterator[Issue]:
    _require_raw_formulas(parts)
    makers = _products_by_installation(parts)
    have = obtainable(parts)
    for i, mission in enumerate(parts.missions or ()):
        for k, place in enumerate(mission.places):
            if not _parses(place.formula):
                continue
            path = ("mission_card", "missions", i, "places", k, "formula")
            if place.parsed not in makers:
                yield Issue(
                    "missions-level-2",
                    f"mission {mission.id} asks for {place.formula}, which no installation makes",
                    file=MISSIONS,
                    path=path,
                    hint="ask for a product of an installation, or add one that makes it",
                    rule="L2.M1",
                )
            elif place.parsed not in have:
                yield Issue(
                    "missions-level-2",
                    f"mission {mission.id} asks for {place.formula}, but the inputs of "
                    f"{', '.join(makers[place.parsed])} cannot be obtained from the raw cards",
                    file=MISSIONS,
                    path=path,
                    rule="L2.E1",
                )


@check(
    "missions-level-1",
    "every mission's element counts are an exact sum of raw cards of the deck (level 1)",
    RAW,
    MISSIONS,
)
def _check_missions_level_1(parts: Parts) -> Iterator[Issue]:
    _require_raw_formulas(parts)
    raws = [raw for raw in parts.raw_materials or () if _parses(raw.formula)]
    items = [(dict(raw.parsed.elements), raw.copies) for raw in raws]
    for i, mission in enumerate(parts.missions or ()):
        if not all(_parses(place.formula) for place in mission.places):
            continue
        target = mission.elements
        if find_exact_sum(items, target) is None:
            wanted = Formula.from_elements(target).hill()
            yield Issue(
                "missions-level-1",
                f"mission {mission.id} needs exactly {wanted}, which no set of raw cards of the "
                "deck adds up to",
                file=MISSIONS,
                path=("mission_card", "missions", i, "places"),
                hint="change the mission's products or counts, or the raw deck",
                rule="L1.E1",
            )


# The box -----------------------------------------------------------------------------------------


@check(
    "setup-counts",
    "card counts allow levels 1, 2, 1v1 and 3 for 2 to 5 players",
    RAW,
    INSTALLATIONS,
    COMPONENTS,
)
def _check_setup_counts(parts: Parts) -> Iterator[Issue]:
    assert parts.raw_materials is not None
    assert parts.installations is not None
    assert parts.electrolysers is not None
    assert parts.components is not None
    # Setup needs no substance and no mission: judge the box even if those files are broken.
    box = Catalog(
        substances=(),
        raw_materials=parts.raw_materials,
        installations=parts.installations,
        electrolysers=parts.electrolysers,
        missions=(),
        components=parts.components,
    )
    failures: dict[tuple[str, str], tuple[SetupItem, list[str], list[int]]] = {}
    for level in LEVELS:
        for players in (2,) if level == "1v1" else PLAYERS:
            for item in check_setup(box, level, players).failures:
                if item.rule == "L2.S1":
                    continue  # the "electrolysers" check reports it, located at the card
                entry = failures.setdefault((item.rule, item.text), (item, [], []))
                if level not in entry[1]:
                    entry[1].append(level)
                entry[2].append(players)
    for item, levels, counts in failures.values():
        top = item.subject[:1]
        if top == ("raw_materials",):
            file = RAW
        elif top in {("installations",), ("electrolysers",)}:
            file = INSTALLATIONS
        else:
            file = COMPONENTS
        played = sorted(set(counts))
        who = f"{played[0]}–{played[-1]} players" if len(played) > 1 else f"{played[0]} players"
        yield Issue(
            "setup-counts",
            f"level {', '.join(levels)} ({who}): {item.text}",
            file=file,
            path=item.subject,
            hint=item.hint,
            rule=item.rule,
        )


@check("components", "the box holds what the rules use", COMPONENTS)
def _check_components(parts: Parts) -> Iterator[Issue]:
    components = parts.components
    assert components is not None
    for upgrade_id, rule in (("solar-battery", "L1.T3"), ("armour", "L1.T6")):
        upgrade = components.upgrade(upgrade_id)
        if upgrade is None:
            yield Issue(
                "components",
                f"no upgrade {upgrade_id!r}; the rules sell it for 4 мР",
                file=COMPONENTS,
                path=("components", "upgrades"),
                hint=f"add '- id: {upgrade_id}' with price 4",
                rule=rule,
            )
        elif upgrade.price != 4:
            index = components.upgrades.index(upgrade)
            yield Issue(
                "components",
                f"{upgrade_id} costs {upgrade.price} мР; the rules say 4",
                file=COMPONENTS,
                path=("components", "upgrades", index, "price"),
                hint="set price: 4",
                rule=rule,
            )
    if components.base_card.count != 1:
        yield Issue(
            "components",
            f"{components.base_card.count} Base cards; the field has one Base",
            file=COMPONENTS,
            path=("components", "base_card", "count"),
            hint="count: 1",
            rule="L1.S2",
        )
    if components.dice.sides != 6:
        yield Issue(
            "components",
            f"dice with {components.dice.sides} sides; the fights use ordinary six-sided dice",
            file=COMPONENTS,
            path=("components", "dice", "sides"),
            severity="warning",
            rule="L1.T4",
        )


@check(
    "prices",
    "prices grow with the number of steps needed to make a substance",
    SUBSTANCES,
    RAW,
    INSTALLATIONS,
)
def _check_prices(parts: Parts) -> Iterator[Issue]:
    _require_raw_formulas(parts)
    steps = _steps(parts)
    by_depth: dict[int, list[Substance]] = defaultdict(list)
    for substance in parts.substances or ():
        if _parses(substance.formula) and substance.parsed in steps:
            by_depth[steps[substance.parsed]].append(substance)
    depths = sorted(by_depth)
    for lower, higher in pairwise(depths):
        ceiling = max(s.price for s in by_depth[lower])
        for substance in by_depth[higher]:
            if substance.price < ceiling:
                index = (parts.substances or ()).index(substance)
                dearest = max(by_depth[lower], key=lambda s: s.price)
                yield Issue(
                    "prices",
                    f"{substance.formula} takes {higher} step(s) but costs {substance.price} мР, "
                    f"less than {dearest.formula} ({lower} step(s), {dearest.price} мР)",
                    file=SUBSTANCES,
                    path=("substances", index, "price"),
                    hint=f"price it at {ceiling} мР or more",
                    severity="warning",
                )


def _steps(parts: Parts) -> dict[Formula, int]:
    """Fewest processing steps to obtain each substance (raw cards: 0)."""
    steps = dict.fromkeys(_raw_substances(parts), 0)
    processes = []
    for installation in parts.installations or ():
        try:
            processes.append(installation.parsed_reaction)
        except ReactionError:
            continue
    if parts.electrolysers:
        for text in parts.electrolysers[0].reactions:
            try:
                processes.append(reaction_of(text))
            except ReactionError:
                continue
    changed = True
    while changed:
        changed = False
        for reaction in processes:
            inputs = [f for _, f in reaction.reactants]
            if not all(f in steps for f in inputs):
                continue
            depth = 1 + max((steps[f] for f in inputs), default=0)
            for _, product in reaction.products:
                if depth < steps.get(product, depth + 1):
                    steps[product] = depth
                    changed = True
    return steps
