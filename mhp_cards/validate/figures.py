"""The design figures of a catalog, computed from the game as the engine plays it.

A designer's note that says "each mission is one run of one installation" or "these kinds are
there for level 1" is a claim about play; here each such figure is computed from the same
model of play the referee uses (:mod:`mhp_cards.assembly.played`: one portion of each input
and each product a run, nothing scored that goes down a pipe) and from the level-1 rule (an
exact element sum of raw cards, L1.E1):

- each installation: what one run lays and makes, the cards' summed reaction, what a run adds
  at printed prices;
- each mission: the fewest installation runs that fill its places at levels 2 and 3, and every
  multiset of raw kinds that completes it at level 1 within the deck's copies;
- each raw kind: the installations it feeds and the level-1 missions it can be part of;
- each product: its production steps and price.

``mhp catalog figures`` prints them; ``catalog/README.md`` carries them between markers, and a
test keeps that copy equal to this computation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

from mhp_cards.assembly.played import PlayedInstallation, played_installation, production_steps
from mhp_cards.catalog.models import Catalog, formula_of
from mhp_cards.chem.exact_sum import all_exact_sums
from mhp_cards.chem.formula import Formula

__all__ = [
    "MOST_RUNS",
    "CatalogFigures",
    "InstallationFigures",
    "MissionFigures",
    "RawFigures",
    "catalog_figures",
    "figures_markdown",
]

#: The most installation runs searched for a mission at levels 2 and 3.
MOST_RUNS = 8


@dataclass(frozen=True, slots=True)
class InstallationFigures:
    """One installation as played."""

    number: int
    name: str
    lays: tuple[str, ...]
    makes: tuple[str, ...]
    summed: str
    runs_alone: bool
    value_in: int | None
    value_out: int | None

    @property
    def adds(self) -> int | None:
        """What one run adds at printed prices (мР)."""
        if self.value_in is None or self.value_out is None:
            return None
        return self.value_out - self.value_in


@dataclass(frozen=True, slots=True)
class MissionFigures:
    """One mission: how it is reached at levels 2–3 and at level 1."""

    id: str
    name: str
    places: tuple[tuple[str, int], ...]
    fewest_runs: tuple[int, ...] | None
    """A shortest multiset of installation runs that fills every place (numbers, sorted), or
    None when none within :data:`MOST_RUNS` does."""
    solutions: tuple[tuple[tuple[str, int], ...], ...]
    """Every multiset of raw kinds (kind ID, copies) whose elements are the mission's exactly."""


@dataclass(frozen=True, slots=True)
class RawFigures:
    """One raw-card kind: where it serves."""

    id: str
    formula: str
    copies: int
    feeds: tuple[int, ...]
    """The installations with a raw-input container for it."""
    missions: tuple[str, ...]
    """The level-1 missions with a solution it is part of."""


@dataclass(frozen=True, slots=True)
class CatalogFigures:
    """Every design figure of a catalog."""

    installations: tuple[InstallationFigures, ...]
    missions: tuple[MissionFigures, ...]
    raw: tuple[RawFigures, ...]
    steps: tuple[tuple[str, int, int], ...]
    """(formula, production steps, price) of every substance play makes, fewest steps first."""

    @property
    def idle_kinds(self) -> tuple[str, ...]:
        """Raw kinds that feed no installation and are part of no level-1 solution."""
        return tuple(r.id for r in self.raw if not r.feeds and not r.missions)


def catalog_figures(catalog: Catalog) -> CatalogFigures:
    """The design figures of ``catalog`` (worked out once per catalog value)."""
    memo = catalog.memo("validate.figures")
    figures: CatalogFigures | None = memo.get("all")
    if figures is None:
        figures = memo["all"] = _compute(catalog)
    return figures


def _compute(catalog: Catalog) -> CatalogFigures:
    prices = {s.parsed: s.price for s in catalog.substances}
    played = [played_installation(catalog, i.number) for i in catalog.installations]
    installations = []
    for installation, laid in zip(catalog.installations, played, strict=True):
        worth = laid.run_worth(prices)
        installations.append(
            InstallationFigures(
                number=installation.number,
                name=installation.name.en,
                lays=laid.inputs,
                makes=laid.outputs,
                summed=str(laid.summed_reaction) if laid.summed_reaction else "",
                runs_alone=catalog.runs_alone(installation),
                value_in=None if worth is None else worth.inputs,
                value_out=None if worth is None else worth.products,
            )
        )
    raw_formulas = {raw.parsed for raw in catalog.raw_materials}
    items = [(raw.parsed.elements, raw.copies) for raw in catalog.raw_materials]
    missions = []
    used_by: dict[str, set[str]] = {raw.id: set() for raw in catalog.raw_materials}
    for mission in catalog.missions:
        solutions = []
        for counts in all_exact_sums(items, mission.elements):
            chosen = tuple(
                (raw.id, n) for raw, n in zip(catalog.raw_materials, counts, strict=True) if n
            )
            solutions.append(chosen)
            for kind, _ in chosen:
                used_by[kind].add(mission.id)
        missions.append(
            MissionFigures(
                id=mission.id,
                name=mission.name.en,
                places=tuple((place.formula, place.count) for place in mission.places),
                fewest_runs=_fewest_runs(
                    played, {place.parsed: place.count for place in mission.places}, raw_formulas
                ),
                solutions=tuple(solutions),
            )
        )
    raw = tuple(
        RawFigures(
            id=kind.id,
            formula=kind.formula,
            copies=kind.copies,
            feeds=tuple(
                laid.number
                for laid in played
                if any(formula_of(s) == kind.parsed for s in laid.inputs)
            ),
            missions=tuple(m.id for m in catalog.missions if m.id in used_by[kind.id]),
        )
        for kind in catalog.raw_materials
    )
    steps = production_steps(catalog)
    made = sorted(
        ((f, n) for f, n in steps.items() if n > 0),
        key=lambda item: (item[1], str(item[0])),
    )
    return CatalogFigures(
        installations=tuple(installations),
        missions=tuple(missions),
        raw=raw,
        steps=tuple((str(f), n, prices[f]) for f, n in made if f in prices),
    )


def _fewest_runs(
    played: list[PlayedInstallation], needed: dict[Formula, int], raw: set[Formula]
) -> tuple[int, ...] | None:
    """A shortest multiset of runs whose products fill ``needed``.

    A run's inputs come from raw cards where a raw kind has the substance; other inputs (the
    ammonia of 4 and 5) must be made by the other runs of the multiset.
    """
    yields = [
        (
            laid.number,
            Counter(formula_of(s) for s in laid.outputs),
            Counter(formula_of(s) for s in laid.inputs if formula_of(s) not in raw),
        )
        for laid in played
    ]
    useful = [y for y in yields if any(f in needed for f in y[1])]
    helpers = [y for y in yields if y not in useful]
    for total in range(1, MOST_RUNS + 1):
        for runs in combinations_with_replacement([*useful, *helpers], total):
            made: Counter[Formula] = Counter()
            for _, outputs, inputs in runs:
                made.update(outputs)
                made.subtract(inputs)
            if all(made[f] >= n for f, n in needed.items()) and all(
                v >= 0 for f, v in made.items() if f not in raw
            ):
                return tuple(sorted(number for number, _, _ in runs))
    return None


def figures_markdown(figures: CatalogFigures) -> str:
    """The figures as the Markdown tables of ``catalog/README.md``."""
    return "\n".join(_markdown(figures)) + "\n"


def _markdown(figures: CatalogFigures) -> Iterator[str]:
    yield "#### Installations: one run (L2.T4-portion, L2.T4-transit)"
    yield ""
    yield "| № | lays (one portion each) | makes (one token each) | the cards summed | мР a run |"
    yield "|---|---|---|---|---|"
    for i in figures.installations:
        adds = "?" if i.adds is None else f"{i.value_in} → {i.value_out} ({i.adds:+d})"
        alone = "" if i.runs_alone else " ¹"
        yield (
            f"| {i.number}{alone} | {' + '.join(i.lays)} | {' + '.join(i.makes)} | "
            f"{i.summed} | {adds} |"
        )
    yield ""
    yield "¹ needs a product of another installation (not dealt head to head, V1.2-runnable)."
    yield ""
    yield "#### Missions: fewest runs at levels 2 and 3, raw-card solutions at level 1"
    yield ""
    yield "| mission | places | fewest runs (installations) | level-1 solutions |"
    yield "|---|---|---|---|"
    for m in figures.missions:
        places = " + ".join(f"{n} {f}" if n > 1 else f for f, n in m.places)
        runs = _runs_text(m, "")
        solutions = f"{_solutions_count(m, figures.raw)}: {_solutions_text(m, figures.raw) or '—'}"
        yield f"| {m.id} {m.name} | {places} | {runs} | {solutions} |"
    yield ""
    yield "#### Raw kinds: where each serves"
    yield ""
    yield "| kind | formula | copies | feeds installations | level-1 missions |"
    yield "|---|---|---|---|---|"
    for r in figures.raw:
        feeds = ", ".join(map(str, r.feeds)) or "—"
        yield f"| {r.id} | {r.formula} | {r.copies} | {feeds} | {', '.join(r.missions) or '—'} |"
    yield ""
    idle = figures.idle_kinds
    cards = sum(r.copies for r in figures.raw if r.id in idle)
    yield _idle_sentence(len(idle), len(figures.raw), cards)
    yield ""
    yield "#### Products: production steps along the routes of play, and price"
    yield ""
    yield "| product | steps | мР |"
    yield "|---|---|---|"
    for formula, steps, price in figures.steps:
        yield f"| {formula} | {steps} | {price} |"


def raw_notes(figures: CatalogFigures) -> str:
    """Where the raw kinds serve, as the comment of ``raw_materials.yaml`` states it."""
    feeding = [r.id for r in figures.raw if r.feeds]
    level_one = [r.id for r in figures.raw if r.missions and not r.feeds]
    idle = list(figures.idle_kinds)
    served = (
        f"{len(feeding)} kinds feed an installation (a raw-input container takes them): "
        f"{', '.join(feeding)}. Level 1 only (part of a mission's exact element sum): "
        f"{', '.join(level_one) or 'none'}."
    )
    if not idle:
        return f"{served} No kind is idle: each serves an installation or a level-1 mission."
    return (
        f"{served} The other {len(idle)} feed no installation and are part of no level-1 "
        f"solution: {', '.join(idle)}; they serve only fights and sales to the Bank."
    )


def _idle_sentence(idle: int, kinds: int, cards: int) -> str:
    """How many kinds (and cards) serve neither level, for the figures' table."""
    if not idle:
        return f"Each of the {kinds} kinds feeds an installation or is part of a level-1 solution."
    return (
        f"{idle} of the {kinds} kinds ({cards} cards) feed no installation and are part of no "
        "level-1 solution: they serve only fights and sales to the Bank."
    )


def mission_notes(figures: CatalogFigures) -> str:
    """How each mission is reached, as the comment of ``missions.yaml`` states it."""
    parts = []
    for m in figures.missions:
        count = len(m.solutions)
        parts.append(
            f"{m.id}: at levels 2 and 3 at least {_runs_text(m, ' runs')}; at level 1 {count} "
            f"solution{'' if count == 1 else 's'} by kind, by formula: "
            f"{_solutions_text(m, figures.raw) or 'none'}."
        )
    return " ".join(parts)


def _runs_text(mission: MissionFigures, unit: str) -> str:
    """The fewest runs, ``3 runs (2, 2, 2)``, or that none was found within the search."""
    if mission.fewest_runs is None:
        return f"none within {MOST_RUNS}"
    runs = mission.fewest_runs
    return f"{len(runs)}{unit} ({', '.join(map(str, runs))})"


def _by_formula(
    mission: MissionFigures, raw: Sequence[RawFigures]
) -> list[tuple[tuple[str, int], ...]]:
    """The level-1 solutions as multisets of formulas, each once, in the order first found.

    Kinds that share a formula (water ice and polar ice, the silica polymorphs) make many
    solutions of one formula multiset; listing every kind multiset would bury the few real
    choices under their permutations.
    """
    formula = {r.id: r.formula for r in raw}
    seen: dict[tuple[tuple[str, int], ...], None] = {}
    for solution in mission.solutions:
        counts: Counter[str] = Counter()
        for kind, n in solution:
            counts[formula[kind]] += n
        seen[tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))] = None
    return list(seen)


def _solutions_text(mission: MissionFigures, raw: Sequence[RawFigures]) -> str:
    """The level-1 solutions by formula, ``4 H2O + 2 CO2; …``."""
    return "; ".join(
        " + ".join(f"{n} {f}" if n > 1 else f for f, n in solution)
        for solution in _by_formula(mission, raw)
    )


def _solutions_count(mission: MissionFigures, raw: Sequence[RawFigures]) -> str:
    """``75 (8 by formula)``: solutions counted by kind, then by formula."""
    return f"{len(mission.solutions)} ({len(_by_formula(mission, raw))} by formula)"
