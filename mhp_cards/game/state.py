"""The state of a game of МХП at any moment: one versioned, JSON-serialisable, frozen model.

Everything needed to continue a game exactly is here: the field and what lies on it, every
combine, hand, pile and the Warehouse, the Bank and the money, the installations with the
chemist tokens on their containers, the Mission card, whose turn it is, the house rules in
force, and the state of the random generator. Cards are named by instance IDs so that each one
can be followed: ``hematite#2`` is the second hematite card, ``fate#17`` the 17th Fate card.

States are values: an action produces a new state (see the referee); nothing mutates one.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Hashable, Iterator, Mapping
from functools import cached_property
from typing import Annotated, Any, Final, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from mhp_cards.rules.numbers import HOUSE_RULES, PILES_L2, HouseRules, Level

__all__ = [
    "STATE_VERSION",
    "Cell",
    "Combine",
    "ContainerState",
    "FieldState",
    "Fight",
    "GameState",
    "InstallationState",
    "MissionState",
    "Player",
    "Position",
]

STATE_VERSION = 1
#: A field position (x to the right, y downwards); the Base has one too.
Position = tuple[int, int]


EndCode = Literal["mission", "field-empty", "piles-empty", "no-progress"]
"""Why a game ended: a mission complete (L1.E1, L2.E1, L3.E1); the field out of raw cards
(L1.E1; at level 3, L3.E1.R1); the three piles out (L2.E1, V1.5); a whole round without
progress (L3.E1-no-progress)."""


class Model(BaseModel):
    """Base of the state models: immutable, no unknown keys."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with ``update`` applied (not validated, as pydantic's own ``model_copy``).

        Facts cached on this model (``cached_property``) are not carried into a copy with an
        update, but for those a state keeps by :meth:`GameState.facts` that the update leaves
        true. The referee makes every state by such copies, so this is its hot path: the
        copy is made as ``model_construct`` makes a model, without pydantic's general copying.
        """
        if deep:
            copy = super().model_copy(update=update, deep=True)
            if update:
                copy.__dict__.pop("_facts", None)
            return copy
        cls = type(self)
        values = self.__dict__
        if update:
            shape = _SHAPES.get(cls) or _shape(cls)
            old = values
            values = {**values, **update}
            if len(values) > shape[0]:  # drop cached facts computed from the old fields
                for name in shape[1]:
                    values.pop(name, None)
                facts = old.get("_facts")
                if facts:  # but share those the update leaves true (GameState.facts)
                    kept = {
                        reads: kept for reads, kept in facts.items() if reads.isdisjoint(update)
                    }
                    if kept:
                        values["_facts"] = kept
            fields_set = self.__pydantic_fields_set__
            if not fields_set.issuperset(update):  # else shared: nothing ever changes it
                fields_set = fields_set | update.keys()
        else:
            values = dict(values)
            fields_set = set(self.__pydantic_fields_set__)
        copy = _NEW(cls)
        _SET(copy, "__dict__", values)
        _SET(copy, "__pydantic_fields_set__", fields_set)
        _SET(copy, "__pydantic_extra__", None)
        _SET(copy, "__pydantic_private__", None)
        return copy


def _shape(cls: type[BaseModel]) -> tuple[int, tuple[str, ...]]:
    """How many fields a model class has, and its cached facts' names (``cached_property``)."""
    shape = _SHAPES[cls] = (
        len(cls.__pydantic_fields__),
        tuple(
            name
            for name in dir(cls)
            if isinstance(inspect.getattr_static(cls, name, None), cached_property)
        ),
    )
    return shape


#: Each model class's :func:`_shape`, read at every copy.
_SHAPES: dict[type, tuple[int, tuple[str, ...]]] = {}
# A copy is made as pydantic's model_construct makes a model: a bare instance, its slots set.
_NEW: Final = object.__new__
_SET: Final = object.__setattr__

#: The fields where chemist tokens stand.
_TOKENS_READ: Final = frozenset({"installations", "missions"})
_MISSIONS_READ: Final = frozenset({"missions"})


class Cell(Model):
    """A field cell: a face-down Fate card and, until collected, a raw card on top."""

    x: int
    y: int
    fate: str
    """Instance ID of the Fate card forming the cell (``fate#17``)."""
    raw: str | None = None
    """Instance ID of the raw card lying face down on it, or None once collected."""

    @property
    def position(self) -> Position:
        """(x, y)."""
        return (self.x, self.y)


class FieldState(Model):
    """The surface of Mars (levels 1 and 3): cells of Fate cards and the Base among them."""

    shape: str = "rectangle"
    base: Position
    cells: tuple[Cell, ...]

    def cell_at(self, position: Position) -> Cell | None:
        """The cell at a position, if there is one."""
        index = self._index.get(position)
        return None if index is None else self.cells[index]

    def cell_index(self, position: Position) -> int | None:
        """The index in ``cells`` of the cell at a position, if there is one."""
        return self._index.get(position)

    @cached_property
    def _index(self) -> dict[Position, int]:
        return {(cell.x, cell.y): index for index, cell in enumerate(self.cells)}

    @cached_property
    def positions(self) -> frozenset[Position]:
        """Every position a combine can stand on: the cells and the Base."""
        return frozenset([self.base, *(cell.position for cell in self.cells)])

    @cached_property
    def raw_left(self) -> int:
        """How many raw cards still lie on the field."""
        return len(self.raw_positions)

    @cached_property
    def raw_positions(self) -> frozenset[Position]:
        """The positions of the cells that still hold a raw card."""
        return frozenset((cell.x, cell.y) for cell in self.cells if cell.raw is not None)

    def with_cards(
        self, cells: tuple[Cell, ...], *, raw_positions: frozenset[Position] | None = None
    ) -> FieldState:
        """The same field with other raw cards on its cells (the cells stay where they are).

        The field's geometry (positions, neighbours) is carried over rather than recomputed;
        so are the cells that hold a raw card when the caller knows them (``raw_positions``:
        a collection takes some away, a card hidden or dealt again leaves them).
        """
        new = self.model_copy(update={"cells": cells})
        for name in ("positions", "_index", "_orthogonal_neighbours", "_diagonal_neighbours"):
            if name in self.__dict__:
                new.__dict__[name] = self.__dict__[name]
        if raw_positions is not None:
            new.__dict__["raw_positions"] = raw_positions
        return new

    def neighbours(self, diagonal: bool = False) -> Mapping[Position, tuple[Position, ...]]:
        """Each position's neighbours on the field, in sorted order (orthogonal or all 8)."""
        return self._diagonal_neighbours if diagonal else self._orthogonal_neighbours

    @cached_property
    def _orthogonal_neighbours(self) -> Mapping[Position, tuple[Position, ...]]:
        return _neighbours(self.base, self.positions, _ORTHOGONAL)

    @cached_property
    def _diagonal_neighbours(self) -> Mapping[Position, tuple[Position, ...]]:
        return _neighbours(self.base, self.positions, _DIAGONAL)


_ORTHOGONAL: Final = ((1, 0), (-1, 0), (0, 1), (0, -1))
_DIAGONAL: Final = (*_ORTHOGONAL, (1, 1), (1, -1), (-1, 1), (-1, -1))


def _neighbours(
    base: Position, positions: frozenset[Position], steps: tuple[tuple[int, int], ...]
) -> Mapping[Position, tuple[Position, ...]]:
    """The neighbours on a field of this geometry, worked out once for every game dealt on it.

    A level and player count deal fields of the same shape game after game; the mapping is
    shared (a plain dict, which a state's deep copy and pickling can take), so it is never to
    be changed. The Base is part of the key: memories kept by the mapping's identity (the
    turns to the Base) read it.
    """
    key = (base, positions, steps)
    found = _NEIGHBOURS.get(key)
    if found is None:
        if len(_NEIGHBOURS) >= _GEOMETRIES_REMEMBERED:
            _NEIGHBOURS.clear()
        found = _NEIGHBOURS[key] = {
            (x, y): tuple(
                sorted(p for p in ((x + dx, y + dy) for dx, dy in steps) if p in positions)
            )
            for x, y in positions
        }
    return found


_NEIGHBOURS: dict[
    tuple[Position, frozenset[Position], tuple[tuple[int, int], ...]],
    Mapping[Position, tuple[Position, ...]],
] = {}
_GEOMETRIES_REMEMBERED: Final = 256


class Combine(Model):
    """A player's combine on the field."""

    position: Position
    solar_battery: bool = False
    armour: bool = False
    moved: bool = False
    """True once it has left the Base for the first time (L1.T2)."""
    repair_turn: int | None = None
    """After a fight, the number of the player's next turn, on which they may not attack
    (L1.T5)."""


class Player(Model):
    """A player: colour, money, raw cards held, combine, chemist tokens."""

    id: str
    """The player's colour ID (catalog components.colours)."""
    money: Annotated[int, Field(ge=0)] = 0
    raw_cards: tuple[str, ...] = ()
    combine: Combine | None = None
    tokens: Annotated[int, Field(ge=0)] = 0
    """Chemist tokens the player owns (8 at levels 2 and 3, none at level 1)."""


class ContainerState(Model):
    """A container on a reactor card and the tokens on its places (None: a free place)."""

    card: str
    index: int
    """Index of the container on its card (catalog order)."""
    substance: str
    role: Literal["raw-input", "product", "transit"]
    places: tuple[str | None, ...] = ()
    """For product containers: the player ID whose token stands on each place, or None."""


class InstallationState(Model):
    """An installation on the table: who owns it and its assembled cards."""

    number: int
    owner: str | None = None
    """The player who owns it; None for a shared installation."""
    arrangement: str
    """The assembled cards, in the inline form (``. 2А / Э 2Б``)."""
    containers: tuple[ContainerState, ...] = ()


class Fight(Model):
    """An attack declared and not yet settled (L1.T4): the dice, then the spoils, the retreat.

    Before the dice ``winner`` is None; after them the winner chooses the spoils (``taken`` is
    None until then), and then the loser the retreat (Ruling L1.T4.R4).
    """

    attacker: str
    defender: str
    cell: Position
    rounds: tuple[tuple[int, ...], ...] = ()
    """The dice rolled, round by round (attacker's roll, then the defender's)."""
    winner: str | None = None
    """Who won the dice; None before they are rolled."""
    taken: Annotated[int, Field(ge=0)] | None = None
    """How many cards the winner took as spoils (which ones the log says, to those who may
    know); None until they have chosen."""

    @property
    def loser(self) -> str | None:
        """Who lost the dice; None before they are rolled."""
        if self.winner is None:
            return None
        return self.defender if self.winner == self.attacker else self.attacker

    @property
    def stage(self) -> Literal["dice", "spoils", "retreat"]:
        """What the fight waits for: the dice, the winner's spoils, the loser's retreat."""
        if self.winner is None:
            return "dice"
        return "spoils" if self.taken is None else "retreat"


class MissionState(Model):
    """A mission of the Mission card and the tokens standing on its places."""

    id: str
    places: tuple[tuple[str, tuple[str | None, ...]], ...]
    """(formula, the player ID on each place or None) for each product of the mission."""

    @property
    def complete(self) -> bool:
        """Every place of the mission holds a token (L2.E1 ruling)."""
        return all(token is not None for _, tokens in self.places for token in tokens)


class GameState(Model):
    """A game at one moment."""

    version: Literal[1] = 1
    level: Level
    seed: int
    rng: int
    """State of the game's random generator (mhp_cards.game.rng.Rng)."""
    house_rules: Annotated[
        HouseRules,
        WithJsonSchema(
            {
                "type": "array",
                "items": {"enum": list(HOUSE_RULES)},
                "uniqueItems": True,
                "description": "The house rules in force, by name.",
            }
        ),
    ] = HouseRules()
    players: Annotated[tuple[Player, ...], Field(min_length=1)]
    turn: Annotated[int, Field(ge=0)] = 0
    """Index into ``players`` of the player whose turn it is."""
    round: Annotated[int, Field(ge=1)] = 1
    """The round under way, from 1."""
    turn_number: Annotated[int, Field(ge=0)] = 0
    """Turns played since the start (0 for the first turn of the game)."""
    done_this_turn: tuple[str, ...] = ()
    """Kinds of action the current player has taken this turn (one move, one trade…)."""
    fight: Fight | None = None
    """An attack waiting for its dice."""
    field: FieldState | None = None
    removed_fate: tuple[str, ...] = ()
    """Fate cards set aside at setup (L1.S1)."""
    warehouse: tuple[str, ...] = ()
    piles: tuple[tuple[str, ...], ...] = ()
    """The raw piles at level 2 (top card last)."""
    discard: tuple[str, ...] = ()
    """Raw cards out of the game (processed or discarded)."""
    drawn: tuple[str, ...] = ()
    """Head to head: the raw cards the current player drew and has yet to choose one of
    (Ruling V1.3-draw-two); seen by that player only."""
    drawn_pile: Annotated[int, Field(ge=0, le=PILES_L2)] = 0
    """The pile the drawn cards came from; the one not chosen goes to its bottom (0: none)."""
    bank: Annotated[int, Field(ge=0)] = 0
    box_coins: Annotated[int, Field(ge=0)] = 0
    """Coins not in play (level 2 uses 8 per player + 10)."""
    installations: tuple[InstallationState, ...] = ()
    unused_installations: tuple[int, ...] = ()
    """Installations left in the box (head to head, V1.2)."""
    missions: tuple[MissionState, ...] = ()
    ended: bool = False
    end_code: EndCode | None = None
    """Why the game ended, as a code (``mission``, ``field-empty``…); None while it goes on."""
    end_reason: str = ""
    """The end in English words, for people (rendered from ``end_code``)."""
    claims: tuple[tuple[str, str], ...] = ()
    """(player, mission) for each mission announced at level 1 (L1.E2), in order; the first
    starts the last round (Ruling L2.E1-round)."""
    quiet_turns: Annotated[int, Field(ge=0)] = 0
    """Turns in a row, up to now, in which nobody collected, reacted or bought from the
    Warehouse (level 3, Ruling L3.E1-no-progress)."""
    viewer: str | None = None
    """None for the full state; for a player's view (mhp_cards.game.visibility.view), the
    player it shows the game to: cards they cannot see are placeholders (``hidden#1``), and
    ``seed`` and ``rng`` are 0; ``*`` for the public view (every hand hidden too)."""

    @property
    def current(self) -> Player:
        """The player whose turn it is."""
        return self.players[self.turn]

    def player(self, player_id: str) -> Player:
        """The player with this colour ID; KeyError if none."""
        for player in self.players:
            if player.id == player_id:
                return player
        raise KeyError(player_id)

    def raw_locations(self) -> Iterator[tuple[str, str]]:
        """Every raw card instance with where it is (``field``, ``warehouse``, ``pile 2``…)."""
        if self.field is not None:
            for cell in self.field.cells:
                if cell.raw is not None:
                    yield cell.raw, f"field ({cell.x}, {cell.y})"
        for card in self.warehouse:
            yield card, "warehouse"
        for index, pile in enumerate(self.piles, start=1):
            for card in pile:
                yield card, f"pile {index}"
        for player in self.players:
            for card in player.raw_cards:
                yield card, f"hand of {player.id}"
        for card in self.discard:
            yield card, "discard"
        for card in self.drawn:
            yield card, "drawn"

    def facts(self, reads: frozenset[str]) -> dict[Hashable, Any]:
        """Where the referee keeps facts it derives from the fields named in ``reads``.

        The referee derives the same facts from a state again and again (which installations a
        player may use, where their tokens stand); kept here, each is worked out once. A copy
        with an update shares the facts of the fields the update leaves alone: the fields are
        immutable values, so a fact that reads only those is as true of the copy.
        """
        facts = self._facts.get(reads)
        if facts is None:
            facts = self._facts[reads] = {}
        return facts

    @cached_property
    def _facts(self) -> dict[frozenset[str], dict[Hashable, Any]]:
        return {}

    def __getstate__(self) -> dict[Any, Any]:
        """Pickled without the referee's facts: they name the catalog, and are worked out again."""
        state = super().__getstate__()
        if "_facts" in self.__dict__:
            state["__dict__"] = {k: v for k, v in self.__dict__.items() if k != "_facts"}
        return state

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        """A deep copy, without the referee's facts (they are worked out again)."""
        if "_facts" not in self.__dict__:
            return super().__deepcopy__(memo)
        plain = copy.copy(self)
        del plain.__dict__["_facts"]
        return plain.__deepcopy__(memo)

    def complete_missions(self) -> tuple[str, ...]:
        """The missions of the Mission card whose every place holds a token, in its order."""
        facts = self.facts(_MISSIONS_READ)
        done: tuple[str, ...] | None = facts.get("complete-missions")
        if done is None:
            done = facts["complete-missions"] = tuple(m.id for m in self.missions if m.complete)
        return done

    def tokens_placed(self, player_id: str) -> int:
        """How many of a player's chemist tokens stand on containers and missions."""
        facts = self.facts(_TOKENS_READ)
        placed: dict[str, int] | None = facts.get("tokens-placed")
        if placed is None:
            placed = facts["tokens-placed"] = self._tokens_placed()
        return placed.get(player_id, 0)

    def _tokens_placed(self) -> dict[str, int]:
        placed: dict[str, int] = {}
        for installation in self.installations:
            for container in installation.containers:
                for token in container.places:
                    if token is not None:
                        placed[token] = placed.get(token, 0) + 1
        for mission in self.missions:
            for _, tokens in mission.places:
                for token in tokens:
                    if token is not None:
                        placed[token] = placed.get(token, 0) + 1
        return placed

    def free_tokens(self, player_id: str) -> int:
        """Chemist tokens the player still has in hand."""
        return self.player(player_id).tokens - self.tokens_placed(player_id)

    def to_json(self) -> str:
        """The state as JSON text (stable key order)."""
        return self.model_dump_json(indent=2)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        """Read a state from JSON text, strictly (pydantic ValidationError when malformed).

        Strict as the catalog is read: ``"turn": "0"`` or a position ``[4.0, 3.0]`` is an
        error, not quietly converted. A file from a user is read by
        :func:`mhp_cards.game.statefile.read_state`, which reports every problem in words.
        """
        return cls.model_validate_json(text, strict=True)
