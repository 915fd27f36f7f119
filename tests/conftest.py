"""Shared fixtures."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from mhp_cards.cli import app


class Cli:
    """Runs the ``mhp`` command line in-process and returns the result."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None):
        return self.runner.invoke(app, list(args), input=input, catch_exceptions=False)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite golden files from the current output instead of comparing with them",
    )


@pytest.fixture
def cli() -> Cli:
    return Cli()
