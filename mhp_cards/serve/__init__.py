"""The table companion: ``mhp serve``, the referee on the players' phones.

A small web server (Starlette on uvicorn) with one phone-first page and a JSON API over the
rules core. Games, their logs and versions live in SQLite in the data directory, each change
committed before the answer. See ``mhp_cards/serve/API.md`` for the API.

>>> import tempfile
>>> from pathlib import Path
>>> from starlette.testclient import TestClient
>>> from mhp_cards.serve import Settings, create_app
>>> with tempfile.TemporaryDirectory() as data, TestClient(create_app(Settings(Path(data)))) as c:
...     game = c.post("/api/games", json={"level": "1", "players": 2, "seed": 7}).json()
...     ruling = c.post(
...         f"/api/games/{game['id']}/actions", json={"action": "buy armour", "version": 1}
...     ).json()["ruling"]
>>> ruling["verdict"], ruling["rules"][0]
('forbidden', 'L1.T6')
"""

from mhp_cards.serve.app import Settings, create_app
from mhp_cards.serve.store import Store, default_data_dir
from mhp_cards.serve.table import Table

__all__ = ["Settings", "Store", "Table", "create_app", "default_data_dir"]
