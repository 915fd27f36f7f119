"""Seats that are yours: a phone claims a player's seat and holds the seat's secret.

Without a claimed seat the table is one shared phone (pass-and-play): anyone may act for the
player whose turn it is and see any player's view. Once a phone claims a seat
(``POST /api/games/{id}/seats``), the server answers with a secret that only that phone
keeps; from then on whatever acts as that player (an action, an answer to a proposal made to
them, an undo of their action) or reads their view (``?player=``) must carry it, in the
``X-Mhp-Seat`` header (a phone that holds several seats of a game sends their secrets
separated by commas). A header, not a cookie: a page of another site can make a browser send
cookies, never a header, and a phone may hold seats in several games, each with its own secret
(the page keeps them in its local storage, one per game).

The server keeps only each secret's SHA-256: the database on the table's computer does not
let anyone act for a player. A seat moves to another phone by a short code the holding phone
asks for (six characters, shown with a QR code), valid for ten minutes and for three wrong tries.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from typing import Final

from mhp_cards.errors import ApiError
from mhp_cards.referee.reasons import PlayerName
from mhp_cards.rules.numbers import PLAYERS
from mhp_cards.serve.store import SeatRow

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "CODE_SECONDS",
    "CODE_TRIES",
    "SEAT_HEADER",
    "digest",
    "new_code",
    "new_secret",
    "normal_code",
    "not_your_seat",
    "seats_of",
]

#: The request header that carries a seat's secret.
SEAT_HEADER: Final = "x-mhp-seat"
#: Letters and digits of a move code: none that reads as another (no O/0, no I/1).
CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: Six characters, like ``K7QM2X``: 32**6, about a billion codes.
CODE_LENGTH: Final = len("K7QM2X")
#: How long a move code stays valid, in seconds.
CODE_SECONDS: Final = 600
#: Wrong codes entered for a seat before its code is void (32**6 codes: guessing is hopeless).
CODE_TRIES: Final = 3
#: The most secrets one request carries (a phone holding every seat of a five-player game).
SECRETS_AT_MOST: Final = max(PLAYERS)


def new_secret() -> str:
    """A fresh seat secret: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_code() -> str:
    """A fresh move code, e.g. ``K7QM2X``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str:
    """A code as typed (``k7q m2x``, ``K7Q-M2X``) in its written form (``K7QM2X``)."""
    return "".join(ch for ch in text.upper() if ch not in " -\t")


def digest(text: str) -> str:
    """What the store keeps of a secret or a code: its SHA-256, in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seats_of(seats: Mapping[str, SeatRow], secrets_given: str | None) -> frozenset[str]:
    """The claimed seats whose secrets a request carries (``X-Mhp-Seat``: comma-separated)."""
    if not secrets_given:
        return frozenset()
    given = {digest(part.strip()) for part in secrets_given.split(",")[:SECRETS_AT_MOST]}
    return frozenset(
        player
        for player, seat in seats.items()
        if any(hmac.compare_digest(seat.secret, one) for one in given)
    )


def not_your_seat(player: str, doing: str, holders: frozenset[str]) -> ApiError:
    """The 403 for a request acting as (or reading the view of) a seat another phone holds.

    ``doing``: ``act``, ``answer``, ``undo``, ``read`` or ``move``; ``holders``: the seats whose
    secrets the request did carry.
    """
    ru_name, en_name = PlayerName(player, "ru"), PlayerName(player, "en")
    ru_what, en_what = {
        "act": (f"играть за {ru_name:acc}", f"act for {en_name}"),
        "answer": (f"отвечать за {ru_name:acc}", f"answer for {en_name}"),
        "undo": (
            f"отменять ход {ru_name:gen}",
            f"take back {en_name}'s action",
        ),
        "read": (f"смотреть карточки {ru_name:gen}", f"see {en_name}'s cards"),
        "move": (f"переносить место {ru_name:gen}", f"move {en_name}'s seat"),
    }[doing]
    held = sorted(holders)
    if not held:
        why_ru, why_en = "у этого телефона нет ключа места", "this phone holds no key to the seat"
    else:
        why_ru = "этот телефон — место " + ", ".join(f"{PlayerName(h, 'ru'):gen}" for h in held)
        why_en = "this phone is the seat of " + ", ".join(str(PlayerName(h, "en")) for h in held)
    reason = {
        "ru": f"Место {ru_name:gen} занято другим телефоном: {ru_what} можно только с него "
        f"({why_ru}). Перенести место можно по коду с того телефона.",
        "en": f"{en_name}'s seat is held by another phone: only that phone may {en_what} "
        f"({why_en}). The seat moves to this phone by a code from that one.",
    }
    return ApiError(
        403,
        "not-your-seat",
        reason["en"],
        {"seat": player, "holders": held, "reason": reason},
    )
