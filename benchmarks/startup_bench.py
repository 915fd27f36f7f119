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
  runs them the second time); the ratio is of the medians. Beside the wall clock, the CPU
  time the child used (user + system, from ``resource.getrusage(RUSAGE_CHILDREN)``), which a
  busy machine disturbs less: the ratio of CPU medians is printed too.
* Targets (issue 17): ``mhp --help`` and ``mhp formula H2O`` at most 1.5 × the floor. The
  project pins typer below 0.29, which coerces every command-line value through pydantic (any
  command given a value would import pydantic); ``import typer, pydantic`` is printed as a
  second reference to show what that would cost.
* The package's modules are compiled to bytecode before the runs, as ``pip install`` does:
  under ``PYTHONDONTWRITEBYTECODE`` an editable checkout would otherwise compile every module
  it imports at every start, which no installed package does.
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import mhp_cards

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


Sample = tuple[float, float]  # (wall-clock seconds, CPU seconds of the child)


def run_once(command: Sequence[str]) -> Sample:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def paired(command: Sequence[str], runs: int) -> tuple[list[Sample], list[Sample]]:
    """The command's samples and the floor's, run in turn after one warm-up of each."""
    run_once(command)
    run_once(FLOOR)
    mine: list[Sample] = []
    floor: list[Sample] = []
    for _ in range(runs):
        floor.append(run_once(FLOOR))
        mine.append(run_once(command))
    return mine, floor


def walls(samples: list[Sample]) -> list[float]:
    return [wall for wall, _ in samples]


def cpus(samples: list[Sample]) -> list[float]:
    return [cpu for _, cpu in samples]


def ratio(mine: list[float], floor: list[float]) -> float:
    return statistics.median(mine) / statistics.median(floor)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs (CI smoke test)")
    args = parser.parse_args(argv)
    runs = 3 if args.quick else 11
    compileall.compile_dir(Path(mhp_cards.__file__).parent, quiet=1)
    mhp = mhp_command()
    print(f"start-up of each command as a new process, {runs} runs after a warm-up")
    print(f"  {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"  mhp started as: {' '.join(Path(part).name for part in mhp)}")
    print()
    print(
        f"  {'command':<30} {'min ms':>7} {'med ms':>7} {'floor med':>9} {'ratio':>6}"
        f" {'cpu med':>7} {'floor':>7} {'ratio':>6}  target (wall, cpu)"
    )
    floors: list[Sample] = []
    for label, arguments, targeted in [*COMMANDS, ("import typer, pydantic", [], False)]:
        command = TYPER_AND_PYDANTIC if not arguments else [*mhp, *arguments]
        mine, floor = paired(command, runs)
        floors += floor
        wall_ratio = ratio(walls(mine), walls(floor))
        cpu_ratio = ratio(cpus(mine), cpus(floor))
        verdict = "(typer's own coercion of a value)" if not arguments else ""
        if targeted:
            verdict = f"≤ {TARGET:.1f}×: " + ", ".join(
                "met" if value <= TARGET else "NOT met" for value in (wall_ratio, cpu_ratio)
            )
        print(
            f"  {label:<30} {ms(min(walls(mine)))} {ms(statistics.median(walls(mine)))}"
            f"   {ms(statistics.median(walls(floor)))} {wall_ratio:5.2f}×"
            f" {ms(statistics.median(cpus(mine)))} {ms(statistics.median(cpus(floor)))}"
            f" {cpu_ratio:5.2f}×  {verdict}"
        )
    print()
    print(
        f"floor, python -c 'import typer': wall min {ms(min(walls(floors))).strip()} ms, median "
        f"{ms(statistics.median(walls(floors))).strip()} ms; cpu median "
        f"{ms(statistics.median(cpus(floors))).strip()} ms over {len(floors)} runs"
    )


if __name__ == "__main__":
    main()
