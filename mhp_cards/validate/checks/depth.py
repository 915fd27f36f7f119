"""Depth checks: the choices the cards give, judged statically (DESIGN.md, depth figures).

- ``level-1-choices``: each mission can be completed at level 1 in at least as many ways as
  ``design.level1_solutions`` asks (distinct multisets of raw kinds within the deck's
  copies), so level 1 is a choice and not a lookup;
- ``raw-kinds-serve``: every raw kind feeds an installation (a raw-input container of the game
  as played takes it) or is part of a level-1 solution; a kind that does neither serves only
  fights and sales;
- ``armour-band``: the design asks for armour to be bought only at levels where the box sells
  it (Ruling L1.T6.R2).

All are warnings: the catalog stays valid, and ``mhp balance`` fails on them.
"""

from __future__ import annotations

from collections.abc import Iterator

from mhp_cards.catalog.models import formula_of
from mhp_cards.chem.exact_sum import all_exact_sums
from mhp_cards.issues import Issue
from mhp_cards.validate.checks.fields import parses
from mhp_cards.validate.checks.parts import COMPONENTS, INSTALLATIONS, MISSIONS, RAW, Parts
from mhp_cards.validate.checks.reachability import require_raw_formulas
from mhp_cards.validate.checks.registry import SkipCheck, check
from mhp_cards.validate.checks.value import played_installations, require_card_formulas

__all__: list[str] = []

#: The fewest level-1 solutions per mission when the catalog declares no ``design``.
DEFAULT_LEVEL1_SOLUTIONS = 3


def _solutions(parts: Parts) -> list[list[tuple[int, ...]]]:
    """Every level-1 solution of each mission (count vectors over the raw kinds)."""
    require_raw_formulas(parts)
    missions = parts.missions or ()
    if not all(parses(place.formula) for m in missions for place in m.places):
        raise SkipCheck("a mission's formula does not parse (reported by 'formulas')")
    items = [(raw.parsed.elements, raw.copies) for raw in parts.raw_materials or ()]
    return [all_exact_sums(items, mission.elements) for mission in missions]


@check(
    "level-1-choices",
    "each mission has several raw-card solutions at level 1 (design.level1_solutions)",
    RAW,
    MISSIONS,
)
def _check_level_one_choices(parts: Parts) -> Iterator[Issue]:
    wanted = parts.design.level1_solutions if parts.design else DEFAULT_LEVEL1_SOLUTIONS
    kinds = [raw.id for raw in parts.raw_materials or ()]
    for i, (mission, found) in enumerate(zip(parts.missions or (), _solutions(parts), strict=True)):
        if len(found) >= wanted:
            continue
        ways = "; ".join(
            " + ".join(f"{n} {kinds[k]}" if n > 1 else kinds[k] for k, n in enumerate(s) if n)
            for s in found
        )
        yield Issue(
            "level-1-choices",
            f"mission {mission.id} has {len(found)} level-1 solution(s) within the deck "
            f"({ways or 'none'}); the design asks for {wanted}",
            file=MISSIONS,
            path=("mission_card", "missions", i, "places"),
            hint=(
                "choose places whose element counts several sets of raw cards add up to, or "
                "add copies of the kinds that would make another set"
            ),
            severity="warning",
            rule="L1.E1",
        )


@check(
    "raw-kinds-serve",
    "every raw kind feeds an installation or is part of a level-1 solution",
    RAW,
    INSTALLATIONS,
    MISSIONS,
)
def _check_raw_kinds_serve(parts: Parts) -> Iterator[Issue]:
    require_card_formulas(parts)
    fed = {
        formula_of(substance)
        for _, played in played_installations(parts)
        for substance in played.inputs
    }
    in_solutions = {
        k for found in _solutions(parts) for solution in found for k, n in enumerate(solution) if n
    }
    for k, raw in enumerate(parts.raw_materials or ()):
        if raw.parsed in fed or k in in_solutions:
            continue
        yield Issue(
            "raw-kinds-serve",
            f"raw kind {raw.id} ({raw.formula}) feeds no installation and is part of no "
            "level-1 solution: it serves only fights and sales to the Bank",
            file=RAW,
            path=("raw_materials", k, "id"),
            hint="give it a use (a raw-input container, a mission whose elements it adds up "
            "to with other cards) or remove it from the deck",
            severity="warning",
            rule="L1.E1",
        )


@check(
    "armour-band",
    "the design's armour bands name only levels where the box sells armour",
    COMPONENTS,
    MISSIONS,
)
def _check_armour_band(parts: Parts) -> Iterator[Issue]:
    armour = parts.components.upgrade("armour") if parts.components else None
    if parts.design is None or armour is None:
        return
    for level in parts.design.armour:
        if armour.sold_at(level):
            continue
        yield Issue(
            "armour-band",
            f"design.armour asks for armour bought at level {level}, where the box does not "
            f"sell it (components.yaml sells it at level {' and '.join(armour.levels)})",
            file=MISSIONS,
            path=("design", "armour", level),
            hint=f"drop the band of level {level}, or add {level!r} to the armour's levels",
            severity="warning",
            rule="L1.T6.R2",
        )
