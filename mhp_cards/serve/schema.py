"""The JSON Schema of the table server's API, committed as ``catalog/schema/serve-api.schema.json``.

One document whose ``$defs`` holds the schema of every request body (the models of
:mod:`mhp_cards.serve.bodies`) and every answer (the models below, which describe the answers
:class:`~mhp_cards.serve.table.Table` writes). Outside tools validate against
``serve-api.schema.json#/$defs/Game`` and so on; the tests validate the server's real answers
against it, and a test checks that the committed file is this schema, byte for byte.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema

from mhp_cards.catalog.schema import SCHEMA_BASE_URI, document_fields, render
from mhp_cards.game.state import GameState
from mhp_cards.serve.bodies import (
    ActionRequest,
    AnswerRequest,
    MissionRequest,
    NewGame,
    SeatClaim,
    SeatCodeRequest,
    SeatMove,
    UndoRequest,
)

__all__ = ["API_SCHEMA", "BODIES", "api_schema", "api_schema_text"]

#: The file name of the schema in ``catalog/schema/``.
API_SCHEMA: Final = "serve-api.schema.json"


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Texts(_Answer):
    """A text in Russian and English."""

    ru: str
    en: str


class Ruling(_Answer):
    """The referee's ruling: verdict, the rules it rests on, the reason, the facts."""

    verdict: Literal[
        "allowed",
        "forbidden",
        "complete",
        "incomplete",
        "ended",
        "in-progress",
        "score",
        "outside-rules",
    ]
    rules: list[str]
    reason: Texts
    facts: dict[str, Any]
    house_rules: list[str]
    code: str | None = None
    """The reason as a code (``move.already-moved``), where the referee gives one."""


class Event(_Answer):
    """Something an action caused, told in Russian and English, with its data."""

    kind: str
    ru: str
    en: str
    data: dict[str, Any]
    code: str | None = None
    """What happened as a code, where the referee gives one."""


class ScoreLine(_Answer):
    """One line of the score."""

    player: str
    what: str
    value: int
    rule: str


class Score(_Answer):
    """The score at this moment: totals, the breakdown, the winners."""

    totals: dict[str, int]
    lines: list[ScoreLine]
    winners: list[str]
    ruling: Ruling


class End(_Answer):
    """How the game ended: the reason code, the mission completed, the winners, the rules."""

    code: Literal["mission", "field-empty", "piles-empty", "no-progress"]
    mission: str | None
    winners: list[str]
    rules: list[str]
    reason: Texts


class Proposal(_Answer):
    """An allowed trade or sale that waits for the partner's acceptance."""

    id: str
    from_: str = Field(alias="from")
    """The player who proposes."""
    to: str
    """The player who accepts or declines."""
    text: str
    action: dict[str, Any]
    ruling: Ruling


class GameSummary(_Answer):
    """One saved game, in brief."""

    id: str
    level: Literal["1", "2", "1v1", "3"]
    players: list[str]
    seed: int
    version: int
    actions: int
    turn: str
    round: int
    ended: bool
    created: float
    updated: float
    seats: list[str]
    """The players whose seats phones have claimed: acting as them, or reading their view,
    needs the seat's secret (the ``X-Mhp-Seat`` header)."""


class Game(GameSummary):
    """One game: the state or a player's view, the pending proposal, the score, the end."""

    viewer: str | None
    """The player whose view ``state`` is; None for the whole state, or for the public view
    (``state.viewer`` is then ``*``) once a seat is claimed."""
    state: GameState
    pending: Proposal | None
    score: Score
    end: End | None


class GameList(_Answer):
    """The saved games, the most recently changed first."""

    games: list[GameSummary]


class Change(_Answer):
    """What every change answers with: the game's new version and state."""

    id: str
    version: int
    viewer: str | None
    state: GameState
    pending: Proposal | None
    score: Score
    end: End | None
    seats: list[str]


class LegalAction(_Answer):
    """One action the current player may take."""

    kind: str
    text: str
    action: dict[str, Any]
    needs_consent: str | None


class RefusedAction(_Answer):
    """A usual action the referee does not allow now, and why."""

    kind: str
    text: str
    ruling: Ruling


class Legal(_Answer):
    """Every action the current player may take now, and by kind."""

    id: str
    version: int
    player: str
    viewer: str | None
    actions: list[LegalAction]
    groups: dict[str, list[str]]
    refused: list[RefusedAction]
    """The usual actions (ending the turn) not listed, each with the referee's ruling why."""
    pending: Proposal | None


class ActionResult(Change):
    """An action applied (200) or proposed to its partner (202)."""

    ruling: Ruling
    events: list[Event] | None = None
    seq: int | None = None
    proposal: Proposal | None = None


class AnswerResult(Change):
    """A proposal accepted (and applied) or declined."""

    accepted: Proposal | None = None
    declined: Proposal | None = None
    ruling: Ruling | None = None
    events: list[Event] | None = None
    seq: int | None = None


class Undone(_Answer):
    """An action taken back."""

    seq: int
    player: str
    text: str


class UndoResult(Change):
    """The actions an undo took back and the game after it."""

    undone: list[Undone]


class LogEntry(_Answer):
    """One accepted action of the log."""

    seq: int
    version: int
    at: float
    player: str
    text: str
    action: dict[str, Any]
    ruling: Ruling
    events: list[Event]
    barrier: bool


class Log(_Answer):
    """A game's log, in order."""

    id: str
    version: int
    viewer: str | None
    entries: list[LogEntry]


class ScoreResult(Score):
    """The score of a game and its end."""

    id: str
    version: int
    end: End | None


class MissionResult(_Answer):
    """The level-1 mission check."""

    ruling: Ruling
    notes: list[str]
    cards: list[str]


class Rule(_Answer):
    """A rule, one of our Rulings on a rule, or a house rule."""

    id: str
    kind: Literal["rule", "ruling", "house-rule"]
    level: str | None = None
    title: Texts
    text: Texts
    refs: list[str] | None = None
    ruling_for: str | None
    default: bool | None = None


class Rules(_Answer):
    """Every rule and house rule."""

    rules: list[Rule]
    house_rules: list[Rule]


class CatalogSummary(_Answer):
    """The cards and options a page draws the game with."""

    raw_materials: list[dict[str, Any]]
    missions: list[dict[str, Any]]
    installations: list[dict[str, Any]]
    substances: list[dict[str, Any]]
    colours: list[dict[str, Any]]
    house_rules: list[Rule]
    levels: list[str]
    shapes: list[str]
    players: dict[str, int]


class Seat(_Answer):
    """A seat claimed, or moved to this phone: its secret, shown only in this answer."""

    id: str
    player: str
    secret: str
    """Sent as the ``X-Mhp-Seat`` header by whatever acts as this player or reads their view."""
    header: Literal["X-Mhp-Seat"]
    seats: list[str]


class SeatCode(_Answer):
    """A code that moves a seat to another phone."""

    id: str
    player: str
    code: str
    expires: float
    """When the code stops working (Unix seconds)."""
    seconds: int
    url: str
    """The page's address that moves the seat when opened (``?player=…&move=CODE``)."""
    qr_svg: str
    """The QR code of ``url``."""


class Join(_Answer):
    """How other phones join: the URLs and the QR code of the first."""

    urls: list[str]
    qr_svg: str | None


class Health(_Answer):
    """The server is up."""

    status: Literal["ok"]
    version: str
    games: int


class ErrorDetail(BaseModel):
    """What is wrong: a code, a message and the facts (field, version, ruling…)."""

    model_config = ConfigDict(extra="allow")

    code: str
    message: str


class Error(_Answer):
    """Every refusal; a forbidden action also carries its ruling."""

    error: ErrorDetail
    ruling: Ruling | None = None


#: Every body of the API: requests first, then answers.
BODIES: Final[tuple[type[BaseModel], ...]] = (
    NewGame,
    ActionRequest,
    UndoRequest,
    AnswerRequest,
    MissionRequest,
    SeatClaim,
    SeatCodeRequest,
    SeatMove,
    Health,
    Game,
    GameList,
    Legal,
    ActionResult,
    AnswerResult,
    UndoResult,
    Log,
    ScoreResult,
    MissionResult,
    Rule,
    Rules,
    CatalogSummary,
    Seat,
    SeatCode,
    Join,
    Error,
)


def api_schema() -> dict[str, Any]:
    """The schema of the API (draft 2020-12): one ``$defs`` entry per body."""
    for model in BODIES:
        document_fields(model)
    _, definitions = models_json_schema(
        [(model, "validation") for model in BODIES], ref_template="#/$defs/{model}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_BASE_URI + API_SCHEMA,
        "title": "mhp serve API",
        "description": "Request and answer bodies of the table server (mhp_cards/serve/API.md).",
        **definitions,
    }


def api_schema_text() -> str:
    """The committed text of the schema."""
    return render(api_schema())
