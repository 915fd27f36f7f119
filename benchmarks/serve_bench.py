"""Table server speed: actions per second through ``mhp serve``'s API, beside the bare engine.

Run ``python benchmarks/serve_bench.py`` (about a minute) or ``--quick`` (a few seconds, for the
CI smoke test). Nothing here asserts on timings: the script prints figures beside a reference
measured in the same run, and exits with status 1 only on a correctness failure (an action the
server refuses, or a final state that differs from the engine's).

What is measured
----------------
The same seeded action sequences (one per level: ``--actions`` actions chosen uniformly by
``random.Random(seed)`` among the legal ones that need no partner's acceptance, found once,
untimed, with the library) are played three ways:

* **engine**: ``judge(state, parse_action(text), catalog)`` per action, the new state kept:
  the rules' own work for an action posted as text, with nothing around it;
* **in-process**: ``POST /api/games/{id}/actions`` through Starlette's TestClient (the ASGI app
  without a socket): reading the body, the game's lock, the version check, the judgement,
  one SQLite transaction (WAL, ``synchronous=FULL``) with the log entry and the state, the
  answer (ruling, events, state, score) as JSON;
* **HTTP**: the same requests to a real ``mhp serve`` process on 127.0.0.1 over one kept-alive
  connection (httpx2), so uvicorn's parsing and the loopback socket are in too.

A second reference, **sqlite**, is the disk's share: one INSERT of the action's state text and
a COMMIT per action into a bare table of a database with the server's settings (WAL,
``synchronous=FULL``: the commit waits for the disk, so that a game survives even a power cut).

The ratio column is the engine's actions/s over each way's: how many times an action costs
more through the API than the rules alone. The reference is fair in the sense that it is the
part of each request that cannot be saved: every other cost (JSON, SQLite, HTTP) is the
server's. Each way is timed ``--repeats`` times on a new game each time (best and median of
``time.perf_counter``); the data directory is a new temporary one, so the disk is whatever
the machine's temp directory is on.
"""

from __future__ import annotations

import argparse
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx2 as httpx
import timing  # benchmarks/timing.py, beside this script
from starlette.testclient import TestClient

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import GameState, deal
from mhp_cards.referee import apply, format_action, judge, legal_actions, parse_action
from mhp_cards.serve import Settings, create_app
from mhp_cards.validate import load_catalog

LEVELS = ("1", "2", "3")


def sequence(catalog: Catalog, level: str, seed: int, count: int) -> tuple[list[str], GameState]:
    """A seeded sequence of action texts from the dealt game, and the state it ends in."""
    rng = random.Random(seed)
    state = deal(catalog, level, 2, seed)  # type: ignore[arg-type]
    texts: list[str] = []
    while len(texts) < count and not state.ended:
        options = [a for a in legal_actions(state, catalog) if a.kind != "trade"]
        options = [a for a in options if getattr(a, "how", "") != "sell-player"]
        action = rng.choice(options)
        texts.append(format_action(action))
        state, _ = apply(state, parse_action(texts[-1]), catalog)
    return texts, state


def engine_run(catalog: Catalog, level: str, seed: int, texts: list[str]) -> GameState:
    state = deal(catalog, level, 2, seed)  # type: ignore[arg-type]
    for text in texts:
        outcome = judge(state, parse_action(text), catalog)
        assert outcome.state is not None
        state = outcome.state
    return state


def api_run(post: Callable[..., httpx.Response], level: str, seed: int, texts: list[str]) -> dict:
    game = post("/api/games", json={"level": level, "players": 2, "seed": seed}).json()
    version = game["version"]
    answer: dict = game
    for text in texts:
        response = post(
            f"/api/games/{game['id']}/actions", json={"action": text, "version": version}
        )
        if response.status_code != 200:
            raise SystemExit(f"the server refused {text!r}: {response.text[:300]}")
        answer = response.json()
        version = answer["version"]
    return answer


def sqlite_run(directory: Path, state_text: str, count: int) -> None:
    """One INSERT and COMMIT per action, with the store's pragmas: the disk's share."""
    directory.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(directory / "bare.sqlite3", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE IF NOT EXISTS log (seq INTEGER, state TEXT)")
    for seq in range(count):
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO log VALUES (?, ?)", (seq, state_text))
        db.execute("COMMIT")
    db.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(data: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "mhp_cards", "serve", "--port", str(port), "--data", str(data)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                return process, url
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("mhp serve did not start")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds: the CI smoke run")
    parser.add_argument("--actions", type=int, default=150)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    if args.quick:
        args.actions, args.repeats = 15, 1
    catalog = load_catalog()
    print(f"{args.actions} actions per level, 2 players, seed {args.seed}, {args.repeats} repeats")
    print(f"{'level':<6} {'way':<11} {'actions':>7} {'best/s':>9} {'median/s':>9} {'engine ×':>9}")
    failures = 0
    with tempfile.TemporaryDirectory(prefix="mhp-serve-bench-") as scratch:
        process, url = start_server(Path(scratch) / "http")
        try:
            with (
                TestClient(
                    create_app(Settings(Path(scratch) / "asgi", catalog=catalog))
                ) as in_process,
                httpx.Client(base_url=url, timeout=60) as over_http,
            ):
                for level in LEVELS:
                    texts, expected = sequence(catalog, level, args.seed, args.actions)
                    n = len(texts)
                    engine_times, state = timing.samples(
                        lambda level=level, texts=texts: engine_run(
                            catalog, level, args.seed, texts
                        ),
                        args.repeats,
                    )
                    if state != expected:
                        print(f"level {level}: the engine did not replay its own sequence")
                        failures += 1
                    best_engine = n / min(engine_times)
                    rows = [("engine", engine_times)]
                    bare = Path(scratch) / f"bare-{level}"
                    text = expected.to_json()
                    rows.append(
                        (
                            "sqlite",
                            timing.samples(
                                lambda t=text, d=bare, n=n: sqlite_run(d, t, n), args.repeats
                            )[0],
                        )
                    )
                    for name, client in (("in-process", in_process), ("HTTP", over_http)):
                        times, answer = timing.samples(
                            lambda client=client, level=level, texts=texts: api_run(
                                client.post, level, args.seed, texts
                            ),
                            args.repeats,
                        )
                        if GameState.model_validate(answer["state"]) != expected:  # type: ignore[index]
                            print(
                                f"level {level}, {name}: the final state differs from the engine's"
                            )
                            failures += 1
                        rows.append((name, times))
                    for name, times in rows:
                        best, median = n / min(times), n / statistics.median(times)
                        ratio = best_engine / best
                        print(
                            f"{level:<6} {name:<11} {n:>7} {best:>9.0f} {median:>9.0f} "
                            f"{ratio:>8.1f}×"
                        )
        finally:
            process.terminate()
            process.wait(timeout=30)
    print("engine × = the engine's best actions/s over this way's (the API's cost per action)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
