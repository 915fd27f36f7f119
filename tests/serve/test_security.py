"""Nobody let in, nothing broken: the token, the Host guard, the body limit, junk everywhere.

Every route of the app is enumerated from the app itself, so a route added later is covered.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Mount, Route
from starlette.testclient import TestClient

from mhp_cards.serve.app import BODY_LIMIT, COOKIE, loopback_hosts
from tests.serve.conftest import conforms, new_game

TOKEN = "s3cret-token"


def every_request(client: TestClient, game_id: str) -> list[tuple[str, str]]:
    """(method, path) of every route of the app, with its parameters filled in."""
    values = {"game": game_id, "proposal": "0000aaaa", "answer": "accept", "rule": "L1.T1"}
    requests = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, Mount):
            requests += [("GET", "/static/app.js"), ("GET", "/static/../store.py")]
            continue
        assert isinstance(route, Route)
        path = route.path
        for name, value in values.items():
            path = path.replace("{" + name + "}", value).replace("{" + name + ":str}", value)
        requests += [(method, path) for method in sorted(route.methods or ()) if method != "HEAD"]
    return requests


@pytest.fixture
def guarded(make_client: Any) -> tuple[TestClient, str]:
    client = make_client(token=TOKEN)
    game = client.post("/api/games", json={"seed": 1}, headers=_bearer()).json()
    client.cookies.clear()
    return client, game["id"]


def _bearer(token: str = TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_every_route_is_enumerated(guarded: tuple[TestClient, str]) -> None:
    client, game_id = guarded
    paths = {path for _, path in every_request(client, game_id)}
    assert "/" in paths
    assert "/api/mission" in paths
    assert f"/api/games/{game_id}/events" in paths
    assert len(paths) >= 17


def test_without_the_token_every_route_is_401(guarded: tuple[TestClient, str]) -> None:
    client, game_id = guarded
    for method, path in every_request(client, game_id):
        for headers in ({}, _bearer("wrong"), {"Cookie": f"{COOKIE}=wrong"}):
            answer = client.request(method, path, headers=headers, json={})
            assert answer.status_code == 401, (method, path, headers)
            conforms(answer.json(), "Error")
            assert answer.json()["error"]["code"] == "unauthorized"
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert answer.headers["content-security-policy"].startswith("default-src 'self'")
        wrong = client.request(method, path, params={"token": "nope"})
        assert wrong.status_code == 401
        assert "set-cookie" not in wrong.headers


def test_the_join_url_sets_the_cookie_that_lets_the_phone_in(
    guarded: tuple[TestClient, str],
) -> None:
    client, game_id = guarded
    first = client.get("/api/health", params={"token": TOKEN})
    assert first.status_code == 200
    cookie = first.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={TOKEN};")
    assert "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    # The client keeps the cookie: the next requests carry no token and get in.
    assert client.get(f"/api/games/{game_id}").status_code == 200
    assert client.get(f"/api/games/{game_id}/legal").status_code == 200


def test_the_bearer_header_lets_a_tool_in(guarded: tuple[TestClient, str]) -> None:
    client, game_id = guarded
    answer = client.get(f"/api/games/{game_id}", headers=_bearer())
    assert answer.status_code == 200
    assert "set-cookie" not in answer.headers


def test_on_loopback_no_token_is_needed(client: TestClient) -> None:
    assert client.get("/api/health").status_code == 200


def test_a_loopback_server_answers_only_for_its_own_names(make_client: Any) -> None:
    client = make_client(hosts=loopback_hosts(["testserver"]))
    assert client.get("/api/health").status_code == 200
    for host in ("127.0.0.1:8765", "localhost", "[::1]:8765"):
        assert client.get("/api/health", headers={"Host": host}).status_code == 200
    rebound = client.get("/api/health", headers={"Host": "evil.example:8765"})
    assert rebound.status_code == 400
    assert rebound.json()["error"]["code"] == "bad-host"


def test_a_body_over_the_limit_is_413(client: TestClient) -> None:
    game = new_game(client)
    big = json.dumps({"action": "x" * BODY_LIMIT, "version": 1})
    for path in ("/api/games", f"/api/games/{game['id']}/actions", "/api/mission"):
        answer = client.post(path, content=big, headers={"Content-Type": "application/json"})
        assert answer.status_code == 413
        conforms(answer.json(), "Error")
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 1


def test_a_body_that_grows_past_the_limit_without_a_length_is_413(client: TestClient) -> None:
    def chunks() -> Any:
        for _ in range(BODY_LIMIT // 1024 + 2):
            yield b" " * 1024

    answer = client.post(
        "/api/games", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 413


def test_a_bad_content_length_is_refused(client: TestClient) -> None:
    answer = client.post("/api/mission", content=b"{}", headers={"Content-Length": "-5"})
    assert answer.status_code in (400, 413)


def test_no_client_value_reaches_the_file_system(client: TestClient, tmp_path: Any) -> None:
    for path in (
        "/static/../store.py",
        "/static/%2e%2e/store.py",
        "/static/..%2fstore.py",
        "/api/games/..%2f..%2fgames.sqlite3",
        "/api/rules/..%2f..%2fetc%2fpasswd",
    ):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert "sqlite" not in answer.text.lower() or answer.json()["error"]
    assert sorted(p.name for p in (tmp_path / "data").iterdir())[0] == "games.sqlite3"


JUNK_BODIES = [
    b"",
    b"{",
    b"[]",
    b"null",
    b'"a string"',
    b"\xff\xfe\x00",
    b"[" * 100_000 + b"]" * 100_000,
    b'{"version": ' + b"9" * 5000 + b"}",
    b'{"action": {"kind": "move", "path": [[1e309, 2]]}, "version": 1}',
    b'{"action": "move 99999999999999999999,1", "version": 1}',
    b'{"action": "\\u0000\\ud800", "version": 1}',
    b'{"version": true, "player": ["red"]}',
    b'{"mission": {"$ne": 1}, "cards": "CO2"}',
    b'{"level": null, "players": 1e3, "seed": "1; DROP TABLE games"}',
]


def _assert_clean(answer: Any, method: str, path: str) -> None:
    assert answer.status_code < 500, (method, path, answer.text[:300])
    assert "Traceback" not in answer.text
    if answer.headers.get("content-type", "").startswith("application/json"):
        body = answer.json()
        if answer.status_code >= 400:
            conforms(body, "Error")


def test_junk_to_every_endpoint_gets_a_json_refusal(client: TestClient) -> None:
    game = new_game(client)
    for method, path in every_request(client, game["id"]):
        if path.endswith("/events"):
            continue  # an open stream; its refusals are tested in test_server.py
        for body in JUNK_BODIES:
            answer = client.request(
                method, path, content=body, headers={"Content-Type": "application/json"}
            )
            _assert_clean(answer, method, path)
            if method == "POST":
                assert answer.status_code in (400, 404, 413, 422), (path, body[:40], answer.text)
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 1


def test_unknown_paths_and_methods_are_json(client: TestClient) -> None:
    assert client.get("/api/nothing").json()["error"]["code"] == "not-found"
    game = new_game(client)
    for path in (
        "/api/rules/%ED%A0%80",
        "/api/games/%ff%fe",
        "/api/rules/%00",
        "/%ff",
        f"/api/games/{game['id']}?player=%ED%B2%80",
        f"/api/games/{game['id']}?player=%ff",
    ):
        answer = client.get(path)
        _assert_clean(answer, "GET", path)
    wrong = client.get("/api/mission")
    assert wrong.status_code == 405
    assert wrong.json()["error"]["code"] == "method-not-allowed"


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    target=st.sampled_from(["games", "actions", "undo", "accept", "mission"]),
    body=st.dictionaries(
        st.sampled_from(
            [
                "action",
                "version",
                "player",
                "level",
                "players",
                "seed",
                "shape",
                "house_rules",
                "mission",
                "cards",
                "kind",
                "path",
            ]
        ),
        json_values,
    ),
)
def test_any_json_body_gets_a_ruling_or_a_message(
    client: TestClient, target: str, body: dict[str, Any]
) -> None:
    games = client.get("/api/games").json()["games"]
    game_id = games[0]["id"] if games else new_game(client)["id"]
    path = {
        "games": "/api/games",
        "actions": f"/api/games/{game_id}/actions",
        "undo": f"/api/games/{game_id}/undo",
        "accept": f"/api/games/{game_id}/proposals/abcd0123/accept",
        "mission": "/api/mission",
    }[target]
    answer = client.post(path, json=body)
    _assert_clean(answer, "POST", path)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(game=st.text(max_size=40), rule=st.text(max_size=40), player=st.text(max_size=60))
def test_any_path_or_query_value_gets_an_answer(
    client: TestClient, game: str, rule: str, player: str
) -> None:
    from urllib.parse import quote

    for path in (
        f"/api/games/{quote(game, safe='')}",
        f"/api/games/{quote(game, safe='')}/legal",
        f"/api/rules/{quote(rule, safe='')}",
    ):
        answer = client.get(path, params={"player": player})
        _assert_clean(answer, "GET", path)
