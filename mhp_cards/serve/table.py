"""The games the table server plays: the referee's calls behind each request, and the log.

:class:`Table` is the library behind the HTTP layer (``mhp_cards.serve.app``): every method takes
plain values, asks the rules core (:mod:`mhp_cards.game`, :mod:`mhp_cards.referee`) and
returns a JSON-ready mapping, or raises :class:`~mhp_cards.errors.ApiError` with the status
and the message a client gets. It decides nothing about the rules itself.

What it adds to the referee is what a shared table needs:

* **versions**: every change of a game (an action, a proposal, its answer, an undo) raises the
  game's version by one; a change asked against an older version is refused (409), so two
  phones never act on different pictures of the table;
* **proposals**: a trade, or a sale of a product to another player, changes the other player's
  holdings, so it is judged at once but applied only when that player accepts;
* **undo**: back to the last dice roll or revealed card (neither can be taken back at a real
  table), by replaying the log from the first state;
* **the log**: every accepted action with its ruling, its rule IDs and its events;
* **seats**: once a phone claims a player's seat (:mod:`mhp_cards.serve.seats`), whatever acts
  as that player or reads their view needs the seat's secret, and a request that names no
  player is answered with the public view (every hand hidden) instead of the whole state.
"""

from __future__ import annotations

import hmac
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from pydantic import ValidationError

from mhp_cards import __version__
from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import ActionError, ApiError, SetupError
from mhp_cards.game.dealer import SHAPES, deal
from mhp_cards.game.state import GameState
from mhp_cards.game.visibility import PUBLIC
from mhp_cards.referee.actions import (
    Action,
    action_from_json,
    format_action,
    parse_action,
    parse_action_json,
    partner_of,
    shown_to_partner,
)
from mhp_cards.referee.end import game_end
from mhp_cards.referee.engine import judge
from mhp_cards.referee.legal import legal_actions
from mhp_cards.referee.reasons import PlayerName
from mhp_cards.referee.scoring import score
from mhp_cards.rules.numbers import HOUSE_RULES, LEVELS, PLAYERS
from mhp_cards.serve.masking import hidden_from, masked, seen_by
from mhp_cards.serve.reference import catalog_summary, mission_check, rule_answer, rules_answer
from mhp_cards.serve.seats import (
    CODE_SECONDS,
    CODE_TRIES,
    digest,
    new_code,
    new_secret,
    normal_code,
    not_your_seat,
    seats_of,
)
from mhp_cards.serve.store import GameRow, SeatRow, Store
from mhp_cards.wording import model_error_text

__all__ = ["GAME_ID", "Table", "is_barrier"]

#: What a game ID looks like; anything else is not looked up at all.
GAME_ID: Final = re.compile(r"^[0-9a-f]{8}$")
#: The longest action text read (the longest real one, a trade, is under a hundred characters).
_ACTION_TEXT_LIMIT: Final = 2000

#: The actions a player expects a button for in every turn; when the referee does not list one,
#: /legal says why (``refused``), so a button never disappears without a word.
_USUAL: Final = ("end",)

#: The kinds of a fight's steps (the dice, the spoils, the retreat): undo stops at each.
_FIGHT_STEPS: Final = frozenset({"fight", "spoils", "retreat"})

Notify = Callable[[str, dict[str, Any]], None]


def is_barrier(action: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> bool:
    """True when an accepted action rolled dice or showed a hidden card: undo stops there.

    A fight is settled by dice (entered from the table's die or rolled by the game's
    generator), and its spoils and retreat are chosen once the winner has seen the loser's
    cards: no step of a fight is taken back; taking from a pile shows the card taken and the
    next top; a move that collected raw cards showed them to the player.
    """
    kinds = {event["kind"] for event in events}
    if action.get("kind") in _FIGHT_STEPS or not kinds.isdisjoint(_FIGHT_STEPS) or "take" in kinds:
        return True
    return any(event["kind"] == "move" and event["data"].get("collected") for event in events)


def _state_json(state: GameState) -> dict[str, Any]:
    return state.model_dump(mode="json")


class Table:
    """The saved games of one server and everything the API does with them."""

    def __init__(self, catalog: Catalog, store: Store, notify: Notify | None = None) -> None:
        self.catalog = catalog
        self.store = store
        self._notify = notify or (lambda game_id, message: None)
        self._states: dict[str, tuple[int, GameState]] = {}
        self._states_lock = threading.Lock()

    # Helpers ------------------------------------------------------------------------------------

    def _row(self, game_id: str) -> GameRow:
        if not GAME_ID.fullmatch(game_id):
            raise ApiError(404, "not-found", f"no game {game_id!r}: a game ID is 8 hex digits")
        row = self.store.game(game_id)
        if row is None:
            raise ApiError(404, "not-found", f"no game {game_id!r}; GET /api/games lists them")
        return row

    def _state(self, row: GameRow) -> GameState:
        with self._states_lock:
            cached = self._states.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        state = GameState.from_json(row.state)
        self._remember(row.id, row.version, state)
        return state

    def _remember(self, game_id: str, version: int, state: GameState) -> None:
        with self._states_lock:
            self._states[game_id] = (version, state)

    @staticmethod
    def _check_version(row: GameRow, version: int) -> None:
        if version != row.version:
            raise ApiError(
                409,
                "stale-version",
                f"the game is at version {row.version}, not {version}: fetch it again and retry",
                {"version": row.version},
            )

    def _summary(self, row: GameRow) -> dict[str, Any]:
        state = self._state(row)
        seats = self.store.seats(row.id)
        return {
            "id": row.id,
            "level": row.level,
            "players": list(row.players),
            "seed": row.seed,
            "version": row.version,
            "actions": row.actions,
            "turn": state.current.id,
            "round": state.round,
            "ended": state.ended,
            "created": row.created,
            "updated": row.updated,
            "seats": [player for player in row.players if player in seats],
        }

    @staticmethod
    def _viewer(
        seats: Mapping[str, SeatRow], holders: frozenset[str], player: str | None
    ) -> str | None:
        """Whose view an answer shows: ``player``'s, or for no player what everyone may see.

        A claimed seat's view needs its secret; without a player, the whole state while no
        seat is claimed (pass-and-play), else the public view.
        """
        if player is not None:
            if player in seats and player not in holders:
                raise not_your_seat(player, "read", holders)
            return player
        return PUBLIC if seats else None

    @staticmethod
    def _may_act(
        seats: Mapping[str, SeatRow], holders: frozenset[str], player: str, doing: str
    ) -> None:
        """403 unless this request may act as ``player``: their seat is unclaimed or held."""
        if player in seats and player not in holders:
            raise not_your_seat(player, doing, holders)

    def _access(
        self, row: GameRow, player: str | None, secret: str | None
    ) -> tuple[dict[str, SeatRow], frozenset[str], str | None]:
        """The game's claimed seats, those the secrets open, and the viewer of the answer."""
        seats = self.store.seats(row.id)
        holders = seats_of(seats, secret)
        return seats, holders, self._viewer(seats, holders, player)

    @staticmethod
    def _shown(row: GameRow, player: str | None) -> tuple[str, ...]:
        """The cards ``player`` has been shown face up: those offered to them in a waiting trade."""
        pending = row.pending
        if pending is None or player is None or pending["to"] != player:
            return ()
        return shown_to_partner(action_from_json(pending["action"]))

    def _game(self, row: GameRow, state: GameState, player: str | None) -> dict[str, Any]:
        """The answer describing one game: the state (or a player's view) and what follows."""
        end = game_end(state, self.catalog)
        shown = self._shown(row, player)
        return {
            **self._summary(row),
            "viewer": None if player == PUBLIC else player,
            "state": _state_json(seen_by(state, player, shown)),
            "pending": masked(row.pending, hidden_from(state, player, shown)),
            "score": self._score(state),
            "end": None if end is None else end.to_json(),
        }

    def _score(self, state: GameState) -> dict[str, Any]:
        result = score(state, self.catalog)
        return {
            "totals": dict(result.totals),
            "lines": [
                {"player": line.player, "what": line.what, "value": line.value, "rule": line.rule}
                for line in result.lines
            ],
            "winners": list(result.winners),
            "ruling": result.ruling.to_json(),
        }

    def _read_action(self, given: object) -> Action:
        try:
            if isinstance(given, str):
                if len(given) > _ACTION_TEXT_LIMIT:
                    raise ApiError(
                        400,
                        "bad-action",
                        f"the action is {len(given)} characters; at most {_ACTION_TEXT_LIMIT}",
                        {"field": "action"},
                    )
                if given.lstrip().startswith("{"):
                    return parse_action_json(given)
                return parse_action(given)
            if isinstance(given, dict):
                return action_from_json(given)
        except ActionError as error:
            raise ApiError(
                400,
                "bad-action",
                error.message,
                {"field": "action", "text": error.text, "position": error.position},
            ) from None
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(step) for step in first["loc"])
            raise ApiError(
                400,
                "bad-action",
                f"not an action: {where}: {model_error_text(first)}",
                {"field": f"action.{where}" if where else "action"},
            ) from None
        raise ApiError(
            400,
            "bad-action",
            'the action is its text form (\'move 3,4\') or its JSON form ({"kind": "end"})',
            {"field": "action"},
        )

    # The API ------------------------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        """The server is up: its version and how many games it keeps."""
        return {"status": "ok", "version": __version__, "games": self.store.count()}

    def create(
        self,
        level: str,
        players: int,
        seed: int | None,
        house_rules: Sequence[str],
        shape: str,
        player: str | None = None,
    ) -> dict[str, Any]:
        """Deal a new game and save it; no seed: a random one (it is kept with the game)."""
        if level not in LEVELS:
            raise ApiError(
                400,
                "bad-request",
                f"no level {level!r}; one of {', '.join(LEVELS)}",
                {"field": "level"},
            )
        if shape not in SHAPES:
            raise ApiError(
                400,
                "bad-request",
                f"no field shape {shape!r}; one of {', '.join(SHAPES)}",
                {"field": "shape"},
            )
        unknown = [name for name in house_rules if name not in HOUSE_RULES]
        if unknown:
            raise ApiError(
                400,
                "bad-request",
                f"no house rule {unknown[0]!r}; one of {', '.join(HOUSE_RULES)}",
                {"field": "house_rules"},
            )
        if seed is None:
            seed = secrets.randbelow(2**31)
        try:
            state = deal(self.catalog, level, players, seed, shape, house_rules)
        except SetupError as error:
            raise ApiError(
                400,
                "setup",
                str(error),
                {"failures": list(error.failures), "players": [PLAYERS.start, PLAYERS.stop - 1]},
            ) from None
        ids = tuple(p.id for p in state.players)
        row = self.store.create(level, ids, seed, state.to_json())
        self._remember(row.id, row.version, state)
        return self._game(row, state, player)

    def games(self) -> dict[str, Any]:
        """The saved games, the most recently changed first."""
        return {"games": [self._summary(row) for row in self.store.games()]}

    def game(self, game_id: str, player: str | None, secret: str | None = None) -> dict[str, Any]:
        """One game: the state, or ``player``'s view of it, the score, the end, the proposal.

        Once a seat is claimed, its view needs its ``secret``, and no ``player`` gives the
        public view.
        """
        row = self._row(game_id)
        _, _, viewer = self._access(row, player, secret)
        return self._game(row, self._state(row), viewer)

    def _fresh(self, game_id: str, viewer: str | None) -> dict[str, Any]:
        """The game as it is now, for a viewer already let in."""
        row = self._row(game_id)
        return self._game(row, self._state(row), viewer)

    def legal(
        self, game_id: str, player: str | None = None, secret: str | None = None
    ) -> dict[str, Any]:
        """What the current player may do, each action in its text and JSON forms, by kind.

        With ``player``, the cards that player may not see are named by their placeholders in
        the player's view (``trade red get hidden#2``); an action posted with the same
        ``player`` may name them so.
        """
        row = self._row(game_id)
        _, _, player = self._access(row, player, secret)
        state = self._state(row)
        hidden = hidden_from(state, player, self._shown(row, player))
        actions = [
            {
                "kind": action.kind,
                "text": masked(format_action(action), hidden),
                "action": masked(action.model_dump(mode="json", exclude_none=True), hidden),
                "needs_consent": partner_of(action),
            }
            for action in legal_actions(state, self.catalog)
        ]
        groups: dict[str, list[str]] = {}
        for item in actions:
            groups.setdefault(str(item["kind"]), []).append(str(item["text"]))
        refused = []
        for text in _USUAL if not state.ended else ():
            action = parse_action(text)
            if action.kind in groups:
                continue
            # A usual button that is not there: the page says why, in the referee's words.
            ruling = judge(state, action, self.catalog).ruling
            if ruling.verdict == "forbidden":
                refused.append(
                    {"kind": action.kind, "text": text, "ruling": masked(ruling.to_json(), hidden)}
                )
        return {
            "id": row.id,
            "version": row.version,
            "player": state.current.id,
            "viewer": None if player == PUBLIC else player,
            "actions": actions,
            "groups": groups,
            "refused": refused,
            "pending": masked(row.pending, hidden),
        }

    def act(
        self,
        game_id: str,
        given: object,
        version: int,
        player: str | None = None,
        secret: str | None = None,
    ) -> tuple[int, dict[str, Any]]:
        """Judge an action and, when allowed, apply and record it; (HTTP status, answer).

        200: applied; 202: a proposal waiting for the other player; 422 (an ApiError): forbidden,
        nothing applied; 409: ``version`` is not the game's; 403: the acting player's seat
        is claimed and ``secret`` is not its own.
        """
        with self.store.game_lock(game_id):
            row = self._row(game_id)
            seats, holders, player = self._access(row, player, secret)
            self._check_version(row, version)
            state = self._state(row)
            hidden = hidden_from(state, player)
            # The viewer names the cards they cannot see by their placeholders.
            action = self._read_action(masked(given, {v: k for k, v in hidden.items()}))
            self._may_act(seats, holders, action.player or state.current.id, "act")
            outcome = judge(state, action, self.catalog)
            ruling = outcome.ruling.to_json()
            text = format_action(action)
            if outcome.state is None:
                refusal = masked(ruling, hidden)
                raise ApiError(
                    422,
                    "forbidden",
                    refusal["reason"]["en"],
                    {"ruling": refusal, "action": masked(text, hidden), "version": row.version},
                )
            partner = partner_of(action)
            if partner is not None:
                proposal = {
                    "id": secrets.token_hex(4),
                    "from": action.player or state.current.id,
                    "to": partner,
                    "text": text,
                    "action": action.model_dump(mode="json", exclude_none=True),
                    "ruling": ruling,
                }
                new_version = row.version + 1
                self.store.set_pending(row.id, new_version, proposal)
                self._remember(row.id, new_version, state)
                self._notify(row.id, {"version": new_version, "change": "proposal"})
                answer = self._fresh(row.id, player)
                shown = masked({"ruling": ruling, "proposal": proposal}, hidden)
                return 202, {**shown, **_changed(answer)}
            return 200, self._commit(row, state, action, outcome, player)

    def _commit(
        self, row: GameRow, state: GameState, action: Action, outcome: Any, player: str | None
    ) -> dict[str, Any]:
        """Record an allowed action (the game's lock held) and answer with the new state."""
        new_state: GameState = outcome.state
        events = [event.to_json() for event in outcome.events]
        action_json = action.model_dump(mode="json", exclude_none=True)
        ruling = outcome.ruling.to_json()
        new_version = row.version + 1
        seq = self.store.append(
            row.id,
            version=new_version,
            player=action.player or state.current.id,
            text=format_action(action),
            action=action_json,
            ruling=ruling,
            events=events,
            barrier=is_barrier(action_json, events),
            state=new_state.to_json(),
        )
        self._remember(row.id, new_version, new_state)
        self._notify(row.id, {"version": new_version, "change": "action", "seq": seq})
        answer = self._fresh(row.id, player)
        shown = masked({"ruling": ruling, "events": events}, hidden_from(new_state, player))
        return {**shown, "seq": seq, **_changed(answer)}

    def answer(
        self,
        game_id: str,
        proposal_id: str,
        accept: bool,
        version: int,
        player: str | None,
        secret: str | None = None,
    ) -> dict[str, Any]:
        """Accept (apply) or decline (drop) the game's pending proposal.

        The partner accepts; either side declines. Once the answering side's seat is claimed,
        the request carries its secret.
        """
        with self.store.game_lock(game_id):
            row = self._row(game_id)
            seats, holders, viewer = self._access(row, player, secret)
            self._check_version(row, version)
            pending = row.pending
            if pending is None or pending["id"] != proposal_id:
                raise ApiError(
                    404,
                    "no-proposal",
                    f"no pending proposal {proposal_id!r} in game {game_id}",
                    {"pending": pending},
                )
            if accept and player is not None and player != pending["to"]:
                raise ApiError(
                    403,
                    "not-yours",
                    f"the proposal is made to {pending['to']}, not {player}: "
                    f"{pending['to']} accepts or declines it",
                    {"to": pending["to"]},
                )
            self._may_act(seats, holders, player or pending["to"], "answer")
            player = viewer
            state = self._state(row)
            if not accept:
                new_version = row.version + 1
                self.store.set_pending(row.id, new_version, None)
                self._remember(row.id, new_version, state)
                self._notify(row.id, {"version": new_version, "change": "declined"})
                shown = masked(pending, hidden_from(state, player))
                return {"declined": shown, **_changed(self._fresh(row.id, player))}
            action = action_from_json(pending["action"])
            outcome = judge(state, action, self.catalog)
            if outcome.state is None:  # cannot happen while the state is unchanged; be safe
                raise ApiError(
                    422,
                    "forbidden",
                    outcome.ruling.reason_en,
                    {"ruling": outcome.ruling.to_json(), "version": row.version},
                )
            answer = self._commit(row, state, action, outcome, player)
            shown = masked(pending, hidden_from(self._state(self._row(game_id)), player))
            return {"accepted": shown, **answer}

    def undo(
        self, game_id: str, version: int, player: str | None, secret: str | None = None
    ) -> dict[str, Any]:
        """Take back the actions since the last dice roll or revealed card; 409 when none.

        Only the seat whose actions are taken back may take them back, once it is claimed
        (403 otherwise).
        """
        with self.store.game_lock(game_id):
            row = self._row(game_id)
            seats, holders, player = self._access(row, player, secret)
            self._check_version(row, version)
            log = self.store.log(row.id)
            keep = max((entry.seq for entry in log if entry.barrier), default=0)
            undone = [entry for entry in log if entry.seq > keep]
            if not undone:
                why_ru, why = (
                    (
                        "последнее действие бросало кубики или открыло скрытую карточку",
                        "the last action rolled dice or showed a hidden card",
                    )
                    if log
                    else ("ещё не сыграно ни одного действия", "no action has been played")
                )
                raise ApiError(
                    409,
                    "nothing-to-undo",
                    f"nothing to undo: {why}",
                    {"version": row.version, "reason": {"ru": why_ru, "en": why}},
                )
            for actor in dict.fromkeys(entry.player for entry in undone):
                self._may_act(seats, holders, actor, "undo")
            state = self.replay(row, [entry for entry in log if entry.seq <= keep])
            new_version = row.version + 1
            self.store.truncate(row.id, keep, new_version, state.to_json())
            self._remember(row.id, new_version, state)
            self._notify(row.id, {"version": new_version, "change": "undo"})
            hidden = hidden_from(state, player)
            return {
                "undone": [
                    {"seq": entry.seq, "player": entry.player, "text": masked(entry.text, hidden)}
                    for entry in undone
                ],
                **_changed(self._fresh(row.id, player)),
            }

    def replay(self, row: GameRow, entries: Sequence[Any]) -> GameState:
        """The state after ``entries`` of the log, replayed from the game's first state."""
        state = GameState.from_json(row.initial)
        for entry in entries:
            outcome = judge(state, action_from_json(entry.action), self.catalog)
            if outcome.state is None:  # a log the referee no longer accepts: trust the record
                return GameState.from_json(entry.state)
            state = outcome.state
        return state

    def log(
        self, game_id: str, player: str | None = None, secret: str | None = None
    ) -> dict[str, Any]:
        """The game's log: each accepted action with its ruling, rule IDs and events.

        With ``player``, the cards that player may not see now (another player's collected
        cards, say) are named by their placeholders in the player's view.
        """
        row = self._row(game_id)
        _, _, player = self._access(row, player, secret)
        hidden = hidden_from(self._state(row), player)
        entries = [
            {
                "seq": entry.seq,
                "version": entry.version,
                "at": entry.at,
                "player": entry.player,
                "text": entry.text,
                "action": entry.action,
                "ruling": entry.ruling,
                "events": entry.events,
                "barrier": entry.barrier,
            }
            for entry in self.store.log(row.id)
        ]
        return {
            "id": row.id,
            "version": row.version,
            "viewer": None if player == PUBLIC else player,
            "entries": masked(entries, hidden),
        }

    def score(self, game_id: str) -> dict[str, Any]:
        """The score at this moment, line by line, and the end of the game if it is over."""
        row = self._row(game_id)
        state = self._state(row)
        end = game_end(state, self.catalog)
        return {
            "id": row.id,
            "version": row.version,
            **self._score(state),
            "end": None if end is None else end.to_json(),
        }

    # Seats ----------------------------------------------------------------------------------------

    def claim(self, game_id: str, player: str) -> dict[str, Any]:
        """Claim ``player``'s seat for the phone that asks: the seat's secret, shown only now.

        409 ``seat-taken`` when another phone holds it (it moves by a code from that phone).
        """
        with self.store.game_lock(game_id):
            row = self._row(game_id)
            if player not in row.players:
                raise ApiError(
                    400,
                    "unknown-player",
                    f"no player {player!r} in this game; the players are {', '.join(row.players)}",
                    {"field": "player", "players": list(row.players)},
                )
            seats = self.store.seats(row.id)
            if player in seats:
                raise ApiError(
                    409,
                    "seat-taken",
                    f"{player}'s seat is held by another phone; that phone can move it here "
                    "with a code",
                    {"seat": player, "reason": _taken_reason(player)},
                )
            secret = new_secret()
            self.store.claim_seat(row.id, player, digest(secret))
            self._notify(row.id, {"version": row.version, "change": "seat", "seat": player})
            return self._seat_answer(row, player, secret)

    def _seat_answer(self, row: GameRow, player: str, secret: str) -> dict[str, Any]:
        seats = self.store.seats(row.id)
        return {
            "id": row.id,
            "player": player,
            "secret": secret,
            "header": "X-Mhp-Seat",
            "seats": [p for p in row.players if p in seats],
        }

    def seat_code(self, game_id: str, player: str, secret: str | None) -> dict[str, Any]:
        """A fresh code that moves ``player``'s seat to another phone; asked by its holder."""
        with self.store.game_lock(game_id):
            row = self._row(game_id)
            seats = self.store.seats(row.id)
            if player not in seats:
                raise _no_seat(player)
            self._may_act(seats, seats_of(seats, secret), player, "move")
            code = new_code()
            expires = time.time() + CODE_SECONDS
            self.store.set_seat_code(row.id, player, digest(code), expires)
            return {
                "id": row.id,
                "player": player,
                "code": code,
                "expires": expires,
                "seconds": CODE_SECONDS,
            }

    def move_seat(self, game_id: str, player: str, code: str) -> dict[str, Any]:
        """Move ``player``'s seat to the phone that enters its code: a new secret, the old void.

        403 ``bad-code`` for a wrong, expired or used code; after three wrong ones the code is
        void and the holding phone asks for a new one.
        """
        with self.store.game_lock(game_id):
            row = self._row(game_id)
            seat = self.store.seats(row.id).get(player)
            if seat is None:
                raise _no_seat(player)
            now = time.time()
            if seat.code is None or seat.code_expires is None or seat.code_expires < now:
                raise _bad_code(player, "none", 0)
            if not hmac.compare_digest(seat.code, digest(normal_code(code))):
                tries = seat.code_tries + 1
                if tries >= CODE_TRIES:
                    self.store.set_seat_code(row.id, player, None, None)
                else:
                    self.store.set_seat_code(row.id, player, seat.code, seat.code_expires, tries)
                raise _bad_code(player, "wrong", max(0, CODE_TRIES - tries))
            secret = new_secret()
            self.store.move_seat(row.id, player, digest(secret))
            self._notify(row.id, {"version": row.version, "change": "seat", "seat": player})
            return self._seat_answer(row, player, secret)

    # Reference ------------------------------------------------------------------------------------

    def mission(
        self, mission_id: str, cards: Sequence[str], house_rules: Sequence[str]
    ) -> dict[str, Any]:
        """The level-1 mission check (L1.E1) for cards named by formula, kind or card ID."""
        return mission_check(self.catalog, mission_id, cards, house_rules)

    def rules(self) -> dict[str, Any]:
        """Every rule, Ruling and house rule with its title and text in Russian and English."""
        return rules_answer()

    def rule(self, rule_id: str) -> dict[str, Any]:
        """One rule (or Ruling, or house rule) by its ID."""
        return rule_answer(rule_id)

    def catalog_summary(self) -> dict[str, Any]:
        """What a page needs to draw the game: cards, missions, installations, colours, options."""
        return catalog_summary(self.catalog)


def _changed(answer: dict[str, Any]) -> dict[str, Any]:
    """The part of a game's answer a change returns: version, state, pending, score, end."""
    keys = ("id", "version", "viewer", "state", "pending", "score", "end", "seats")
    return {key: answer[key] for key in keys}


def _taken_reason(player: str) -> dict[str, str]:
    ru, en = PlayerName(player, "ru"), PlayerName(player, "en")
    return {
        "ru": f"Место {ru:gen} уже занято другим телефоном. Чтобы перенести его сюда, возьмите "
        "код на том телефоне (Место → Перенести на другой телефон) и введите его здесь.",
        "en": f"{en}'s seat is held by another phone. To move it here, get a code on that phone "
        "(Seat → Move to another phone) and enter it here.",
    }


def _no_seat(player: str) -> ApiError:
    return ApiError(
        404,
        "no-seat",
        f"no phone holds {player}'s seat: claim it with POST /api/games/{{id}}/seats",
        {"seat": player},
    )


def _bad_code(player: str, why: str, tries_left: int) -> ApiError:
    ru, en = PlayerName(player, "ru"), PlayerName(player, "en")
    if why == "none":
        reason = {
            "ru": f"Для места {ru:gen} сейчас нет кода переноса (или он устарел): возьмите новый "
            "код на телефоне, который держит место.",
            "en": f"No code to move {en}'s seat is offered now (or it has expired): get a new "
            "one on the phone that holds the seat.",
        }
    else:
        reason = {
            "ru": f"Код не тот. Осталось попыток: {tries_left}; потом нужен новый код.",
            "en": f"That is not the code. Tries left: {tries_left}; then a new code is needed.",
        }
    return ApiError(
        403, "bad-code", reason["en"], {"seat": player, "tries_left": tries_left, "reason": reason}
    )
