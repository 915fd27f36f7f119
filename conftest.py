"""Every test run, doctests and README examples included, caches into a directory of its own.

The catalog cache (mhp_cards.validate.cache) writes into the user's cache directory; a test
run must leave the real one alone, and must not read entries an older checkout left there.
The same holds for the games ``mhp serve`` saves (``MHP_DATA_DIR``).
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_CREATED: list[str] = []

# The documentation's build hooks are not tests: they import MkDocs' own libraries, which the
# test install does not have (tests/docs/ tests the CLI reference hook by loading its file).
collect_ignore = ["docs/hooks"]


def pytest_configure(config: pytest.Config) -> None:
    """Point the cache and the data directory at new temporary ones (one per xdist worker)."""
    directory = tempfile.mkdtemp(prefix="mhp-cache-")
    _CREATED.append(directory)
    os.environ["MHP_CACHE_DIR"] = directory
    os.environ.pop("MHP_NO_CACHE", None)
    # Saved games of mhp serve likewise: a test never writes to the user's data directory.
    data = tempfile.mkdtemp(prefix="mhp-data-")
    _CREATED.append(data)
    os.environ["MHP_DATA_DIR"] = data


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the temporary cache directory."""
    while _CREATED:
        shutil.rmtree(_CREATED.pop(), ignore_errors=True)
