"""Files in and out: bounded reads of untrusted input, atomic replacement of outputs.

Every file the toolkit reads (catalog, layouts, game states) goes through
:func:`read_text_limited`: it refuses what is not a regular file and stops reading past
:data:`MAX_FILE_BYTES`, so a path to ``/dev/zero``, a FIFO or a 50 MB download answers at
once with one located issue. The other limits on what a file may contain are named here
too, so that the documentation and the readers quote one value.

Every output goes through :func:`atomic_output` (or :func:`write_files_atomic` for a set of
files that belong together): write to a temporary file in the same directory, flush it to
disk, rename it over the target (atomic on POSIX and Windows), then flush the directory so the
rename itself survives a crash.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import uuid
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Final

from mhp_cards.errors import InputFileError, OutputFileError
from mhp_cards.issues import Issue

__all__ = [
    "MAX_ALIASES",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_ITEMS",
    "MAX_NODES",
    "atomic_output",
    "json_limit_issue",
    "read_bytes_limited",
    "read_text_limited",
    "write_bytes_atomic",
    "write_files_atomic",
    "write_text_atomic",
]

#: The largest file read: 2 MiB, over a hundred times the largest file of the game (16 kB).
MAX_FILE_BYTES: Final = 2 * 1024 * 1024
#: The deepest nesting of mappings and lists in a file (the game's files nest 8 deep).
MAX_DEPTH: Final = 32
#: The most values (scalars, mappings, lists) in a file, counting every alias as the nodes
#: it stands for: bounds "billion laughs" alias bombs (the game's largest file has 900).
MAX_NODES: Final = 20_000
#: The most entries of one list or mapping (the game's longest list has 60).
MAX_ITEMS: Final = 2_000
#: The most aliases (``*name``) in a file (the game's files have none).
MAX_ALIASES: Final = 100

_CHUNK: Final = 64 * 1024


def _refuse(
    message: str,
    file: str,
    hint: str,
    line: int | None = None,
    column: int | None = None,
    check: str = "files",
) -> InputFileError:
    return InputFileError(Issue(check, message, file=file, line=line, column=column, hint=hint))


def read_bytes_limited(
    path: Path, file: str | None = None, limit: int = MAX_FILE_BYTES, what: str = "file"
) -> bytes:
    """The bytes of the regular file ``path``, read in bounded chunks, at most ``limit`` of them.

    Raises :class:`InputFileError` (its issue names the file as ``file``, default ``path``) when
    the file is missing, unreadable, not a regular file, or larger than ``limit``; ``what`` names
    the kind of file in the message ("no state file …"). Never blocks on a FIFO and never reads
    more than ``limit + 1`` bytes.
    """
    name = file if file is not None else str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        raise _refuse(f"no {what} {path}", name, "check the path") from None
    except IsADirectoryError:
        raise _refuse(f"{path} is a directory, not a file", name, "give the file") from None
    except PermissionError:
        raise _refuse(
            f"{path}: permission denied", name, "make the file readable, or give another one"
        ) from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise _refuse(f"{path}: cannot open it: {reason}", name, "check the path") from None
    try:
        info = os.fstat(descriptor)
        if stat.S_ISDIR(info.st_mode):
            raise _refuse(f"{path} is a directory, not a file", name, "give the file")
        if not stat.S_ISREG(info.st_mode):
            raise _refuse(
                f"{path} is not a regular file (a device, a pipe or a socket)",
                name,
                "give a file saved on disk",
            )
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(descriptor, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as error:
        raise _refuse(f"{path}: cannot read it: {error.strerror}", name, "check the file") from None
    finally:
        os.close(descriptor)
    data = b"".join(chunks)
    if len(data) > limit or info.st_size > limit:
        line, column = _position(data[:limit])
        size = f"{info.st_size} bytes" if info.st_size > limit else "it grew while read"
        named = f"limit MAX_FILE_BYTES = {limit}" if limit == MAX_FILE_BYTES else "limit"
        raise _refuse(
            f"the file is larger than the limit of {limit} bytes ({size}; {named}); reading "
            "stopped here",
            name,
            "the game's files are a few kB: check that this is the right file",
            line,
            column,
            check="limits",
        )
    return data


def read_text_limited(
    path: Path, file: str | None = None, limit: int = MAX_FILE_BYTES, what: str = "file"
) -> str:
    """The UTF-8 text of ``path``, read as :func:`read_bytes_limited` reads it.

    Text that is not UTF-8 is refused with the line and column of the first bad byte.
    """
    data = read_bytes_limited(path, file, limit, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = _position(data[: error.start])
        raise _refuse(
            f"not UTF-8 text: {error.reason} at byte {error.start}",
            file if file is not None else str(path),
            "save the file as UTF-8",
            line,
            column,
        ) from None


def _position(before: bytes) -> tuple[int, int]:
    """1-based line and column (in characters) just after ``before``."""
    start = before.rfind(b"\n") + 1
    column = len(before[start:].decode("utf-8", errors="replace")) + 1
    return before.count(b"\n") + 1, column


_JSON_TOKEN: Final = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{},]', re.DOTALL)


def json_limit_issue(text: str, file: str) -> Issue | None:
    """The first limit a JSON text goes past (nesting, entries of one array or object), or None.

    A scan of the brackets, outside strings, with no recursion and no parsing: it runs before
    the parser so that a 20,000-deep document is refused at the bracket that goes too deep.
    """
    items: list[int] = []
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            if len(items) >= MAX_DEPTH:
                return _json_issue(
                    text,
                    match.start(),
                    file,
                    f"nested deeper than {MAX_DEPTH} levels (limit MAX_DEPTH = {MAX_DEPTH})",
                    "flatten the data",
                )
            items.append(1)
        elif token in ("]", "}"):
            if items:
                items.pop()
        elif token == "," and items:
            items[-1] += 1
            if items[-1] > MAX_ITEMS:
                return _json_issue(
                    text,
                    match.start(),
                    file,
                    f"more than {MAX_ITEMS} entries in one array "
                    f"or object (limit MAX_ITEMS = {MAX_ITEMS})",
                    "a game has far fewer",
                )
    return None


def _json_issue(text: str, index: int, file: str, message: str, hint: str) -> Issue:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return Issue("limits", message, file=file, line=line, column=column, hint=hint)


@contextlib.contextmanager
def atomic_output(path: Path) -> Iterator[IO[bytes]]:
    """Open a temporary file beside ``path``; on success it replaces ``path``.

    If the block raises (or the process is interrupted), ``path`` is untouched and the
    temporary file is removed. After the rename the directory is flushed to disk too. A file
    that cannot be written raises :class:`OutputFileError`.
    """
    temporary, stream = _temporary_beside(path)
    try:
        with stream:
            yield stream
            _flush(stream, path)
        _replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    _fsync_directory(path.parent)


def _temporary_beside(path: Path) -> tuple[str, IO[bytes]]:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
        )
    except OSError as error:
        raise OutputFileError(str(path), error.strerror or str(error)) from None
    try:
        os.chmod(temporary, 0o666 & ~_umask())
        return temporary, os.fdopen(handle, "wb")
    except BaseException:
        os.close(handle)
        os.unlink(temporary)
        raise


def _flush(stream: IO[bytes], path: Path) -> None:
    try:
        stream.flush()
        os.fsync(stream.fileno())
    except OSError as error:
        raise OutputFileError(str(path), error.strerror or str(error)) from None


def _replace(temporary: str, path: Path) -> None:
    try:
        os.replace(temporary, path)
    except OSError as error:
        raise OutputFileError(str(path), error.strerror or str(error)) from None


def _fsync_directory(directory: Path) -> None:
    """Flush a directory's entries (the rename) to disk; not possible on every system."""
    try:
        descriptor = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return  # Windows cannot open a directory; its renames are journalled by NTFS
    try:
        with contextlib.suppress(OSError):
            os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_output(path) as stream:
        try:
            stream.write(data)
        except OSError as error:
            raise OutputFileError(str(path), error.strerror or str(error)) from None


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8, newlines as given) to ``path`` atomically."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_files_atomic(files: Mapping[Path, bytes]) -> None:
    """Replace a set of files all together, or leave every one of them as it was.

    Every file is first written whole to a temporary file beside it and flushed; only when all
    are on disk are they renamed over their targets, one after the other, and the directories
    flushed. A failure before the renames removes every temporary file and changes nothing; a
    failure between two renames puts back the files already replaced (their previous versions
    are kept as hard links until the set is complete).
    """
    written: list[tuple[str, Path]] = []
    previous: dict[Path, str] = {}
    absent: set[Path] = set()
    replaced: list[Path] = []
    try:
        for path, data in files.items():
            temporary, stream = _temporary_beside(path)
            written.append((temporary, path))
            with stream:
                try:
                    stream.write(data)
                except OSError as error:
                    raise OutputFileError(str(path), error.strerror or str(error)) from None
                _flush(stream, path)
        for _, path in written:
            if path.is_dir():  # the one rename that would fail: refuse before replacing any
                raise OutputFileError(str(path), "a directory is in the way")
            if not path.exists():
                absent.add(path)
                continue
            keep = str(path.parent / f".{path.name}.{uuid.uuid4().hex}.previous.tmp")
            with contextlib.suppress(OSError):  # no hard links here: that file has no undo
                os.link(path, keep)
                previous[path] = keep
        for temporary, path in written:
            _replace(temporary, path)
            replaced.append(path)
    except BaseException:
        for path in reversed(replaced):
            with contextlib.suppress(OSError):
                if path in previous:
                    os.replace(previous.pop(path), path)
                elif path in absent:
                    os.unlink(path)
        for temporary, _ in written:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
        _remove(previous.values())
        raise
    _remove(previous.values())
    for directory in dict.fromkeys(path.parent for path in files):
        _fsync_directory(directory)


def _remove(paths: Iterable[str]) -> None:
    for path in list(paths):
        with contextlib.suppress(OSError):
            os.unlink(path)
