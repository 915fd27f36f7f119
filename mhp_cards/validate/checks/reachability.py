"""Reachability checks: every input can be had, every mission can be done."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from mhp_cards.catalog.models import (
    reaction_of,
)
from mhp_cards.chem.exact_sum import find_exact_sum
from mhp_cards.chem.formula import Formula
from mhp_cards.errors import ReactionError
from mhp_cards.issues import Issue
from mhp_cards.validate.checks.fields import parses
from mhp_cards.validate.checks.parts import INSTALLATIONS, MISSIONS, RAW, Parts
from mhp_cards.validate.checks.registry import SkipCheck, check

__all__ = ["obtainable", "raw_substances", "require_raw_formulas"]


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


def require_raw_formulas(parts: Parts) -> None:
    """Skip a check of what can be obtained while a raw card's formula does not parse.

    Which substance the broken card was meant to be is unknown, so every conclusion drawn
    from the deck would be a guess (and a cascade of follow-up errors).
    """
    if not all(parses(raw.formula) for raw in parts.raw_materials or ()):
        raise SkipCheck("a raw card's formula does not parse (reported by 'formulas')")


def raw_substances(parts: Parts) -> set[Formula]:
    """The substances of the raw cards whose formulas parse."""
    return {raw.parsed for raw in parts.raw_materials or () if parses(raw.formula)}


@check(
    "inputs-obtainable",
    "every installation input is a raw card, another installation's product or an electrolyser's",
    INSTALLATIONS,
    RAW,
)
def _check_inputs(parts: Parts) -> Iterator[Issue]:
    require_raw_formulas(parts)
    raw = raw_substances(parts)
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
    have = set(raw_substances(parts))
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
    require_raw_formulas(parts)
    makers = _products_by_installation(parts)
    have = obtainable(parts)
    for i, mission in enumerate(parts.missions or ()):
        for k, place in enumerate(mission.places):
            if not parses(place.formula):
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
    require_raw_formulas(parts)
    raws = [raw for raw in parts.raw_materials or () if parses(raw.formula)]
    items = [(dict(raw.parsed.elements), raw.copies) for raw in raws]
    for i, mission in enumerate(parts.missions or ()):
        if not all(parses(place.formula) for place in mission.places):
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
