"""The box's components as catalog models: coins, combines, chemist tokens, colours, upgrades, dice.

``components.yaml`` counts what the box holds besides the cards; the setups, the dealer and the
printed kit read these counts, never their own.
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Literal, Self

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from mhp_cards.catalog.base import Count, Model, Names, Positive, Slug

__all__ = ["ChemistTokens", "Colour", "Components", "Counted", "Dice", "Upgrade"]


class Counted(Model):
    """A component of which only the number matters."""

    count: Count


class ChemistTokens(Model):
    """Chemist tokens: a set per player colour.

    ``per_player`` is how many tokens of each colour the box holds: at least the most a player
    takes at setup (10 when two play levels 2 and 3, Ruling L2.S7-two; 8 otherwise).
    """

    per_player: Positive


class Colour(Model):
    """A player colour (combine and chemist tokens)."""

    id: Slug
    name: Names
    rgb: Annotated[str, Field(pattern=r"^#[0-9A-Fa-f]{6}$", examples=["#D62828"])]


class Upgrade(Model):
    """A combine upgrade for sale (solar battery, armour)."""

    id: Slug
    name: Names
    price: Positive
    count: Count
    levels: Annotated[
        tuple[Literal["1", "3"], ...],
        Field(
            min_length=1,
            max_length=2,
            json_schema_extra={"uniqueItems": True},
            description="The levels at which the upgrade is sold (the rules sell both upgrades "
            "at levels 1 and 3; a designer may leave one out of a level, Ruling L1.T6.R2).",
        ),
    ] = ("1", "3")

    @model_validator(mode="after")
    def _distinct_levels(self) -> Self:
        if len(set(self.levels)) != len(self.levels):
            raise PydanticCustomError(
                "repeated_level",
                "each level is named once, not {levels}",
                {"levels": list(self.levels)},
            )
        return self

    def sold_at(self, level: str) -> bool:
        """Whether the upgrade is sold at this level (levels 1 and 3 have combines)."""
        return level in self.levels


class Dice(Model):
    """The dice of the game."""

    count: Positive
    sides: Annotated[int, Field(ge=2)]


class Components(Model):
    """Everything in the box that is not a raw-material or reactor card."""

    coins: Counted
    chemist_tokens: ChemistTokens
    colours: Annotated[tuple[Colour, ...], Field(min_length=1)]
    combines: Counted
    upgrades: tuple[Upgrade, ...] = ()
    fate_cards: Counted
    base_card: Counted
    dice: Dice

    def upgrade(self, upgrade_id: str) -> Upgrade | None:
        """The upgrade with this id, if the box has it."""
        return self._upgrades.get(upgrade_id)

    @cached_property
    def _upgrades(self) -> dict[str, Upgrade]:
        return {upgrade.id: upgrade for upgrade in self.upgrades}
