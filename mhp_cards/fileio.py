"""Atomic output: a file is either written whole or left as it was.

Every output of the toolkit goes through here: write to a temporary file in the same
directory, flush it to disk, then rename it over the target (atomic on POSIX and Windows).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

__all__ = ["atomic_output", "write_bytes_atomic", "write_text_atomic"]


@contextlib.contextmanager
def atomic_output(path: Path) -> Iterator[IO[bytes]]:
    """Open a temporary file beside ``path``; on success it replaces ``path``.

    If the block raises (or the process is interrupted), ``path`` is untouched and the
    temporary file is removed.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(temporary, 0o666 & ~_umask())
        with os.fdopen(handle, "wb") as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_output(path) as stream:
        stream.write(data)


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8, newlines as given) to ``path`` atomically."""
    write_bytes_atomic(path, text.encode("utf-8"))
