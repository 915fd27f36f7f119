"""``mhp serve``: the table companion, a local web server for the players' phones."""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mhp_cards.cli.app import app, fail, reports_errors

if TYPE_CHECKING:
    import socket


@app.command("serve")
@reports_errors
def serve(
    host: Annotated[
        str,
        typer.Option(
            "--host",
            help="Address to listen on; 0.0.0.0 lets other phones on the network join "
            "(with a token).",
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")] = 8765,
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            help="Directory to write the saved games to (default: $MHP_DATA_DIR, else the "
            "per-user data directory).",
            file_okay=False,
        ),
    ] = None,
    preview: Annotated[
        Path | None,
        typer.Option(
            "--preview",
            help="The catalog directory or deck pack the /preview page follows as you edit it "
            "(default: the game shipped with mhp).",
            file_okay=False,
        ),
    ] = None,
    rotate_token: Annotated[
        bool,
        typer.Option(
            "--new-token",
            help="Make a new access token (phones that joined before scan the new code); "
            "otherwise the token kept in --data is used again.",
        ),
    ] = False,
) -> None:
    """Serve the table page and its JSON API; games are saved in --data and survive a restart.

    Example: mhp serve --host 0.0.0.0   (prints the join URL and its QR code)
    """
    import uvicorn

    from mhp_cards.serve import Settings, create_app, default_data_dir
    from mhp_cards.serve.app import loopback_hosts
    from mhp_cards.serve.join import (
        host_problem,
        is_loopback,
        join_urls,
        kept_token,
        qr_terminal,
    )
    from mhp_cards.serve.protocol import JsonH11Protocol

    problem = host_problem(host)
    if problem is not None:
        fail(problem, 2)
    directory = data if data is not None else default_data_dir()
    loopback = is_loopback(host)
    try:
        # Kept in --data: a restart leaves every phone that joined at the table.
        token = None if loopback else kept_token(directory, rotate=rotate_token)
    except OSError as error:
        fail(f"{directory}: cannot keep the access token there: {error.strerror or error}")
    urls = join_urls(host, port, token)
    try:
        application = create_app(
            Settings(
                data=directory,
                token=token,
                join_urls=tuple(urls),
                hosts=loopback_hosts() if loopback else None,
                preview=preview,
            )
        )
    except OSError as error:
        fail(f"{directory}: cannot keep games there: {error.strerror or error}")
    try:
        listening = _listen(host, port)
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    typer.echo(f"mhp serve: games in {directory}")
    for url in urls:
        typer.echo(f"  open {url}")
    if not loopback:
        typer.echo("Other phones join by scanning this code (the URL carries the access token):")
        typer.echo(qr_terminal(urls[0]))
    typer.echo("Press Ctrl+C to stop.")
    config = uvicorn.Config(
        application,
        http=JsonH11Protocol,
        log_level="warning",
        timeout_graceful_shutdown=2,
        server_header=False,
    )
    try:
        uvicorn.Server(config).run(sockets=[listening])
    finally:
        listening.close()


def _listen(host: str, port: int) -> "socket.socket":
    """A socket bound to host:port, so that a port in use is one clear message."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets whose protocol says TCP, and
    # without it a kept-alive request waits ~40 ms (Nagle's algorithm meets a delayed ACK).
    listening = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        if sys.platform != "win32":  # elsewhere: restart at once after a stop
            listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host.strip("[]"), port))
    except BaseException:
        listening.close()
        raise
    listening.set_inheritable(True)
    return listening
