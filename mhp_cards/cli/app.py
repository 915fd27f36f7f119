"""The typer application, the entry point and the error boundary of the command line."""

import functools
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer

from mhp_cards.errors import MhpError

if TYPE_CHECKING:  # the models cost a start-up that most commands do not need
    from mhp_cards.catalog.models import Catalog, Installation

P = ParamSpec("P")
R = TypeVar("R")

#: Options several commands share.
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON.")]
CatalogDir = Annotated[
    Path | None,
    typer.Option("--catalog", help="Catalog directory (default: the game shipped with mhp)."),
]

app = typer.Typer(
    name="mhp",
    help="Toolkit of the chemistry board game МХП (МАРСХИМПРОМ): formulas, reactions, catalog, "
    "reactor assembly, print-and-play kit.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn an :class:`MhpError` escaping a command into a message on stderr and exit 1."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except MhpError as error:
            fail(str(error))

    return wrapper


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` on stderr and leave with ``code``."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def echo_json(document: Any) -> None:
    """Print one JSON document on one line (JSON Lines when called repeatedly)."""
    typer.echo(json.dumps(document, ensure_ascii=False, sort_keys=False))


def read_inputs(values: Sequence[str]) -> list[str]:
    """The command-line values, with ``-`` replaced by the non-blank lines of stdin."""
    inputs: list[str] = []
    for value in values:
        if value == "-":
            inputs.extend(line.rstrip("\r\n") for line in sys.stdin if line.strip())
        else:
            inputs.append(value)
    return inputs


def installation_or_fail(catalog: "Catalog", number: int) -> "Installation":
    """The catalog's installation ``number``, or a clean error listing the known ones."""
    try:
        return catalog.installation(number)
    except KeyError:
        known = ", ".join(str(i.number) for i in catalog.installations)
        fail(f"no installation {number}; the catalog has {known}")


def main(argv: Sequence[str] | None = None) -> None:
    """Run the ``mhp`` command line."""
    app(args=list(argv) if argv is not None else None, prog_name="mhp")
