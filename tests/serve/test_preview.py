"""The designer's preview page: the card being edited as a PNG, drawn again at every save."""

from __future__ import annotations

import shutil
import time
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from mhp_cards.serve.preview import DPI, CardPreview
from tests.serve import test_browser
from tests.serve.conftest import Server
from tests.serve.test_browser import Page

#: The page tests' headless Chromium, shared with this module.
browser = test_browser.browser

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "terra-former"


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    target = tmp_path / "pack"
    shutil.copytree(EXAMPLE, target)
    return target


def _rename_wolf(pack: Path, name: str) -> None:
    path = pack / "decks.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("{ru: Волк, en: Wolf}", name), encoding="utf-8")


def test_a_card_is_drawn_at_its_size_and_again_after_a_save(pack: Path) -> None:
    preview = CardPreview(pack)
    state = preview.state()
    assert state["valid"]
    assert {"id": "wolf", "deck": "organisms", "name": "Волк"} in state["cards"]
    first = preview.picture("wolf")
    with Image.open(BytesIO(first)) as image:
        # A poker card, 63 × 88 mm, at the preview's resolution.
        assert image.size == (round(63 / 25.4 * DPI), round(88 / 25.4 * DPI))
    assert preview.picture("wolf") is first  # drawn once per version
    _rename_wolf(pack, "{ru: Серый волк, en: Grey wolf}")
    after = preview.refresh()
    assert after["version"] == state["version"] + 1
    assert {"id": "wolf", "deck": "organisms", "name": "Серый волк"} in after["cards"]
    assert preview.picture("wolf") != first


def test_an_invalid_save_keeps_the_last_good_card_and_says_where(pack: Path) -> None:
    preview = CardPreview(pack)
    good = preview.picture("wolf", "back", "en")
    path = pack / "decks.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("role: П2, needs: Лс", "role: П9, needs: Лс", 1),
        "utf-8",
    )
    state = preview.refresh()
    assert not state["valid"]
    [error] = state["errors"]
    assert error.startswith(f"{path}:")
    assert "role is 'П9', not one of its choices" in error
    assert len(state["cards"]) == 35  # the last good version's
    assert preview.picture("wolf", "back", "en") == good


def test_the_game_catalog_is_previewed_too() -> None:
    preview = CardPreview()
    ids = [card["id"] for card in preview.state()["cards"]]
    assert "water-ice" in ids
    assert preview.picture("water-ice").startswith(b"\x89PNG")


def test_the_preview_follows_saves_in_a_real_browser(
    browser: Any, pack: Path, tmp_path: Path
) -> None:
    server = Server(tmp_path / "data", options=("--preview", str(pack)))
    server.start()
    try:
        shots = tmp_path / "screenshots"
        shots.mkdir()
        page = Page(browser, server.url, shots)
        browser.get(server.url + "/preview?card=wolf")

        def loaded() -> int:
            script = (
                "const img = document.getElementById('picture');"
                "return img.complete && img.naturalWidth ? Number(document.body.dataset.version)"
                " : 0;"
            )
            return int(browser.execute_script(script))

        version = page.until(loaded)
        assert browser.execute_script("return document.getElementById('card').value") == "wolf"
        src = browser.execute_script("return document.getElementById('picture').src")
        time.sleep(0.5)  # the event stream is open
        _rename_wolf(pack, "{ru: Серый волк, en: Grey wolf}")
        page.until(lambda: loaded() > version)
        assert browser.execute_script("return document.getElementById('picture').src") != src
        caption = browser.execute_script(
            "return document.getElementById('card').selectedOptions[0].textContent"
        )
        assert "Серый волк" in caption
        page.shot("preview")
        # A broken save: the errors, located; the picture stays.
        src = browser.execute_script("return document.getElementById('picture').src")
        path = pack / "decks.yaml"
        path.write_text(
            path.read_text(encoding="utf-8").replace(
                "role: П2, needs: Лс", "role: П9, needs: Лс", 1
            ),
            "utf-8",
        )
        page.until(
            lambda: not browser.execute_script("return document.getElementById('errors').hidden")
        )
        errors = browser.execute_script("return document.getElementById('error-list').textContent")
        assert "role is 'П9'" in errors
        assert f"{path}:" in errors
        assert browser.execute_script("return document.getElementById('picture').src") == src
        assert page.errors() == []
    finally:
        server.stop()
