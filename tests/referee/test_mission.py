"""Level-1 mission decisions (RULES.md L1.E1 and its Rulings) against a brute force.

``decide_mission`` searches exact element sums without enumerating subsets; here every
sub-multiset of a small hand is enumerated instead, and the two must agree for every mission
under the default ``exact-subset`` and the house rules ``whole-hand`` and ``at-least``:

* complete exactly when some selection qualifies; ``facts['cards_used']`` is then a part of
  the hand whose element counts are exactly the mission's (at least them, under ``at-least``,
  and no card can be dropped);
* when incomplete, ``facts['missing']`` is what the closest selection lacks, and no selection
  without excess covers more of the mission than it (``facts['closest_cards']`` is that
  selection);
* the whole raw deck as a hand, checked against an independent table of reachable sums.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mhp_cards.catalog.models import Mission, RawMaterial
from mhp_cards.referee import decide_mission, mission_status
from mhp_cards.referee.mission import completes, could_complete, deciding_kinds
from mhp_cards.validate import load_catalog

CATALOG = load_catalog()
KINDS = list(CATALOG.raw_materials)
BY_ID = {raw.id: raw for raw in KINDS}
MISSIONS = [mission.id for mission in CATALOG.missions]
DECK = [raw for raw in KINDS for _ in range(raw.copies)]
MAX_HAND = 10


def elements(cards: Sequence[RawMaterial]) -> Counter[str]:
    total: Counter[str] = Counter()
    for card in cards:
        total.update(card.parsed.elements)
    return total


def target_of(mission: Mission) -> Counter[str]:
    return Counter(dict(mission.elements))


def sub_multisets(hand: Sequence[RawMaterial]) -> Iterator[list[RawMaterial]]:
    """Every sub-multiset of the hand (cards of a kind are interchangeable)."""
    counts = Counter(raw.id for raw in hand)
    kinds = list(counts)
    for taken in itertools.product(*(range(counts[k] + 1) for k in kinds)):
        yield [BY_ID[k] for k, n in zip(kinds, taken, strict=True) for _ in range(n)]


def within(part: Mapping[str, int], whole: Mapping[str, int]) -> bool:
    return all(whole.get(k, 0) >= n for k, n in part.items() if n)


def is_sub_multiset(ids: Sequence[str], hand: Sequence[RawMaterial]) -> bool:
    have = Counter(raw.id for raw in hand)
    return all(have[k] >= n for k, n in Counter(ids).items())


def cards(ids: Sequence[str]) -> list[RawMaterial]:
    return [BY_ID[i] for i in ids]


def relevant(mission: Mission) -> list[RawMaterial]:
    """Kinds whose elements all belong to the mission (they can take part in an exact sum)."""
    keys = set(mission.elements)
    return [raw for raw in KINDS if set(raw.parsed.elements) <= keys]


def solutions(mission: Mission, limit: int = MAX_HAND) -> list[list[RawMaterial]]:
    """Exact selections of at most ``limit`` cards from the deck, found by enumeration."""
    target = target_of(mission)
    kinds = relevant(mission)
    found: list[list[RawMaterial]] = []

    def walk(index: int, chosen: list[RawMaterial], total: Counter[str]) -> None:
        if total == target:
            found.append(list(chosen))
            return
        if index == len(kinds) or len(chosen) == limit:
            return
        raw = kinds[index]
        for n in range(raw.copies + 1):
            more = total + Counter({k: v * n for k, v in raw.parsed.elements.items()})
            if n and (not within(more, target) or len(chosen) + n > limit):
                break
            walk(index + 1, chosen + [raw] * n, more)

    walk(0, [], Counter())
    return found


SOLUTIONS = {mission.id: solutions(mission) for mission in CATALOG.missions}


@st.composite
def hands(draw, mission_id: str) -> list[RawMaterial]:
    """A hand of at most ten cards: random kinds (often the mission's own elements), or a
    known exact selection with some random cards added."""
    mission = CATALOG.mission(mission_id)
    pool = st.sampled_from(relevant(mission)) | st.sampled_from(KINDS)
    if SOLUTIONS[mission_id] and draw(st.booleans()):
        base = list(draw(st.sampled_from(SOLUTIONS[mission_id])))
        extra = draw(st.lists(pool, max_size=MAX_HAND - len(base)))
        hand = base + extra
        return draw(st.permutations(hand))
    return draw(st.lists(pool, max_size=MAX_HAND))


def check_decision(mission: Mission, hand: list[RawMaterial], house: tuple[str, ...]) -> str:
    """Decide and compare with the brute force; returns the verdict."""
    ruling = decide_mission(CATALOG, mission, hand, house)
    target = target_of(mission)
    held = elements(hand)
    assert ruling.verdict in ("complete", "incomplete")
    assert "L1.E1" in ruling.rules
    assert "L1.E1.R1" in ruling.rules
    assert ruling.reason_ru
    assert ruling.reason_en
    assert ruling.house_rules == house
    assert ruling.facts["needed"] == dict(target)
    assert Counter(ruling.facts["held"]) == held
    assert Counter(ruling.facts["cards"]) == Counter(raw.id for raw in hand)
    complete = ruling.verdict == "complete"
    if house == ("whole-hand",):
        assert complete == (held == target)
        if complete:
            assert Counter(ruling.facts["cards_used"]) == Counter(raw.id for raw in hand)
        else:
            assert ruling.facts["missing"] == {
                k: n - held[k] for k, n in target.items() if n > held[k]
            }
            assert ruling.facts["excess"] == {
                k: n - target[k] for k, n in held.items() if n > target[k]
            }
        return ruling.verdict
    if house == ("at-least",):
        assert complete == within(target, held)
        if complete:
            used = ruling.facts["cards_used"]
            assert is_sub_multiset(used, hand)
            assert within(target, elements(cards(used)))
            for k in range(len(used)):
                rest = used[:k] + used[k + 1 :]
                assert not within(target, elements(cards(rest))), f"{used[k]} can be dropped"
        else:
            assert ruling.facts["missing"] == {
                k: n - held[k] for k, n in target.items() if n > held[k]
            }
        return ruling.verdict
    # exact-subset: the brute force over every sub-multiset.
    exact = False
    best = 0
    for selection in sub_multisets(hand):
        total = elements(selection)
        if total == target:
            exact = True
            break
        if within(total, target):
            best = max(best, sum(total.values()))
    assert complete == exact, f"brute force says {'complete' if exact else 'incomplete'}"
    if complete:
        used = ruling.facts["cards_used"]
        assert is_sub_multiset(used, hand)
        assert elements(cards(used)) == target, "cards_used must sum exactly to the mission"
        return ruling.verdict
    closest = ruling.facts["closest_cards"]
    assert is_sub_multiset(closest, hand)
    reached = elements(cards(closest))
    assert within(reached, target), "the closest selection exceeds the mission"
    missing = ruling.facts["missing"]
    assert missing == {k: n - reached[k] for k, n in target.items() if n > reached[k]}
    assert sum(reached.values()) == best, "a selection covering more of the mission exists"
    assert sum(missing.values()) == sum(target.values()) - best
    assert ruling.facts["excess_elements"] == {k: n for k, n in held.items() if k not in target}
    return ruling.verdict


@pytest.mark.parametrize("mission_id", MISSIONS)
@pytest.mark.parametrize("house", [(), ("whole-hand",), ("at-least",)], ids=str)
@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_decide_mission_agrees_with_brute_force(mission_id, house, data) -> None:
    mission = CATALOG.mission(mission_id)
    hand = data.draw(hands(mission_id), label="hand")
    verdict = check_decision(mission, hand, house)
    event(f"{mission_id} {house or 'exact-subset'}: {verdict}")


@pytest.mark.parametrize("mission_id", MISSIONS)
@pytest.mark.parametrize("match", ["exact-subset", "whole-hand", "at-least"])
@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_completes_agrees_with_brute_force(mission_id, match, data) -> None:
    """The verdict alone, as the claims listing asks it, is L1.E1's under each house rule."""
    mission = CATALOG.mission(mission_id)
    hand = data.draw(hands(mission_id), label="hand")
    target = Counter(mission.elements)
    if match == "whole-hand":
        expected = elements(hand) == target
    elif match == "at-least":
        expected = within(target, elements(hand))
    else:
        expected = any(elements(part) == target for part in sub_multisets(hand))
    assert completes(CATALOG, mission, Counter(raw.id for raw in hand), match) == expected
    event(f"{mission_id} {match}: {expected}")


def test_completes_refuses_a_kind_the_catalog_lacks() -> None:
    with pytest.raises(KeyError):
        completes(CATALOG, CATALOG.missions[0], {"unobtainium": 1})


@pytest.mark.parametrize("mission_id", MISSIONS)
@pytest.mark.parametrize("match", ["exact-subset", "whole-hand", "at-least"])
@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_could_complete_never_rules_out_a_complete_hand(mission_id, match, data) -> None:
    """The listing's cheap filter (``could_complete``) is a necessary condition of the
    decision: a hand it rules out is never complete, so no claim goes unlisted."""
    mission = CATALOG.mission(mission_id)
    hand = data.draw(hands(mission_id), label="hand")
    house = [match] if match != "exact-subset" else []
    complete = decide_mission(CATALOG, mission, hand, house).verdict == "complete"
    could = could_complete(CATALOG, mission, Counter(raw.id for raw in hand), match)
    assert could or not complete
    event(f"{mission_id} {match}: {'could' if could else 'ruled out'}, {complete=}")


def test_could_complete_rules_out_hands_short_of_an_element() -> None:
    """The filter is not a plain yes: a hand without enough of an element is ruled out, under
    the default match also when the element lies only on cards with other elements."""
    for mission in CATALOG.missions:
        assert could_complete(CATALOG, mission, {raw.id: raw.copies for raw in KINDS})
        assert not could_complete(CATALOG, mission, {})
        symbol = next(iter(target_of(mission)))
        others = {raw.id: raw.copies for raw in KINDS if symbol not in raw.parsed.elements}
        assert not could_complete(CATALOG, mission, others, "at-least")
        foreign = {
            raw.id: raw.copies
            for raw in KINDS
            if not set(raw.parsed.elements) <= set(target_of(mission))
        }
        assert not could_complete(CATALOG, mission, foreign)


def test_the_hand_strategy_reaches_both_verdicts() -> None:
    """Each mission has exact selections of at most ten cards, so the strategy above decides
    complete hands as well as incomplete ones."""
    for mission_id in MISSIONS:
        assert SOLUTIONS[mission_id], mission_id
        for solution in SOLUTIONS[mission_id][:20]:
            assert elements(solution) == target_of(CATALOG.mission(mission_id))


# --- worked examples ------------------------------------------------------------------------------


def test_the_documented_example_completes_M1() -> None:
    # missions.yaml: M1 = 2 CH4 + 4 O2 = C2 H8 O8 = 2 CO2 + 4 H2O.
    hand = [BY_ID[k] for k in ("water-ice", "carbon-dioxide", "water-ice", "water-ice")]
    hand += [BY_ID["carbon-dioxide"], BY_ID["water-ice"]]
    ruling = decide_mission(CATALOG, CATALOG.mission("M1"), hand)
    assert ruling.verdict == "complete"
    assert Counter(ruling.facts["cards_used"]) == Counter({"carbon-dioxide": 2, "water-ice": 4})
    assert "C2H8O8" in ruling.reason_en
    assert "C2H8O8" in ruling.reason_ru


def test_exact_subset_ignores_cards_with_other_elements() -> None:
    hand = [BY_ID[k] for k in ("halite", "carbon-dioxide", "sulfur", "carbon-dioxide")]
    hand += [BY_ID["water-ice"]] * 4
    ruling = decide_mission(CATALOG, CATALOG.mission("M1"), hand)
    assert ruling.verdict == "complete"
    assert "halite" not in ruling.facts["cards_used"]
    assert "sulfur" not in ruling.facts["cards_used"]


def test_an_incomplete_hand_names_the_closest_selection_and_the_excess() -> None:
    # CO2 + 5 H2O + NaCl against M1's C2 H8 O8: a fifth water would take hydrogen past H8, so
    # the closest is CO2 + 4 H2O = C H8 O6, a carbon and two oxygen short; NaCl's elements are
    # no part of M1.
    hand = [BY_ID["carbon-dioxide"], *[BY_ID["water-ice"]] * 5, BY_ID["halite"]]
    ruling = decide_mission(CATALOG, CATALOG.mission("M1"), hand)
    assert ruling.verdict == "incomplete"
    assert ruling.facts["missing"] == {"C": 1, "O": 2}
    assert Counter(ruling.facts["closest_cards"]) == Counter({"carbon-dioxide": 1, "water-ice": 4})
    assert ruling.facts["excess_elements"] == {"Na": 1, "Cl": 1}
    assert "ClNa" in ruling.reason_en or "NaCl" in ruling.reason_en


def test_overshooting_cards_are_not_a_selection() -> None:
    # A card cannot be split: three CO2 hold C3, more carbon than M1 wants (C2), so only two of
    # them are a selection. The third's oxygen does not count without its carbon: O4 of O8
    # stays missing, not O2.
    hand = [BY_ID["carbon-dioxide"]] * 3
    ruling = decide_mission(CATALOG, CATALOG.mission("M1"), hand)
    assert ruling.verdict == "incomplete"
    assert ruling.facts["closest_cards"] == ["carbon-dioxide", "carbon-dioxide"]
    assert ruling.facts["missing"] == {"H": 8, "O": 4}


def test_an_empty_hand_completes_nothing() -> None:
    for mission in CATALOG.missions:
        ruling = decide_mission(CATALOG, mission, [])
        assert ruling.verdict == "incomplete"
        assert ruling.facts["missing"] == dict(mission.elements)


# --- the whole raw deck as a hand -----------------------------------------------------------------


def reachable_sums(mission: Mission, hand: Sequence[RawMaterial]) -> set[tuple[int, ...]]:
    """Every element-count vector (within the mission) some part of the hand sums to: a table
    built kind by kind, independent of the referee's search."""
    keys = sorted(mission.elements)
    goal = tuple(mission.elements[k] for k in keys)
    counts = Counter(raw.id for raw in hand)
    sums = {tuple(0 for _ in keys)}
    for kind, available in counts.items():
        raw = BY_ID[kind]
        if not set(raw.parsed.elements) <= set(keys):
            continue
        vector = tuple(raw.parsed.elements.get(k, 0) for k in keys)
        grown = set(sums)
        for start in sums:
            current = start
            for _ in range(available):
                current = tuple(c + v for c, v in zip(current, vector, strict=True))
                if any(c > g for c, g in zip(current, goal, strict=True)):
                    break
                grown.add(current)
        sums = grown
    return sums


@pytest.mark.parametrize("mission_id", MISSIONS)
def test_the_whole_deck_completes_every_mission(mission_id) -> None:
    mission = CATALOG.mission(mission_id)
    goal = tuple(mission.elements[k] for k in sorted(mission.elements))
    assert goal in reachable_sums(mission, DECK)
    ruling = decide_mission(CATALOG, mission, DECK)
    assert ruling.verdict == "complete"
    used = ruling.facts["cards_used"]
    assert is_sub_multiset(used, DECK)
    assert elements(cards(used)) == target_of(mission)


@pytest.mark.parametrize("mission_id", MISSIONS)
def test_the_whole_deck_under_the_house_rules(mission_id) -> None:
    mission = CATALOG.mission(mission_id)
    target, held = target_of(mission), elements(DECK)
    whole = decide_mission(CATALOG, mission, DECK, ("whole-hand",))
    assert whole.verdict == "incomplete"
    assert whole.facts["excess"] == {k: n - target[k] for k, n in held.items() if n > target[k]}
    assert whole.facts["missing"] == {}
    least = decide_mission(CATALOG, mission, DECK, ("at-least",))
    assert least.verdict == "complete"
    used = least.facts["cards_used"]
    assert is_sub_multiset(used, DECK)
    assert within(target, elements(cards(used)))
    for k in range(len(used)):
        assert not within(target, elements(cards(used[:k] + used[k + 1 :])))


@pytest.mark.parametrize("mission_id", MISSIONS)
def test_the_deck_without_a_needed_kind(mission_id) -> None:
    """Take out every card of one element the mission needs: no exact selection remains, and
    the missing counts are those of the best selection of the table of reachable sums."""
    mission = CATALOG.mission(mission_id)
    element = max(mission.elements, key=lambda k: (len(k), k))  # e.g. Fe, Cl, Si, N
    rest = [raw for raw in DECK if element not in raw.parsed.elements]
    ruling = decide_mission(CATALOG, mission, rest)
    assert ruling.verdict == "incomplete"
    best = max(sum(v) for v in reachable_sums(mission, rest))
    assert sum(ruling.facts["missing"].values()) == sum(mission.elements.values()) - best
    assert ruling.facts["missing"][element] == mission.elements[element]


# --- levels 2 and 3: the Mission card's places (mission_status) -----------------------------------


def test_mission_status_counts_places_and_holders(kit) -> None:
    # M3: CO(NH2)2 ×1, CO2 ×1, O2 ×2; three of its four places held.
    state = kit.mission_tokens(kit.deal("2", 2, 3), "M3", "CO2", "red")
    state = kit.mission_tokens(state, "M3", "O2", "blue", "red")
    ruling = mission_status(state, "M3")
    assert ruling.verdict == "incomplete"
    assert ruling.rules == ("L2.M1", "L2.E1", "L2.E1.R1")
    kit.assert_well_formed(ruling)
    (m3,) = ruling.facts["missions"]
    assert (m3["mission"], m3["filled"], m3["places"], m3["complete"]) == ("M3", 3, 4, False)
    assert [p["holders"] for p in m3["by_place"]] == [[], ["red"], ["blue", "red"]]
    assert [p["free"] for p in m3["by_place"]] == [1, 0, 0]
    done = mission_status(kit.mission_tokens(state, "M3", "CO(NH2)2", "blue"), "M3")
    assert done.verdict == "complete"
    everything = mission_status(state)
    assert [m["mission"] for m in everything.facts["missions"]] == ["M1", "M2", "M3", "M4"]
    # 6, 5, 4 and 4 places, 19 on the card.
    assert [m["places"] for m in everything.facts["missions"]] == [6, 5, 4, 4]
    assert sum(m["places"] for m in everything.facts["missions"]) == sum(
        place.count for mission in CATALOG.missions for place in mission.places
    )


def test_mission_status_outside_levels_2_and_3(kit) -> None:
    assert mission_status(kit.deal("1", 2, 3)).verdict == "outside-rules"
    assert mission_status(kit.deal("2", 2, 3), "M9").verdict == "outside-rules"
    duel = mission_status(kit.deal("1v1", 2, 1))
    assert "V1.5" in duel.rules
    assert "L3.E1" in mission_status(kit.deal("3", 2, 3)).rules


@pytest.mark.parametrize("mission_id", MISSIONS)
@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_hands_with_the_same_deciding_kinds_get_the_same_verdict(mission_id, data) -> None:
    """The listing keeps a refused claim for the kinds that decide it (``deciding_kinds``):
    two hands with those alike, whatever else they hold, are both complete or both not."""
    mission = CATALOG.mission(mission_id)
    hand = data.draw(hands(mission_id), label="hand")
    other = data.draw(hands(mission_id), label="other")
    one = deciding_kinds(CATALOG, mission, Counter(raw.id for raw in hand))
    two = deciding_kinds(CATALOG, mission, Counter(raw.id for raw in other))
    assert one is not None
    assert two is not None
    verdicts = {decide_mission(CATALOG, mission, cards).verdict for cards in (hand, other)}
    assert one != two or len(verdicts) == 1
    event(f"{mission_id}: {'same' if one == two else 'other'} deciding kinds")
    assert deciding_kinds(CATALOG, mission, Counter(raw.id for raw in hand), "at-least") is None
