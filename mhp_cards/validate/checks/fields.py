"""Where the catalog's formulas and reactions stand, as paths for issues."""

from __future__ import annotations

from collections.abc import Iterator

from mhp_cards.catalog.models import (
    ReactorCard,
    formula_of,
    reaction_of,
)
from mhp_cards.errors import FormulaError, ReactionError
from mhp_cards.issues import Path
from mhp_cards.validate.checks.parts import INSTALLATIONS, MISSIONS, RAW, SUBSTANCES, Parts

__all__ = ["formula_fields", "parsed_reactions", "parses", "reaction_fields", "reactor_cards"]


def reactor_cards(parts: Parts) -> Iterator[tuple[Path, ReactorCard]]:
    """Every reactor card with its path: the installations' cards, then the electrolysers."""
    for i, installation in enumerate(parts.installations or ()):
        for j, card in enumerate(installation.cards):
            yield ("installations", i, "cards", j), card
    for j, card in enumerate(parts.electrolysers or ()):
        yield ("electrolysers", j), card


def formula_fields(parts: Parts) -> Iterator[tuple[str, Path, str]]:
    """Every formula written in the catalog: (file, path, text)."""
    for i, substance in enumerate(parts.substances or ()):
        yield SUBSTANCES, ("substances", i, "formula"), substance.formula
    for i, raw in enumerate(parts.raw_materials or ()):
        yield RAW, ("raw_materials", i, "formula"), raw.formula
    for path, card in reactor_cards(parts):
        for k, container in enumerate(card.containers):
            yield INSTALLATIONS, (*path, "containers", k, "substance"), container.substance
        for k, port in enumerate(card.ports):
            yield INSTALLATIONS, (*path, "ports", k, "substance"), port.substance
    for i, mission in enumerate(parts.missions or ()):
        for k, place in enumerate(mission.places):
            yield MISSIONS, ("mission_card", "missions", i, "places", k, "formula"), place.formula


def reaction_fields(parts: Parts) -> Iterator[tuple[Path, str]]:
    """Every reaction written in installations.yaml: (path, text)."""
    for i, installation in enumerate(parts.installations or ()):
        yield ("installations", i, "reaction"), installation.reaction
    for path, card in reactor_cards(parts):
        for k, text in enumerate(card.reactions):
            yield (*path, "reactions", k), text


def parsed_reactions(parts: Parts) -> Iterator[tuple[Path, str]]:
    """The reaction fields that parse (the others are reported by the "reactions" check)."""
    for path, text in reaction_fields(parts):
        try:
            reaction_of(text)
        except ReactionError:
            continue
        yield path, text


def parses(text: str) -> bool:
    """True when ``text`` is a formula the grammar accepts."""
    try:
        formula_of(text)
    except FormulaError:
        return False
    return True
