"""The simulator benchmark runs and prints its table; it fails on a pooled/single mismatch only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "sim_bench.py"


def test_the_benchmark_prints_a_row_per_level_and_policy() -> None:
    args = ["--games", "2", "--repeats", "1", "--max-steps", "40", "--levels", "1,1v1"]
    args += ["--search-games", "1", "--search-steps", "12"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    body = [row for row in rows if row and row[0] in ("1", "1v1")]
    assert [(row[0], row[1]) for row in body] == [
        ("1", "greedy"),
        ("1", "random"),
        ("1", "search"),
        ("1v1", "greedy"),
        ("1v1", "random"),
        ("1v1", "search"),
    ]
    assert all(float(row[2]) > 0 and float(row[5]) > 0 for row in body)


def test_the_benchmark_times_a_whole_balance_run_when_asked() -> None:
    args = ["--games", "1", "--repeats", "1", "--max-steps", "20", "--levels", "1v1"]
    args += ["--policies", "random", "--workers", "1", "--balance", "1"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    line = done.stdout.splitlines()[-1]
    # 13 tables, 13 under each robustness policy, two games of each of 4 skill duels.
    assert line.startswith("balance --games 1: "), line
    assert " on 1 workers, 47 games " in line
    assert line.endswith(" of 355 figures fail")  # no armour figure at level 1 (L1.T6.R2)


def test_the_search_benchmark_prints_a_row_per_level() -> None:
    script = SCRIPT.with_name("search_bench.py")
    args = ["--games", "2", "--levels", "1v1,2", "--workers", "1", "--max-steps", "30"]
    done = subprocess.run(
        [sys.executable, str(script), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    body = [row for row in rows if row and row[0] in ("1v1", "2")]
    assert [(row[0], row[1]) for row in body] == [("1v1", "2"), ("2", "2")]
    for row in body:
        low, high = (float(x) for x in row[3].split("–"))
        assert low <= float(row[2]) <= high
    # The processor time per game, printed with one worker (a level-2 game takes a while).
    assert float(body[1][-1]) > 0
