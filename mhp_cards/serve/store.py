"""Where the table server keeps its games: one SQLite database (WAL mode) in the data directory.

A game is a row of ``games`` (its first state, its current state, its version, a pending trade
proposal), the rows of ``actions`` (its log: each accepted action, in order, with its
ruling, its events and the state after it) and the rows of ``seats`` (the seats phones have
claimed: a digest of each seat's secret, never the secret, and the code that moves it).
Every change is one transaction, committed before the server answers, so a server killed at
any moment restarts with every game as its last answer left it. The standard library's
:mod:`sqlite3` is all it needs.

Only the store's own names become file names: the database is ``games.sqlite3`` in the data
directory the person running the server chose; no value sent by a client is ever a path.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import sys
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

__all__ = ["DB_NAME", "GameRow", "LogRow", "SeatRow", "Store", "default_data_dir"]

DB_NAME: Final = "games.sqlite3"
_SCHEMA_VERSION: Final = 2

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    level TEXT NOT NULL,
    players TEXT NOT NULL,
    seed INTEGER NOT NULL,
    version INTEGER NOT NULL,
    initial TEXT NOT NULL,
    state TEXT NOT NULL,
    pending TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    version INTEGER NOT NULL,
    at REAL NOT NULL,
    player TEXT NOT NULL,
    text TEXT NOT NULL,
    action TEXT NOT NULL,
    ruling TEXT NOT NULL,
    events TEXT NOT NULL,
    barrier INTEGER NOT NULL,
    state TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    player TEXT NOT NULL,
    secret TEXT NOT NULL,
    claimed REAL NOT NULL,
    code TEXT,
    code_expires REAL,
    code_tries INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, player)
);
"""


def default_data_dir() -> Path:
    r"""The per-user directory for saved games when ``--data`` is not given.

    ``$MHP_DATA_DIR`` when set; else the platform's place for application data:
    ``$XDG_DATA_HOME/mhp-cards`` (``~/.local/share/mhp-cards``) on Linux and other Unix,
    ``~/Library/Application Support/mhp-cards`` on macOS, ``%LOCALAPPDATA%\mhp-cards`` on
    Windows.
    """
    chosen = os.environ.get("MHP_DATA_DIR")
    if chosen:
        return Path(chosen)
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        if local:
            return Path(local) / "mhp-cards"
        return Path.home() / "AppData" / "Local" / "mhp-cards"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "mhp-cards"
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "mhp-cards"
    return Path.home() / ".local" / "share" / "mhp-cards"


@dataclass(frozen=True, slots=True)
class GameRow:
    """One saved game as stored: states as JSON text, the pending proposal as a mapping."""

    id: str
    created: float
    updated: float
    level: str
    players: tuple[str, ...]
    seed: int
    version: int
    initial: str
    state: str
    pending: dict[str, Any] | None
    actions: int


@dataclass(frozen=True, slots=True)
class LogRow:
    """One accepted action of a game's log."""

    seq: int
    version: int
    at: float
    player: str
    text: str
    action: dict[str, Any]
    ruling: dict[str, Any]
    events: list[dict[str, Any]]
    barrier: bool
    state: str


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat a phone has claimed: digests of its secret and of the code that moves it."""

    player: str
    secret: str
    """The SHA-256 of the seat's secret (hex); the secret itself is only on the phone."""
    claimed: float
    code: str | None
    """The SHA-256 of the code that moves the seat to another phone, while one is offered."""
    code_expires: float | None
    code_tries: int
    """Wrong codes entered for this seat since its code was made."""


class GameLock:
    """One game's lock: a context manager around a threading lock, weakly referenceable."""

    __slots__ = ("__weakref__", "_lock")

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def __enter__(self) -> bool:
        return self._lock.__enter__()

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


class Store:
    """The games of one data directory; safe to share between the server's threads.

    Writes to one game are serialised by that game's lock (:meth:`game_lock`), which the
    caller holds from reading the game to committing its change; the database connection
    itself is guarded by one lock.
    """

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / DB_NAME
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: a commit is on disk before the answer, even if the machine loses power.
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=10000")
        self._lock = threading.RLock()
        self._locks: weakref.WeakValueDictionary[str, GameLock] = weakref.WeakValueDictionary()
        self._locks_guard = threading.Lock()
        with self._lock:
            self._db.executescript(_SCHEMA)  # CREATE … IF NOT EXISTS: one script, committed
            self._db.execute(f"PRAGMA user_version={_SCHEMA_VERSION}")

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def game_lock(self, game_id: str) -> GameLock:
        """The lock that makes the changes of one game happen one at a time.

        The table keeps a lock only while someone holds or waits for it (weakly referenced),
        so game IDs that are asked for and never exist leave nothing behind.
        """
        with self._locks_guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = GameLock()
            return lock

    @property
    def locks_kept(self) -> int:
        """How many game locks the store holds now (those in use)."""
        with self._locks_guard:
            return len(self._locks)

    # Reading ------------------------------------------------------------------------------------

    def games(self) -> list[GameRow]:
        """Every saved game, the most recently changed first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.*, (SELECT COUNT(*) FROM actions a WHERE a.game = g.id) "
                "FROM games g ORDER BY updated DESC, id"
            ).fetchall()
        return [_game(row) for row in rows]

    def game(self, game_id: str) -> GameRow | None:
        """The saved game with this ID, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT g.*, (SELECT COUNT(*) FROM actions a WHERE a.game = g.id) "
                "FROM games g WHERE id = ?",
                (game_id,),
            ).fetchone()
        return None if row is None else _game(row)

    def log(self, game_id: str) -> list[LogRow]:
        """The game's log, in order."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, version, at, player, text, action, ruling, events, barrier, state "
                "FROM actions WHERE game = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        return [
            LogRow(
                seq=row[0],
                version=row[1],
                at=row[2],
                player=row[3],
                text=row[4],
                action=json.loads(row[5]),
                ruling=json.loads(row[6]),
                events=json.loads(row[7]),
                barrier=bool(row[8]),
                state=row[9],
            )
            for row in rows
        ]

    def seats(self, game_id: str) -> dict[str, SeatRow]:
        """The claimed seats of a game, by player."""
        with self._lock:
            rows = self._db.execute(
                "SELECT player, secret, claimed, code, code_expires, code_tries "
                "FROM seats WHERE game = ? ORDER BY claimed, player",
                (game_id,),
            ).fetchall()
        return {row[0]: SeatRow(*row) for row in rows}

    def count(self) -> int:
        """How many games are saved."""
        with self._lock:
            (number,) = self._db.execute("SELECT COUNT(*) FROM games").fetchone()
        return int(number)

    # Writing ------------------------------------------------------------------------------------

    def create(self, level: str, players: tuple[str, ...], seed: int, state: str) -> GameRow:
        """Save a new game at version 1 and return it."""
        now = time.time()
        with self._transaction() as db:
            while True:
                game_id = secrets.token_hex(4)
                if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                    break
            db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, NULL)",
                (game_id, now, now, level, json.dumps(list(players)), seed, state, state),
            )
        row = self.game(game_id)
        assert row is not None
        return row

    def append(
        self,
        game_id: str,
        *,
        version: int,
        player: str,
        text: str,
        action: dict[str, Any],
        ruling: dict[str, Any],
        events: list[dict[str, Any]],
        barrier: bool,
        state: str,
    ) -> int:
        """Record an accepted action and the game's new state and version; its log position."""
        now = time.time()
        with self._transaction() as db:
            (last,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game = ?", (game_id,)
            ).fetchone()
            seq = int(last) + 1
            db.execute(
                "INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    seq,
                    version,
                    now,
                    player,
                    text,
                    json.dumps(action, ensure_ascii=False),
                    json.dumps(ruling, ensure_ascii=False),
                    json.dumps(events, ensure_ascii=False),
                    int(barrier),
                    state,
                ),
            )
            db.execute(
                "UPDATE games SET state = ?, version = ?, updated = ?, pending = NULL WHERE id = ?",
                (state, version, now, game_id),
            )
        return seq

    def set_pending(self, game_id: str, version: int, pending: dict[str, Any] | None) -> None:
        """Record (or clear, with None) the game's pending proposal, at a new version."""
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET pending = ?, version = ?, updated = ? WHERE id = ?",
                (
                    None if pending is None else json.dumps(pending, ensure_ascii=False),
                    version,
                    time.time(),
                    game_id,
                ),
            )

    def truncate(self, game_id: str, keep: int, version: int, state: str) -> None:
        """Drop the log after position ``keep`` and set the game's state and version (undo)."""
        with self._transaction() as db:
            db.execute("DELETE FROM actions WHERE game = ? AND seq > ?", (game_id, keep))
            db.execute(
                "UPDATE games SET state = ?, version = ?, updated = ?, pending = NULL WHERE id = ?",
                (state, version, time.time(), game_id),
            )

    def claim_seat(self, game_id: str, player: str, secret: str) -> None:
        """Record a claimed seat (``secret``: the digest kept); the caller holds the game's lock."""
        with self._transaction() as db:
            db.execute(
                "INSERT INTO seats (game, player, secret, claimed) VALUES (?, ?, ?, ?)",
                (game_id, player, secret, time.time()),
            )

    def set_seat_code(
        self, game_id: str, player: str, code: str | None, expires: float | None, tries: int = 0
    ) -> None:
        """Offer (or withdraw, with None) the code that moves a seat, with its expiry time."""
        with self._transaction() as db:
            db.execute(
                "UPDATE seats SET code = ?, code_expires = ?, code_tries = ? "
                "WHERE game = ? AND player = ?",
                (code, expires, tries, game_id, player),
            )

    def move_seat(self, game_id: str, player: str, secret: str) -> None:
        """Give a seat a new secret (it has moved to another phone); its code is used up."""
        with self._transaction() as db:
            db.execute(
                "UPDATE seats SET secret = ?, code = NULL, code_expires = NULL, code_tries = 0 "
                "WHERE game = ? AND player = ?",
                (secret, game_id, player),
            )


def _game(row: tuple[Any, ...]) -> GameRow:
    return GameRow(
        id=row[0],
        created=row[1],
        updated=row[2],
        level=row[3],
        players=tuple(json.loads(row[4])),
        seed=row[5],
        version=row[6],
        initial=row[7],
        state=row[8],
        pending=None if row[9] is None else json.loads(row[9]),
        actions=row[10],
    )
