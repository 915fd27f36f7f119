"""How other phones join a table: the URLs, the access token, the QR code.

On a loopback host (``127.0.0.1``, ``localhost``, ``::1``) only this machine can connect and no
token is needed. On any other host the server makes a random token; the join URL carries it
(``http://192.168.1.20:8765/?token=…``), and the page keeps it in a cookie. The QR code of the
join URL is drawn with ``segno`` (pure Python), in the terminal and on the page.
"""

from __future__ import annotations

import contextlib
import io
import ipaddress
import re
import secrets
import socket
from pathlib import Path
from urllib.parse import quote

import segno

from mhp_cards.fileio import write_text_atomic

__all__ = [
    "host_problem",
    "is_loopback",
    "join_urls",
    "kept_token",
    "lan_addresses",
    "new_token",
    "qr_svg",
    "qr_terminal",
]

_HOSTNAME = re.compile(
    r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"
)


def host_problem(host: str) -> str | None:
    """Why ``host`` cannot be listened on (not an IP address nor a host name); None if it can."""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        if not _HOSTNAME.fullmatch(host):
            return (
                f"{ascii(host)[:60]} is not an address to listen on; give an IP address such as "
                "127.0.0.1 or 0.0.0.0, or a host name"
            )
    return None


def is_loopback(host: str) -> bool:
    """True when only this machine can reach a server bound to ``host``."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def new_token() -> str:
    """A fresh access token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


#: The file in the data directory that keeps the access token between starts.
TOKEN_FILE = "access-token"
_TOKEN_TEXT = re.compile(r"^[A-Za-z0-9_-]{16,128}$")


def kept_token(directory: Path, rotate: bool = False) -> str:
    """The table's access token, kept in the data directory so that a restart locks no one out.

    The first start (or ``rotate``, or a file that holds no token) makes a new one and keeps it,
    readable by this user only; phones that joined before a rotation scan the new code.
    """
    path = directory / TOKEN_FILE
    if not rotate:
        try:
            text = path.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            text = ""
        if _TOKEN_TEXT.match(text):
            return text
    token = new_token()
    directory.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, token + "\n")
    with contextlib.suppress(OSError):  # a file system without modes (FAT) keeps it anyway
        path.chmod(0o600)
    return token


def lan_addresses() -> list[str]:
    """The addresses of this machine that other devices on the network can reach (IPv4)."""
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # No packet is sent: connecting a UDP socket only picks the outgoing interface.
        probe.connect(("192.0.2.1", 9))
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if address not in found and not ipaddress.ip_address(address).is_loopback:
                found.append(address)
    except OSError:
        pass
    return found


def join_urls(host: str, port: int, token: str | None) -> list[str]:
    """The URLs to open the page at: the host itself, or each LAN address for 0.0.0.0 / ::."""
    everywhere = host in ("0.0.0.0", "::", "")
    hosts = (lan_addresses() or ["127.0.0.1"]) if everywhere else [host]
    suffix = f"/?token={quote(token)}" if token else "/"
    urls = []
    for name in hosts:
        shown = f"[{name}]" if ":" in name and not name.startswith("[") else name
        urls.append(f"http://{shown}:{port}{suffix}")
    return urls


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as an inline SVG element."""
    return str(segno.make(url, error="m").svg_inline(scale=4, border=2))


def qr_terminal(url: str) -> str:
    """The QR code of ``url`` drawn with block characters, for the terminal."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=4)
    return out.getvalue()
