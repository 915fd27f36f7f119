"""The server against other sites, odd headers, junk requests and restarts (issue 27).

Against the app (TestClient) and against a real ``mhp serve`` on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import socket
import stat
import time
from pathlib import Path
from typing import Any

import pytest

from mhp_cards.cli.serve import _listen
from mhp_cards.serve.join import TOKEN_FILE, kept_token
from tests.serve.conftest import Server, conforms, new_game

TOKEN = "s3cret-token-of-the-table"
NEW_GAME = b'{"level": "1", "players": 2, "seed": 7}'


# Other sites ----------------------------------------------------------------------------------


def test_a_page_of_another_site_cannot_make_a_game_on_the_loopback_server(make_client) -> None:
    """A text/plain or form POST needs no permission from a browser: it is refused."""
    client = make_client()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        answer = client.post(
            "/api/games",
            content=NEW_GAME,
            headers={"Content-Type": kind, "Origin": "http://evil.example"},
        )
        assert answer.status_code in (403, 415), kind
        conforms(answer.json(), "Error")
    assert client.get("/api/games").json()["games"] == []


def test_json_from_another_origin_is_refused(make_client) -> None:
    client = make_client()
    for origin in ("http://evil.example", "http://127.0.0.1:9999", "null"):
        answer = client.post(
            "/api/games",
            content=NEW_GAME,
            headers={"Content-Type": "application/json", "Origin": origin},
        )
        assert answer.status_code == 403, origin
        assert answer.json()["error"]["code"] == "cross-site"
    assert client.get("/api/games").json()["games"] == []


def test_another_port_of_the_same_host_cannot_act_on_the_lan_server(make_client) -> None:
    """SameSite cookies travel between ports of one host: the Origin check stops them."""
    client = make_client(token=TOKEN)
    game = client.post(
        "/api/games", json={"seed": 1}, headers={"Authorization": f"Bearer {TOKEN}"}
    ).json()
    answer = client.post(
        f"/api/games/{game['id']}/undo",
        json={"version": 1},
        headers={"Origin": "http://testserver:8080", "Cookie": f"mhp_token={TOKEN}"},
    )
    assert answer.status_code == 403
    assert "only this page may change the games" in answer.json()["error"]["message"]


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_a_browser_saying_the_request_comes_from_elsewhere_is_refused(make_client, site) -> None:
    client = make_client()
    answer = client.post("/api/games", json={"seed": 1}, headers={"Sec-Fetch-Site": site})
    assert answer.status_code == 403
    assert site in answer.json()["error"]["message"]


def test_the_page_itself_and_clients_that_are_no_browser_get_in(make_client) -> None:
    client = make_client()
    same = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/games", json={"seed": 1}, headers=same).status_code == 201
    assert client.post("/api/games", json={"seed": 2}).status_code == 201  # curl, a script


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1:8765 evil.com",
        "127.0.0.1 evil.com",
        "evil.com@127.0.0.1",
        "127.0.0.1:8765/x",
        "127.0.0.1:port",
        "",
    ],
)
def test_a_host_header_that_is_no_host_is_refused(make_client, host: str) -> None:
    client = make_client(hosts=frozenset({"127.0.0.1"}))
    answer = client.get("/api/health", headers={"Host": host})
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad-host"
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_a_phone_without_the_token_reads_what_to_do_in_its_language(make_client) -> None:
    client = make_client(token=TOKEN)
    page = client.get("/", headers={"Accept": "text/html,application/xhtml+xml"})
    assert page.status_code == 401
    assert page.headers["content-type"].startswith("text/html")
    assert "Отсканируйте QR-код" in page.text
    assert "Scan the QR code" in page.text
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    api = client.get("/api/health")
    assert api.status_code == 401
    assert api.json()["error"]["code"] == "unauthorized"


# Junk -----------------------------------------------------------------------------------------


def test_junk_posts_to_games_that_do_not_exist_leave_no_lock_behind(make_client) -> None:
    client = make_client()
    store = client.app.state.store  # type: ignore[attr-defined]
    # A lock kept per unknown game would show as exactly that many kept: a thousand is plenty.
    for n in range(1_000):
        answer = client.post(
            f"/api/games/junk{n:04d}/actions", json={"action": "end", "version": 1}
        )
        assert answer.status_code == 404
    assert store.locks_kept == 0
    game = new_game(client)
    assert client.post(
        f"/api/games/{game['id']}/actions", json={"action": "end", "version": 1}
    ).status_code in (200, 422)
    assert store.locks_kept == 0


# The access token, kept --------------------------------------------------------------------------


def test_the_access_token_is_kept_in_the_data_directory(tmp_path: Path) -> None:
    first = kept_token(tmp_path)
    assert kept_token(tmp_path) == first
    path = tmp_path / TOKEN_FILE
    assert path.read_text(encoding="ascii").strip() == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    rotated = kept_token(tmp_path, rotate=True)
    assert rotated != first
    assert kept_token(tmp_path) == rotated
    path.write_text("not a token at all!", encoding="ascii")
    assert re.fullmatch(r"[A-Za-z0-9_-]{16,}", kept_token(tmp_path))


def test_a_lan_restart_keeps_every_phone_at_the_table(tmp_path: Path) -> None:
    running = Server(tmp_path / "data", host="0.0.0.0")
    running.start()
    try:
        [token] = re.findall(r"token=([A-Za-z0-9_-]+)", running.printed())
        running.restart(kill=False)
        again = re.findall(r"token=([A-Za-z0-9_-]+)", running.printed())
        assert again[-1] == token
        with running.client(headers={"Authorization": f"Bearer {token}"}) as client:
            assert client.get("/api/health").status_code == 200
    finally:
        running.stop()


# TCP_NODELAY ------------------------------------------------------------------------------------


def test_the_listening_socket_says_tcp_so_answers_are_not_held_back() -> None:
    """asyncio sets TCP_NODELAY on accepted sockets only when the protocol is TCP."""
    listening = _listen("127.0.0.1", 0)
    try:
        assert listening.proto == socket.IPPROTO_TCP
        nodelay: list[int] = []

        async def main() -> None:
            accepted = asyncio.Event()

            def protocol() -> asyncio.Protocol:
                class Probe(asyncio.Protocol):
                    def connection_made(self, transport: Any) -> None:
                        sock = transport.get_extra_info("socket")
                        nodelay.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                        accepted.set()

                return Probe()

            server = await asyncio.get_running_loop().create_server(protocol, sock=listening)
            port = listening.getsockname()[1]
            with socket.create_connection(("127.0.0.1", port)):
                await asyncio.wait_for(accepted.wait(), 10)
            server.close()

        asyncio.run(main())
        assert nodelay == [1]
    finally:
        listening.close()


def test_kept_alive_requests_are_answered_at_once(tmp_path: Path) -> None:
    """Twenty requests on one kept-alive connection to a real mhp serve.

    With Nagle's algorithm on, each waits for the client's delayed ACK (40 ms on Linux): the
    median would be at least that. The bound is the socket option's, not the machine's speed.
    """
    running = Server(tmp_path / "data")
    running.start()
    try:
        connection = http.client.HTTPConnection("127.0.0.1", running.port, timeout=10)
        times = []
        for _ in range(21):
            begin = time.perf_counter()
            connection.request("GET", "/api/health")
            response = connection.getresponse()
            response.read()
            times.append(time.perf_counter() - begin)
            assert response.status == 200
        connection.close()
        times = sorted(times[1:])
        assert times[len(times) // 2] < 0.030, times
    finally:
        running.stop()


# What uvicorn answers before the app, and odd headers --------------------------------------------


def _raw(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are to a real server; (status, headers, body) of its answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        connection.sendall(request)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def test_requests_uvicorn_refuses_itself_get_the_apis_json_and_headers(server: Server) -> None:
    """A bad Content-Length never reaches the app: h11 refuses it, now in the API's words."""
    for length in (b"-5", b"1, 2", b"abc", b"99999999999999999999999"):
        status, headers, body = _raw(
            server.port,
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: " + length + b"\r\nConnection: close\r\n\r\n{}",
        )
        assert status == 400, length
        assert headers["content-type"] == "application/json"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["content-security-policy"].startswith("default-src 'self'")
        answer = json.loads(body)
        conforms(answer, "Error")
        assert answer["error"]["code"] == "bad-request"
    with server.client() as client:
        assert client.get("/api/games").json()["games"] == []


def test_two_host_headers_are_refused(server: Server, make_client) -> None:
    # h11 refuses them before the app (bad-request); the app refuses them too behind another
    # server (bad-host).
    status, headers, body = _raw(
        server.port,
        b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n"
        b"Connection: close\r\n\r\n",
    )
    assert status == 400
    assert json.loads(body)["error"]["code"] in ("bad-request", "bad-host")
    assert headers["x-content-type-options"] == "nosniff"
    client = make_client(hosts=frozenset({"127.0.0.1"}))
    answer = client.get("/api/health", headers=[("Host", "evil.example"), ("Host", "127.0.0.1")])
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad-host"


def test_an_old_token_is_told_apart_in_both_languages(make_client) -> None:
    """After ``--new-token`` the page's API calls say what to do, in the page's language."""
    client = make_client(token=TOKEN)
    old = client.get("/api/health", headers={"Cookie": "mhp_token=yesterdays-token-value"})
    assert old.status_code == 401
    error = old.json()["error"]
    conforms(old.json(), "Error")
    assert error["stale"] is True
    assert "QR" in error["reason"]["ru"]
    assert "code has changed" in error["reason"]["en"]
    none = client.get("/api/health").json()["error"]
    assert none["stale"] is False
    assert "code is needed" in none["reason"]["en"]
