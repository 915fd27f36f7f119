"""The table server's HTTP layer: routes, the token guard, the body limit, events, errors.

A thin layer: each route reads its request, calls :class:`~mhp_cards.serve.table.Table` (in a
worker thread: the referee is plain Python) and writes the answer as JSON. Every refusal is a
JSON document ``{"error": {"code", "message", …}}`` (a forbidden action also carries its
``ruling``); nothing a client sends can make the server answer with a traceback.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, TypeVar
from urllib.parse import parse_qs

from pydantic import BaseModel, ValidationError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import ApiError
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
from mhp_cards.serve.seats import SEAT_HEADER
from mhp_cards.serve.store import Store
from mhp_cards.serve.table import Table
from mhp_cards.wording import model_error_text

__all__ = [
    "BODY_LIMIT",
    "COOKIE",
    "SECURITY_HEADERS",
    "STATIC",
    "Broker",
    "Settings",
    "create_app",
]

#: The largest request body read, in bytes (the largest real one, an action, is a few hundred).
BODY_LIMIT: Final = 64 * 1024
#: The cookie that keeps the access token once a join URL has been opened.
COOKIE: Final = "mhp_token"
#: The page's files (HTML, CSS, JavaScript), shipped in the wheel.
STATIC: Final = Path(__file__).parent / "static"
#: Seconds between the comments that keep an event stream open through idle proxies and phones.
HEARTBEAT: Final = 15.0
#: What the page may load: only this server (no CDN, no request leaves the table).
_CSP: Final = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
)
#: The headers every answer carries (uvicorn's own refusals too: mhp_cards.serve.protocol).
SECURITY_HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"content-security-policy", _CSP.encode()),
)
_LOOPBACK_HOSTS: Final = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
#: A Host header: one name, IPv4 address or [IPv6] address, and an optional port; nothing else.
_HOST_HEADER: Final = re.compile(
    r"^(?:\[[0-9A-Fa-f:.]{2,45}\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)(?::[0-9]{1,5})?$"
)
#: Methods that change nothing: no Origin or content-type check.
_SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
#: What a phone's browser shows when its token is missing or old: words, in both languages.
_UNAUTHORIZED_PAGE: Final = HTMLResponse(
    "<!doctype html><html><head><meta charset='utf-8'>"
    "<meta name='viewport' content='width=device-width,initial-scale=1'>"
    "<title>МХП — нужен код стола</title></head><body style='font:18px/1.5 sans-serif;"
    "margin:2em;max-width:32em'><h1>Нужен код стола</h1><p>Отсканируйте QR-код, который "
    "показывает сервер (или откройте ссылку, которую он напечатал): в ней код доступа к "
    "столу.</p><hr><h2 lang='en'>The table's code is needed</h2><p lang='en'>Scan the QR "
    "code the server shows (or open the link it printed): it carries the table's access "
    "token.</p></body></html>",
    status_code=401,
)
#: What the page shows when the API refuses its token: an old one (a --new-token restart) or none.
_STALE_REASON: Final = {
    "ru": "Код стола сменился: сервер перезапущен с новым кодом. Отсканируйте его QR-код снова.",
    "en": "The table's code has changed: the server restarted with a new one. Scan its QR code "
    "again.",
}
_NO_TOKEN_REASON: Final = {
    "ru": "Нужен код стола: отсканируйте QR-код, который показывает сервер.",
    "en": "The table's code is needed: scan the QR code the server shows.",
}

if TYPE_CHECKING:
    from mhp_cards.serve.preview import CardPreview

log = logging.getLogger("mhp_cards.serve")
B = TypeVar("B", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Settings:
    """How one server runs: where it keeps games, who may come in, what it tells newcomers."""

    data: Path
    """The data directory (the SQLite database lives there)."""
    token: str | None = None
    """The access token every request must carry; None on a loopback host."""
    join_urls: tuple[str, ...] = ()
    """The URLs other phones open to join (with the token), shown on the page with a QR code."""
    hosts: frozenset[str] | None = None
    """The Host names accepted (a guard against DNS rebinding); None accepts every host."""
    body_limit: int = BODY_LIMIT
    catalog: Catalog | None = field(default=None, compare=False)
    """The game's catalog; None: the default game."""
    preview: Path | None = None
    """The catalog directory (or deck pack) the preview page follows; None: the game's own."""


class Broker:
    """Tells every open event stream of a game about each change, from any thread."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[str]]]]
        self._subscribers = {}
        self._lock = threading.Lock()

    def subscribe(self, game_id: str) -> asyncio.Queue[str]:
        """A queue that receives the game's changes (call from the event loop)."""
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=256)
        with self._lock:
            self._subscribers.setdefault(game_id, set()).add((asyncio.get_running_loop(), queue))
        return queue

    def unsubscribe(self, game_id: str, queue: asyncio.Queue[str]) -> None:
        """Stop sending to ``queue``."""
        with self._lock:
            subscribers = self._subscribers.get(game_id, set())
            for entry in [entry for entry in subscribers if entry[1] is queue]:
                subscribers.discard(entry)
            if not subscribers:
                self._subscribers.pop(game_id, None)

    def publish(self, game_id: str, message: dict[str, Any]) -> None:
        """Send a change to every stream of the game (safe from worker threads)."""
        text = json.dumps({"game": game_id, **message}, ensure_ascii=False)
        with self._lock:
            subscribers = list(self._subscribers.get(game_id, ()))
        for loop, queue in subscribers:
            loop.call_soon_threadsafe(_offer, queue, text)

    def streams(self, game_id: str) -> int:
        """How many event streams are open on a game."""
        with self._lock:
            return len(self._subscribers.get(game_id, ()))


def _offer(queue: asyncio.Queue[str], text: str) -> None:
    if queue.full():  # a stream that does not read: drop the oldest change, keep the newest
        queue.get_nowait()
    queue.put_nowait(text)


class _JSONResponse(JSONResponse):
    """JSON in UTF-8; text that cannot be UTF-8 (a lone surrogate echoed) as ASCII escapes."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def _error(status: int, code: str, message: str, **details: Any) -> JSONResponse:
    body: dict[str, Any] = {"error": {"code": code, "message": message, **details}}
    if "ruling" in details:
        body["ruling"] = details["ruling"]
    return _JSONResponse(body, status_code=status)


def _json(body: dict[str, Any], status: int = 200) -> JSONResponse:
    return _JSONResponse(body, status_code=status)


async def _body(request: Request, model: type[B]) -> B:
    """The request's JSON body read into ``model``; ApiError 400 naming what is wrong."""
    raw = await request.body()
    if not raw.strip():
        raise ApiError(400, "bad-request", "the request needs a JSON body")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        message = f"the body is not JSON: {error.msg} at {error.pos}"
        raise ApiError(400, "bad-json", message) from None
    except (ValueError, RecursionError) as error:  # bad UTF-8, a 5000-digit number, deep nesting
        what = "nested too deeply" if isinstance(error, RecursionError) else str(error)[:200]
        raise ApiError(400, "bad-json", f"the body cannot be read: {what}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad-request", "the body is a JSON object ({...})")
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:  # "\ud800" escapes a half of a character: no text holds it
        message = "the body holds a lone surrogate (\\uD800-\\uDFFF)"
        raise ApiError(400, "bad-json", message) from None
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(step) for step in first["loc"]) or "body"
        message = f"{where}: {model_error_text(first)}"
        raise ApiError(400, "bad-request", message, {"field": where}) from None
    except RecursionError:
        raise ApiError(400, "bad-request", "the body is nested too deeply") from None


def _player(request: Request) -> str | None:
    player = request.query_params.get("player")
    if player is not None and (not player or len(player) > 40):
        raise ApiError(400, "bad-request", "player is a colour ID such as 'red'")
    return player or None


_COLOUR: Final = re.compile(r"^[a-z][a-z0-9-]{0,39}$")


def _seat_player(request: Request) -> str:
    player = str(request.path_params["player"])
    if not _COLOUR.match(player):
        raise ApiError(400, "bad-request", "the seat is a colour ID such as 'red'")
    return player


def _secret(request: Request) -> str | None:
    """The seat secret a request carries (the ``X-Mhp-Seat`` header), if any."""
    secret = request.headers.get(SEAT_HEADER)
    if secret is not None and len(secret) > 200:
        raise ApiError(400, "bad-request", f"the {SEAT_HEADER} header is a seat's secret")
    return secret or None


def create_app(settings: Settings) -> Starlette:
    """The ASGI application of ``mhp serve`` for these settings."""
    if settings.catalog is not None:
        catalog = settings.catalog
    else:
        from mhp_cards.validate import load_catalog  # noqa: PLC0415  (only when none is given)

        catalog = load_catalog()
    store = Store(settings.data)
    broker = Broker()
    table = Table(catalog, store, broker.publish)

    def call(function: Callable[..., Any], *args: Any) -> Awaitable[Any]:
        return run_in_threadpool(function, *args)

    async def health(request: Request) -> Response:
        return _json(await call(table.health))

    async def games(request: Request) -> Response:
        if request.method == "GET":
            return _json(await call(table.games))
        body = await _body(request, NewGame)
        answer = await call(
            table.create,
            body.level,
            body.players,
            body.seed,
            body.house_rules,
            body.shape,
            body.player,
        )
        return _json(answer, 201)

    async def game(request: Request) -> Response:
        game_id = request.path_params["game"]
        return _json(await call(table.game, game_id, _player(request), _secret(request)))

    async def legal(request: Request) -> Response:
        game_id = request.path_params["game"]
        return _json(await call(table.legal, game_id, _player(request), _secret(request)))

    async def actions(request: Request) -> Response:
        body = await _body(request, ActionRequest)
        status, answer = await call(
            table.act,
            request.path_params["game"],
            body.action,
            body.version,
            body.player,
            _secret(request),
        )
        return _json(answer, status)

    async def undo(request: Request) -> Response:
        body = await _body(request, UndoRequest)
        game_id = request.path_params["game"]
        return _json(await call(table.undo, game_id, body.version, body.player, _secret(request)))

    async def seats(request: Request) -> Response:
        body = await _body(request, SeatClaim)
        return _json(await call(table.claim, request.path_params["game"], body.player), 201)

    async def seat_code(request: Request) -> Response:
        await _body(request, SeatCodeRequest)
        game_id, player = request.path_params["game"], _seat_player(request)
        answer = await call(table.seat_code, game_id, player, _secret(request))
        # The address another phone opens to take the seat: the join URL (with the LAN
        # token) when there is one, else this page's own.
        base = settings.join_urls[0] if settings.join_urls else str(request.base_url)
        joiner = "&" if "?" in base else "?"
        url = f"{base}{joiner}player={player}&move={answer['code']}#/game/{game_id}"
        from mhp_cards.serve.join import qr_svg  # noqa: PLC0415  (segno only when asked)

        return _json({**answer, "url": url, "qr_svg": qr_svg(url)})

    async def seat_move(request: Request) -> Response:
        body = await _body(request, SeatMove)
        game_id, player = request.path_params["game"], _seat_player(request)
        return _json(await call(table.move_seat, game_id, player, body.code))

    async def answer(request: Request) -> Response:
        body = await _body(request, AnswerRequest)
        accept = request.path_params["answer"] == "accept"
        return _json(
            await call(
                table.answer,
                request.path_params["game"],
                request.path_params["proposal"],
                accept,
                body.version,
                body.player,
                _secret(request),
            )
        )

    async def game_log(request: Request) -> Response:
        game_id = request.path_params["game"]
        return _json(await call(table.log, game_id, _player(request), _secret(request)))

    async def game_score(request: Request) -> Response:
        return _json(await call(table.score, request.path_params["game"]))

    async def events(request: Request) -> Response:
        game_id = request.path_params["game"]
        summary = await call(table.game, game_id, None)  # 404 for an unknown game
        queue = broker.subscribe(game_id)
        first = json.dumps({"game": game_id, "version": summary["version"], "change": "hello"})

        async def stream() -> AsyncIterator[str]:
            try:
                yield f"retry: 3000\nevent: change\ndata: {first}\n\n"
                while True:
                    try:
                        text = await asyncio.wait_for(queue.get(), HEARTBEAT)
                    except TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    yield f"event: change\ndata: {text}\n\n"
            finally:
                broker.unsubscribe(game_id, queue)

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    async def mission(request: Request) -> Response:
        body = await _body(request, MissionRequest)
        return _json(await call(table.mission, body.mission, body.cards, body.house_rules))

    async def rules(request: Request) -> Response:
        return _json(await call(table.rules))

    async def rule(request: Request) -> Response:
        return _json(await call(table.rule, request.path_params["rule"]))

    async def catalog_route(request: Request) -> Response:
        return _json(await call(table.catalog_summary))

    async def join(request: Request) -> Response:
        from mhp_cards.serve.join import qr_svg  # noqa: PLC0415  (segno only when asked)

        urls = list(settings.join_urls)
        return _json({"urls": urls, "qr_svg": qr_svg(urls[0]) if urls else None})

    preview: CardPreview | None = None

    def previewed() -> CardPreview:
        nonlocal preview
        if preview is None:  # read on the first visit: most tables never open it
            from mhp_cards.serve.preview import CardPreview  # noqa: PLC0415 (the kit's faces)

            preview = CardPreview(settings.preview)
        return preview

    async def preview_page(request: Request) -> Response:
        page = STATIC / "preview.html"
        if not page.is_file():
            raise ApiError(404, "not-found", "the preview page is not in this installation")
        return FileResponse(page, headers={"Cache-Control": "no-cache"})

    async def preview_state(request: Request) -> Response:
        follower = await call(previewed)
        return _json(await call(follower.state))

    async def preview_picture(request: Request) -> Response:
        follower = await call(previewed)
        query = request.query_params
        card = query.get("card", "")
        data = await call(
            follower.picture, card, query.get("side", "front"), query.get("lang", "ru")
        )
        return Response(data, media_type="image/png", headers={"Cache-Control": "no-cache"})

    async def preview_events(request: Request) -> Response:
        follower = await call(previewed)
        changes = follower.changes()
        first = json.dumps(await call(follower.state), ensure_ascii=False)

        async def stream() -> AsyncIterator[str]:
            yield f"retry: 3000\nevent: change\ndata: {first}\n\n"
            async for state in changes:
                yield f"event: change\ndata: {json.dumps(state, ensure_ascii=False)}\n\n"

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    async def index(request: Request) -> Response:
        page = STATIC / "index.html"
        if not page.is_file():
            raise ApiError(404, "not-found", "the page is not in this installation; the API is")
        return FileResponse(page, headers={"Cache-Control": "no-cache"})

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return _error(exc.status, exc.code, exc.message, **exc.details)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404:
            return _error(404, "not-found", f"nothing at {request.url.path[:200]!r}")
        if exc.status_code == 405:
            return _error(
                405,
                "method-not-allowed",
                f"{request.method} is not allowed here",
            )
        return _error(exc.status_code, "http", str(exc.detail))

    async def server_error(request: Request, exc: Exception) -> Response:
        log.error("error answering %s %s", request.method, request.url.path, exc_info=exc)
        return _error(500, "internal", "the server failed on this request; its log says why")

    game_path = "/api/games/{game}"
    routes = [
        Route("/", index),
        Route("/api/health", health),
        Route("/api/games", games, methods=["GET", "POST"]),
        Route(game_path, game),
        Route(game_path + "/legal", legal),
        Route(game_path + "/actions", actions, methods=["POST"]),
        Route(game_path + "/undo", undo, methods=["POST"]),
        Route(game_path + "/proposals/{proposal}/{answer:str}", answer, methods=["POST"]),
        Route(game_path + "/seats", seats, methods=["POST"]),
        Route(game_path + "/seats/{player}/code", seat_code, methods=["POST"]),
        Route(game_path + "/seats/{player}/move", seat_move, methods=["POST"]),
        Route(game_path + "/log", game_log),
        Route(game_path + "/score", game_score),
        Route(game_path + "/events", events),
        Route("/api/mission", mission, methods=["POST"]),
        Route("/api/rules", rules),
        Route("/api/rules/{rule}", rule),
        Route("/api/catalog", catalog_route),
        Route("/api/join", join),
        Route("/preview", preview_page),
        Route("/api/preview", preview_state),
        Route("/api/preview/card.png", preview_picture),
        Route("/api/preview/events", preview_events),
        Mount("/static", app=StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            ApiError: api_error,
            HTTPException: http_error,
            Exception: server_error,
        },
    )
    app.state.table = table
    app.state.store = store
    app.state.broker = broker
    app.add_middleware(_Guard, settings=settings)
    return app


class _Guard:
    """The outermost layer: Host check, access token, body size limit, headers of every answer.

    Pure ASGI (not Starlette's BaseHTTPMiddleware) so that event streams flow through it.
    """

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1").lower(): value for key, value in scope["headers"]}
        # Two Host headers: which one a proxy or a cache believes is anyone's guess.
        hosts_given = sum(key.lower() == b"host" for key, _ in scope["headers"])
        set_cookie = False
        started = False
        token = self.settings.token

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                extra = list(SECURITY_HEADERS)
                if set_cookie and token is not None:
                    cookie = f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000"
                    extra.append((b"set-cookie", cookie.encode()))
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        hosts = self.settings.hosts
        host = headers.get("host", b"").decode("latin-1")
        if hosts_given != 1 or not _HOST_HEADER.match(host):
            # "127.0.0.1:8765 evil.com" is no host: read loosely, it passed the name check.
            await _error(400, "bad-host", "the Host header is not a host name and port")(
                scope, receive, send_with_headers
            )
            return
        if hosts is not None:
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name not in hosts:
                refusal = _error(
                    400, "bad-host", f"this server answers for {', '.join(sorted(hosts))}"
                )
                await refusal(scope, receive, send_with_headers)
                return
        if token is not None:
            given = _token_of(scope, headers)
            if given is None or not hmac.compare_digest(given[0].encode(), token.encode()):
                unauthorized: Response = (
                    _UNAUTHORIZED_PAGE
                    if b"text/html" in headers.get("accept", b"")
                    else _error(
                        401,
                        "unauthorized",
                        "open the join URL the server printed (it carries the access token)",
                        stale=given is not None,
                        reason=_STALE_REASON if given is not None else _NO_TOKEN_REASON,
                    )
                )
                await unauthorized(scope, receive, send_with_headers)
                return
            set_cookie = given[1] == "query"
        length = headers.get("content-length")
        limit = self.settings.body_limit
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _too_large(limit)(scope, receive, send_with_headers)
            return
        if scope["method"] not in _SAFE_METHODS:
            cross = _cross_site(scope, headers, host)
            if cross is not None:
                await cross(scope, receive, send_with_headers)
                return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _TooLargeError
            return message

        try:
            await self.app(scope, limited, send_with_headers)
        except _TooLargeError:
            if not started:
                await _too_large(limit)(scope, receive, send_with_headers)


def _cross_site(scope: Scope, headers: dict[str, bytes], host: str) -> Response | None:
    """The refusal of a state-changing request another site could have sent, if it is one.

    A browser sends a form or text/plain POST to any origin without asking first; a JSON body
    needs its permission (a preflight this server never grants), and the Origin and
    Sec-Fetch-Site headers name where the request comes from. A client that is no browser
    (curl, a script) sends neither and is judged by its content type alone.
    """
    site = headers.get("sec-fetch-site", b"").decode("latin-1").lower()
    if site and site not in ("same-origin", "none"):
        return _error(403, "cross-site", f"a request from another site ({site}) is refused")
    origin = headers.get("origin")
    if origin is not None:
        scheme = scope.get("scheme", "http")
        if origin.decode("latin-1").lower() != f"{scheme}://{host}".lower():
            return _error(
                403,
                "cross-site",
                f"a request from {origin.decode('latin-1')} is refused: only this page may "
                "change the games",
            )
    kind = headers.get("content-type", b"").split(b";")[0].strip().lower()
    if kind != b"application/json":
        shown = kind.decode("latin-1") or "none"
        return _error(
            415,
            "not-json",
            f"the body must be JSON with Content-Type: application/json (it is {shown})",
        )
    return None


class _TooLargeError(Exception):
    """A body that grew past the limit while it was read."""


def _too_large(limit: int) -> JSONResponse:
    return _error(413, "too-large", f"the request body is larger than {limit} bytes")


def _token_of(scope: Scope, headers: dict[str, bytes]) -> tuple[str, str] | None:
    """The token a request carries and where: the query, the Authorization header, the cookie."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if query.get("token"):
        return query["token"][0], "query"
    authorization = headers.get("authorization", b"").decode("latin-1")
    if authorization.lower().startswith("bearer "):
        return authorization[7:].strip(), "header"
    cookie_header = headers.get("cookie")
    if cookie_header:
        cookies: SimpleCookie = SimpleCookie()
        try:
            cookies.load(cookie_header.decode("latin-1"))
        except Exception:  # a malformed cookie is no token
            return None
        if COOKIE in cookies:
            return cookies[COOKIE].value, "cookie"
    return None


def loopback_hosts(extra: Sequence[str] = ()) -> frozenset[str]:
    """The Host names a loopback server answers to."""
    return frozenset({*_LOOPBACK_HOSTS, *extra})
