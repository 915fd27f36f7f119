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
* **the log**: every accepted action with its ruling, its rule IDs and its events.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from pydantic import ValidationError

from mhp_cards import __version__
from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import ActionError, ApiError, SetupError
from mhp_cards.game.dealer import SHAPES, deal
from mhp_cards.game.state import GameState
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
from mhp_cards.referee.scoring import score
from mhp_cards.rules.numbers import HOUSE_RULES, LEVELS, PLAYERS
from mhp_cards.serve.masking import hidden_from, masked, seen_by
from mhp_cards.serve.reference import catalog_summary, mission_check, rule_answer, rules_answer
from mhp_cards.serve.store import GameRow, Store
from mhp_cards.wording import model_error_text

__all__ = ["GAME_ID", "Table", "is_barrier"]

#: What a game ID looks like; anything else is not looked up at all.
GAME_ID: Final = re.compile(r"^[0-9a-f]{8}$")
#: The longest action text read (the longest real one, a trade, is under a hundred characters).
_ACTION_TEXT_LIMIT: Final = 2000

#: The actions a player expects a button for in every turn; when the referee does not list one,
#: /legal says why (``refused``), so a button never disappears without a word.
_USUAL: Final = ("end",)

Notify = Callable[[str, dict[str, Any]], None]


def is_barrier(action: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> bool:
    """True when an accepted action rolled dice or showed a hidden card: undo stops there.

    A fight is settled by dice (entered from the table's die or rolled by the game's
    generator); taking from a pile shows the card taken and the next top; a move that
    collected raw cards showed them to the player.
    """
    kinds = {event["kind"] for event in events}
    if action.get("kind") == "fight" or "fight" in kinds or "take" in kinds:
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
        }

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
            "viewer": player,
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

    def game(self, game_id: str, player: str | None) -> dict[str, Any]:
        """One game: the state, or ``player``'s view of it, the score, the end, the proposal."""
        row = self._row(game_id)
        return self._game(row, self._state(row), player)

    def legal(self, game_id: str, player: str | None = None) -> dict[str, Any]:
        """What the current player may do, each action in its text and JSON forms, by kind.

        With ``player``, the cards that player may not see are named by their placeholders in
        the player's view (``trade red get hidden#2``); an action posted with the same
        ``player`` may name them so.
        """
        row = self._row(game_id)
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
            "viewer": player,
            "actions": actions,
            "groups": groups,
            "refused": refused,
            "pending": masked(row.pending, hidden),
        }

    def act(
        self, game_id: str, given: object, version: int, player: str | None = None
    ) -> tuple[int, dict[str, Any]]:
        """Judge an action and, when allowed, apply and record it; (HTTP status, answer).

        200: applied; 202: a proposal waiting for the other player; 422 (an ApiError): forbidden,
        nothing applied; 409: ``version`` is not the game's.
        """
        with self.store.game_lock(game_id):
            row = self._row(game_id)
            self._check_version(row, version)
            state = self._state(row)
            hidden = hidden_from(state, player)
            # The viewer names the cards they cannot see by their placeholders.
            action = self._read_action(masked(given, {v: k for k, v in hidden.items()}))
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
                answer = self.game(row.id, player)
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
        answer = self.game(row.id, player)
        shown = masked({"ruling": ruling, "events": events}, hidden_from(new_state, player))
        return {**shown, "seq": seq, **_changed(answer)}

    def answer(
        self, game_id: str, proposal_id: str, accept: bool, version: int, player: str | None
    ) -> dict[str, Any]:
        """Accept (apply) or decline (drop) the game's pending proposal."""
        with self.store.game_lock(game_id):
            row = self._row(game_id)
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
            state = self._state(row)
            if not accept:
                new_version = row.version + 1
                self.store.set_pending(row.id, new_version, None)
                self._remember(row.id, new_version, state)
                self._notify(row.id, {"version": new_version, "change": "declined"})
                shown = masked(pending, hidden_from(state, player))
                return {"declined": shown, **_changed(self.game(row.id, player))}
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

    def undo(self, game_id: str, version: int, player: str | None) -> dict[str, Any]:
        """Take back the actions since the last dice roll or revealed card; 409 when none."""
        with self.store.game_lock(game_id):
            row = self._row(game_id)
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
                **_changed(self.game(row.id, player)),
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

    def log(self, game_id: str, player: str | None = None) -> dict[str, Any]:
        """The game's log: each accepted action with its ruling, rule IDs and events.

        With ``player``, the cards that player may not see now (another player's collected
        cards, say) are named by their placeholders in the player's view.
        """
        row = self._row(game_id)
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
            "viewer": player,
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
    keys = ("id", "version", "viewer", "state", "pending", "score", "end")
    return {key: answer[key] for key in keys}
