"""Checks of the box: setup counts, components, prices."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from itertools import pairwise

from mhp_cards.assembly.played import production_steps
from mhp_cards.catalog.models import (
    Catalog,
    Substance,
)
from mhp_cards.chem.formula import Formula
from mhp_cards.errors import FormulaError, ReactionError
from mhp_cards.game.setups import SetupItem, check_setup
from mhp_cards.issues import Issue
from mhp_cards.rules.numbers import LEVELS, PLAYERS, UPGRADE_PRICE, UPGRADE_RULES
from mhp_cards.validate.checks.fields import parses
from mhp_cards.validate.checks.parts import COMPONENTS, INSTALLATIONS, RAW, SUBSTANCES, Parts
from mhp_cards.validate.checks.reachability import require_raw_formulas
from mhp_cards.validate.checks.registry import SkipCheck, check
from mhp_cards.validate.checks.value import require_card_formulas

__all__: list[str] = []


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
    for upgrade_id, rule in UPGRADE_RULES.items():
        upgrade = components.upgrade(upgrade_id)
        if upgrade is None:
            yield Issue(
                "components",
                f"no upgrade {upgrade_id!r}; the rules sell it for {UPGRADE_PRICE} мР",
                file=COMPONENTS,
                path=("components", "upgrades"),
                hint=f"add '- id: {upgrade_id}' with price {UPGRADE_PRICE}",
                rule=rule,
            )
        elif upgrade.price != UPGRADE_PRICE:
            index = components.upgrades.index(upgrade)
            yield Issue(
                "components",
                f"{upgrade_id} costs {upgrade.price} мР; the rules say {UPGRADE_PRICE}",
                file=COMPONENTS,
                path=("components", "upgrades", index, "price"),
                hint=f"set price: {UPGRADE_PRICE}",
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
    require_raw_formulas(parts)
    steps = _steps(parts)
    by_depth: dict[int, list[Substance]] = defaultdict(list)
    for substance in parts.substances or ():
        if parses(substance.formula) and substance.parsed in steps:
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
    """Fewest production steps to each substance, along the routes play takes.

    The one definition is :func:`mhp_cards.assembly.played.production_steps`.
    """
    require_card_formulas(parts)
    try:
        return production_steps(parts.box())
    except (ReactionError, FormulaError):
        raise SkipCheck("a reaction does not read (reported by 'reactions')") from None
