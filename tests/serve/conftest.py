"""Shared fixtures of the table server's tests: an app on a temporary data directory, a real server.

``client``: Starlette's TestClient on a fresh app (loopback settings, no token).
``server``: a real ``mhp serve`` process on 127.0.0.1 and a free port, in a new data directory;
``Server.restart(kill=True)`` kills it with SIGKILL and starts it again on the same data.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import jsonschema
import pytest
from starlette.testclient import TestClient

from mhp_cards.catalog.models import Catalog
from mhp_cards.resources import default_catalog_dir
from mhp_cards.serve import Settings, create_app
from mhp_cards.serve.schema import API_SCHEMA
from mhp_cards.validate import load_catalog

SERVE = (sys.executable, "-m", "mhp_cards", "serve")
SCHEMA = json.loads((default_catalog_dir() / "schema" / API_SCHEMA).read_text(encoding="utf-8"))


def conforms(body: Any, definition: str) -> None:
    """Fail unless ``body`` validates against ``$defs/definition`` of the committed schema."""
    schema = {**SCHEMA, "$ref": f"#/$defs/{definition}"}
    jsonschema.Draft202012Validator(schema).validate(body)


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture
def make_client(tmp_path: Path, catalog: Catalog) -> Iterator[Any]:
    """Make TestClients on apps with chosen settings (all on this test's data directory)."""
    clients: list[TestClient] = []

    def make(**settings: Any) -> TestClient:
        settings.setdefault("data", tmp_path / "data")
        settings.setdefault("catalog", catalog)
        client = TestClient(create_app(Settings(**settings)), raise_server_exceptions=False)
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Any) -> TestClient:
    return make_client()


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("level", "1")
    body.setdefault("players", 2)
    body.setdefault("seed", 7)
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    """A real ``mhp serve`` process."""

    data: Path
    host: str = "127.0.0.1"
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[str] | None = None
    options: tuple[str, ...] = ()
    """More options of ``mhp serve`` (``--preview DIR``)."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.data.parent / f"serve-{self.port}.log"

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        # The output goes to a file: a pipe nobody reads could fill up and stall the server.
        with self.log_path.open("a", encoding="utf-8") as log:
            self.process = subprocess.Popen(
                [
                    *SERVE,
                    *("--host", self.host, "--port", str(self.port), "--data", str(self.data)),
                    *self.options,
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                text=True,
                env=env,
            )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError("mhp serve stopped: " + self.printed())
            if "Press Ctrl+C" in self.printed():
                try:
                    with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                        return
                except OSError:
                    pass
            time.sleep(0.05)
        raise AssertionError("mhp serve did not start listening: " + self.printed())

    def printed(self) -> str:
        """What the server has printed so far (every run on this port)."""
        return self.log_path.read_text(encoding="utf-8") if self.log_path.exists() else ""

    def stop(self, *, kill: bool = False) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL if kill else signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self, *, kill: bool) -> None:
        self.stop(kill=kill)
        self.start()

    def client(self, **options: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=60, **options)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "data")
    running.start()
    yield running
    running.stop()


def full_combine_game(data: Path, catalog: Catalog) -> str:
    """A level-3 game saved in ``data`` where red has moved and red's combine is full.

    The referee then refuses to end the turn (L3.S3: run a reaction or sell first). The six
    cards come off the field's cells, so no card is in two places. The game's ID.
    """
    from mhp_cards.game import deal
    from mhp_cards.rules.numbers import COMBINE_CAPACITY
    from mhp_cards.serve.store import Store

    state = deal(catalog, "3", players=2, seed=3)
    assert state.field is not None
    taken = [cell.raw for cell in state.field.cells if cell.raw][:COMBINE_CAPACITY]
    cells = tuple(
        cell.model_copy(update={"raw": None}) if cell.raw in taken else cell
        for cell in state.field.cells
    )
    players = (
        state.players[0].model_copy(update={"raw_cards": tuple(taken)}),
        *state.players[1:],
    )
    state = state.model_copy(
        update={
            "field": state.field.with_cards(cells),
            "players": players,
            "done_this_turn": ("move",),
        }
    )
    store = Store(data)
    try:
        row = store.create("3", tuple(p.id for p in state.players), 3, state.to_json())
    finally:
        store.close()
    return row.id
