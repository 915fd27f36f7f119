"""What one player may know: a player's view of a game state.

``view(state, player)`` is a :class:`~mhp_cards.game.state.GameState` (the same model, so the
referee and every other function that takes a state take a view) in which every card the
player cannot see is replaced by a placeholder, and ``viewer`` names the player.

Hidden, by the rules:

* the raw cards lying face down on the field (L1.S3, L3.S2): each becomes ``hidden#N``; whether
  a cell still holds a card is public;
* the Fate cards: they lie face down and are never turned over (L1.S2), and the ones set aside
  at setup are not shown (L1.S1): each becomes ``hidden-fate#N``;
* the raw piles below their tops: at level 2 the top card of each pile is visible (L2.S6, the
  "top three cards" of three piles); head to head the piles lie face down (V1.1), so even the
  tops are hidden; the size of each pile is public;
* head to head, the two raw cards the current player drew and is choosing between (Ruling
  V1.3-draw-two): only that player sees them;
* the raw cards in other players' hands: they are picked up face down and held like a hand;
  their number is public (a level-3 combine's load, L3.S3, is plain to see). The winner of a
  fight looks at all of the loser's raw cards while choosing the spoils (Ruling L1.T4.R4):
  in the winner's view they are face up until the spoils are taken;
* the seed and the state of the random generator: a player who knew them could predict the
  dice of a fight and reconstruct the whole deal. A view carries ``seed`` 0 and ``rng`` 0, so
  dice rolled from a view are not the game's dice.

Public, and kept as they are: the viewer's own hand; the Warehouse, which players buy from by
choosing "any raw card" (L1.T9, L3.T4) and where sold cards are put (L1.T8), so its cards are
seen; the discard (processed cards are laid beside their containers, L2.T4, and head to head a
card that does not fit is shown and discarded, V1.3); the combines, their upgrades and where
they stand; money, the Bank, the chemist tokens on installations and the Mission card; whose
turn it is, the fight waiting for its dice and how the game ended.

``public_view(state)`` is what anyone at the table knows without a hand of their own (a phone
that holds no seat once players have their own phones): every hand is hidden as well, and
``viewer`` is :data:`PUBLIC` ("*", which no colour ID can be).

Placeholders are numbered by where they lie, in one fixed order (the field's cells in order,
then the piles from pile 1, bottom to top, then the hands in turn order), never from the cards
they stand for: two states that differ only in hidden cards give equal views, and a view of a
view for the same player is the same view.

>>> from mhp_cards.validate import load_catalog
>>> from mhp_cards.game import deal, view
>>> state = deal(load_catalog(), "2", players=2, seed=5)
>>> seen = view(state, state.players[0].id)
>>> seen.viewer == state.players[0].id, seen.piles[0][0], seen.piles[0][-1] == state.piles[0][-1]
(True, 'hidden#1', True)
"""

from __future__ import annotations

from collections.abc import Collection

from mhp_cards.errors import ViewError
from mhp_cards.game.state import Cell, FieldState, GameState, Player

__all__ = ["HIDDEN_FATE", "HIDDEN_RAW", "PUBLIC", "is_hidden", "public_view", "view"]

HIDDEN_RAW = "hidden"
"""Kind part of a hidden raw card's placeholder: ``hidden#1``, ``hidden#2``…"""
HIDDEN_FATE = "hidden-fate"
"""Kind part of a hidden Fate card's placeholder: ``hidden-fate#1``…"""
PUBLIC = "*"
"""The ``viewer`` of the public view: nobody's hand is shown."""


def is_hidden(card: str) -> bool:
    """True for a placeholder of a card that the viewer cannot see."""
    kind = card.rsplit("#", 1)[0]
    return kind in (HIDDEN_RAW, HIDDEN_FATE)


def view(state: GameState, player: str, *, shown: Collection[str] = ()) -> GameState:
    """The state as ``player`` may know it: hidden cards as placeholders, no seed, no dice.

    ``shown``: cards in other players' hands that were shown to ``player`` face up (the cards
    offered in a trade waiting for this player's answer); they stay as they are, and every
    other placeholder keeps its number.

    ``player`` is a player's colour ID; :class:`~mhp_cards.errors.ViewError` if nobody plays
    that colour, or if ``state`` is already another player's view (what that player could not
    see cannot be shown to this one).
    """
    ids = [p.id for p in state.players]
    if player not in ids:
        raise ViewError(
            f"no player {player!r} in this game; the players are {', '.join(ids)}",
            player=player,
            players=tuple(ids),
        )
    if state.viewer is not None and state.viewer != player:
        whose = "the public" if state.viewer == PUBLIC else f"{state.viewer}'s"
        raise ViewError(
            f"this state is {whose} view; it cannot show what {player} knows",
            player=player,
            players=tuple(ids),
        )
    fight = state.fight
    if fight is not None and fight.stage == "spoils" and fight.winner == player:
        shown = (*shown, *state.player(str(fight.loser)).raw_cards)
    return _hidden_view(state, player, shown)


def public_view(state: GameState) -> GameState:
    """The state as anyone at the table knows it: every hand hidden too, no seed, no dice.

    What a player's view hides, and the cards in every player's hand (their number stays
    public). A view of one player cannot be made public: it names that player's own cards.
    """
    if state.viewer is not None and state.viewer != PUBLIC:
        ids = tuple(p.id for p in state.players)
        raise ViewError(
            f"this state is {state.viewer}'s view; a public view is made from the full state",
            player=PUBLIC,
            players=ids,
        )
    return _hidden_view(state, None, ())


def _hidden_view(state: GameState, player: str | None, shown: Collection[str]) -> GameState:
    """The view of ``player`` (None: of nobody, every hand hidden)."""
    field = state.field
    fates = raws = 0
    if field is not None:
        field, fates, raws = _hidden_field(field)
    raw = _Numbers(HIDDEN_RAW, raws)
    face_down = state.level == "1v1"
    piles = tuple(_pile(pile, raw, tops_visible=not face_down) for pile in state.piles)
    players = tuple(
        p if p.id == player else _hidden_player(p, _hand(p.raw_cards, raw, shown))
        for p in state.players
    )
    # The cards drawn head to head are seen by the player who drew them (V1.3-draw-two).
    drawn = state.drawn
    if drawn and state.current.id != player:
        drawn = raw.take(len(drawn))
    removed = _run(HIDDEN_FATE, fates, len(state.removed_fate))
    return state.model_copy(
        update={
            "viewer": PUBLIC if player is None else player,
            "drawn": drawn,
            "seed": 0,
            "rng": 0,
            "field": field,
            "removed_fate": removed,
            "piles": piles,
            "players": players,
        }
    )


def _hidden_field(field: FieldState) -> tuple[FieldState, int, int]:
    """The field with its Fate and raw cards as placeholders, and how many of each it used.

    The field's placeholders are the first of both kinds, so they depend on the field alone:
    worked out once for the field object, which the states of a game share until a card is
    collected.
    """
    found = _HIDDEN_FIELDS.get(id(field))
    if found is not None and found[0] is field:
        return found[1], found[2], found[3]
    raws = 0
    cells = []
    for fates, cell in enumerate(field.cells, start=1):
        if cell.raw is not None:
            raws += 1
        cells.append(_hidden_cell(cell, fates, raws if cell.raw is not None else 0))
    hidden = field.with_cards(tuple(cells), raw_positions=field.raw_positions)
    if len(_HIDDEN_FIELDS) >= _HIDDEN_FIELDS_LIMIT:
        _HIDDEN_FIELDS.clear()
    _HIDDEN_FIELDS[id(field)] = (field, hidden, len(cells), raws)
    return hidden, len(cells), raws


def _hidden_cell(cell: Cell, fate: int, raw: int) -> Cell:
    """``cell`` with Fate placeholder ``fate`` and raw placeholder ``raw`` (0: no raw card).

    A hidden cell names only its place and two numbers, so it is made once for them.
    """
    key = (cell.x, cell.y, fate, raw)
    hidden = _HIDDEN_CELLS.get(key)
    if hidden is None:
        if len(_HIDDEN_CELLS) >= _HIDDEN_CELLS_LIMIT:
            _HIDDEN_CELLS.clear()
        hidden = _HIDDEN_CELLS[key] = cell.model_copy(
            update={
                "fate": _placeholder(HIDDEN_FATE, fate),
                "raw": _placeholder(HIDDEN_RAW, raw) if raw else None,
            }
        )
    return hidden


_HIDDEN_CELLS: dict[tuple[int, int, int, int], Cell] = {}
_HIDDEN_CELLS_LIMIT = 50_000


#: Hidden fields by the id of the field they hide (the field itself kept, so the id is its own).
_HIDDEN_FIELDS: dict[int, tuple[FieldState, FieldState, int, int]] = {}
_HIDDEN_FIELDS_LIMIT = 64


def _hidden_player(player: Player, hand: tuple[str, ...]) -> Player:
    """The player with ``hand`` for their cards, made once for the player object and the hand.

    A player's object is shared by the states of a game until something of theirs changes,
    and their placeholders mostly stay the same from view to view.
    """
    key = (id(player), hand)
    known = _HIDDEN_PLAYERS.get(key)
    if known is not None and known[0] is player:
        return known[1]
    hidden = player.model_copy(update={"raw_cards": hand})
    if len(_HIDDEN_PLAYERS) >= _HIDDEN_PLAYERS_LIMIT:
        _HIDDEN_PLAYERS.clear()
    _HIDDEN_PLAYERS[key] = (player, hidden)
    return hidden


#: Hidden players by the id of the player they hide and the hand shown for them (the player
#: itself kept, so the id is its own).
_HIDDEN_PLAYERS: dict[tuple[int, tuple[str, ...]], tuple[Player, Player]] = {}
_HIDDEN_PLAYERS_LIMIT = 4096


def _hand(cards: tuple[str, ...], raw: _Numbers, shown: Collection[str]) -> tuple[str, ...]:
    """Another player's hand as the viewer sees it: each card's number is used either way."""
    placeholders = raw.take(len(cards))
    if not shown:
        return placeholders
    return tuple(
        card if card in shown else placeholder
        for card, placeholder in zip(cards, placeholders, strict=True)
    )


def _pile(pile: tuple[str, ...], raw: _Numbers, *, tops_visible: bool) -> tuple[str, ...]:
    """A pile (top card last) with every card but the visible top as a placeholder."""
    hidden = len(pile) - 1 if tops_visible and pile else len(pile)
    placeholders = raw.take(hidden)
    return placeholders if hidden == len(pile) else (*placeholders, pile[-1])


def _run(kind: str, used: int, count: int) -> tuple[str, ...]:
    """The ``count`` placeholders of ``kind`` after the first ``used``, made once."""
    key = (kind, used, count)
    run = _RUNS.get(key)
    if run is None:
        if len(_RUNS) >= _RUNS_LIMIT:
            _RUNS.clear()
        run = _RUNS[key] = tuple(_placeholder(kind, used + n) for n in range(1, count + 1))
    return run


_RUNS: dict[tuple[str, int, int], tuple[str, ...]] = {}
_RUNS_LIMIT = 50_000


def _placeholder(kind: str, number: int) -> str:
    """``kind#number``, made once."""
    made = _PLACEHOLDERS.get((kind, number))
    if made is None:
        made = _PLACEHOLDERS[(kind, number)] = f"{kind}#{number}"
    return made


_PLACEHOLDERS: dict[tuple[str, int], str] = {}


class _Numbers:
    """Placeholders of one kind, numbered 1, 2… in the order they are asked for."""

    def __init__(self, kind: str, count: int = 0) -> None:
        self.kind = kind
        self.count = count
        """The placeholders already used (numbered from 1 up to this)."""

    def take(self, count: int) -> tuple[str, ...]:
        """The next ``count`` placeholders."""
        run = _run(self.kind, self.count, count)
        self.count += count
        return run
