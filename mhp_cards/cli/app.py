"""The typer application, the entry point and the error boundary of the command line.

The boundary: an :class:`MhpError` escaping any command is printed as a message and exits 1,
without a traceback; so are the ``OSError`` and ``ValueError`` a library call may still raise
for an input it could not handle (a last resort: the library raises ``MhpError`` values for
every user error it knows of). Usage errors exit 2.
"""

import errno
import functools
import io
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer
from typer.core import TyperGroup

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


class _ErrorBoundary(TyperGroup):
    """The ``mhp`` group: every command runs inside it, so errors stop here as messages."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except MhpError as error:
            fail(str(error))
        except OSError as error:
            if error.errno == errno.EPIPE:
                raise  # a closed pipe (mhp … | head): typer leaves quietly
            fail(_os_message(error))
        except (ValueError, RecursionError, MemoryError) as error:
            fail(f"cannot handle this input: {error or type(error).__name__}")


def _os_message(error: OSError) -> str:
    where = f"{error.filename}: " if error.filename is not None else ""
    return f"{where}{error.strerror or error}"


app = typer.Typer(
    name="mhp",
    cls=_ErrorBoundary,
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
    """The command-line values, with ``-`` replaced by the non-blank lines of stdin.

    Standard input is read like a file: at most :data:`~mhp_cards.fileio.MAX_FILE_BYTES`
    characters (``< /dev/zero`` is refused, not read forever), UTF-8 text only.
    """
    inputs: list[str] = []
    for value in values:
        if value == "-":
            from mhp_cards.fileio import MAX_FILE_BYTES  # the limits, only when stdin is read

            try:
                text = sys.stdin.read(MAX_FILE_BYTES + 1)
            except UnicodeDecodeError as error:
                fail(f"standard input is not UTF-8 text: {error.reason} at byte {error.start}")
            if len(text) > MAX_FILE_BYTES:
                fail(
                    f"standard input is larger than the limit of {MAX_FILE_BYTES} characters "
                    f"(limit MAX_FILE_BYTES = {MAX_FILE_BYTES})"
                )
            inputs.extend(line.rstrip("\r\n") for line in io.StringIO(text) if line.strip())
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
    """Run the ``mhp`` command line (exit 0, 1 for invalid input, 2 for usage; no traceback)."""
    try:
        app(args=list(argv) if argv is not None else None, prog_name="mhp")
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except MhpError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(1)
    except OSError as error:
        if error.errno == errno.EPIPE:
            sys.exit(1)
        print(f"error: {_os_message(error)}", file=sys.stderr)
        sys.exit(1)
    except (ValueError, RecursionError, MemoryError) as error:
        print(f"error: cannot handle this input: {error}", file=sys.stderr)
        sys.exit(1)
