"""The page of ``mhp serve`` in a real headless Chromium at phone size (390 × 844).

Debian's ``chromium`` and ``chromium-driver`` packages, driven by selenium, against a real
``mhp serve`` process on 127.0.0.1 (the ``server`` fixture). What a player taps is what the
test taps; what the page shows is checked against what the server holds. Screenshots go to the
test's temporary directory (their paths are printed: run with ``-s`` to see them). Without the
browser or its driver these tests skip, unless ``CI`` is set: then they fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from mhp_cards.referee.words import plural_form
from mhp_cards.rules.rulebook import load_rulebook

CHROMIUM = os.environ.get("MHP_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("MHP_CHROMEDRIVER", "/usr/bin/chromedriver")
PHONE = (390, 844)
#: Seconds a condition may take on a loaded machine (a bound, not a measurement).
WAIT = float(os.environ.get("MHP_BROWSER_WAIT", "60"))


def _missing() -> str | None:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).is_file() or shutil.which(path)):
            return f"{path} is missing (apt-get install chromium chromium-driver)"
    return None


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """A fresh headless Chromium (its own profile) at 390 × 844, logging every request."""
    yield from _chromium(tmp_path)


@pytest.fixture
def second_browser(tmp_path: Path) -> Iterator[Any]:
    """Another phone: a second Chromium with a profile (and local storage) of its own."""
    yield from _chromium(tmp_path)


def _chromium(tmp_path: Path) -> Iterator[Any]:
    why = _missing()
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests need a browser in CI: {why}")
        pytest.skip(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="mhp-chromium-", dir=tmp_path)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--lang=en-GB",
        f"--user-data-dir={profile}",
        f"--window-size={PHONE[0]},{PHONE[1]}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(WAIT)
    width, height = PHONE
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True},
    )
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})
    try:
        yield driver
    finally:
        driver.quit()


class Page:
    """The page in the browser, with the waits and taps a test needs."""

    def __init__(self, driver: Any, base: str, shots: Path) -> None:
        from selenium.common.exceptions import (
            ElementClickInterceptedException,
            StaleElementReferenceException,
        )
        from selenium.webdriver.support.ui import WebDriverWait

        self.driver = driver
        self.base = base
        self.shots = shots
        # The page redraws parts of itself on every change: an element found a moment ago may
        # be gone, or covered for a moment; the wait looks again.
        self.wait = WebDriverWait(
            driver,
            WAIT,
            ignored_exceptions=(StaleElementReferenceException, ElementClickInterceptedException),
        )
        self.requests: list[str] = []

    def open(self, path: str = "/") -> None:
        self.driver.get(self.base + path)
        self.ready()

    def ready(self) -> None:
        self.wait.until(lambda d: d.execute_script("return document.body.dataset.ready"))

    def css(self, selector: str) -> Any:
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def text(self, selector: str) -> str:
        """The rendered text of the first element that matches, read in one call.

        One script reads it, so the page redrawing between finding the element and reading
        its text (an event-stream change arriving) cannot make the element stale.
        """
        text = self.driver.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : null",
            selector,
        )
        assert text is not None, f"no element matches {selector}"
        return str(text)

    def attrs(self, selector: str, name: str) -> list[str | None]:
        """An attribute of every element that matches, read in one call (as :meth:`text`)."""
        values = self.driver.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0]),"
            " e => e.getAttribute(arguments[1]))",
            selector,
            name,
        )
        return list(values)

    def all(self, selector: str) -> list[Any]:
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def shown(self, selector: str) -> Any:
        """Wait until an element is displayed, then return it.

        The element is the one found inside the wait (which looks again when one went
        stale): one looked up after the wait may already have been redrawn.
        """
        return self.wait.until(
            lambda d: next((e for e in self.all(selector) if e.is_displayed()), False)
        )

    def tap(self, selector: str) -> None:
        """Tap the first displayed element that matches, once it is there."""

        def tapped() -> bool:
            element = next((e for e in self.all(selector) if e.is_displayed()), None)
            if element is None:
                return False
            self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()
            return True

        self.until(tapped)

    def until(self, condition: Callable[[], Any]) -> Any:
        return self.wait.until(lambda d: condition())

    def shot(self, name: str, *, full: bool = False) -> Path:
        """Save a screenshot (the whole page when ``full``) and print where it is."""
        path = self.shots / f"{name}.png"
        if full:
            height = int(self.driver.execute_script("return document.documentElement.scrollHeight"))
            self.driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": PHONE[0], "height": height, "deviceScaleFactor": 1, "mobile": True},
            )
            self.driver.save_screenshot(str(path))
            self.driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True},
            )
        else:
            self.driver.save_screenshot(str(path))
        print(f"screenshot: {path}")
        return path

    def requested(self) -> list[str]:
        """Every URL the browser asked for so far (from Chrome's Network events)."""
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                self.requests.append(message["params"]["request"]["url"])
            elif message["method"] == "Network.webSocketCreated":
                self.requests.append(message["params"]["url"])
        return self.requests

    def errors(self) -> list[str]:
        """Errors the page logged (uncaught exceptions, failed loads), but the API's refusals.

        Chrome logs every answer of status 4xx; a forbidden move (422) or a stale version (409)
        is an answer the page expects and shows.
        """
        return [
            e["message"]
            for e in self.driver.get_log("browser")
            if e["level"] == "SEVERE"
            and not re.search(
                r"/api/\S* - Failed to load resource: .* status of 4\d\d", e["message"]
            )
        ]


@pytest.fixture
def page(browser: Any, server: Any, tmp_path: Path) -> Page:
    shots = tmp_path / "screenshots"
    shots.mkdir()
    return Page(browser, server.url, shots)


def api(server: Any, path: str, secret: str | None = None) -> Any:
    """GET ``path``; with ``secret``, as the phone that holds that seat (X-Mhp-Seat)."""
    with server.client() as client:
        answer = client.get(path, headers={"X-Mhp-Seat": secret} if secret else {})
        assert answer.status_code == 200, answer.text
        return answer.json()


def seat_secret(page: Page, game: str, player: str) -> str:
    """The secret the page keeps for its seat ``player`` of ``game`` (its local storage)."""
    keys = page.driver.execute_script(
        "return JSON.parse(localStorage.getItem(arguments[0]) || '{}')", f"mhp.keys.{game}"
    )
    assert player in keys, keys
    return str(keys[player])


def assert_local(urls: list[str], base: str) -> None:
    """Every request that could reach a network went to the server on 127.0.0.1.

    Chrome's own pages (``chrome://…``, the new-tab page it opens at start) and ``data:`` URLs
    are drawn inside the browser; anything over http(s) or a WebSocket goes out on a network.
    """
    networked = [u for u in urls if urlsplit(u).scheme in ("http", "https", "ws", "wss", "ftp")]
    assert networked, "the page made no request at all"
    outside = [u for u in networked if not u.startswith(base + "/")]
    assert outside == []
    other = {urlsplit(u).scheme for u in urls} - {"http", "chrome", "data", "about", "blob"}
    assert other == set()


def start_level_one(page: Page, seed: int = 7) -> str:
    """Fill in the new-game form as a player does; the game's ID."""
    page.open("/")
    page.tap('#level-choices [data-value="1"]')
    page.tap('#player-choices [data-value="2"]')
    seed_box = page.shown("#seed")
    seed_box.clear()
    seed_box.send_keys(str(seed))
    page.tap("#start-game")
    page.until(lambda: "#/game/" in page.driver.current_url)
    return page.driver.current_url.rsplit("/", 1)[1]


def take_phone(page: Page, colour: str) -> None:
    """The hand-over screen names the player; that player takes the phone."""
    button = page.shown("#handover-ok")
    assert colour.lower() in page.text("#handover-who").lower()
    button.click()
    page.until(lambda: not page.css("#handover").is_displayed())
    page.shown("#field .cell")


def combine_at(server: Any, game: str, colour: str) -> tuple[int, int]:
    state = api(server, f"/api/games/{game}")["state"]
    player = next(p for p in state["players"] if p["id"] == colour)
    return tuple(player["combine"]["position"])


def test_a_level_one_turn_by_taps(page: Page, server: Any) -> None:
    game = start_level_one(page)
    page.shot("01-hand-over")
    take_phone(page, "red")
    # The screen stays on while the game is open (Screen Wake Lock: 127.0.0.1 is secure).
    assert page.driver.execute_script("return document.body.dataset.wake") == "on"

    # The table: the field with both combines on the Base, the legal actions, whose move it is.
    first = api(server, f"/api/games/{game}")
    base = tuple(first["state"]["field"]["base"])
    v0 = first["version"]
    assert "Red" in page.text("#status")
    on_base = page.css(f'#field [data-x="{base[0]}"][data-y="{base[1]}"]')
    assert {
        e.get_attribute("data-player") for e in on_base.find_elements("css selector", ".combine")
    } == {
        "red",
        "blue",
    }
    legal = api(server, f"/api/games/{game}/legal")["actions"]
    targets = {tuple(a["action"]["path"][-1]) for a in legal if a["kind"] == "move"}
    shown = {
        (int(c.get_attribute("data-x")), int(c.get_attribute("data-y")))
        for c in page.all("#field .cell.legal")
    }
    assert shown == targets
    assert targets
    assert page.all('#actions .group[data-kind="move"] button')
    page.shot("02-table", full=True)

    # Tap a cell that one legal move ends on: the move is played and its ruling shown.
    ends = [tuple(a["action"]["path"][-1]) for a in legal if a["kind"] == "move"]
    target = next(cell for cell in ends if ends.count(cell) == 1)
    page.tap(f'#field .cell[data-x="{target[0]}"][data-y="{target[1]}"]')
    page.until(lambda: page.css("#ruling").get_attribute("data-verdict") == "allowed")
    assert combine_at(server, game, "red") == target
    after_move = api(server, f"/api/games/{game}")
    assert after_move["version"] == v0 + 1
    collected = next(
        e["data"]["collected"]
        for e in api(server, f"/api/games/{game}/log")["entries"][0]["events"]
        if e["kind"] == "move"
    )
    hand = page.attrs("#hand .card", "data-card")
    assert sorted(hand) == sorted(collected)
    assert len(collected) == 2
    page.shot("03-moved")

    # A second move in the same turn: forbidden, explained with its rule, nothing applied.
    far = next(
        (c["x"], c["y"])
        for c in after_move["state"]["field"]["cells"]
        if abs(c["x"] - target[0]) + abs(c["y"] - target[1]) == 1
    )
    page.tap(f'#field .cell[data-x="{far[0]}"][data-y="{far[1]}"]')
    page.until(lambda: page.css("#ruling").get_attribute("data-verdict") == "forbidden")
    ruling = page.css("#ruling")
    assert "Nothing changed" in ruling.text
    rule_ids = [
        b.get_attribute("data-rule") for b in ruling.find_elements("css selector", ".rule-id")
    ]
    assert rule_ids
    assert api(server, f"/api/games/{game}")["version"] == v0 + 1
    assert combine_at(server, game, "red") == target
    page.shot("04-forbidden")

    # The rule's text is one tap away, as the rulebook has it.
    page.tap(f'#ruling .rule-id[data-rule="{rule_ids[0]}"]')
    text = page.shown("#dialog .rule-text").text
    assert load_rulebook().rule(rule_ids[0]).text["en"][:60] in " ".join(text.split())
    page.shot("05-rule-text")
    page.tap("#dialog-close")

    # Sell a collected card to the Bank, then undo it: money, Bank and hand as before.
    page.tap('#actions .group[data-kind="sell"] button')
    page.until(lambda: api(server, f"/api/games/{game}")["version"] == v0 + 2)
    sold = api(server, f"/api/games/{game}")["state"]
    assert sold["bank"] == 49
    assert sold["players"][0]["money"] == 1
    page.until(lambda: "1 mR" in page.text("#hand-panel h2"))
    page.tap("#undo-button")
    page.until(lambda: api(server, f"/api/games/{game}")["version"] == v0 + 3)
    undone = api(server, f"/api/games/{game}")
    assert undone["state"]["bank"] == 50
    assert undone["state"]["players"][0]["money"] == 0
    assert len(api(server, f"/api/games/{game}/log")["entries"]) == 1
    page.until(lambda: "0 mR" in page.text("#hand-panel h2"))
    assert "Undone: 1 action" in page.text("#toast")
    assert sorted(page.attrs("#hand .card", "data-card")) == sorted(collected)

    # The log lists the move with its rule IDs.
    page.tap("#log-button")
    entry = page.shown('#log li[data-seq="1"]')
    assert "move" in entry.text
    assert entry.find_elements("css selector", ".rule-id")
    page.tap("#dialog-close")

    # A closed browser tab: reload, and the game is as it was; the bare address reopens it.
    page.driver.refresh()
    page.ready()
    page.shown("#field .cell")
    assert page.text("#status").count(f"version {v0 + 3}") == 1
    here = page.css(f'#field .cell[data-x="{target[0]}"][data-y="{target[1]}"]')
    assert here.find_elements("css selector", '.combine[data-player="red"]')
    page.open("/")
    page.until(lambda: page.driver.current_url.endswith(f"#/game/{game}"))
    page.shown("#field .cell")
    page.shot("06-reloaded")

    # The mission checker from the table, with the player's own hand; then back to the game.
    page.tap("#dock-checker")
    page.tap("#checker-hand")
    page.until(lambda: len(page.all("#checker-chosen [data-chosen]")) >= 1)
    page.tap("#checker-check")
    page.until(lambda: page.css("#checker-ruling").get_attribute("data-verdict") == "incomplete")
    kinds = sorted(card.split("#")[0] for card in collected)
    chosen = page.all("#checker-chosen [data-chosen]")
    assert sorted({c.get_attribute("data-chosen") for c in chosen}) == sorted(set(kinds))
    page.tap("#checker-back")
    page.until(lambda: page.driver.current_url.endswith(f"#/game/{game}"))
    page.shown("#field .cell")

    # Nothing left 127.0.0.1: every request went to this server.
    urls = page.requested()
    assert any(url.startswith(server.url + "/api/") for url in urls)
    assert_local(urls, server.url)
    assert page.errors() == []


def test_the_mission_checker_without_a_game(page: Page, server: Any) -> None:
    page.open("/#/checker")
    page.tap('#checker-missions [data-value="M1"]')
    # M1 (2 CH4 + 4 O2) asks for C2 H8 O8: 2 CO2 + 4 H2O, picked by formula and by name.
    search = page.shown("#checker-search")
    search.send_keys("CO2")
    page.tap('#checker-cards [data-formula="CO2"]')
    page.tap('#checker-cards [data-formula="CO2"]')
    search.clear()
    search.send_keys("water ice")
    page.until(lambda: len(page.all("#checker-cards button")) == 1)
    for _ in range(3):
        page.tap('#checker-cards [data-formula="H2O"]')
    page.tap("#checker-check")
    page.until(lambda: page.css("#checker-ruling").get_attribute("data-verdict") == "incomplete")
    # C2 H6 O7 held: one more water's H2 O is missing.
    assert page.text("#checker-missing").replace("\n", "") == "H2O"
    page.shot("07-checker-incomplete")

    page.tap('#checker-cards [data-formula="H2O"]')
    page.tap("#checker-check")
    page.until(lambda: page.css("#checker-ruling").get_attribute("data-verdict") == "complete")
    used = page.attrs("#checker-used .card", "data-card")
    assert sorted(used) == sorted(["carbon-dioxide"] * 2 + ["water-ice"] * 4)
    assert page.all('#checker-ruling .rule-id[data-rule="L1.E1"]')
    page.shot("08-checker-complete", full=True)

    # An extra card that the mission does not use: still complete, the subset shown.
    search.clear()
    search.send_keys("hematite")
    # Changing the hand clears the previous verdict (its list of used cards goes with it), so
    # the wait below ends only when the new check has drawn its own.
    page.tap("#checker-cards button")
    assert not page.all("#checker-used")
    page.tap("#checker-check")
    page.until(lambda: len(page.all("#checker-used .card")) == 6)
    assert page.attrs("#checker-ruling", "data-verdict") == ["complete"]
    assert "Fe2O3" not in page.text("#checker-used").replace("\n", "")


def test_pass_and_play_hides_the_other_hand(page: Page, server: Any) -> None:
    game = start_level_one(page, seed=11)
    take_phone(page, "red")
    page.tap("#field .cell.legal")
    page.until(lambda: page.css("#ruling").get_attribute("data-verdict") == "allowed")
    red_cards = set(page.attrs("#hand .card", "data-card"))
    assert len(red_cards) == 2
    page.tap('#actions .group[data-kind="end"] button')

    # The hand-over screen covers the table: nothing of red's hand is on the page.
    page.shown("#handover-ok")
    assert "Blue" in page.text("#handover-who")
    assert not page.all("#hand .card")
    page.shot("09-hand-over-blue")
    take_phone(page, "blue")
    html = page.driver.page_source
    leaks = {
        card: html[max(0, html.find(card) - 300) : html.find(card) + 50]
        for card in red_cards
        if card in html
    }
    assert leaks == {}
    red_row = page.css('#players-panel li[data-player="red"]')
    assert "2 cards" in red_row.text
    # Nor does blue's log name the cards red collected.
    page.tap("#log-button")
    move = page.shown('#log li[data-seq="1"]').find_element("css selector", ".events").text
    assert "collected: ▒ and ▒" in move
    html = page.driver.page_source
    assert [card for card in red_cards if card in html] == []
    page.tap("#dialog-close")
    assert api(server, f"/api/games/{game}")["turn"] == "blue"


def test_the_page_speaks_russian(page: Page, server: Any) -> None:
    page.open("/")
    button = page.shown("#lang-button")
    if button.text == "RU":
        button.click()
    page.until(lambda: page.text("#start-game") == "Начать игру")
    assert page.driver.execute_script("return document.documentElement.lang") == "ru"
    page.driver.refresh()
    page.ready()
    assert page.text("#start-game") == "Начать игру"
    page.shot("10-russian")


def test_a_trade_waits_for_the_partner(page: Page, server: Any) -> None:
    game = start_level_one(page, seed=7)
    take_phone(page, "red")
    page.tap("#field .cell.legal")
    page.until(lambda: page.css("#ruling").get_attribute("data-verdict") == "allowed")
    page.tap('#actions .group[data-kind="trade"] button')
    price = page.shown("#trade-price")
    price.clear()
    price.send_keys("0")
    page.tap("#trade-send")
    # The phone goes to blue, who sees the offer and accepts it.
    take_phone(page, "blue")
    offer = page.shown("#trade-offer")
    assert "Red proposes to Blue" in offer.text
    # The card offered is shown face up to blue: its formula, not «a card face down».
    given = api(server, f"/api/games/{game}")["pending"]["action"]["give"]
    assert given
    formula = next(
        r["formula"]
        for r in api(server, "/api/catalog")["raw_materials"]
        if r["id"] == given[0].split("#")[0]
    )
    assert formula in offer.text
    assert "face down" not in offer.text
    before = api(server, f"/api/games/{game}")
    assert before["pending"] is not None
    page.tap("#accept")
    page.until(lambda: api(server, f"/api/games/{game}")["pending"] is None)
    state = api(server, f"/api/games/{game}")["state"]
    assert len(state["players"][0]["raw_cards"]) == 1
    assert len(state["players"][1]["raw_cards"]) == 1
    take_phone(page, "red")
    assert page.all("#trade-offer")[0].is_displayed() is False
    assert len(page.all("#hand .card")) == 1
    page.shot("11-trade-accepted")


def play_api(server: Any, game: str, *actions: str, secret: str | None = None) -> None:
    """Play actions through the API, as another phone at the table would (with ``secret``:
    the phone that holds the seats those secrets open, comma-separated)."""
    headers = {"X-Mhp-Seat": secret} if secret else {}
    with server.client() as client:
        for text in actions:
            version = client.get(f"/api/games/{game}").json()["version"]
            answer = client.post(
                f"/api/games/{game}/actions",
                json={"action": text, "version": version},
                headers=headers,
            )
            assert answer.status_code == 200, answer.text


def walk_into_a_fight(server: Any, game: str, secret: str | None = None) -> tuple[int, int]:
    """Seed 7, two players: red goes west, blue north-west, red one step north; blue to move
    can attack red's cell (bx - 2, by - 1). The Base (bx, by)."""
    bx, by = api(server, f"/api/games/{game}")["state"]["field"]["base"]
    play_api(
        server,
        game,
        f"move {bx - 1},{by} {bx - 2},{by}",
        "end",
        f"move {bx},{by - 1} {bx - 1},{by - 1}",
        "end",
        f"move {bx - 2},{by - 1}",
        "end",
        secret=secret,
    )
    return bx, by


def test_a_fight_with_the_dice_of_the_table(page: Page, server: Any) -> None:
    game = start_level_one(page, seed=7)
    take_phone(page, "red")
    bx, by = walk_into_a_fight(server, game)
    # The other phone's changes arrive by the event stream: the phone goes to blue.
    take_phone(page, "blue")
    red_cell = f'#field .cell[data-x="{bx - 2}"][data-y="{by - 1}"]'
    # looked up inside the wait: the field is redrawn as the stream's changes arrive
    page.until(
        lambda: page.css(red_cell).find_elements("css selector", '.combine[data-player="red"]')
    )
    page.tap(red_cell)
    # An attack asks first: nothing is played until it is confirmed.
    question = page.shown("#attack-question")
    assert "Attack Red?" in question.text
    assert api(server, f"/api/games/{game}")["state"]["fight"] is None
    page.tap("#attack-cancel")
    page.until(lambda: not page.css("#dialog").is_displayed())
    assert api(server, f"/api/games/{game}")["state"]["fight"] is None
    page.tap(red_cell)
    page.tap("#attack-confirm")
    page.shown("#fight-panel")
    assert api(server, f"/api/games/{game}")["state"]["fight"]["defender"] == "red"
    # The table's die buttons are tap targets of at least 44 × 44 px.
    sizes = page.driver.execute_script(
        "return [...document.querySelectorAll('#fight-panel [data-die]')]"
        ".map((b) => [b.offsetWidth, b.offsetHeight])"
    )
    assert len(sizes) >= 12
    assert min(min(size) for size in sizes) >= 44, sizes
    page.shot("12-fight")
    # The table's real die: blue rolled 6, red rolled 2. The dice come first: nothing has
    # changed hands yet, and the winner chooses the spoils next.
    red_cards = api(server, f"/api/games/{game}")["state"]["players"][0]["raw_cards"]
    page.tap('#fight-panel [data-die="a"][data-value="6"]')
    page.tap('#fight-panel [data-die="d"][data-value="2"]')
    page.tap("#fight-enter")
    page.until(lambda: (api(server, f"/api/games/{game}")["state"]["fight"] or {}).get("winner"))
    rolled = api(server, f"/api/games/{game}")
    assert rolled["state"]["fight"]["winner"] == "blue"
    assert rolled["state"]["players"][0]["raw_cards"] == red_cards
    entry = api(server, f"/api/games/{game}/log")["entries"][-1]
    assert entry["text"] == "fight 6:2"
    fight = next(e for e in entry["events"] if e["kind"] == "fight")
    assert fight["data"]["winner"] == "blue"
    assert fight["data"]["rolled"] is False
    page.until(lambda: page.css("#ruling").get_attribute("data-verdict") == "allowed")
    page.until(
        lambda: "L1.T4" in [b.get_attribute("data-rule") for b in page.all("#ruling .rule-id")]
    )
    # Blue, the winner, sees red's cards face up and picks two of them.
    page.shown("#fight-spoils")
    assert "Blue won: 6:2" in page.text("#fight-result")
    page.shot("12a-spoils")
    shown = set(page.attrs("#players-panel .card", "data-card")) | set(
        " ".join(page.attrs("#fight-spoils button", "data-cards")).split()
    )
    assert set(red_cards) <= shown
    two = sorted(red_cards)[:2]
    options = page.attrs("#fight-spoils button", "data-cards")
    choice = next(o for o in options if sorted((o or "").split()) == two)
    page.tap(f'#fight-spoils button[data-cards="{choice}"]')
    page.until(lambda: api(server, f"/api/games/{game}")["state"]["fight"]["taken"] == 2)
    blue_hand = api(server, f"/api/games/{game}")["state"]["players"][1]["raw_cards"]
    assert set(two) <= set(blue_hand)
    page.shot("12b-spoils-taken")
    # The loser chooses the retreat: the phone goes to red, who taps a green cell.
    take_phone(page, "red")
    assert "You lost" in page.text("#fight-step")
    retreats = [
        tuple(a["action"]["cell"])
        for a in api(server, f"/api/games/{game}/legal?player=red")["actions"]
        if a["kind"] == "retreat"
    ]
    shown_cells = {
        (int(c.get_attribute("data-x")), int(c.get_attribute("data-y")))
        for c in page.all("#field .cell.legal")
    }
    assert shown_cells == set(retreats)
    cell = retreats[0]
    page.tap(f'#field .cell.legal[data-x="{cell[0]}"][data-y="{cell[1]}"]')
    page.until(lambda: api(server, f"/api/games/{game}")["state"]["fight"] is None)
    assert combine_at(server, game, "red") == cell
    texts = [e["text"] for e in api(server, f"/api/games/{game}/log")["entries"][-3:]]
    assert texts == ["fight 6:2", f"spoils {' '.join(two)}", f"as red retreat {cell[0]},{cell[1]}"]
    page.until(lambda: not page.css("#fight-panel").is_displayed())
    page.shot("12c-retreated")
    assert page.errors() == []


def test_russian_names_the_players_by_case(page: Page, server: Any) -> None:
    """«Синий напал на Красного», not «напал на Красный»; the referee's event the same."""
    game = start_level_one(page, seed=7)
    take_phone(page, "red")
    button = page.shown("#lang-button")
    if button.text == "RU":
        button.click()
    page.until(lambda: page.driver.execute_script("return document.documentElement.lang") == "ru")
    bx, by = walk_into_a_fight(server, game)
    page.until(lambda: "Синий" in page.text("#handover-who"))
    page.shown("#handover-ok").click()
    page.until(lambda: not page.css("#handover").is_displayed())
    red_cell = f'#field .cell[data-x="{bx - 2}"][data-y="{by - 1}"]'
    page.until(
        lambda: page.css(red_cell).find_elements("css selector", '.combine[data-player="red"]')
    )
    page.tap(red_cell)
    page.until(lambda: "Напасть на Красного?" in page.text("#attack-question"))
    page.tap("#attack-confirm")
    panel = page.shown("#fight-panel")
    page.until(lambda: "Синий напал на Красного" in panel.text)
    assert "напал на Красный" not in panel.text
    attack = api(server, f"/api/games/{game}/log")["entries"][-1]["events"]
    said = [e["ru"] for e in attack if e["kind"] == "attack"]
    assert said == ["Синий нападает на Красного: «Напал!»"]
    page.shot("13-fight-russian")


def test_the_page_counts_as_the_library_does(page: Page, server: Any) -> None:
    """The page's plural rule (i18n.js) gives the library's form for every count to 300."""
    page.open("/")
    forms = page.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import('/static/i18n.js').then((m) => done([...Array(301).keys()].map(m.pluralForm)));"
    )
    assert forms == [plural_form(n) for n in range(301)]


def test_the_join_code_for_a_lan_host(browser: Any, tmp_path: Path) -> None:
    from tests.serve.conftest import Server

    lan = Server(tmp_path / "lan-data", host="0.0.0.0")
    lan.start()
    try:
        printed = re.search(r"open (http://\S+/\?token=(\S+))", lan.printed())
        assert printed is not None, lan.printed()
        join_url, token = printed.groups()
        shots = tmp_path / "screenshots"
        shots.mkdir()
        page = Page(browser, lan.url, shots)
        # Without the token nothing is served but what to do, in both languages; with the join
        # URL's token the page works.
        page.driver.get(lan.url + "/")
        assert "Отсканируйте QR-код" in page.driver.page_source
        assert "Scan the QR code" in page.driver.page_source
        page.open(f"/?token={token}")
        panel = page.shown("#join-panel")
        assert panel.find_elements("css selector", "svg")
        assert page.text("#join-url") == join_url
        page.shot("13-join")
        assert_local(page.requested(), lan.url)
    finally:
        lan.stop()


def play_to_the_end(server: Any, game: str) -> dict[str, Any]:
    """Play a level-1 game to its end through the API, as a plain greedy table would.

    A claim when one is listed, then the fight's steps, then the move that collects the most
    raw cards (or gets nearest to one), then the end of the turn.
    """

    def choose(legal: list[dict[str, Any]], state: dict[str, Any]) -> dict[str, Any]:
        steps = ("claim", "fight", "spoils", "retreat")
        by_kind = {kind: [a for a in legal if a["kind"] == kind] for kind in steps}
        for kind in steps:
            if by_kind[kind]:
                return by_kind[kind][0]
        raw = {(c["x"], c["y"]) for c in state["field"]["cells"] if c["raw"]}
        moves = [a for a in legal if a["kind"] == "move"]
        if moves:

            def value(a: dict[str, Any]) -> tuple[int, int]:
                path = [tuple(p) for p in a["action"]["path"]]
                x, y = path[-1]
                near = min((abs(x - rx) + abs(y - ry) for rx, ry in raw), default=0)
                return sum(p in raw for p in path), -near

            return max(moves, key=value)
        return next(a for a in legal if a["kind"] == "end")

    with server.client() as client:
        current = client.get(f"/api/games/{game}").json()
        for _ in range(1000):
            if current["end"] is not None:
                return current
            legal = client.get(f"/api/games/{game}/legal").json()["actions"]
            answer = client.post(
                f"/api/games/{game}/actions",
                json={
                    "action": choose(legal, current["state"])["action"],
                    "version": current["version"],
                },
            )
            assert answer.status_code == 200, answer.text
            current = answer.json()
    raise AssertionError("the game did not end in 1000 actions")


def test_the_end_of_the_game_and_the_score(page: Page, server: Any) -> None:
    game = start_level_one(page, seed=5)
    take_phone(page, "red")
    ended = play_to_the_end(server, game)
    end = ended["end"]
    banner = page.shown("#end-banner")
    assert end["reason"]["en"].lower() in banner.text.lower()
    winners = page.text("#end-winners")
    for colour in ("red", "blue"):
        assert (colour.title() in winners) == (colour in end["winners"])
    assert [
        b.get_attribute("data-rule") for b in banner.find_elements("css selector", ".rule-id")
    ] == end["rules"]
    assert not page.css("#actions-panel").is_displayed()
    page.shot("14-end")
    # The score, line by line, with the totals the server counts.
    page.tap("#score-button")
    score = page.shown("#score")
    for colour, total in ended["score"]["totals"].items():
        row = score.find_element("css selector", f'tr[data-player="{colour}"]')
        assert row.text.split()[-1] == str(total)
    page.shot("15-score")


def test_a_seat_per_phone_kept_in_sync(page: Page, server: Any) -> None:
    game = start_level_one(page, seed=7)
    take_phone(page, "red")
    # This phone is blue's: no hand-over screen, blue's view, red's turn shown as waiting.
    page.tap("#seat-button")
    page.tap('#dialog [data-seat="blue"]')
    page.until(lambda: "you see as Blue" in page.text("#status"))
    assert "It is Red's turn" in page.text("#actions")
    assert not page.all("#field .cell.legal")
    # Red plays on another phone; the event stream brings the change to this one.
    bx, by = api(server, f"/api/games/{game}")["state"]["field"]["base"]
    play_api(server, game, f"move {bx - 1},{by} {bx - 2},{by}", "end")
    page.until(lambda: "your turn" in page.text("#status"))
    assert not page.css("#handover").is_displayed()
    moved = page.css(f'#field .cell[data-x="{bx - 2}"][data-y="{by}"]')
    assert moved.find_elements("css selector", '.combine[data-player="red"]')
    assert page.all("#field .cell.legal")
    assert 'data-player="red"' in page.css('#players-panel li[data-player="red"]').get_attribute(
        "outerHTML"
    )
    # The seat is remembered for this game on this phone.
    page.driver.refresh()
    page.ready()
    page.until(lambda: "you see as Blue" in page.text("#status"))
    page.shot("16-seat-blue")


def test_a_small_phone_and_its_tap_targets(page: Page, server: Any) -> None:
    page.driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 360, "height": 640, "deviceScaleFactor": 1, "mobile": True},
    )
    game = start_level_one(page, seed=7)
    take_phone(page, "red")

    def check(screen: str) -> None:
        width = page.driver.execute_script("return document.documentElement.scrollWidth")
        assert width <= 360, f"{screen}: the page is {width} px wide at 360"
        small = page.driver.execute_script(
            """return [...document.querySelectorAll('button, a.button')]
                 .filter((b) => b.offsetParent && !b.closest('#field'))
                 .map((b) => [b.id || b.dataset.action || b.textContent.trim(),
                              b.getBoundingClientRect().height])
                 .filter(([, height]) => height < 44)"""
        )
        assert small == [], f"{screen}: tap targets under 44 px: {small}"

    check("table")
    cells = page.driver.execute_script(
        "return [...document.querySelectorAll('#field .cell')].map((c) => c.offsetWidth)"
    )
    assert min(cells) >= 44
    # The field scrolls sideways in its frame rather than shrinking its cells.
    assert page.driver.execute_script(
        "const w = document.getElementById('field-wrap'); return w.scrollWidth >= w.clientWidth"
    )
    page.shot("17-small-phone")
    page.driver.get(f"{server.url}/#/checker")
    page.ready()
    page.shown("#checker-cards button")
    check("checker")
    page.driver.get(f"{server.url}/#/")
    page.ready()
    page.shown("#start-game")
    check("home")

    # On a desktop the table has two columns: the field on the left, the actions beside it.
    page.driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False},
    )
    page.driver.get(f"{server.url}/#/game/{game}")
    page.ready()
    page.shown("#field .cell")
    field = page.css("#field-wrap").rect
    actions = page.css("#actions-panel").rect
    assert field["x"] + field["width"] <= actions["x"]
    assert abs(field["y"] - actions["y"]) < field["height"]
    page.shot("18-desktop")


def test_a_missing_browser_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the fixture skips on (or fails on, with CI set) names the missing piece and the fix.
    monkeypatch.setattr(sys.modules[__name__], "CHROMEDRIVER", "/nonexistent/chromedriver")
    why = _missing()
    assert why is not None
    assert "/nonexistent/chromedriver is missing" in why
    assert "apt-get install chromium chromium-driver" in why


def test_a_second_phone_chooses_its_seat_before_it_sees_anything(page: Page, server: Any) -> None:
    """No hand-over screen for the current player on a phone that has not said who it is."""
    with server.client() as client:
        game = client.post("/api/games", json={"level": "2", "players": 2, "seed": 7}).json()
    page.open(f"/#/game/{game['id']}")
    chooser = page.shown("#seat-choice")
    assert not page.css("#handover").is_displayed()
    assert not page.all("#hand .card")
    # Nobody's state was fetched: only the list of games (for the colours).
    state_url = re.compile(rf"/api/games/{game['id']}(\?|$)")
    assert not [u for u in page.requested() if state_url.search(u)]
    hands = api(server, f"/api/games/{game['id']}")["state"]["players"]
    html = page.driver.page_source
    assert [c for p in hands for c in p["raw_cards"] if c in html] == []
    page.shot("19-seat-choice")
    seats = {b.get_attribute("data-seat") for b in chooser.find_elements("css selector", "button")}
    assert seats == {"red", "blue", "pass"}
    page.tap('#seat-choice [data-seat="blue"]')
    page.until(lambda: "you see as Blue" in page.text("#status"))
    assert not page.css("#handover").is_displayed()
    assert not page.css("#seat-choice").is_displayed()


def test_player_in_the_page_url_is_the_phones_seat(page: Page, server: Any) -> None:
    with server.client() as client:
        game = client.post("/api/games", json={"level": "1", "players": 2, "seed": 7}).json()
    page.open(f"/?player=blue#/game/{game['id']}")
    page.until(lambda: "you see as Blue" in page.text("#status"))
    assert not page.css("#handover").is_displayed()
    assert not page.css("#seat-choice").is_displayed()
    # The field's edges carry the coordinates the buttons and rulings use.
    cells = api(server, f"/api/games/{game['id']}")["state"]["field"]["cells"]
    xs = [str(x) for x in range(min(c["x"] for c in cells), max(c["x"] for c in cells) + 1)]
    ys = [str(y) for y in range(min(c["y"] for c in cells), max(c["y"] for c in cells) + 1)]
    assert [e.text for e in page.all("#field .coord-x")] == xs
    assert [e.text for e in page.all("#field .coord-y")] == ys
    # A colour the game has not: the phone asks who it is instead.
    page.driver.execute_script("localStorage.clear(); sessionStorage.clear()")
    page.open(f"/?player=green#/game/{game['id']}")
    page.shown("#seat-choice")


def test_head_to_head_names_the_installations_to_keep(
    page: Page, server: Any, catalog: Any
) -> None:
    """Ruling V1.2-choose: the first turn's buttons name each installation kept of five."""
    with server.client() as client:
        game = client.post("/api/games", json={"level": "1v1", "players": 2, "seed": 7}).json()
    page.open(f"/?player=red#/game/{game['id']}")
    buttons = page.until(lambda: page.all('#actions .group[data-kind="keep"] button'))
    legal = api(
        server, f"/api/games/{game['id']}/legal?player=red", seat_secret(page, game["id"], "red")
    )
    numbers = [
        item["action"]["installation"] for item in legal["actions"] if item["kind"] == "keep"
    ]
    assert len(buttons) == len(numbers) == 5
    for number, button in zip(numbers, buttons, strict=True):
        installation = catalog.installation(number)
        assert " ".join(button.text.split()) == f"Installation {number}: {installation.name.en}"
    page.shot("21-keep-an-installation")


def test_a_refused_usual_button_says_why(page: Page, server: Any, catalog: Any) -> None:
    """Level 3, a full combine: where «End the turn» would be, the referee's reason."""
    from tests.serve.conftest import full_combine_game

    game = full_combine_game(server.data, catalog)
    page.open(f"/?player=red#/game/{game}")
    box = page.shown('#actions .refused[data-kind="end"]')
    # The link's player is this phone's seat now: red's view needs the phone's secret.
    legal = api(server, f"/api/games/{game}/legal?player=red", seat_secret(page, game, "red"))
    [refused] = legal["refused"]
    assert refused["ruling"]["reason"]["en"].rstrip(".") in box.text
    chips = box.find_elements("css selector", ".rule-id")
    assert "L3.S3" in [chip.get_attribute("data-rule") for chip in chips]
    assert not page.all('#actions .group[data-kind="end"]:not(.refused) button')
    page.shot("20-refused-end")


def test_a_long_toast_is_not_cut(page: Page, server: Any) -> None:
    page.open("/")
    long = "The server was restarted with a new access key. " * 3
    page.driver.execute_script(
        "return import('/static/dom.js').then((m) => m.toast(arguments[0]))", long
    )
    toast = page.shown("#toast")
    width, height, scroll, client = page.driver.execute_script(
        "const t = document.getElementById('toast');"
        "return [t.offsetWidth, t.offsetHeight, t.scrollWidth, t.clientWidth]"
    )
    assert width > PHONE[0] * 0.8, width  # not a pill of half the screen
    assert scroll <= client
    assert height > 40  # wrapped onto more lines
    assert toast.text.strip() == long.strip()


def test_a_rulings_note_follows_the_language(page: Page, server: Any) -> None:
    """RU→EN redraws the last ruling's note in English, not only the reason."""
    game = start_level_one(page, seed=7)
    take_phone(page, "red")
    bx, by = api(server, f"/api/games/{game}")["state"]["field"]["base"]
    page.tap(f'#field .cell[data-x="{bx}"][data-y="{by}"]')  # the Base itself: no move
    page.until(lambda: page.css("#ruling").get_attribute("data-verdict") == "forbidden")
    assert "Nothing changed" in page.text("#ruling .note")
    page.tap("#lang-button")
    page.until(lambda: page.driver.execute_script("return document.documentElement.lang") == "ru")
    page.until(lambda: "Ничего не изменилось" in page.text("#ruling .note"))
    reason = page.text("#ruling .reason")
    assert reason not in [e.text for e in page.all("#ruling .events li")]


def test_two_phones_each_hold_their_seat(
    page: Page, second_browser: Any, server: Any, tmp_path: Path
) -> None:
    """Red's phone and blue's phone each claim a seat and play; blue's cannot act for red;
    red's seat moves to blue's phone by its code, and red's old phone loses it."""
    with server.client() as client:
        game = client.post("/api/games", json={"level": "1", "players": 2, "seed": 7}).json()
    gid = game["id"]
    bx, by = game["state"]["field"]["base"]
    red = page
    blue = Page(second_browser, server.url, red.shots)

    red.open(f"/#/game/{gid}")
    red.tap('#seat-choice [data-seat="red"]')
    red.until(lambda: "you see as Red" in red.text("#status"))
    blue.open(f"/#/game/{gid}")
    # Red's seat is marked as held by another phone on blue's chooser.
    blue.until(lambda: blue.attrs('#seat-choice [data-seat="red"]', "data-taken") == ["true"])
    blue.tap('#seat-choice [data-seat="blue"]')
    blue.until(lambda: "you see as Blue" in blue.text("#status"))
    assert api(server, "/api/games")["games"][0]["seats"] == ["red", "blue"]
    # Nobody's hand without a seat's secret: the public view.
    assert api(server, f"/api/games/{gid}")["state"]["viewer"] == "*"

    # Blue's phone acting for red (whose turn it is), through the page's own API calls (they
    # carry blue's secret): refused, nothing played.
    refusal = blue.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import('/static/api.js').then((m) => m.api(arguments[0], {action: 'end', version: 1}))"
        ".then(() => done(null), (f) => done([f.status, f.body.error.code, f.message]))",
        f"/api/games/{gid}/actions",
    )
    assert refusal is not None
    assert refusal[:2] == [403, "not-your-seat"]
    assert "Red's seat is held by another phone" in refusal[2]
    assert api(server, f"/api/games/{gid}")["version"] == 1
    assert "It is Red's turn" in blue.text("#actions")
    assert not blue.all("#field .cell.legal")

    # Red plays on red's phone; blue's phone follows by the event stream, then plays its turn.
    red.tap(f'#field .cell.legal[data-x="{bx - 2}"][data-y="{by}"]')
    red.until(lambda: red.css("#ruling").get_attribute("data-verdict") == "allowed")
    assert len(red.all("#hand .card")) == 2
    red.tap('#actions .group[data-kind="end"] button')
    blue.until(lambda: "your turn" in blue.text("#status"))
    assert not blue.css("#handover").is_displayed()
    blue.tap(f'#field .cell.legal[data-x="{bx + 2}"][data-y="{by}"]')
    blue.until(lambda: blue.css("#ruling").get_attribute("data-verdict") == "allowed")
    log = api(server, f"/api/games/{gid}/log")["entries"]
    assert [entry["player"] for entry in log] == ["red", "red", "blue"]
    blue.shot("21-two-phones-blue")

    # Red's seat moves to blue's phone: red's phone shows a code, blue's phone enters it.
    red.tap("#seat-button")
    red.tap("#seat-move")
    code = red.shown("#seat-code").text.strip()
    assert len(code) == 6
    assert red.css("#seat-code-qr svg")
    red.shot("22-move-code")
    blue.tap("#seat-button")
    blue.tap('#dialog [data-seat="red"]')
    box = blue.shown("#move-code")
    box.send_keys(code.lower())
    blue.tap("#move-send")
    blue.until(lambda: "you see as Red" in blue.text("#status"))
    assert len(blue.all("#hand .card")) == 2  # red's cards, on blue's phone now
    both = blue.driver.execute_script(
        "return Object.keys(JSON.parse(localStorage.getItem(arguments[0])))", f"mhp.keys.{gid}"
    )
    assert sorted(both) == ["blue", "red"]
    # Red's old phone has lost the seat: on its next look it asks who it is.
    red.driver.refresh()
    red.ready()
    red.shown("#seat-choice")
    assert red.attrs('#seat-choice [data-seat="red"]', "data-taken") == ["true"]
    assert red.errors() == []
    assert blue.errors() == []


def test_a_fight_on_two_phones_each_step_on_its_players_phone(
    page: Page, second_browser: Any, server: Any
) -> None:
    """Blue attacks red; after the dice blue's phone shows the spoils to choose and red's waits;
    then red's phone shows the cells to retreat to and blue's waits."""
    with server.client() as client:
        game = client.post("/api/games", json={"level": "1", "players": 2, "seed": 7}).json()
    gid = game["id"]
    red, blue = page, Page(second_browser, server.url, page.shots)
    red.open(f"/?player=red#/game/{gid}")
    red.until(lambda: "you see as Red" in red.text("#status"))
    blue.open(f"/?player=blue#/game/{gid}")
    blue.until(lambda: "you see as Blue" in blue.text("#status"))
    both = f"{seat_secret(red, gid, 'red')},{seat_secret(blue, gid, 'blue')}"
    bx, by = walk_into_a_fight(server, gid, both)
    red_cell = f'#field .cell[data-x="{bx - 2}"][data-y="{by - 1}"]'
    blue.until(lambda: "your turn" in blue.text("#status"))
    blue.tap(red_cell)
    blue.tap("#attack-confirm")
    blue.shown("#fight-panel")
    red.shown("#fight-panel")
    # Blue's phone enters the table's dice: blue wins 5:3.
    blue.tap('#fight-panel [data-die="a"][data-value="5"]')
    blue.tap('#fight-panel [data-die="d"][data-value="3"]')
    blue.tap("#fight-enter")
    blue.shown("#fight-spoils")
    red.until(lambda: "Waiting for Blue to choose the spoils" in red.text("#fight-panel"))
    assert not red.all("#fight-spoils")
    red_cards = api(server, f"/api/games/{gid}?player=red", seat_secret(red, gid, "red"))
    held = red_cards["state"]["players"][0]["raw_cards"]
    options = [o or "" for o in blue.attrs("#fight-spoils button", "data-cards")]
    assert sorted(held) == sorted(max(options, key=len).split())  # blue sees red's cards
    one = next(o for o in options if len(o.split()) == 1)
    blue.tap(f'#fight-spoils button[data-cards="{one}"]')
    # Red's phone: the cells to retreat to; blue's phone waits.
    red.until(lambda: red.all("#field .cell.legal"))
    blue.until(lambda: "Waiting for Red" in blue.text("#fight-panel"))
    assert not blue.all("#field .cell.legal")
    red.shot("23-retreat-on-red")
    cell = (
        red.attrs("#field .cell.legal", "data-x")[0],
        red.attrs("#field .cell.legal", "data-y")[0],
    )
    red.tap(f'#field .cell.legal[data-x="{cell[0]}"][data-y="{cell[1]}"]')
    red.until(lambda: api(server, f"/api/games/{gid}")["state"]["fight"] is None)
    assert combine_at(server, gid, "red") == (int(cell[0]), int(cell[1]))
    blue.until(lambda: not blue.css("#fight-panel").is_displayed())
    assert (
        one
        in api(server, f"/api/games/{gid}?player=blue", seat_secret(blue, gid, "blue"))["state"][
            "players"
        ][1]["raw_cards"]
    )
    assert red.errors() == []
    assert blue.errors() == []
