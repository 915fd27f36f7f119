"""Hostile input: how long a refusal takes, against validating the shipped catalog.

Run ``python benchmarks/hostile_bench.py`` (about 15 s) or ``--quick`` (about 5 s). Nothing
here asserts on timings: the script prints figures beside a reference measured in the same run.

What is measured
----------------
1. ``read_yaml`` of the five shipped catalog files with libyaml and with the pure parser (same
   issues, same marks; a test checks that), as a ratio.
2. ``mhp validate --json DIR`` in a new process, wall clock and peak memory (VmHWM), for the
   shipped catalog (the reference) and for copies whose ``substances.yaml`` is hostile:
   20,000-deep nesting, an alias bomb, 5 MB of entries, 50 MB, random bytes, a directory.
   Each must exit 1 with one issue; the figures are printed as ratios to the reference.

Timing: ``time.perf_counter``; best and median of the repeats.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mhp_cards.resources import default_catalog_dir
from mhp_cards.yamldoc import LIBYAML, read_yaml

RUNNER = """
import sys
from mhp_cards.cli import main
try:
    main(sys.argv[2:])
finally:
    peak = 0
    try:
        with open("/proc/self/status") as status:
            peak = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
    except (OSError, StopIteration):
        import resource
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open(sys.argv[1], "w") as out:
        out.write(str(peak))
"""
ENTRY = "  - formula: H2O\n    name: {ru: Вода, en: Water}\n    price: 1\n".encode()


def _bomb() -> bytes:
    lines = ["substances: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, 9):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    return ("\n".join(lines) + "\n").encode()


def _entries(size: int) -> bytes:
    return b"substances:\n" + (ENTRY * (size // len(ENTRY) + 1))[:size]


HOSTILE: dict[str, Callable[[], bytes | None]] = {
    "20,000-deep nesting": lambda: b"substances:\n  - " + b"[" * 20_000 + b"]" * 20_000 + b"\n",
    "alias bomb": _bomb,
    "5 MB of entries": lambda: _entries(5_000_000),
    "50 MB file": lambda: _entries(50_000_000),
    "random bytes": lambda: random.Random(16).randbytes(100_000),
    "a directory": lambda: None,
}


def _times(run: Callable[[], object], repeats: int) -> tuple[float, float]:
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return min(samples), statistics.median(samples)


def _validate(directory: Path | None, scratch: Path) -> tuple[float, int, int, int]:
    memory = scratch / "peak.txt"
    args = ["validate", "--json"] + ([str(directory)] if directory is not None else [])
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", RUNNER, str(memory), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    issues = len(json.loads(result.stdout)["issues"]) if result.stdout.strip() else -1
    return elapsed, int(memory.read_text()), result.returncode, issues


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    quick = parser.parse_args().quick
    repeats = 3 if quick else 10

    texts = {p.name: p.read_text("utf-8") for p in sorted(default_catalog_dir().glob("*.yaml"))}
    print(f"1. read_yaml of the {len(texts)} shipped catalog files (best / median of {repeats})")
    pure = _times(lambda: [read_yaml(t, n, fast=False) for n, t in texts.items()], repeats)
    print(f"   pure parser : {pure[0] * 1000:7.1f} ms / {pure[1] * 1000:7.1f} ms")
    if LIBYAML:
        fast = _times(lambda: [read_yaml(t, n, fast=True) for n, t in texts.items()], repeats)
        print(f"   libyaml     : {fast[0] * 1000:7.1f} ms / {fast[1] * 1000:7.1f} ms")
        print(f"   libyaml is {pure[0] / fast[0]:.1f}× faster (best against best)")
    else:
        print("   (PyYAML without libyaml here: the pure parser only)")

    print("\n2. mhp validate --json in a new process: wall clock, peak memory, exit, issues")
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        runs = 1 if quick else 3
        reference = min((_validate(None, scratch) for _ in range(runs)), key=lambda r: r[0])
        print(
            f"   {'shipped catalog (reference)':<28} {reference[0]:5.2f} s "
            f"{reference[1] / 1024:6.1f} MiB  exit {reference[2]}  issues {reference[3]}"
        )
        for name, make in HOSTILE.items():
            catalog = scratch / "catalog"
            shutil.rmtree(catalog, ignore_errors=True)
            shutil.copytree(default_catalog_dir(), catalog)
            target = catalog / "substances.yaml"
            target.unlink()
            data = make()
            if data is None:
                target.mkdir()
            else:
                target.write_bytes(data)
            best = min((_validate(catalog, scratch) for _ in range(runs)), key=lambda r: r[0])
            print(
                f"   {name:<28} {best[0]:5.2f} s {best[1] / 1024:6.1f} MiB  exit {best[2]}  "
                f"issues {best[3]}   ({best[0] / reference[0]:.2f}× the time, "
                f"{(best[1] - reference[1]) / 1024:+.1f} MiB)"
            )


if __name__ == "__main__":
    main()
