"""Small facts about a game on the table that several rules need.

Neighbours, who stands where, what a raw card is, which installations and containers a player
may use.

These are pure functions of a state (and the catalog); the referee's judgements are built on
them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from mhp_cards.catalog.models import Catalog, RawMaterial, formula_of
from mhp_cards.chem.formula import Formula
from mhp_cards.game.state import ContainerState, GameState, InstallationState, Player, Position
from mhp_cards.game.visibility import is_hidden

__all__ = [
    "adjacent",
    "card_formula",
    "containers_for",
    "formula_key",
    "kind_key",
    "occupant",
    "player_index",
    "raw_kind",
    "replace_player",
    "usable_installations",
    "usable_numbers",
    "user",
]


def adjacent(state: GameState, position: Position) -> list[Position]:
    """Field positions next to ``position`` (orthogonal; all 8 with ``diagonal-adjacency``)."""
    assert state.field is not None
    return list(state.field.neighbours(state.house_rules.diagonal_adjacency).get(position, ()))


def occupant(state: GameState, position: Position, besides: str | None = None) -> str | None:
    """The player whose combine stands at ``position`` (other than ``besides``), if any.

    Several combines may wait on the Base; it is never "occupied" for a move.
    """
    if state.field is not None and position == state.field.base:
        return None
    for player in state.players:
        if player.id != besides and player.combine and player.combine.position == position:
            return player.id
    return None


def raw_kind(catalog: Catalog, card: str) -> RawMaterial:
    """The raw-material kind of a card instance (``hematite#2`` → hematite); KeyError if none."""
    return catalog.raw_material(card.rsplit("#", 1)[0])


def card_formula(catalog: Catalog, card: str) -> Formula | None:
    """The formula of a raw card instance; None for a card hidden from a player's view.

    Worked out once per card and catalog (the bots ask it of every card at every step).
    """
    memo = catalog.memo("referee.card-formula")
    found = memo.get(card, memo)
    if found is memo:
        found = None if is_hidden(card) else raw_kind(catalog, card).parsed
        if len(memo) >= _CARDS_REMEMBERED:
            memo.clear()
        memo[card] = found
    return found  # type: ignore[no-any-return]


#: Cards whose formulas are remembered before the memory starts afresh (a deck has ~100).
_CARDS_REMEMBERED: Final = 10_000


def formula_key(text: str) -> object:
    """What formulas are compared by (:attr:`Formula.composition`) for a formula's text.

    Worked out once per text; FormulaError for text that is not a formula, as ``formula_of``.
    """
    key = _FORMULA_KEYS.get(text)
    if key is None:
        key = _FORMULA_KEYS[text] = formula_of(text).composition
    return key


_FORMULA_KEYS: dict[str, object] = {}


def kind_key(catalog: Catalog, card: str) -> object:
    """The formula key of a raw card's kind (:func:`raw_kind`), worked out once per card."""
    memo = catalog.memo("referee.kind-keys")
    key = memo.get(card)
    if key is None:
        key = memo[card] = raw_kind(catalog, card).parsed.composition
    return key


def player_index(state: GameState, player_id: str) -> int:
    """Index of a player in turn order; KeyError if not playing."""
    for index, player in enumerate(state.players):
        if player.id == player_id:
            return index
    raise KeyError(player_id)


def replace_player(state: GameState, player: Player) -> GameState:
    """The state with one player replaced (matched by ID)."""
    index = player_index(state, player.id)
    players = list(state.players)
    players[index] = player
    return state.model_copy(update={"players": tuple(players)})


def usable_installations(state: GameState, player_id: str) -> tuple[InstallationState, ...]:
    """Installations a player may use now: their own and (level 3: at the Base) shared ones.

    Worked out once for a state and the copies that leave its installations alone.
    """
    key = ("usable-installations", *user(state, player_id))
    facts = state.facts(INSTALLATIONS_READ)
    usable: tuple[InstallationState, ...] | None = facts.get(key)
    if usable is None:
        usable = facts[key] = tuple(_usable_installations(state, player_id, key[2]))
    return usable


def usable_numbers(state: GameState, player_id: str) -> frozenset[int]:
    """The numbers of the installations :func:`usable_installations` gives."""
    key = ("usable-numbers", *user(state, player_id))
    facts = state.facts(INSTALLATIONS_READ)
    numbers: frozenset[int] | None = facts.get(key)
    if numbers is None:
        numbers = facts[key] = frozenset(
            installation.number for installation in usable_installations(state, player_id)
        )
    return numbers


def user(state: GameState, player_id: str) -> tuple[str, bool | None]:
    """Who uses the installations, as facts about them are kept: the player and where they are.

    At level 3 a shared installation is used at the Base (L3.S5): the second item says whether
    the player's combine stands there (None for a player not in the game); elsewhere it is None.
    Facts kept under this key read nothing of the state but ``INSTALLATIONS_READ``.
    """
    if state.level != "3":
        return player_id, None
    for player in state.players:
        if player.id == player_id:
            assert state.field is not None
            return player_id, player.combine is not None and (
                player.combine.position == state.field.base
            )
    return player_id, None


#: The fields of a state the facts about the installations a player uses read.
INSTALLATIONS_READ: Final = frozenset({"level", "installations"})


def _usable_installations(
    state: GameState, player_id: str, at_base: bool | None
) -> Iterator[InstallationState]:
    for installation in state.installations:
        if installation.owner == player_id:
            yield installation
        elif installation.owner is None and state.level != "1v1":
            if state.level == "3":
                if at_base is None:
                    state.player(player_id)  # KeyError: not playing
                if not at_base:
                    continue
            yield installation


def containers_for(
    state: GameState, player_id: str, formula: Formula
) -> Iterator[tuple[int, int, ContainerState]]:
    """Product containers of ``formula`` with a free place that a player may fill (L2.T3).

    Yields (installation index, container index, container).
    """
    usable = usable_numbers(state, player_id)
    for i, installation in enumerate(state.installations):
        if installation.number not in usable:
            continue
        for k, container in enumerate(installation.containers):
            if container.role != "product" or None not in container.places:
                continue
            if formula_key(container.substance) == formula.composition:
                yield i, k, container
