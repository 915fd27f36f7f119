"""uvicorn's HTTP protocol for ``mhp serve``: its own refusals in the API's words and headers.

uvicorn answers a request it cannot parse (a bad or doubled ``Content-Length``, a header line
too long, a broken request line) itself, before the application sees it, with a plain-text 400
and none of the application's headers. :class:`JsonH11Protocol` is uvicorn's h11 protocol (pure
Python: the same on every machine, whether httptools is installed or not) with that one answer
replaced by the API's JSON error and the security headers every other answer carries.
"""

from __future__ import annotations

import json
from typing import Final

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from mhp_cards.serve.app import SECURITY_HEADERS

__all__ = ["JsonH11Protocol"]

_BODY: Final = json.dumps(
    {
        "error": {
            "code": "bad-request",
            "message": "the request is not HTTP/1.1 as this server reads it (a bad "
            "Content-Length, header or request line)",
        }
    }
).encode()


class JsonH11Protocol(H11Protocol):
    """uvicorn's h11 protocol whose own 400 is the API's JSON error with its headers."""

    def send_400_response(self, msg: str) -> None:
        """Refuse a request h11 cannot read; ``msg`` (uvicorn's words) goes to its log only."""
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(_BODY)).encode()),
            (b"connection", b"close"),
            *SECURITY_HEADERS,
        ]
        try:
            for event in (
                h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                h11.Data(data=_BODY),
                h11.EndOfMessage(),
            ):
                self.transport.write(self.conn.send(event) or b"")
        except h11.LocalProtocolError:  # an answer was already begun: only closing is left
            pass
        self.transport.close()
