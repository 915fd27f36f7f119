"""What every benchmark script times with: samples of a piece of work, best and median.

The scripts print figures beside a reference measured in the same run; they share how a piece
of work is timed (``time.perf_counter``, wall clock), how the samples are summed up (the best:
the cost itself, least disturbed by the machine; the median: the typical run) and the line
that says on what the figures were measured. Run the scripts from anywhere
(``python benchmarks/engine_bench.py``): this module sits beside them.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["best_median", "machine", "once", "samples", "times"]

T = TypeVar("T")


def once(work: Callable[[], object]) -> float:
    """Seconds one call of ``work`` takes."""
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def samples(
    work: Callable[[], T], repeats: int, before: Callable[[], None] | None = None
) -> tuple[list[float], T]:
    """Seconds per call of ``work`` over ``repeats`` calls, and the last call's result.

    ``before`` runs untimed ahead of each call (clearing a cache, making a new game).
    """
    if repeats < 1:
        raise ValueError("repeats must be at least 1")
    times: list[float] = []
    result: T | None = None
    for _ in range(repeats):
        if before is not None:
            before()
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    return times, result  # type: ignore[return-value]


def times(work: Callable[[], object], repeats: int) -> list[float]:
    """Seconds per call of ``work`` over ``repeats`` calls."""
    return samples(work, repeats)[0]


def best_median(times: Sequence[float]) -> tuple[float, float]:
    """The best and the median of some samples."""
    return min(times), statistics.median(times)


def machine() -> str:
    """On what the figures were measured: Python, processor, system and cores."""
    return (
        f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}, "
        f"{os.cpu_count()} cores"
    )
