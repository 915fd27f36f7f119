"""A real ``mhp serve`` process on 127.0.0.1: restarts after SIGKILL, events, the LAN token, load.

These tests start the command as a user does (``python -m mhp_cards serve``) and talk to it over
TCP with httpx2; nothing here is timed (speed is for benchmarks/serve_bench.py).
"""

from __future__ import annotations

import random
import re
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import httpx2 as httpx

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import deal
from mhp_cards.game.state import GameState
from mhp_cards.referee import action_from_json, apply
from tests.serve.conftest import Server, conforms

#: Actions a load client does not pick: they wait for a partner's acceptance.
_CONSENTED = ("trade",)


def _replayed(catalog: Catalog, game: dict[str, Any], log: dict[str, Any]) -> GameState:
    """The state the game's log leads to, replayed by the library from the dealt game."""
    state = deal(catalog, game["level"], len(game["players"]), game["seed"])
    for entry in log["entries"]:
        state, _ = apply(state, action_from_json(entry["action"]), catalog)
    return state


def _pick(legal: dict[str, Any], rng: random.Random) -> Any:
    choices = [
        item["action"]
        for item in legal["actions"]
        if item["kind"] not in _CONSENTED and item["needs_consent"] is None
    ]
    return rng.choice(choices) if choices else "end"


def test_a_game_survives_a_sigkill_mid_run(server: Server, catalog: Catalog) -> None:
    with server.client() as client:
        game = client.post("/api/games", json={"level": "2", "players": 3, "seed": 5}).json()
    acknowledged: list[dict[str, Any]] = []
    enough = threading.Event()
    stop = threading.Event()

    def player() -> None:
        rng = random.Random(3)
        with server.client() as client:
            while not stop.is_set():
                try:
                    legal = client.get(f"/api/games/{game['id']}/legal").json()
                    answer = client.post(
                        f"/api/games/{game['id']}/actions",
                        json={"action": _pick(legal, rng), "version": legal["version"]},
                    )
                except httpx.TransportError:
                    return  # the server is gone
                if answer.status_code == 200:
                    acknowledged.append(answer.json())
                if len(acknowledged) >= 25:
                    enough.set()

    thread = threading.Thread(target=player)
    thread.start()
    assert enough.wait(timeout=600)
    server.stop(kill=True)  # while the player is still sending
    stop.set()
    thread.join()
    server.start()
    with server.client() as client:
        after = client.get(f"/api/games/{game['id']}").json()
        log = client.get(f"/api/games/{game['id']}/log").json()
    last = acknowledged[-1]
    # Every acknowledged action is in the log; at most the one in flight was committed unanswered.
    assert after["version"] in (last["version"], last["version"] + 1)
    logged = {entry["seq"]: entry for entry in log["entries"]}
    for answer in acknowledged:
        assert logged[answer["seq"]]["ruling"] == answer["ruling"]
    assert [entry["seq"] for entry in log["entries"]] == list(range(1, len(log["entries"]) + 1))
    if after["version"] == last["version"]:
        assert after["state"] == last["state"]
    assert GameState.model_validate(after["state"]) == _replayed(catalog, after, log)

    # And a quiet server killed outright restarts with every game exactly as it was.
    with server.client() as client:
        games = client.get("/api/games").json()
        before = client.get(f"/api/games/{game['id']}").json()
    server.restart(kill=True)
    with server.client() as client:
        assert client.get("/api/games").json() == games
        assert client.get(f"/api/games/{game['id']}").json() == before
        assert client.get(f"/api/games/{game['id']}/log").json() == log


def test_every_phone_sees_each_change(server: Server) -> None:
    with server.client() as client:
        game = client.post("/api/games", json={"seed": 7}).json()
        url = f"/api/games/{game['id']}/events"
        seen: list[str] = []
        with client.stream("GET", url) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            for line in lines:
                if line.startswith("data: "):
                    seen.append(line)
                    break
            assert '"change": "hello"' in seen[0]
            assert '"version": 1' in seen[0]
            with server.client() as other:
                answer = other.post(
                    f"/api/games/{game['id']}/actions",
                    json={"action": "move 3,3 2,3", "version": 1},
                )
                assert answer.status_code == 200
            for line in lines:
                if line.startswith("data: "):
                    seen.append(line)
                    break
        assert '"change":"action"' in seen[1].replace(" ", "")
        assert '"version":2' in seen[1].replace(" ", "")
        missing = client.get("/api/games/0000beef/events")
        assert missing.status_code == 404
        conforms(missing.json(), "Error")


def test_on_a_lan_host_every_endpoint_needs_the_printed_token(tmp_path: Path) -> None:
    lan = Server(tmp_path / "data", host="0.0.0.0")
    lan.start()
    try:
        printed = lan.printed()
        match = re.search(r"open (http://\S+/\?token=(\S+))", printed)
        assert match, printed
        token = match.group(2)
        assert "█" in printed or "▀" in printed  # the QR code of the join URL
        with lan.client() as client:
            for path in ("/", "/api/health", "/api/games", "/api/rules/L1.T1", "/static/x.js"):
                answer = client.get(path)
                assert answer.status_code == 401, path
                assert answer.json()["error"]["code"] == "unauthorized"
            assert client.post("/api/mission", json={}).status_code == 401
            joined = client.get("/api/health", params={"token": token})
            assert joined.status_code == 200
            assert client.get("/api/games").status_code == 200  # the cookie carries it now
            join = client.get("/api/join").json()
            assert join["urls"][0] == match.group(1)
            assert join["qr_svg"].startswith("<svg")
    finally:
        lan.stop()


CLIENTS = 20
ACTIONS = 50


def test_twenty_clients_fifty_actions_each(server: Server, catalog: Catalog) -> None:
    """The bounded load test: 20 clients × 50 actions on 4 games of one server."""
    with server.client() as client:
        games = [
            client.post("/api/games", json={"level": level, "players": 2, "seed": seed}).json()
            for seed, level in enumerate(("1", "2", "1v1", "3"))
        ]
    accepted: list[tuple[str, int, str]] = []
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    lock = threading.Lock()

    def client_thread(number: int) -> None:
        rng = random.Random(number)
        game = games[number % len(games)]
        try:
            with server.client() as client:
                for _ in range(ACTIONS):
                    legal = client.get(f"/api/games/{game['id']}/legal")
                    with lock:
                        statuses[legal.status_code] += 1
                    body = legal.json()
                    answer = client.post(
                        f"/api/games/{game['id']}/actions",
                        json={"action": _pick(body, rng), "version": body["version"]},
                    )
                    with lock:
                        statuses[answer.status_code] += 1
                        if answer.status_code == 200:
                            result = answer.json()
                            accepted.append((game["id"], result["seq"], result["version"]))
        except Exception as error:  # reported below, with the client's number
            failures.append(f"client {number}: {error!r}")

    threads = [threading.Thread(target=client_thread, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert sum(statuses.values()) == 2 * CLIENTS * ACTIONS
    assert not [status for status in statuses if status >= 500], statuses
    assert set(statuses) <= {200, 409, 422}, statuses
    assert statuses[200] > CLIENTS * ACTIONS // 2  # every legal listing plus accepted actions
    with server.client() as client:
        logged = []
        for game in games:
            log = client.get(f"/api/games/{game['id']}/log").json()
            final = client.get(f"/api/games/{game['id']}").json()
            seqs = [entry["seq"] for entry in log["entries"]]
            assert seqs == list(range(1, len(seqs) + 1))
            logged += [(game["id"], e["seq"], e["version"]) for e in log["entries"]]
            assert GameState.model_validate(final["state"]) == _replayed(catalog, final, log)
            assert final["version"] == 1 + len(seqs)
    # Every accepted action is in a log exactly once, and the logs hold nothing else.
    assert sorted(accepted) == sorted(logged)
    assert len(set(accepted)) == len(accepted)


def test_the_server_stops_cleanly_on_ctrl_c(server: Server) -> None:
    with server.client() as client:
        assert client.get("/api/health").status_code == 200
    server.stop()
    assert "Traceback" not in server.printed()
    assert "open http://127.0.0.1:" in server.printed()
