"""The typer application, the entry point and the error boundary of the command line.

The boundary: an :class:`MhpError` escaping any command is printed as a message and exits 1,
without a traceback; so are the ``OSError`` and ``ValueError`` a library call may still raise
for an input it could not handle (the library raises ``MhpError`` values for every user error
it knows of). Usage errors exit 2. Anything else (a ``KeyError``, a ``TypeError``) is a bug of
the toolkit: the last resort prints one line saying where it happened and the command to
report, and exits 70 (``EX_SOFTWARE`` of sysexits.h), still without a traceback.
"""

import errno
import functools
import io
import json
import os
import shlex
import sys
import traceback
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


#: The exit code of a bug (an exception no user input should cause): ``EX_SOFTWARE``.
EXIT_BUG = 70

#: What the command-line library raises to leave (usage errors, exits): never a bug. Typer
#: names ``Exit`` and ``Abort``; the usage errors share the base class of ``BadParameter``.
_LEAVING: tuple[type[BaseException], ...] = (
    typer.Exit,
    typer.Abort,
    next(kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "ClickException"),
)

#: The meta key of the click context that keeps the command line for a bug report.
_ARGV_KEY = "mhp.argv"


def bug_report(error: BaseException, argv: Sequence[str]) -> str:
    """One line for an unexpected exception: what, where in the toolkit, and what to report.

    The place is the innermost frame of the traceback inside the ``mhp_cards`` package (else
    the innermost frame), as ``path:line in function``; the command is quoted for a shell.

    >>> try:
    ...     {}["chemist"]
    ... except KeyError as error:
    ...     report = bug_report(error, ["build", "--layout", "my sheet.yaml"])
    >>> for part in report.split("; "):  # doctest: +ELLIPSIS
    ...     print(part)
    internal error KeyError: 'chemist' at ...
    this is a bug: please report it with this command: mhp build --layout 'my sheet.yaml'
    """
    frames = traceback.extract_tb(error.__traceback__)
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ours = [frame for frame in frames if os.path.abspath(frame.filename).startswith(package)]
    where = ""
    if ours or frames:
        frame = (ours or frames)[-1]
        filename = frame.filename
        if ours:
            root = os.path.dirname(package)
            filename = os.path.relpath(os.path.abspath(filename), root)
        where = f" at {filename}:{frame.lineno} in {frame.name}"
    detail = str(error).replace("\n", " ").strip()
    what = f"{type(error).__name__}: {detail}" if detail else type(error).__name__
    command = shlex.join(["mhp", *argv])
    return (
        f"internal error {what}{where}; this is a bug: please report it with this command: "
        f"{command}"
    )


class _ErrorBoundary(TyperGroup):
    """The ``mhp`` group: every command runs inside it, so errors stop here as messages."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any
    ) -> Any:
        argv = list(args)  # parsing consumes the list: keep the command line for a bug report
        ctx = super().make_context(info_name, args, parent, **extra)
        ctx.meta[_ARGV_KEY] = argv
        return ctx

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except _LEAVING:
            raise  # usage errors and exits: click prints and leaves with their codes
        except MhpError as error:
            fail(str(error))
        except OSError as error:
            if error.errno == errno.EPIPE:
                raise  # a closed pipe (mhp … | head): typer leaves quietly
            fail(_os_message(error))
        except (ValueError, RecursionError, MemoryError) as error:
            fail(f"cannot handle this input: {error or type(error).__name__}")
        except Exception as error:  # the last resort: a bug, reported in one line
            fail(bug_report(error, ctx.meta.get(_ARGV_KEY, ())), EXIT_BUG)


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


#: The languages of the game's texts (``mhp_cards.rules.numbers.LANGS``; a test keeps them equal).
LANGS = ("ru", "en")


def check_lang(lang: str) -> None:
    """A usage error (exit 2) naming the valid languages unless ``lang`` is one of them."""
    if lang not in LANGS:
        fail(f"--lang must be {' or '.join(LANGS)}, not {lang!r}", 2)


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
    """Run the ``mhp`` command line: exit 0, 1 for invalid input, 2 for usage, 70 for a bug.

    Never a traceback.
    """
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
    except Exception as error:  # the last resort: a bug, reported in one line
        command = list(argv) if argv is not None else sys.argv[1:]
        print(f"error: {bug_report(error, command)}", file=sys.stderr)
        sys.exit(EXIT_BUG)
