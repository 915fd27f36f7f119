"""Level 1 mission decisions (RULES.md L1.E1 and its rulings): do these raw cards complete it.

Default ``exact-subset``: some of the cards sum exactly to the mission's element counts; the
referee finds that subset. House rule ``whole-hand``: every card held counts, the whole hand
must match. House rule ``at-least``: a subset must hold at least the mission's counts. When the
mission is not complete, the ruling shows the closest selection and what is missing or in
excess. The search is the exact-sum search of :mod:`mhp_cards.chem.exact_sum`, never an enumeration
of subsets, so a hand of the whole deck is decided in milliseconds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from mhp_cards.catalog.models import Catalog, Mission, RawMaterial
from mhp_cards.chem.exact_sum import closest_sum_below, find_exact_sum, has_exact_sum
from mhp_cards.chem.formula import Formula
from mhp_cards.game.state import GameState
from mhp_cards.referee.reasons import PlayerName, said, written
from mhp_cards.referee.ruling import Ruling
from mhp_cards.referee.words import plural_form

__all__ = [
    "closest_below",
    "completes",
    "could_complete",
    "decide_mission",
    "deciding_kinds",
    "mission_status",
]

#: Mission decisions remembered per catalog before the memory starts afresh.
_REMEMBERED = 50_000


def _tally(counts: Mapping[str, int]) -> str:
    if not counts:
        return "—"
    return Formula.from_elements(dict(counts)).hill()


def _sum(cards: Sequence[RawMaterial]) -> Counter[str]:
    total: Counter[str] = Counter()
    for card in cards:
        total.update(card.parsed.elements)
    return total


def closest_below(
    kinds: Sequence[tuple[RawMaterial, int]], target: Mapping[str, int]
) -> tuple[list[int], dict[str, int]]:
    """The selection that covers the most of ``target`` without exceeding it, and what is left.

    Only cards whose elements all belong to the mission can take part without excess
    (:func:`~mhp_cards.chem.exact_sum.closest_sum_below` over the kinds' elements).
    """
    return closest_sum_below([(raw.parsed.elements, n) for raw, n in kinds], target)


def decide_mission(
    catalog: Catalog,
    mission: Mission,
    hand: Sequence[RawMaterial],
    house_rules: Sequence[str] = (),
) -> Ruling:
    """Whether ``hand`` (raw cards, repeats allowed) completes ``mission`` at level 1.

    The answer depends only on the kinds held and how many of each, so it is computed once
    per hand and remembered with the catalog (a hand changes one card at a time in play).
    """
    if not any(m is mission for m in catalog.missions):  # another card's: not remembered
        return _decide_mission(catalog, mission, hand, house_rules)
    key = (mission.id, tuple(raw.id for raw in hand), tuple(house_rules))
    decisions = catalog.memo("referee.decide_mission")
    ruling = decisions.get(key)
    if ruling is None:
        if len(decisions) >= _REMEMBERED:
            decisions.clear()
        ruling = decisions[key] = _decide_mission(catalog, mission, hand, house_rules)
    return ruling


def completes(
    catalog: Catalog, mission: Mission, kinds: Mapping[str, int], match: str = "exact-subset"
) -> bool:
    """:func:`decide_mission`'s verdict alone: whether cards of these kinds complete ``mission``.

    ``kinds``: how many cards of each raw kind are held (KeyError for a kind the catalog
    lacks); ``match``: the house rule on matching (L1.E1.R1). The same test the decision
    makes, without the closest selection and the words an incomplete ruling gives, which is
    most of its cost: the referee asks it of every mission when it lists a hand's claims.
    """
    counted = [(catalog.raw_material(kind), count) for kind, count in kinds.items() if count]
    return _complete(counted, mission.elements, match)


def _complete(
    kinds: Sequence[tuple[RawMaterial, int]], target: Mapping[str, int], match: str
) -> bool:
    """Whether the cards (kinds with their counts) complete ``target`` under ``match``.

    The one statement of L1.E1 and its house rules (L1.E1.R1): :func:`completes` decides by
    it, and so does :func:`_decide_mission` under the house rules; under the exact subset it
    finds the cards themselves (:func:`_exact_selection`, None exactly when this is False).
    """
    if match == "exact-subset":
        return has_exact_sum([(raw.parsed.elements, n) for raw, n in kinds], target)
    held = _sum_kinds(kinds)
    if match == "whole-hand":
        return dict(held) == target
    return all(held.get(k, 0) >= n for k, n in target.items())  # at-least


def _exact_selection(
    kinds: Sequence[tuple[RawMaterial, int]], target: Mapping[str, int]
) -> list[int] | None:
    """How many of each kind sum exactly to ``target`` (L1.E1's exact subset), or None."""
    return find_exact_sum([(raw.parsed.elements, n) for raw, n in kinds], target)


def _sum_kinds(kinds: Sequence[tuple[RawMaterial, int]]) -> Counter[str]:
    total: Counter[str] = Counter()
    for raw, count in kinds:
        for symbol, n in raw.parsed.elements.items():
            total[symbol] += n * count
    return total


def could_complete(
    catalog: Catalog, mission: Mission, kinds: Mapping[str, int], match: str = "exact-subset"
) -> bool:
    """False when :func:`decide_mission` cannot find ``mission`` complete with these cards.

    ``kinds``: how many cards of each raw kind are held; ``match``: the house rule on matching
    (L1.E1.R1). A necessary condition, cheap to ask before the decision itself: the cards
    that can take part (under the default exact subset, only those with no element the
    mission lacks) hold at least the mission's count of each of its elements. True says
    only that the decision is needed; a kind the catalog lacks is left to the decision.
    """
    target = _targets(catalog, mission)
    held: dict[str, int] = {}
    for kind, count in kinds.items():
        try:
            elements = catalog.raw_material(kind).parsed.elements
        except KeyError:
            return True
        if match == "exact-subset" and not elements.keys() <= target.keys():
            continue
        for symbol, n in elements.items():
            held[symbol] = held.get(symbol, 0) + n * count
    return all(held.get(symbol, 0) >= n for symbol, n in target.items())


def deciding_kinds(
    catalog: Catalog, mission: Mission, kinds: Mapping[str, int], match: str = "exact-subset"
) -> tuple[tuple[str, int], ...] | None:
    """The kinds held (with their counts) on which :func:`decide_mission`'s verdict turns.

    Under the default exact subset (L1.E1) a card with an element the mission lacks can never
    be part of the exact sum, so the verdict (complete or not, not its words) is the same for
    every hand that holds the same other kinds, as many of each: these, sorted. None under
    another house rule, where every card counts, or for a kind the catalog lacks.
    """
    if match != "exact-subset":
        return None
    target = _targets(catalog, mission)
    deciding = []
    for kind, count in sorted(kinds.items()):
        try:
            elements = catalog.raw_material(kind).parsed.elements
        except KeyError:
            return None
        if not any(n and not target.get(symbol) for symbol, n in elements.items()):
            deciding.append((kind, count))
    return tuple(deciding)


def _targets(catalog: Catalog, mission: Mission) -> dict[str, int]:
    """The element counts ``mission`` asks for, worked out once for each of the catalog's."""
    targets = catalog.memo("referee.mission-targets")
    found: tuple[Mission, dict[str, int]] | None = targets.get(mission.id)
    if found is not None and found[0] is mission:
        return found[1]
    target = mission.elements
    if any(m is mission for m in catalog.missions):  # another card's: not remembered
        targets[mission.id] = (mission, target)
    return target


def _decide_mission(
    catalog: Catalog,
    mission: Mission,
    hand: Sequence[RawMaterial],
    house_rules: Sequence[str],
) -> Ruling:
    target = mission.elements
    rule = ("L1.E1", "L1.E1.R1", "L1.E1.R2")
    counts: Counter[str] = Counter(raw.id for raw in hand)
    kinds = [(catalog.raw_material(raw_id), n) for raw_id, n in counts.items()]
    held = _sum(hand)
    facts: dict[str, object] = {
        "mission": mission.id,
        "needed": dict(target),
        "needed_formula": _tally(target),
        "held": dict(held),
        "held_formula": _tally(held),
        "cards": [raw.id for raw in hand],
    }
    names = {"name_ru": mission.name.ru, "name_en": mission.name.en}
    if "whole-hand" in house_rules:
        complete = _complete(kinds, target, "whole-hand")
        facts["cards_used"] = [raw.id for raw in hand] if complete else []
        if complete:
            return Ruling(
                "complete",
                rule,
                "mission.whole-hand.complete",
                MappingProxyType(facts),
                ("whole-hand",),
                names,
            )
        facts.update(_difference(target, held))
        return Ruling(
            "incomplete",
            rule,
            "mission.whole-hand.incomplete",
            MappingProxyType(facts),
            ("whole-hand",),
        )
    if "at-least" in house_rules:
        if _complete(kinds, target, "at-least"):
            used = _minimal_cover(list(hand), target)
            facts["cards_used"] = [raw.id for raw in used]
            return Ruling(
                "complete",
                rule,
                "mission.at-least.complete",
                MappingProxyType(facts),
                ("at-least",),
                {**names, "formulas": ", ".join(r.formula for r in used)},
            )
        facts["missing"] = {k: n - held.get(k, 0) for k, n in target.items() if held.get(k, 0) < n}
        return Ruling(
            "incomplete",
            rule,
            "mission.at-least.incomplete",
            MappingProxyType(facts),
            ("at-least",),
        )
    # The exact subset's verdict and its cards at once: the selection is None exactly when
    # _complete finds the hand short (has_exact_sum and find_exact_sum agree; both are tested
    # against a brute force), and searching for it first is the quicker for a complete hand.
    selection = _exact_selection(kinds, target)
    if selection is not None:
        used_cards = [raw for (raw, _), n in zip(kinds, selection, strict=True) for _ in range(n)]
        facts["cards_used"] = [raw.id for raw in used_cards]
        formulas = ", ".join(raw.formula for raw in used_cards)
        return Ruling(
            "complete",
            rule,
            "mission.complete",
            MappingProxyType(facts),
            (),
            {**names, "formulas": formulas},
        )
    closest, missing = closest_below(kinds, target)
    used_cards = [raw for (raw, _), n in zip(kinds, closest, strict=True) for _ in range(n)]
    facts["closest_cards"] = [raw.id for raw in used_cards]
    facts["missing"] = missing
    facts["excess_elements"] = {k: n for k, n in held.items() if k not in target}
    closest_text = ", ".join(raw.formula for raw in used_cards) or "—"
    return Ruling(
        "incomplete",
        rule,
        "mission.incomplete",
        MappingProxyType(facts),
        (),
        {"closest": closest_text},
    )


said(
    "mission.whole-hand.complete",
    "Миссия {mission} «{name_ru}» выполнена: вся рука ({held_formula}) точно совпадает с "
    "требованием миссии.",
    "Mission {mission} “{name_en}” is complete: the whole hand ({held_formula}) matches the "
    "mission exactly.",
)


@written("mission.whole-hand.incomplete")
def _whole_hand_incomplete(values: Mapping[str, Any]) -> tuple[str, str]:
    mission, held, needed = values["mission"], values["held_formula"], values["needed_formula"]
    return (
        f"Миссия {mission} не выполнена: по домашнему правилу «whole-hand» вся рука "
        f"({held}) должна совпасть с {needed}; {_describe(values, 'ru')}.",
        f"Mission {mission} is not complete: under the house rule “whole-hand” the whole "
        f"hand ({held}) must equal {needed}; {_describe(values, 'en')}.",
    )


said(
    "mission.at-least.complete",
    "Миссия {mission} «{name_ru}» выполнена по правилу «at-least»: карточки {formulas} содержат "
    "не меньше {needed_formula}.",
    "Mission {mission} “{name_en}” is complete under “at-least”: the cards {formulas} hold at "
    "least {needed_formula}.",
)


@written("mission.at-least.incomplete")
def _at_least_incomplete(values: Mapping[str, Any]) -> tuple[str, str]:
    mission, missing = values["mission"], _tally(values["missing"])
    return (
        f"Миссия {mission} не выполнена: не хватает {missing}.",
        f"Mission {mission} is not complete: {missing} is missing.",
    )


said(
    "mission.complete",
    "Миссия {mission} «{name_ru}» выполнена: карточки {formulas} вместе дают ровно "
    "{needed_formula}.",
    "Mission {mission} “{name_en}” is complete: the cards {formulas} together hold exactly "
    "{needed_formula}.",
)


@written("mission.incomplete")
def _incomplete(values: Mapping[str, Any]) -> tuple[str, str]:
    mission, needed, closest = values["mission"], values["needed_formula"], values["closest"]
    missing, excess = _tally(values["missing"]), values["excess_elements"]
    extra_ru = f"; в руке есть и лишние элементы: {_tally(excess)}" if excess else ""
    extra_en = (
        f"; the hand also holds elements the mission does not use: {_tally(excess)}"
        if excess
        else ""
    )
    return (
        f"Миссия {mission} не выполнена: никакой набор карточек не даёт ровно {needed}. "
        f"Ближе всего {closest}; не хватает {missing}{extra_ru}.",
        f"Mission {mission} is not complete: no set of the cards holds exactly {needed}. "
        f"Closest: {closest}; missing {missing}{extra_en}.",
    )


def _difference(target: Mapping[str, int], held: Mapping[str, int]) -> dict[str, dict[str, int]]:
    keys = set(target) | set(held)
    missing = {
        k: target.get(k, 0) - held.get(k, 0) for k in keys if target.get(k, 0) > held.get(k, 0)
    }
    excess = {
        k: held.get(k, 0) - target.get(k, 0) for k in keys if held.get(k, 0) > target.get(k, 0)
    }
    return {"missing": missing, "excess": excess}


def _describe(diff: Mapping[str, Any], lang: str) -> str:
    parts = []
    if diff["missing"]:
        parts.append(("не хватает " if lang == "ru" else "missing ") + _tally(diff["missing"]))
    if diff["excess"]:
        parts.append(("лишнее " if lang == "ru" else "in excess ") + _tally(diff["excess"]))
    return ", ".join(parts)


def _minimal_cover(hand: list[RawMaterial], target: Mapping[str, int]) -> list[RawMaterial]:
    """Drop cards while the rest still covers the target (a minimal, not minimum, cover)."""
    kept = list(hand)
    for card in sorted(hand, key=lambda raw: -sum(raw.parsed.elements.values())):
        trial = list(kept)
        trial.remove(card)
        total = _sum(trial)
        if all(total.get(k, 0) >= n for k, n in target.items()):
            kept = trial
    return kept


def mission_status(state: GameState, mission_id: str | None = None) -> Ruling:
    """Levels 2 and 3 (L2.M1, L2.E1): each mission's places, who fills them, complete or not."""
    rules: tuple[str, ...] = ("L2.M1", "L2.E1", "L2.E1.R1")
    if state.level == "1v1":
        rules = ("L2.M1", "V1.5", "V1.P1")
    elif state.level == "3":
        rules = ("L2.M1", "L3.E1")
    missions = [m for m in state.missions if mission_id is None or m.id == mission_id]
    if state.level == "1":
        return Ruling("outside-rules", ("L1.E1",), "mission.status.level-1")
    if not missions:
        known = ", ".join(m.id for m in state.missions) or "none at level 1"
        return Ruling(
            "outside-rules",
            rules,
            "mission.status.unknown",
            words={"mission": mission_id, "known": known},
        )
    report = []
    for mission in missions:
        places = []
        filled_total = total = 0
        for formula, tokens in mission.places:
            holders = [t for t in tokens if t is not None]
            filled_total += len(holders)
            total += len(tokens)
            places.append(
                {"formula": formula, "holders": holders, "free": len(tokens) - len(holders)}
            )
        report.append(
            {
                "mission": mission.id,
                "complete": mission.complete,
                "filled": filled_total,
                "places": total,
                "by_place": places,
            }
        )
    complete = any(m.complete for m in missions)
    return Ruling(
        "complete" if complete else "incomplete",
        rules,
        "mission.status",
        MappingProxyType({"missions": report}),
    )


said(
    "mission.status.level-1",
    "На уровне 1 миссию выполняют карточками сырья (mission --cards).",
    "At level 1 a mission is completed with raw cards (mission --cards).",
)
said(
    "mission.status.unknown",
    "Нет миссии {mission}; на карте: {known}.",
    "No mission {mission}; the card holds {known}.",
)


@written("mission.status")
def _status(values: Mapping[str, Any]) -> tuple[str, str]:
    lines_ru, lines_en = [], []
    for mission in values["missions"]:
        by_player = Counter(h for p in mission["by_place"] for h in p["holders"])
        who_ru = ", ".join(f"{PlayerName(p, 'ru')} {n}" for p, n in by_player.items()) or "—"
        who_en = ", ".join(f"{PlayerName(p, 'en')} {n}" for p, n in by_player.items()) or "—"
        filled, total = mission["filled"], mission["places"]
        state_ru = "выполнена" if mission["complete"] else "не выполнена"
        state_en = "complete" if mission["complete"] else "not complete"
        places_ru = ("место", "места", "мест")[plural_form(total)]
        lines_ru.append(
            f"{mission['mission']}: {filled}/{total} {places_ru} ({who_ru}), {state_ru}"
        )
        lines_en.append(f"{mission['mission']}: {filled}/{total} places ({who_en}), {state_en}")
    return "; ".join(lines_ru) + ".", "; ".join(lines_en) + "."
