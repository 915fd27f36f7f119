"""The catalog as frozen pydantic models: the single source of truth of the game's cards.

Formulas and reactions are kept as the text the designer wrote (so that the JSON Schema is
plain strings and every record can be checked and reported on its own); ``parsed`` properties
give the chemistry, read once and cached.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cached_property, lru_cache
from typing import Annotated, Any, Literal, Self

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from mhp_cards.catalog.base import (
    FormulaText,
    Model,
    Names,
    Positive,
    ReactionText,
    Slug,
)
from mhp_cards.catalog.box import ChemistTokens, Colour, Components, Counted, Dice, Upgrade
from mhp_cards.catalog.design import DesignRules, ValueBand, ValueRules
from mhp_cards.chem.formula import Formula, parse_formula
from mhp_cards.chem.reaction import Reaction, parse_reaction
from mhp_cards.errors import FormulaError

__all__ = [
    "CARD_LETTERS",
    "Catalog",
    "ChemistTokens",
    "Colour",
    "Components",
    "ComponentsFile",
    "Container",
    "Counted",
    "DesignRules",
    "Dice",
    "Installation",
    "InstallationsFile",
    "Mission",
    "MissionCard",
    "MissionPlace",
    "MissionsFile",
    "Names",
    "Port",
    "RawMaterial",
    "RawMaterialsFile",
    "ReactorCard",
    "Substance",
    "SubstancesFile",
    "Upgrade",
    "ValueBand",
    "ValueRules",
    "formula_of",
    "reaction_of",
]

#: The letters of reactor cards, in order (the Cyrillic alphabet without Ё, Й, Ъ, Ы, Ь).
CARD_LETTERS = "АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЭЮЯ"
PORT_POSITIONS = 3


@lru_cache(maxsize=4096)
def formula_of(text: str) -> Formula:
    """``parse_formula`` with a cache: catalog formulas are read many times by the checks."""
    return parse_formula(text)


def _parsed_or_none(text: str) -> Formula | None:
    """The formula, or None for text that does not parse (the validator reports it)."""
    try:
        return formula_of(text)
    except FormulaError:
        return None


@lru_cache(maxsize=1024)
def reaction_of(text: str) -> Reaction:
    """``parse_reaction`` with a cache."""
    return parse_reaction(text)


class Substance(Model):
    """A substance of the game: its formula, names and nominal price."""

    formula: FormulaText
    name: Names
    price: Annotated[int, Field(ge=1, description="Nominal price in мР (Martian roubles).")]
    art: str | None = None
    """A picture of the substance (PNG, JPEG or SVG), by a path relative to the catalog's
    directory: the raw cards of its formula without a picture of their own show it."""

    @property
    def parsed(self) -> Formula:
        """The formula, read."""
        return formula_of(self.formula)


class RawMaterial(Model):
    """A kind of raw-material card: a substance found on Mars and how many cards show it."""

    id: Slug
    formula: FormulaText
    name: Names
    copies: Positive
    mars: Names | None = None
    """Where it was found on Mars (a checked fact), for the card and the designer."""
    art: str | None = None
    """A picture of the raw material (PNG, JPEG or SVG), by a path relative to the catalog's
    directory; shown in the ``art`` region of the raw template."""

    @property
    def parsed(self) -> Formula:
        """The formula, read."""
        return formula_of(self.formula)


class Port(Model):
    """A pipe end on an edge of a reactor card."""

    edge: Literal["top", "right", "bottom", "left"]
    position: Annotated[
        int,
        Field(
            ge=1,
            le=PORT_POSITIONS,
            description="Slot along the edge: left to right on top/bottom, top to bottom on "
            "left/right.",
        ),
    ]
    substance: FormulaText
    direction: Literal["in", "out"]
    optional: bool = False
    """May stay unconnected (an electrolyser's outlet that can also fill its own container)."""

    @property
    def parsed(self) -> Formula:
        """The substance's formula, read."""
        return formula_of(self.substance)


class Container(Model):
    """A container drawn on a reactor card.

    A raw-input container takes one raw card (or one held substance) a run, and a product
    container one chemist token a run (Ruling L2.T4-portion); ``places`` is how many tokens a
    product container holds, so only product containers have places.
    """

    substance: FormulaText
    role: Literal["raw-input", "product", "transit"]
    places: Annotated[
        int,
        Field(
            ge=0,
            le=9,
            description="Places for chemist tokens: product containers only (a run puts one "
            "token on each product container; a raw-input container takes one card a run).",
        ),
    ] = 0

    @model_validator(mode="after")
    def _places_on_products(self) -> Self:
        if self.role == "product" and self.places < 1:
            raise PydanticCustomError(
                "token_places", "a product container needs places for chemist tokens (1 to 9)"
            )
        if self.role != "product" and self.places:
            raise PydanticCustomError(
                "token_places",
                "a {role} container has no token places: a run lays one card (or substance) "
                "beside each raw-input container and puts one token on each product container "
                "(Ruling L2.T4-portion); remove places",
                {"role": self.role},
            )
        return self

    @property
    def parsed(self) -> Formula:
        """The substance's formula, read."""
        return formula_of(self.substance)


class ReactorCard(Model):
    """A reactor card: one piece of an installation (or an electrolyser)."""

    id: Annotated[str, Field(min_length=2, examples=["5А", "Э1"])]
    group: Literal["main", "electrolyser", "part"]
    name: Names | None = None
    reactions: tuple[ReactionText, ...] = ()
    conditions: Names | None = None
    """The working conditions the card prints beside its reaction (temperature, pressure,
    what the catalyst or the product needs), when the chemistry depends on them."""
    containers: tuple[Container, ...] = ()
    ports: tuple[Port, ...] = ()
    art: str | None = None
    """A picture of the card's apparatus (PNG, JPEG or SVG), by a path relative to the
    catalog's directory; shown in the ``art`` region of the reactor template."""

    @property
    def parsed_reactions(self) -> tuple[Reaction, ...]:
        """The reactions the card hosts, read."""
        return tuple(reaction_of(text) for text in self.reactions)

    def port_at(self, edge: str, position: int) -> Port | None:
        """The port at ``position`` on ``edge``, if there is one."""
        for port in self.ports:
            if port.edge == edge and port.position == position:
                return port
        return None

    def same_design(self, other: ReactorCard) -> bool:
        """True when the cards differ at most by their IDs."""
        return self.model_dump(exclude={"id"}) == other.model_dump(exclude={"id"})


class Installation(Model):
    """A chemical installation: a process assembled from reactor cards."""

    number: Positive
    name: Names
    reaction: ReactionText
    """The overall (net) reaction of the assembled installation."""
    cards: Annotated[tuple[ReactorCard, ...], Field(min_length=1)]

    @property
    def parsed_reaction(self) -> Reaction:
        """The overall reaction, read."""
        return reaction_of(self.reaction)

    @property
    def main_card(self) -> ReactorCard:
        """The card with the red circle (the first one if the data has several)."""
        return next((card for card in self.cards if card.group == "main"), self.cards[0])


class MissionPlace(Model):
    """Places on the Mission card for one product."""

    formula: FormulaText
    count: Positive

    @property
    def parsed(self) -> Formula:
        """The product's formula, read."""
        return formula_of(self.formula)


class Mission(Model):
    """One of the four missions: products to deliver, each with a number of places."""

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9-]*$", examples=["M1"])]
    name: Names
    places: Annotated[tuple[MissionPlace, ...], Field(min_length=1)]
    art: str | None = None
    """A picture of the mission (PNG, JPEG or SVG), by a path relative to the catalog's
    directory; shown in the Mission card's ``art`` region, in the mission's quarter."""

    @property
    def elements(self) -> dict[str, int]:
        """Element counts the mission asks for at level 1: each product × its places."""
        total: Counter[str] = Counter()
        for place in self.places:
            for symbol, n in place.parsed.elements.items():
                total[symbol] += n * place.count
        return dict(total)


class MissionCard(Model):
    """The Mission card: four missions."""

    missions: Annotated[tuple[Mission, ...], Field(min_length=4, max_length=4)]


# The five catalog files, one model each.


class SubstancesFile(Model):
    """``substances.yaml``."""

    value_rules: ValueRules | None = None
    substances: tuple[Substance, ...]


class RawMaterialsFile(Model):
    """``raw_materials.yaml``."""

    raw_materials: tuple[RawMaterial, ...]


class InstallationsFile(Model):
    """``installations.yaml``: the installations and the five electrolyser cards."""

    installations: tuple[Installation, ...]
    electrolysers: tuple[ReactorCard, ...]


class MissionsFile(Model):
    """``missions.yaml``."""

    design: DesignRules | None = None
    mission_card: MissionCard


class ComponentsFile(Model):
    """``components.yaml``."""

    components: Components


class Catalog(Model):
    """The whole validated game: what ``mhp catalog export`` prints."""

    schema_version: Literal[1] = 1
    substances: tuple[Substance, ...]
    raw_materials: tuple[RawMaterial, ...]
    installations: tuple[Installation, ...]
    electrolysers: tuple[ReactorCard, ...]
    missions: tuple[Mission, ...]
    components: Components
    design: DesignRules | None = None
    """The designer's bands for the depth figures of play (``missions.yaml``)."""

    @cached_property
    def _substances(self) -> dict[Formula, Substance]:
        return {s.parsed: s for s in self.substances}

    @cached_property
    def _cards(self) -> dict[str, ReactorCard]:
        cards = {card.id: card for i in self.installations for card in i.cards}
        cards.update({card.id: card for card in self.electrolysers})
        return cards

    def substance(self, formula: Formula | str) -> Substance:
        """The substance with this formula (compared by composition); KeyError if none."""
        key = formula_of(formula) if isinstance(formula, str) else formula
        return self._substances[key]

    def installation(self, number: int) -> Installation:
        """The installation with this number; KeyError if none."""
        for installation in self.installations:
            if installation.number == number:
                return installation
        raise KeyError(number)

    def card(self, card_id: str) -> ReactorCard:
        """The reactor card with this exact ID; KeyError if none."""
        return self._cards[card_id]

    def runs_alone(self, installation: Installation) -> bool:
        """True when every raw input of the installation is a raw card (Ruling V1.2-runnable).

        Such an installation runs with raw cards and the electrolyser only, needing no product
        of another installation (head to head forbids the trades that would bring one, V1.4).
        Worked out once per installation (every head-to-head deal asks it of each).
        """
        known = self.memo("catalog.runs-alone")
        found: tuple[Installation, bool] | None = known.get(id(installation))
        if found is None or found[0] is not installation:
            # The installation kept with the answer, so its id stays its own.
            found = known[id(installation)] = (installation, self._runs_alone(installation))
        return found[1]

    def _runs_alone(self, installation: Installation) -> bool:
        raw = {_parsed_or_none(card.formula) for card in self.raw_materials} - {None}
        cards = list(installation.cards)
        if self.electrolyser is not None and self._piped_from_electrolyser(installation):
            # The electrolyser's own input (water) must then be a raw card too.
            cards.append(self.electrolyser)
        return all(
            _parsed_or_none(container.substance) in raw
            for card in cards
            for container in card.containers
            if container.role == "raw-input"
        )

    def _piped_from_electrolyser(self, installation: Installation) -> bool:
        """True when an inlet of the installation is left for the electrolyser to feed.

        An inlet is open when the installation's cards take a substance through more in-ports
        than they give it out of; the electrolyser is what pipes such a substance in.
        """
        assert self.electrolyser is not None
        offered = {port.substance for port in self.electrolyser.ports if port.direction == "out"}
        balance: dict[str, int] = {}
        for card in installation.cards:
            for port in card.ports:
                step = 1 if port.direction == "in" else -1
                balance[port.substance] = balance.get(port.substance, 0) + step
        return any(balance.get(substance, 0) > 0 for substance in offered)

    @property
    def installations_running_alone(self) -> tuple[Installation, ...]:
        """The installations that can run from raw cards alone (head to head deals only these)."""
        return tuple(i for i in self.installations if self.runs_alone(i))

    def mission(self, mission_id: str) -> Mission:
        """The mission with this id; KeyError if none."""
        for mission in self.missions:
            if mission.id == mission_id:
                return mission
        raise KeyError(mission_id)

    def raw_material(self, raw_id: str) -> RawMaterial:
        """The raw-material kind with this id; KeyError if none."""
        return self._raw_by_id[raw_id]

    @cached_property
    def _raw_by_id(self) -> dict[str, RawMaterial]:
        return {raw.id: raw for raw in self.raw_materials}

    def memo(self, name: str) -> dict[Any, Any]:
        """A scratch mapping, ``name``'d, where later stages keep facts derived from this catalog.

        It lives as long as this catalog value and is not carried into a ``model_copy`` (whose
        facts may differ), so a cache kept here can never answer for another catalog.
        """
        return self._memos.setdefault(name, {})

    @cached_property
    def _memos(self) -> dict[str, dict[Any, Any]]:
        return {}

    @property
    def raw_deck_size(self) -> int:
        """Number of raw-material cards in the box."""
        return sum(raw.copies for raw in self.raw_materials)

    def raw_deck(self) -> Iterator[RawMaterial]:
        """Every raw-material card of the deck, kind by kind (copies repeated)."""
        for raw in self.raw_materials:
            for _ in range(raw.copies):
                yield raw

    @property
    def main_cards(self) -> tuple[ReactorCard, ...]:
        """The group-1 cards (red circle), one per installation."""
        return tuple(card for i in self.installations for card in i.cards if card.group == "main")

    @property
    def electrolyser(self) -> ReactorCard | None:
        """The electrolyser design (the five cards are identical)."""
        return self.electrolysers[0] if self.electrolysers else None
