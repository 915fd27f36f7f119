"""``mhp serve`` as a newcomer runs it: help, the banner, clean refusals, the default data dir."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest

from mhp_cards.serve import default_data_dir
from mhp_cards.serve.join import host_problem, is_loopback, join_urls, qr_terminal
from mhp_cards.serve.store import DB_NAME
from tests.serve.conftest import SERVE, Server


def test_help_has_the_options_and_an_example(cli) -> None:
    result = cli("serve", "--help")
    assert result.exit_code == 0
    for words in ("--host", "--port", "--data", "Example: mhp serve"):
        assert words in result.output


def test_a_port_in_use_is_one_clean_message(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        completed = subprocess.run(
            [*SERVE, "--port", str(port), "--data", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert completed.returncode == 1
    assert completed.stderr.strip().startswith(f"error: cannot listen on 127.0.0.1:{port}:")
    assert "Traceback" not in completed.stderr + completed.stdout


def test_a_file_as_the_data_directory_is_a_usage_error(cli, tmp_path: Path) -> None:
    afile = tmp_path / "games"
    afile.write_text("not a directory", encoding="utf-8")
    result = cli("serve", "--data", str(afile))
    assert result.exit_code == 2
    assert afile.read_text(encoding="utf-8") == "not a directory"


def test_the_banner_names_the_url_and_the_data(tmp_path: Path) -> None:
    running = Server(tmp_path / "data")
    running.start()
    try:
        printed = running.printed()
        assert f"mhp serve: games in {tmp_path / 'data'}" in printed
        assert f"open http://127.0.0.1:{running.port}/\n" in printed
        assert "token" not in printed
        assert (tmp_path / "data" / DB_NAME).is_file()
        with running.client() as client:
            # A loopback server answers only to its own names (DNS rebinding).
            evil = client.get("/api/health", headers={"Host": f"evil.example:{running.port}"})
            assert evil.status_code == 400
            assert client.get("/api/health").status_code == 200
            # A form content type is what another site's page can send without asking: only
            # JSON changes a game (curl needs -H 'Content-Type: application/json').
            body = b'{"level": "1", "players": 2, "seed": 7}'
            form = client.post(
                "/api/games",
                content=body,
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            )
            assert form.status_code == 415
            assert "Content-Type: application/json" in form.json()["error"]["message"]
            made = client.post(
                "/api/games", content=body, headers={"Content-Type": "application/json"}
            )
            assert made.status_code == 201
    finally:
        running.stop()


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("192.168.1.20", False),
        ("::", False),
        ("myhost.lan", False),
    ],
)
def test_loopback_hosts(host: str, expected: bool) -> None:
    assert is_loopback(host) is expected


def test_join_urls_carry_the_token() -> None:
    assert join_urls("192.168.1.20", 8765, "a b") == ["http://192.168.1.20:8765/?token=a%20b"]
    assert join_urls("127.0.0.1", 9000, None) == ["http://127.0.0.1:9000/"]
    assert join_urls("fe80::1", 8765, None) == ["http://[fe80::1]:8765/"]
    everywhere = join_urls("0.0.0.0", 8765, "t")
    assert everywhere
    assert all(url.endswith(":8765/?token=t") for url in everywhere)
    assert not any("0.0.0.0" in url for url in everywhere)


def test_the_terminal_qr_code_is_drawn_with_blocks() -> None:
    code = qr_terminal("http://192.168.1.20:8765/?token=abc")
    lines = code.strip("\n").splitlines()
    assert len(lines) > 10
    assert set("".join(lines)) <= set(" █▀▄")
    assert len({len(line) for line in lines}) == 1


def test_the_default_data_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MHP_DATA_DIR", str(tmp_path / "chosen"))
    assert default_data_dir() == tmp_path / "chosen"
    monkeypatch.delenv("MHP_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr("sys.platform", "linux")
    assert default_data_dir() == tmp_path / "xdg" / "mhp-cards"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_data_dir() == tmp_path / "home" / ".local" / "share" / "mhp-cards"


@pytest.mark.parametrize("host", ["\x80", "no such host", "a..b", "-x", "", "http://x"])
def test_a_host_that_is_no_address_is_a_usage_error(cli, host: str, tmp_path: Path) -> None:
    result = cli("serve", "--host", host, "--data", str(tmp_path / "data"))
    assert result.exit_code == 2
    assert "is not an address to listen on" in result.stderr
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0", "::", "[::1]", "localhost", "mhp.lan"])
def test_addresses_and_host_names_are_hosts(host: str) -> None:
    assert host_problem(host) is None
