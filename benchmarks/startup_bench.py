"""Start-up: each ``mhp`` command as a whole new process, beside ``python -c "import typer"``.

Run ``python benchmarks/startup_bench.py`` (about 15 s on 2 cores) or ``--quick`` (about 4 s,
for the CI smoke test). Nothing here asserts on timings: the script prints figures for people
to read, each beside a reference measured in the same run.

What is measured
----------------
Each command runs as a new process, as a user's shell starts it: the ``mhp`` script beside
this interpreter when there is one (else ``python -m mhp_cards``), its output read and thrown
away. The wall-clock time of the whole process is taken with ``time.perf_counter`` around
``subprocess.run``: interpreter start-up, imports, the command's work, exit.

* Reference (the floor): ``python -c "import typer"``, the least a typer command line costs
  before it does anything. It runs in turn with the commands (floor, command, floor, …), so a
  drift in the machine's speed touches both alike.
* Each figure is the minimum and the median of the runs after one warm-up run (which also
  fills the catalog cache, so ``validate`` and the other catalog commands are timed as a user
  runs them the second time); the ratio is of the medians.
* Targets (issue 17): ``mhp --help`` and ``mhp formula H2O`` at most 1.5 × the floor. Typer
  (0.29) coerces every command-line value through pydantic, so any command given a value
  imports pydantic, a cost of typer's beyond the floor; ``import typer, pydantic`` is printed
  as a second reference to show it.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

TARGET = 1.5
FLOOR = [sys.executable, "-c", "import typer"]
TYPER_AND_PYDANTIC = [sys.executable, "-c", "import typer, pydantic; pydantic.TypeAdapter(str)"]
COMMANDS: list[tuple[str, list[str], bool]] = [
    ("mhp --help", ["--help"], True),
    ("mhp formula H2O", ["formula", "H2O"], True),
    ("mhp reaction ... --balance", ["reaction", "FeS2 + O2 -> Fe2O3 + SO2", "--balance"], False),
    ("mhp build --help", ["build", "--help"], False),
    ("mhp validate", ["validate"], False),
    ("mhp reactor solve 2", ["reactor", "solve", "2"], False),
    ("mhp setup check --level 2", ["setup", "check", "--level", "2", "--players", "3"], False),
]


def mhp_command() -> list[str]:
    """How a user starts ``mhp`` with this interpreter."""
    script = shutil.which("mhp", path=str(Path(sys.executable).parent))
    return [sys.executable, script] if script else [sys.executable, "-m", "mhp_cards"]


def run_once(command: Sequence[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def paired(command: Sequence[str], runs: int) -> tuple[list[float], list[float]]:
    """The command's times and the floor's, run in turn after one warm-up of each."""
    run_once(command)
    run_once(FLOOR)
    mine: list[float] = []
    floor: list[float] = []
    for _ in range(runs):
        floor.append(run_once(FLOOR))
        mine.append(run_once(command))
    return mine, floor


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs (CI smoke test)")
    args = parser.parse_args(argv)
    runs = 3 if args.quick else 11
    mhp = mhp_command()
    print(f"start-up of each command as a new process, {runs} runs after a warm-up")
    print(f"  {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"  mhp started as: {' '.join(Path(part).name for part in mhp)}")
    print()
    print(f"  {'command':<30} {'min ms':>7} {'med ms':>7}   floor med   ratio  target")
    floors: list[float] = []
    for label, arguments, targeted in COMMANDS:
        mine, floor = paired([*mhp, *arguments], runs)
        floors += floor
        ratio = statistics.median(mine) / statistics.median(floor)
        verdict = ""
        if targeted:
            verdict = f"≤ {TARGET:.1f}×: {'met' if ratio <= TARGET else 'NOT met'}"
        print(
            f"  {label:<30} {ms(min(mine))} {ms(statistics.median(mine))}"
            f"   {ms(statistics.median(floor))}   {ratio:4.2f}×  {verdict}"
        )
    typer_pydantic, floor = paired(TYPER_AND_PYDANTIC, runs)
    floors += floor
    ratio = statistics.median(typer_pydantic) / statistics.median(floor)
    print(
        f"  {'import typer, pydantic':<30} {ms(min(typer_pydantic))}"
        f" {ms(statistics.median(typer_pydantic))}   {ms(statistics.median(floor))}"
        f"   {ratio:4.2f}×  (typer's own coercion of a value)"
    )
    print()
    print(
        f"floor, python -c 'import typer': min {ms(min(floors)).strip()} ms, "
        f"median {ms(statistics.median(floors)).strip()} ms over {len(floors)} runs"
    )


if __name__ == "__main__":
    main()
