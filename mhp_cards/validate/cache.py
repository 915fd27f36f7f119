"""The validated catalog, cached as JSON in the user's cache directory.

Validating a catalog reads five YAML files, checks them against their schemas and runs every
check; a command that only needs the catalog pays all of that at each start. A valid catalog is
therefore kept as one JSON document — the catalog, its warnings and what each check concluded —
under a key made of the bytes of every input file, the package's version and the state of its
source files, so that a changed catalog file (or a changed toolkit) misses the cache. An entry
is read back through the models' compiled validator (``CacheEntry.model_validate_json``), so
a damaged or foreign entry is never trusted: it is ignored, and rewritten after a validation.

Where: ``$MHP_CACHE_DIR`` when set, else ``$XDG_CACHE_HOME/mhp-cards``, else
``~/.cache/mhp-cards``. ``MHP_NO_CACHE=1`` turns the cache off. The cache is best effort: a
directory that cannot be written costs the speed, never the result.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from pydantic import BaseModel, ConfigDict, ValidationError

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import InputFileError, OutputFileError
from mhp_cards.fileio import read_bytes_limited, write_text_atomic
from mhp_cards.issues import Issue

__all__ = [
    "CACHE_FORMAT",
    "CacheEntry",
    "cache_directory",
    "cache_key",
    "read_entry",
    "write_entry",
]

#: The layout of an entry; a new layout is a new key, so old entries are simply not found.
CACHE_FORMAT: Final = 1
#: Entries kept; the oldest beyond this are removed when one is written.
KEPT_ENTRIES: Final = 16
_PACKAGE: Final = Path(__file__).resolve().parents[1]


class CacheEntry(BaseModel):
    """What a validation of a valid catalog concluded, as stored in the cache."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    catalog: Catalog
    issues: tuple[Issue, ...]
    checks: dict[str, str]
    descriptions: dict[str, str]


def cache_directory() -> Path | None:
    """Where catalog entries are kept, or None when the cache is turned off."""
    if os.environ.get("MHP_NO_CACHE", "") not in ("", "0"):
        return None
    chosen = os.environ.get("MHP_CACHE_DIR")
    if chosen:
        return Path(chosen) / "catalog"
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "mhp-cards" / "catalog"
    try:
        home = Path.home()
    except (KeyError, RuntimeError):  # no home directory to cache in: no cache
        return None
    return home / ".cache" / "mhp-cards" / "catalog"


def cache_key(root: Path, file_names: Iterable[str], version: str) -> str | None:
    """The key of the catalog in ``root``: a hash of its files' bytes and of the toolkit.

    None when a file cannot be read (such a catalog is invalid, and never cached).
    """
    digest = hashlib.sha256(f"mhp-cards {version} cache {CACHE_FORMAT}\n".encode())
    digest.update(_source_state().encode())
    for name in file_names:
        try:
            # Bounded like every read of an input: a FIFO, /dev/zero or a huge file is left
            # to the validator, which refuses it with its located issue.
            data = read_bytes_limited(root / name, name)
        except InputFileError:
            return None
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def read_entry(key: str) -> CacheEntry | None:
    """The entry stored under ``key``, or None when there is none or it does not validate."""
    directory = cache_directory()
    if directory is None:
        return None
    try:
        text = (directory / f"{key}.json").read_bytes()
    except OSError:
        return None
    try:
        entry = CacheEntry.model_validate_json(text)
    except ValidationError:
        return None  # damaged, truncated or from another layout: validate again and rewrite it
    return entry if entry.key == key else None


def write_entry(entry: CacheEntry) -> None:
    """Store ``entry`` atomically and drop the oldest entries beyond :data:`KEPT_ENTRIES`."""
    directory = cache_directory()
    if directory is None:
        return
    # A cache that cannot be written costs only the speed, never the answer.
    with contextlib.suppress(OSError, OutputFileError):
        write_text_atomic(directory / f"{entry.key}.json", entry.model_dump_json())
        _prune(directory)


def _prune(directory: Path) -> None:
    entries = sorted(directory.glob("*.json"), key=lambda path: path.stat().st_mtime_ns)
    for stale in entries[:-KEPT_ENTRIES]:
        with contextlib.suppress(OSError):
            stale.unlink()


def _source_state() -> str:
    """The toolkit's own files by size and modification time, so an edited checkout misses."""
    rows = []
    for path in sorted(_PACKAGE.rglob("*")):
        relative = path.relative_to(_PACKAGE)
        if path.suffix in (".py", ".yaml") and relative.parts[0] != "_data":
            stat = path.stat()
            rows.append(f"{relative}\0{stat.st_size}\0{stat.st_mtime_ns}")
    return "\n".join(rows)
