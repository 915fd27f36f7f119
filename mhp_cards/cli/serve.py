"""``mhp serve``: the table companion, a local web server for the players' phones."""

from pathlib import Path
from typing import Annotated

import typer

from mhp_cards.cli.app import app, fail, reports_errors


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
            help="Directory for the saved games (default: the per-user data directory, "
            "or $MHP_DATA_DIR).",
            file_okay=False,
        ),
    ] = None,
) -> None:
    """Serve the table page and its JSON API; games are saved in --data and survive a restart.

    Example: mhp serve --host 0.0.0.0   (prints the join URL and its QR code)
    """
    import uvicorn

    from mhp_cards.serve import Settings, create_app, default_data_dir
    from mhp_cards.serve.app import loopback_hosts
    from mhp_cards.serve.join import is_loopback, join_urls, new_token, qr_terminal

    directory = data if data is not None else default_data_dir()
    loopback = is_loopback(host)
    token = None if loopback else new_token()
    urls = join_urls(host, port, token)
    try:
        application = create_app(
            Settings(
                data=directory,
                token=token,
                join_urls=tuple(urls),
                hosts=loopback_hosts() if loopback else None,
            )
        )
    except OSError as error:
        fail(f"{directory}: cannot keep games there: {error.strerror or error}")
    typer.echo(f"mhp serve: games in {directory}")
    for url in urls:
        typer.echo(f"  open {url}")
    if not loopback:
        typer.echo("Other phones join by scanning this code (the URL carries the access token):")
        typer.echo(qr_terminal(urls[0]))
    typer.echo("Press Ctrl+C to stop.")
    config = uvicorn.Config(
        application,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=2,
        server_header=False,
    )
    server = uvicorn.Server(config)
    try:
        server.run()
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    if not server.started:
        fail(f"cannot listen on {host}:{port} (is another server using the port?)")
