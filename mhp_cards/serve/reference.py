"""The table server's reference answers: the rules, the catalog, the mission checker.

None of them touches a saved game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import ApiError, CardNameError
from mhp_cards.game.dealer import SHAPES
from mhp_cards.referee.cards import read_cards
from mhp_cards.referee.mission import decide_mission
from mhp_cards.referee.words import declensions
from mhp_cards.rules.numbers import LEVELS, PLAYERS
from mhp_cards.rules.rulebook import load_rulebook

__all__ = ["catalog_summary", "mission_check", "rule_answer", "rules_answer"]


def mission_check(
    catalog: Catalog, mission_id: str, cards: Sequence[str], house_rules: Sequence[str]
) -> dict[str, Any]:
    """The level-1 mission check (L1.E1) for cards named by formula, kind or card ID."""
    try:
        mission = catalog.mission(mission_id)
    except KeyError:
        known = ", ".join(m.id for m in catalog.missions)
        raise ApiError(
            400,
            "bad-request",
            f"no mission {mission_id!r}; the card has {known}",
            {"field": "mission"},
        ) from None
    allowed = ("whole-hand", "at-least", "exact-subset")
    unknown = [name for name in house_rules if name not in allowed]
    if unknown:
        raise ApiError(
            400,
            "bad-request",
            f"no mission house rule {unknown[0]!r}; one of {', '.join(allowed)}",
            {"field": "house_rules"},
        )
    bad = [card for card in cards if "," in card]
    if bad:
        raise ApiError(400, "bad-request", f"one card per item, not {bad[0]!r}", {"field": "cards"})
    try:
        hand, notes = read_cards(catalog, ",".join(cards))
    except CardNameError as error:
        raise ApiError(400, "bad-card", str(error), {"field": "cards"}) from None
    ruling = decide_mission(catalog, mission, hand, house_rules)
    return {"ruling": ruling.to_json(), "notes": notes, "cards": [raw.id for raw in hand]}


def rules_answer() -> dict[str, Any]:
    """Every rule, Ruling and house rule with its title and text in Russian and English."""
    book = load_rulebook()
    return {
        "rules": [_rule(rule) for rule in book.rules],
        "house_rules": [_house_rule(rule) for rule in book.house_rules],
    }


def rule_answer(rule_id: str) -> dict[str, Any]:
    """One rule (or Ruling, or house rule) by its ID."""
    book = load_rulebook()
    if rule_id in {house.id for house in book.house_rules}:
        return _house_rule(book.house_rule(rule_id))
    try:
        return _rule(book.rule(rule_id))
    except KeyError:
        raise ApiError(
            404, "not-found", f"no rule {rule_id[:80]!r}; GET /api/rules lists them"
        ) from None


def catalog_summary(catalog: Catalog) -> dict[str, Any]:
    """What a page needs to draw the game: cards, missions, installations, colours, options."""
    book = load_rulebook()
    return {
        "raw_materials": [
            {
                "id": raw.id,
                "formula": raw.formula,
                "name": raw.name.model_dump(),
                "price": catalog.substance(raw.formula).price,
            }
            for raw in catalog.raw_materials
        ],
        "missions": [
            {
                "id": mission.id,
                "name": mission.name.model_dump(),
                "places": [p.model_dump() for p in mission.places],
                "elements": dict(mission.elements),
            }
            for mission in catalog.missions
        ],
        "installations": [
            {"number": i.number, "name": i.name.model_dump(), "reaction": i.reaction}
            for i in catalog.installations
        ],
        "substances": [
            {"formula": s.formula, "name": s.name.model_dump(), "price": s.price}
            for s in catalog.substances
        ],
        "colours": [
            {
                "id": c.id,
                "name": c.name.model_dump(),
                "rgb": c.rgb,
                # The name in every Russian case («обмен с Красным»), for the page.
                "cases": {"ru": declensions(c.name.ru)},
            }
            for c in catalog.components.colours
        ],
        "house_rules": [_house_rule(rule) for rule in book.house_rules],
        "levels": list(LEVELS),
        "shapes": list(SHAPES),
        "players": {"min": PLAYERS.start, "max": PLAYERS.stop - 1},
    }


def _rule(rule: Any) -> dict[str, Any]:
    return {
        "id": rule.id,
        "kind": "ruling" if rule.is_ruling else "rule",
        "level": rule.level,
        "title": dict(rule.title),
        "text": dict(rule.text),
        "refs": list(rule.refs),
        "ruling_for": rule.ruling_for,
    }


def _house_rule(rule: Any) -> dict[str, Any]:
    return {
        "id": rule.id,
        "kind": "house-rule",
        "title": dict(rule.title),
        "text": dict(rule.text),
        "ruling_for": rule.ruling_for,
        "default": rule.default,
    }
