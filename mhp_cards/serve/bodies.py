"""The request bodies of the table server's API, as models: read, checked, and documented.

Each model is the body of one kind of request; its JSON Schema is part of
``catalog/schema/serve-api.schema.json`` (:mod:`mhp_cards.serve.schema`). A body that does not
fit gets a 400 answer naming the field at fault.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ActionRequest",
    "AnswerRequest",
    "MissionRequest",
    "NewGame",
    "SeatClaim",
    "SeatCodeRequest",
    "SeatMove",
    "UndoRequest",
]

_Colour = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z][a-z0-9-]*$")]


class _Body(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class NewGame(_Body):
    """``POST /api/games``: deal a new game."""

    level: Annotated[str, Field(examples=["1"])] = "1"
    """The level: 1, 2, 1v1 (head to head) or 3."""
    players: Annotated[int, Field(ge=1, le=9)] = 2
    """How many players (2 to 5; head to head: 2)."""
    seed: Annotated[int | None, Field(ge=0, le=2**63 - 1)] = None
    """The seed of the deal and of the game's dice; none: a random one, kept with the game."""
    house_rules: Annotated[tuple[str, ...], Field(max_length=16)] = ()
    """The house rules switched on, by name (``armour-sum``…)."""
    shape: str = "rectangle"
    """The field's shape at levels 1 and 3: rectangle, cross, ring or random."""
    player: _Colour | None = None
    """Answer with this player's view of the game instead of the whole state."""


class ActionRequest(_Body):
    """``POST /api/games/{id}/actions``: play an action."""

    action: str | dict[str, Any]
    """The action in its text form (``move 3,4``) or its JSON form (``{"kind": "end"}``)."""
    version: Annotated[int, Field(ge=0)]
    """The game's version the action was chosen in; another version is refused (409)."""
    player: _Colour | None = None
    """Answer with this player's view of the game instead of the whole state."""


class UndoRequest(_Body):
    """``POST /api/games/{id}/undo``: take back the actions since the last dice or reveal."""

    version: Annotated[int, Field(ge=0)]
    """The game's version the undo was asked in; another version is refused (409)."""
    player: _Colour | None = None
    """Answer with this player's view of the game instead of the whole state."""


class AnswerRequest(_Body):
    """``POST /api/games/{id}/proposals/{pid}/accept`` or ``…/decline``."""

    version: Annotated[int, Field(ge=0)]
    """The game's version the answer was given in; another version is refused (409)."""
    player: _Colour | None = None
    """Who answers (accepting: the player the proposal is made to); also the view answered."""


class SeatClaim(_Body):
    """``POST /api/games/{id}/seats``: this phone is this player's (the answer holds its secret)."""

    player: _Colour
    """The player whose seat the phone claims."""


class SeatCodeRequest(_Body):
    """``POST /api/games/{id}/seats/{player}/code``: a code to move the seat (``{}``)."""


class SeatMove(_Body):
    """``POST /api/games/{id}/seats/{player}/move``: move the seat to this phone by its code."""

    code: Annotated[str, Field(min_length=1, max_length=20, examples=["K7QM2X"])]
    """The code the holding phone shows (case, spaces and hyphens do not matter)."""


class MissionRequest(_Body):
    """``POST /api/mission``: is a level-1 mission complete with these raw cards? (L1.E1)."""

    mission: Annotated[str, Field(min_length=1, max_length=40, examples=["M1"])]
    """The mission's ID on the Mission card."""
    cards: Annotated[tuple[Annotated[str, Field(max_length=100)], ...], Field(max_length=200)]
    """The raw cards held, each by formula (``CO2``), kind (``hematite``) or card ID."""
    house_rules: Annotated[tuple[str, ...], Field(max_length=3)] = ()
    """``whole-hand`` or ``at-least`` instead of the default ``exact-subset`` (L1.E1.R1)."""
