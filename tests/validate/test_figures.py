"""The design figures: computed from play, and the catalog's notes kept equal to them.

Each figure is checked against a hand computation from the printed cards (what a run lays and
makes, what it adds at printed prices, the fewest runs of a mission, every level-1 solution);
then the notes of ``catalog/README.md``, ``raw_materials.yaml`` and ``missions.yaml`` are
compared with the computation, so no note can describe another game.
"""

from __future__ import annotations

import pytest

from mhp_cards.catalog.models import Names, RawMaterial
from mhp_cards.resources import default_catalog_dir
from mhp_cards.validate import load_catalog
from mhp_cards.validate.figures import (
    catalog_figures,
    figures_markdown,
    mission_notes,
    raw_notes,
)

CATALOG = load_catalog()
FIGURES = catalog_figures(CATALOG)


def _installation(number: int):
    return next(i for i in FIGURES.installations if i.number == number)


def _mission(mission_id: str):
    return next(m for m in FIGURES.missions if m.id == mission_id)


@pytest.mark.parametrize(
    ("number", "lays", "makes", "adds"),
    [
        # CO2 (2) + H2O (1) laid; CH4 (8), H2O (1), O2 (2) made; the piped H2 scores nothing.
        (2, ("CO2", "H2O"), ("CH4", "H2O", "O2"), 8),
        # N2 (1) + O2 (2) + CaCO3 (1) laid; Ca(NO3)2 (12) + CO2 (2) made; the water goes round
        # by pipe (4Г back to 4В) and the nitrogen oxides and nitric acid flow in pipes.
        (4, ("N2", "O2", "CaCO3"), ("Ca(NO3)2", "CO2"), 10),
        # The urea plant makes its own ammonia: H2O (1, the electrolyser's) + N2 (1) + CO2 (2)
        # laid; urea (11) + H2O (1) + the electrolyser's O2 (2) made; H2, NH3 and the
        # carbamate flow in pipes.
        (5, ("H2O", "N2", "CO2"), ("CO(NH2)2", "H2O", "O2"), 10),
        (9, ("Ca(ClO4)2·4H2O",), ("H2O", "CaCl2", "O2"), 5),
    ],
)
def test_a_run_is_priced_as_it_is_played(number, lays, makes, adds) -> None:
    figure = _installation(number)
    assert (figure.lays, figure.makes, figure.adds) == (lays, makes, adds)


def test_every_installation_runs_on_raw_cards_alone() -> None:
    # Installation 5 once took 3's ammonia, and no urea was made in a five-player game where
    # 3 and 5 had different owners; its plant now makes its own (catalog/README.md).
    assert [i.number for i in FIGURES.installations if not i.runs_alone] == []


def test_the_fewest_runs_of_each_mission() -> None:
    # M2 = NaOH + HCl + Ca(NO3)2 + 2 CO2: a run of 7 makes the NaOH and the HCl, a run of 4
    # the Ca(NO3)2 and a CO2, and the second CO2 comes from 1 (or 4 or 10).
    assert _mission("M2").fewest_runs == (1, 4, 7)
    # M3 = urea + CO2 + 2 O2: a run of 5 makes the urea and an O2, a run of 2 (or 3 or 8)
    # the other O2, and the CO2 comes from 1 (or 4 or 10).
    assert len(_mission("M3").fewest_runs or ()) == 3
    assert 5 in (_mission("M3").fewest_runs or ())
    # M1 = 2 CH4 + 4 O2: a run of 2 makes one CH4 and one O2 token.
    assert _mission("M1").fewest_runs == (2, 2, 2, 2)


def _brute_force_solutions(mission_id: str) -> set[tuple[tuple[str, int], ...]]:
    """Every multiset of raw kinds (within copies, at most 8 cards) matching the mission.

    Each multiset is visited once, as a count of each kind in the deck's order, with the
    elements it holds summed on the way; none is left out for its sums.
    """
    target = CATALOG.mission(mission_id).elements
    elements = sorted(target)
    goal = tuple(target[element] for element in elements)
    kinds = [k for k in CATALOG.raw_materials if set(k.parsed.elements) <= set(target)]
    holds = [tuple(k.parsed.elements.get(element, 0) for element in elements) for k in kinds]
    found: set[tuple[tuple[str, int], ...]] = set()
    counts = [0] * len(kinds)

    def extend(start: int, total: tuple[int, ...], size: int) -> None:
        if total == goal:
            found.add(tuple((k.id, n) for k, n in zip(kinds, counts, strict=True) if n))
        if size == 8:
            return
        for index in range(start, len(kinds)):
            if counts[index] < kinds[index].copies:
                counts[index] += 1
                summed = tuple(a + b for a, b in zip(total, holds[index], strict=True))
                extend(index, summed, size + 1)
                counts[index] -= 1

    extend(0, (0,) * len(elements), 0)
    return found


@pytest.mark.parametrize("mission_id", ["M1", "M2", "M3", "M4"])
def test_every_level_one_solution_is_found(mission_id: str) -> None:
    assert set(_mission(mission_id).solutions) == _brute_force_solutions(mission_id)


def test_idle_kinds_serve_neither_level() -> None:
    for kind in FIGURES.raw:
        assert (kind.id in FIGURES.idle_kinds) == (not kind.feeds and not kind.missions)
    assert "carbon-monoxide" not in FIGURES.idle_kinds  # part of M3's level-1 solution
    assert FIGURES.idle_kinds == ()  # every kind of the default deck serves


def test_a_kind_that_serves_nothing_is_idle() -> None:
    argon = RawMaterial(id="argon", formula="Ar", name=Names(ru="Аргон", en="Argon"), copies=1)
    with_argon = CATALOG.model_copy(update={"raw_materials": (*CATALOG.raw_materials, argon)})
    figures = catalog_figures(with_argon)
    assert figures.idle_kinds == ("argon",)
    assert raw_notes(figures).endswith(
        "The other 1 feed no installation and are part of no level-1 solution: argon; they "
        "serve only fights and sales to the Bank."
    )


def test_the_catalog_readme_carries_the_figures() -> None:
    text = (default_catalog_dir() / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- figures:begin -->\n", 1)[1].split("<!-- figures:end -->", 1)[0]
    assert block == figures_markdown(FIGURES), "run `mhp catalog figures` and paste the output"


def _comment(path: str) -> str:
    lines = (default_catalog_dir() / path).read_text(encoding="utf-8").splitlines()
    return " ".join(line.removeprefix("#").strip() for line in lines if line.startswith("#"))


def test_the_raw_deck_notes_are_the_figures() -> None:
    assert raw_notes(FIGURES) in _comment("raw_materials.yaml")


def test_the_mission_notes_are_the_figures() -> None:
    assert mission_notes(FIGURES) in _comment("missions.yaml")


def test_a_note_that_describes_another_game_fails() -> None:
    """The comparison is exact: a stale count in the note is caught."""
    stale = raw_notes(FIGURES).replace("19 kinds", "18 kinds")
    assert stale not in _comment("raw_materials.yaml")
