"""The page's files: every asset it loads is in the package (so in the wheel), none from outside.

The browser tests show the page working; these show it is whole and self-contained without a
browser: each file that index.html and the scripts refer to exists in
``mhp_cards/serve/static``, no file names another host, the scripts are ES modules that import
only each other, and the wheel's build configuration takes the folder along.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import mhp_cards

STATIC = Path(mhp_cards.__file__).parent / "serve" / "static"
ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for p in STATIC.iterdir() if p.is_file())


def test_the_page_and_its_assets_are_there() -> None:
    names = {p.name for p in FILES}
    assert {"index.html", "app.js", "app.css", "i18n.js"} <= names


def test_every_asset_the_page_names_exists() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    named = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    assert "/static/app.js" in named
    assert "/static/app.css" in named
    for path in named:
        assert (STATIC / path.removeprefix("/static/")).is_file(), path
    for script in STATIC.glob("*.js"):
        for target in re.findall(r'^import .* from "([^"]+)";', script.read_text("utf-8"), re.M):
            assert target.startswith("./"), f"{script.name} imports {target} from outside"
            assert (STATIC / target.removeprefix("./")).is_file(), f"{script.name}: {target}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_asset_reaches_another_host(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    # The SVG namespace is a name, not a request.
    urls = [
        u for u in re.findall(r"(?:https?:)?//[\w.-]+\.\w+[^\s\"')]*", text) if "w3.org" not in u
    ]
    assert urls == []
    assert "@import" not in text


def test_the_wheel_takes_the_static_folder() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wheel = config["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert "mhp_cards" in wheel["packages"]
    excluded = wheel.get("exclude", []) + config["tool"]["hatch"]["build"].get("exclude", [])
    assert not [pattern for pattern in excluded if "static" in pattern or pattern.endswith(".js")]
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8")
    assert "static" not in ignored
    assert not re.search(r"^\*\.(js|css|html|svg)$", ignored, re.M)
