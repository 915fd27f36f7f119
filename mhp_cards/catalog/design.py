"""The designer's bands as catalog models: what ``mhp balance`` and the economy checks judge by.

``design:`` in ``missions.yaml`` declares the depth figures' bands (game length, installation
runs, level-1 solutions, attacks and armour); the value rules bound what a run or a lost card
is worth.
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import Field, model_validator

from mhp_cards.catalog.base import Model

__all__ = ["DesignRules", "ValueBand", "ValueRules"]


class ValueBand(Model):
    """A closed range, ``min`` to ``max``: мР, rounds or a share of games, as its field says."""

    min: float
    max: float

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        return self


class ValueRules(Model):
    """What running a reaction may be worth at printed prices (the validator's value checks).

    Products score at their price (L2.P1), so a card whose products are worth less than its
    inputs punishes the player who runs it.
    """

    card_loss_error_share: Annotated[
        float,
        Field(
            ge=0,
            le=1,
            description="A card whose products are worth less than its inputs is a warning; "
            "losing more than this share of the inputs' value is an error.",
        ),
    ] = 0.25
    installation_gain_per_run: ValueBand = Field(
        description="мР an installation adds per reaction run (electrolysers included) over "
        "one full cycle of its cards; outside this band is a warning.",
    )


class DesignRules(Model):
    """What the designer asks of play: ``mhp balance`` sets its depth figures against these.

    Shares are of games (0..1); rounds are a game's median length in rounds, by level.
    """

    rounds: dict[Literal["1", "2", "3"], ValueBand] = Field(
        default_factory=dict,
        description="The band of the median game length in rounds, by level (1, 2, 3).",
    )
    level1_solutions: Annotated[
        int,
        Field(
            ge=1,
            description="The fewest distinct raw-card solutions (multisets of kinds within the "
            "deck's copies) each mission must have at level 1.",
        ),
    ] = 3
    installation_runs: Annotated[
        float,
        Field(
            ge=0,
            description="The fewest runs a game every installation makes at levels 2 and 3.",
        ),
    ] = 0.25
    attacks: dict[Literal["1", "3"], ValueBand] = Field(
        default_factory=dict,
        description="The band of the share of games with an attack, at levels 1 and 3.",
    )
    armour: dict[Literal["1", "3"], ValueBand] = Field(
        default_factory=dict,
        description="The band of the share of games in which armour is bought, at levels 1 and 3.",
    )
