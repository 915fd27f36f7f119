"""The exact-sum searches against a brute force, and the default deck against every mission."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from mhp_cards.catalog import Catalog
from mhp_cards.chem.exact_sum import (
    add_counts,
    all_exact_sums,
    closest_sum_below,
    find_exact_sum,
    has_exact_sum,
)
from mhp_cards.validate import load_catalog

Items = list[tuple[dict[str, int], int]]
SYMBOLS = ("C", "H", "O", "N", "Fe")


def brute_force(items: Sequence[tuple[Mapping[str, int], int]], target: Mapping[str, int]):
    """Every selection (n_i <= available_i) whose counts sum exactly to the target."""
    wanted = {symbol: n for symbol, n in target.items() if n}
    ranges = [range(max(available, 0) + 1) for _, available in items]
    for taken in itertools.product(*ranges):
        chosen = [(vector, n) for (vector, _), n in zip(items, taken, strict=True)]
        if add_counts(chosen) == wanted:
            yield list(taken)


def assert_selection(items: Items, target: Mapping[str, int], selection: list[int]) -> None:
    assert len(selection) == len(items)
    for n, (_, available) in zip(selection, items, strict=True):
        assert 0 <= n <= max(available, 0)
    chosen = [(vector, n) for (vector, _), n in zip(items, selection, strict=True)]
    assert add_counts(chosen) == {symbol: n for symbol, n in target.items() if n}


vectors = st.dictionaries(st.sampled_from(SYMBOLS), st.integers(1, 4), min_size=1, max_size=3)
hands = st.lists(st.tuples(vectors, st.integers(0, 3)), min_size=0, max_size=6)
random_targets = st.dictionaries(st.sampled_from(SYMBOLS), st.integers(1, 10), max_size=4)


@st.composite
def hands_and_targets(draw) -> tuple[Items, dict[str, int]]:
    items = draw(hands)
    if items and draw(st.booleans()):
        # a target made of a sub-multiset of the hand: a solution exists
        taken = [draw(st.integers(0, available)) for _, available in items]
        target = add_counts([(v, n) for (v, _), n in zip(items, taken, strict=True)])
    else:
        target = draw(random_targets)
    return items, target


@given(hands_and_targets())
@settings(max_examples=1500, deadline=None)
@example(([], {}))
@example(([({"H": 2}, 3)], {}))
@example(([({"H": 2, "O": 1}, 5), ({"C": 1, "O": 2}, 3)], {"C": 1, "H": 4, "O": 4}))
@example(([({"O": 2}, 2), ({"O": 3}, 2)], {"O": 7}))  # greedy on big cards fails; 2 + 2 + 3
@example(([({"O": 3}, 1), ({"O": 2}, 3)], {"O": 4}))  # the big card must be left out
@example(([({"H": 1}, 0)], {"H": 1}))  # none available
def test_find_exact_sum_against_brute_force(case: tuple[Items, dict[str, int]]) -> None:
    items, target = case
    selection = find_exact_sum(items, target)
    solutions = list(brute_force(items, target))
    event("solvable" if solutions else "unsolvable")
    if selection is None:
        assert solutions == []
    else:
        assert_selection(items, target, selection)
        assert selection in solutions


@given(hands_and_targets())
@settings(max_examples=800, deadline=None)
@example(([({"O": 2}, 2), ({"O": 3}, 2), ({"O": 1}, 6)], {"O": 7}))  # many ways
@example(([({"H": 2}, 3)], {}))
def test_all_exact_sums_are_every_solution_once(case: tuple[Items, dict[str, int]]) -> None:
    items, target = case
    found = all_exact_sums(items, target)
    expected = sorted((tuple(s) for s in brute_force(items, target)), reverse=True)
    assert found == expected


def test_the_default_missions_are_reached_many_ways() -> None:
    """Each mission has several multisets of raw kinds, and several of formulas too: the
    polymorphs and phases of one substance (quartz and tridymite, ice and vapour) are no
    choice of chemistry, so the choice is counted both ways."""
    catalog = load_catalog()
    items = [(raw.parsed.elements, raw.copies) for raw in catalog.raw_materials]
    assert [len(all_exact_sums(items, m.elements)) for m in catalog.missions] == [176, 30, 96, 88]
    by_formula: dict[object, tuple[Mapping[str, int], int]] = {}
    for raw in catalog.raw_materials:
        _, copies = by_formula.get(raw.parsed, (raw.parsed.elements, 0))
        by_formula[raw.parsed] = (raw.parsed.elements, copies + raw.copies)
    formulas = list(by_formula.values())
    assert [len(all_exact_sums(formulas, m.elements)) for m in catalog.missions] == [6, 8, 8, 5]


def test_docstring_example() -> None:
    water, co2 = {"H": 2, "O": 1}, {"C": 1, "O": 2}
    assert find_exact_sum([(water, 5), (co2, 3)], {"C": 1, "H": 4, "O": 4}) == [2, 1]


def test_empty_target_takes_nothing() -> None:
    assert find_exact_sum([({"H": 2}, 4), ({"O": 2}, 1)], {}) == [0, 0]


def test_unknown_element_cannot_be_reached() -> None:
    assert find_exact_sum([({"H": 2}, 4)], {"Xe": 1}) is None


def test_cards_with_other_elements_are_not_used() -> None:
    items: Items = [({"C": 1, "O": 2}, 5), ({"O": 2}, 2)]
    assert find_exact_sum(items, {"O": 4}) == [0, 2]


def test_add_counts() -> None:
    assert add_counts([({"H": 2, "O": 1}, 2), ({"C": 1, "O": 2}, 1)]) == {"H": 4, "O": 4, "C": 1}
    assert add_counts([({"H": 2}, 0)]) == {}
    assert add_counts([]) == {}


def test_many_copies_stay_fast() -> None:
    """The search is bounded by the target's counts, not by the number of subsets."""
    items: Items = [({"O": 2}, 40), ({"O": 3}, 40), ({"H": 2, "O": 1}, 40), ({"H": 1}, 40)] * 5
    target = {"H": 61, "O": 97}
    selection = find_exact_sum(items, target)
    assert selection is not None
    assert_selection(items, target, selection)
    assert find_exact_sum([({"O": 2}, 60)] * 10, {"O": 201}) is None


# --- the default game ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def deck(catalog: Catalog) -> Items:
    return [(dict(raw.parsed.elements), raw.copies) for raw in catalog.raw_materials]


@pytest.mark.parametrize("mission_id", ["M1", "M2", "M3", "M4"])
def test_default_deck_completes_every_mission(catalog: Catalog, mission_id: str) -> None:
    mission = catalog.mission(mission_id)
    items = deck(catalog)
    selection = find_exact_sum(items, mission.elements)
    assert selection is not None
    assert_selection(items, mission.elements, selection)
    taken = {raw.id: n for raw, n in zip(catalog.raw_materials, selection, strict=True) if n}
    assert taken  # at least one card


def test_mission_element_counts(catalog: Catalog) -> None:
    # M1: 2 CH4 + 4 O2 = C2 H8 + O8
    assert catalog.mission("M1").elements == {"C": 2, "H": 8, "O": 8}
    # M2: NaOH + HCl + Ca(NO3)2 + 2 CO2 = Na O H + H Cl + Ca N2 O6 + C2 O4
    assert catalog.mission("M2").elements == {
        "Na": 1,
        "Cl": 1,
        "Ca": 1,
        "N": 2,
        "C": 2,
        "H": 2,
        "O": 11,
    }
    # M3: CO(NH2)2 + CO2 + 2 O2 = C O N2 H4 + C O2 + O4
    assert catalog.mission("M3").elements == {"C": 2, "H": 4, "N": 2, "O": 7}
    # M4: Ca2SiO4 + H2SO4 + 2 CO2 = Ca2 Si O4 + H2 S O4 + C2 O4
    assert catalog.mission("M4").elements == {"Ca": 2, "Si": 1, "S": 1, "C": 2, "H": 2, "O": 12}


def test_documented_level_1_solutions_are_exact(catalog: Catalog) -> None:
    """The sums written in the comment of missions.yaml add up."""
    raw = {r.formula: dict(r.parsed.elements) for r in catalog.raw_materials}
    documented = {
        "M1": {"CO2": 2, "H2O": 4},
        "M2": {"H2O": 1, "CO2": 1, "N2": 1, "O2": 1, "O3": 1, "CaCO3": 1, "NaCl": 1},
        "M3": {"H2O": 2, "CO2": 1, "N2": 1, "O2": 1, "CO": 1},
        "M4": {"H2O": 1, "CO2": 1, "SiO2": 1, "CaSO4": 1, "CaCO3": 1},
    }
    for mission_id, cards in documented.items():
        total = add_counts([(raw[formula], n) for formula, n in cards.items()])
        assert total == catalog.mission(mission_id).elements


def test_a_small_hand_of_the_deck(catalog: Catalog) -> None:
    """With a hand missing the water, M1 cannot be completed."""
    items = [(v, n) for v, n in deck(catalog) if "H" not in v]
    assert find_exact_sum(items, catalog.mission("M1").elements) is None


def test_default_deck_has_no_solution_for_an_impossible_mission(catalog: Catalog) -> None:
    # Halite is the only card with sodium, and only 8 copies
    assert find_exact_sum(deck(catalog), {"Na": 9, "Cl": 9}) is None
    assert find_exact_sum(deck(catalog), {"Ar": 1, "Xe": 1}) is None


# --- regressions: zero counts --------------------------------------------------------------------


def test_zero_in_target_means_none_of_that_element() -> None:
    """Regression: {'C': 0} in the target was ignored and a carbon card was taken."""
    assert find_exact_sum([({"C": 1, "H": 2}, 1)], {"C": 0, "H": 2}) is None
    assert find_exact_sum([({"C": 1, "H": 2}, 1), ({"H": 2}, 1)], {"C": 0, "H": 2}) == [0, 1]


def test_zero_in_a_card_vector_is_no_element() -> None:
    """Regression: a card listing {'X': 0} was thrown out although it adds no X."""
    assert find_exact_sum([({"H": 2, "X": 0}, 1)], {"H": 2}) == [1]


def test_empty_card_is_never_needed() -> None:
    assert find_exact_sum([({}, 3), ({"H": 2}, 1)], {"H": 2}) == [0, 1]


zero_vectors = st.dictionaries(st.sampled_from(SYMBOLS), st.integers(0, 3), max_size=3)


@given(
    st.lists(st.tuples(zero_vectors, st.integers(0, 3)), max_size=5),
    st.dictionaries(st.sampled_from(SYMBOLS), st.integers(0, 6), max_size=4),
)
@settings(max_examples=500, deadline=None)
def test_zero_counts_against_brute_force(items: Items, target: dict[str, int]) -> None:
    selection = find_exact_sum(items, target)
    solutions = list(brute_force(items, target))
    if selection is None:
        assert solutions == []
    else:
        assert_selection(items, target, selection)


@given(hands_and_targets())
@settings(max_examples=1500, deadline=None)
@example(([], {}))
@example(([({"O": 2}, 2), ({"O": 3}, 2)], {"O": 7}))
@example(([({"O": 3}, 1), ({"O": 2}, 3)], {"O": 4}))
@example(([({"H": 1}, 0)], {"H": 1}))
@example(([({"H": 9}, 1)], {"H": 8}))  # one card over the goal: its field must not carry
def test_has_exact_sum_against_brute_force(case: tuple[Items, dict[str, int]]) -> None:
    items, target = case
    expected = next(brute_force(items, target), None) is not None
    event("solvable" if expected else "unsolvable")
    assert has_exact_sum(items, target) == expected


@given(
    st.lists(st.tuples(zero_vectors, st.integers(0, 3)), max_size=5),
    st.dictionaries(st.sampled_from(SYMBOLS), st.integers(0, 6), max_size=4),
)
@settings(max_examples=500, deadline=None)
def test_has_exact_sum_with_zero_counts(items: Items, target: dict[str, int]) -> None:
    assert has_exact_sum(items, target) == (next(brute_force(items, target), None) is not None)


@given(hands_and_targets())
@settings(max_examples=1500, deadline=None)
@example(([], {"O": 2}))
@example(([({"O": 3}, 2), ({"O": 2}, 1)], {"O": 5}))  # 3 + 2, not 3 alone
@example(([({"C": 1}, 2), ({"H": 1}, 2)], {"C": 1, "H": 1}))  # both, to the whole target
@example(([({"C": 1}, 1), ({"H": 1}, 1)], {"C": 2, "H": 2}))  # a tie broken by C first
@example(([({"H": 9}, 1), ({"H": 1}, 3)], {"H": 8}))  # a card over the goal is never taken
def test_closest_sum_below_against_brute_force(case: tuple[Items, dict[str, int]]) -> None:
    """The most atoms of the target without exceeding it; on a tie, the greatest counts in
    the order of the target's sorted elements; what it lacks; no card with a foreign element."""
    items, target = case
    keys = sorted(target)
    selection, missing = closest_sum_below(items, target)
    assert len(selection) == len(items)
    for n, (vector, available) in zip(selection, items, strict=True):
        assert 0 <= n <= max(available, 0)
        assert n == 0 or vector.keys() <= target.keys()
    reached = add_counts([(v, n) for (v, _), n in zip(items, selection, strict=True)])
    assert all(reached.get(k, 0) <= target[k] for k in keys)
    assert reached.keys() <= target.keys()
    assert missing == {
        k: target[k] - reached.get(k, 0) for k in keys if reached.get(k, 0) < target[k]
    }
    best = None
    ranges = [
        range(max(available, 0) + 1) if vector.keys() <= target.keys() else range(1)
        for vector, available in items
    ]
    for taken in itertools.product(*ranges):
        total = add_counts([(v, n) for (v, _), n in zip(items, taken, strict=True)])
        if all(total.get(k, 0) <= target[k] for k in keys) and total.keys() <= target.keys():
            counts = tuple(total.get(k, 0) for k in keys)
            best = max(best or (sum(counts), counts), (sum(counts), counts))
    assert best is not None
    assert (sum(reached.values()), tuple(reached.get(k, 0) for k in keys)) == best


def first_in_order(items: Items, target: Mapping[str, int]) -> list[int] | None:
    """The first exact selection of a depth-first search on plain tuples, kinds with the most
    atoms first and the most of each first: the selection the rulings have always named."""
    keys = sorted(symbol for symbol, n in target.items() if n)
    order = sorted(
        (
            (index, tuple(vector.get(k, 0) for k in keys), available)
            for index, (vector, available) in enumerate(items)
            if available > 0
            and all(not n or k in keys for k, n in vector.items())
            and any(vector.get(k, 0) for k in keys)
            and all(vector.get(k, 0) <= target[k] for k in keys)
        ),
        key=lambda item: -sum(item[1]),
    )

    def search(position: int, left: tuple[int, ...]) -> list[int] | None:
        if not any(left):
            return [0] * len(order)
        if position == len(order):
            return None
        _, vector, available = order[position]
        most = min([available] + [r // n for n, r in zip(vector, left, strict=True) if n])
        for take in range(most, -1, -1):
            rest = tuple(r - take * n for r, n in zip(left, vector, strict=True))
            found = search(position + 1, rest)
            if found is not None:
                found[position] = take
                return found
        return None

    taken = search(0, tuple(target[k] for k in keys))
    if taken is None:
        return None
    selection = [0] * len(items)
    for (index, _, _), n in zip(order, taken, strict=True):
        selection[index] = n
    return selection


@given(hands_and_targets())
@settings(max_examples=1500, deadline=None)
@example(([({"O": 2}, 2), ({"O": 3}, 2), ({"O": 1}, 6)], {"O": 7}))  # many ways
@example(([({"H": 2, "O": 1}, 5), ({"C": 1, "O": 2}, 3)], {"C": 1, "H": 4, "O": 4}))
def test_find_exact_sum_is_the_first_selection_of_the_search_in_order(
    case: tuple[Items, dict[str, int]],
) -> None:
    """The packed search finds the selection a plain depth-first search in the same order
    finds first (big cards first, the most of each first): a ruling names the same cards."""
    items, target = case
    assert find_exact_sum(items, target) == first_in_order(items, target)
