"""Playing a run's games on a Dask distributed cluster (the optional ``[cluster]`` extra).

Games go out in batches (a task per batch keeps the scheduler's overhead small next to a game
of a few milliseconds); the catalog is sent to every worker once. Each game is dealt from its
own seed, so the aggregate equals that of one process whatever the cluster's size or the order
in which batches come back.
"""

from __future__ import annotations

import importlib
import logging
import re
from collections.abc import Callable, Sequence
from typing import Any

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import SimulationError
from mhp_cards.sim.result import GameResult

__all__ = ["INSTALL_HINT", "MAX_LOCAL_WORKERS", "local_workers", "play_on_dask"]

#: How to get Dask distributed, for the message when it is missing.
INSTALL_HINT = "pip install 'mhp-cards[cluster]'"
#: The most worker processes ``local:N`` starts.
MAX_LOCAL_WORKERS = 64
#: Seconds to wait for a remote scheduler before giving up.
CONNECT_TIMEOUT = 10
_LOCAL = re.compile(r"^local:(\d+)$")


def local_workers(address: str) -> int | None:
    """N for ``local:N``; None for a scheduler address. Raises SimulationError for a bad N."""
    if not address.startswith("local"):
        return None
    match = _LOCAL.match(address)
    if match is None or not 1 <= int(match[1]) <= MAX_LOCAL_WORKERS:
        raise SimulationError(
            f"--dask {address}: a local cluster is local:N with N from 1 to "
            f"{MAX_LOCAL_WORKERS} worker processes, such as local:2"
        )
    return int(match[1])


#: A task of the cluster: play these games of the run (``mhp_cards.sim.runner.play_batch``).
Task = Callable[[Catalog, dict[str, object], Sequence[int]], list[GameResult]]


def play_on_dask(
    address: str,
    task: Task,
    catalog: Catalog,
    settings: dict[str, object],
    games: int,
    progress: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play games 0 … ``games`` - 1 by ``task`` on the cluster at ``address`` (or ``local:N``)."""
    local = local_workers(address)
    try:
        # distributed has no type hints: its calls are typed Any here.
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise SimulationError(
            f"--dask needs Dask distributed, which is not installed: {INSTALL_HINT}"
        ) from None
    cluster: Any = None
    try:
        if local is not None:
            cluster = distributed.LocalCluster(
                n_workers=local,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as error:
        if cluster is not None:
            cluster.close()
        raise SimulationError(f"--dask {address}: cannot reach the scheduler: {error}") from None
    try:
        cores = sum(client.nthreads().values()) or 1
        size = max(1, min(16, games // (cores * 4)))
        # A copy leaves behind the facts cached on this catalog (mhp_cards.catalog.models
        # Catalog.memo): the workers derive their own, and some cached values do not unpickle.
        shared = client.scatter(catalog.model_copy(), broadcast=True)
        futures = [
            client.submit(
                task, shared, settings, range(start, min(games, start + size)), pure=False
            )
            for start in range(0, games, size)
        ]
        results: list[GameResult] = []
        for future in distributed.as_completed(futures):
            results.extend(future.result())
            if progress is not None:
                progress(len(results))
        return results
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
