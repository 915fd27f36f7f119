"""The table server benchmark runs and prints its table; it fails on a wrong state, not speed."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "serve_bench.py"


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    # The script imports timing.py from beside it, as running it puts its folder on the path.
    sys.path.insert(0, str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("serve_bench", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["serve_bench"] = module
    spec.loader.exec_module(module)
    yield module
    sys.path.remove(str(SCRIPT.parent))


def test_the_benchmark_prints_every_way_for_every_level(bench: ModuleType, capsys) -> None:
    assert bench.main(["--actions", "3", "--repeats", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines if line[:1] in "123" and "×" in line]
    assert [(row[0], row[1]) for row in rows] == [
        (level, way)
        for level in ("1", "2", "3")
        for way in ("engine", "sqlite", "in-process", "HTTP")
    ]
    assert all(row[2] == "3" for row in rows)


def test_the_sequence_is_seeded_and_needs_no_partner(bench: ModuleType) -> None:
    from mhp_cards.validate import load_catalog

    catalog = load_catalog()
    first, state = bench.sequence(catalog, "2", 3, 20)
    again, _ = bench.sequence(catalog, "2", 3, 20)
    assert first == again
    assert len(first) == 20
    assert not [text for text in first if text.startswith("trade") or " to " in text]
    assert bench.engine_run(catalog, "2", 3, first) == state
