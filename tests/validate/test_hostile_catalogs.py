"""Hostile catalogs: each is refused with exit 1 and one located issue, in text and in JSON.

The files a designer could be handed: 20,000-deep nesting, a "billion laughs" alias bomb, 5 MB
of entries, 50 MB, random bytes, a directory, a FIFO or ``/dev/zero`` in place of a file. Each
runs ``mhp validate`` in a fresh process that reports its peak memory, compared with the same
command on the shipped catalog.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mhp_cards import yamldoc
from mhp_cards.fileio import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES
from mhp_cards.resources import default_catalog_dir
from mhp_cards.validate import validate_catalog

#: Runs the CLI like the ``mhp`` script, then writes the process's peak memory (KiB) to argv[1]:
#: VmHWM where Linux has it (ru_maxrss survives exec, so it would count the parent's peak).
RUNNER = """
import resource, sys
from mhp_cards.cli import main
try:
    main(sys.argv[2:])
finally:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        with open("/proc/self/status") as status:
            peak = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
    except (OSError, StopIteration):
        pass
    with open(sys.argv[1], "w") as out:
        out.write(str(peak))
"""
EXTRA_MEMORY_KIB = 50 * 1024

ENTRY = "  - formula: H2O\n    name: {ru: Вода, en: Water}\n    price: 1\n"


def _bomb() -> str:
    lines = ["substances: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, 9):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def _entries(size: int) -> bytes:
    body = ENTRY.encode() * (size // len(ENTRY.encode()) + 1)
    return b"substances:\n" + body[:size]


def _fill(path: Path, kind: str) -> None:
    if kind == "deep":
        path.write_text("substances:\n  - " + "[" * 20_000 + "]" * 20_000 + "\n", "utf-8")
    elif kind == "bomb":
        path.write_text(_bomb(), "utf-8")
    elif kind == "entries-5mb":
        path.write_bytes(_entries(5_000_000))
    elif kind == "file-50mb":
        path.write_bytes(_entries(50_000_000))
    elif kind == "random-bytes":
        path.write_bytes(random.Random(16).randbytes(100_000))
    elif kind == "directory":
        path.mkdir()
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    else:  # pragma: no cover
        raise AssertionError(kind)


#: kind → (check, a substring of the message, whether a line and column are known)
EXPECTED = {
    "deep": ("limits", f"limit MAX_DEPTH = {MAX_DEPTH}", True),
    "bomb": ("limits", f"limit MAX_NODES = {MAX_NODES}", True),
    "entries-5mb": ("limits", f"limit of {MAX_FILE_BYTES} bytes", True),
    "file-50mb": ("limits", f"limit of {MAX_FILE_BYTES} bytes", True),
    "random-bytes": ("files", "not UTF-8 text", True),
    "directory": ("files", "is a directory, not a file", False),
    "fifo": ("files", "is not a regular file", False),
    "dev-zero": ("files", "is not a regular file", False),
}


def _run(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], int]:
    memory = tmp_path / "maxrss.txt"
    result = subprocess.run(
        [sys.executable, "-c", RUNNER, str(memory), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return result, int(memory.read_text())


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> int:
    """Peak memory of validating the shipped catalog, in KiB."""
    result, peak = _run(tmp_path_factory.mktemp("baseline"), "validate", "--json")
    assert result.returncode == 0, result.stderr
    return peak


@pytest.fixture(params=sorted(EXPECTED))
def hostile(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, Path]:
    if request.param == "dev-zero" and not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    catalog = tmp_path / "catalog"
    shutil.copytree(default_catalog_dir(), catalog)
    (catalog / "substances.yaml").unlink()
    _fill(catalog / "substances.yaml", request.param)
    return request.param, catalog


def test_json_has_one_located_issue(
    hostile: tuple[str, Path], tmp_path: Path, baseline: int
) -> None:
    kind, catalog = hostile
    check, message, located = EXPECTED[kind]
    result, peak = _run(tmp_path, "validate", str(catalog), "--json")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    assert report["valid"] is False
    assert report["errors"] == 1
    [issue] = [i for i in report["issues"] if i["severity"] == "error"]
    assert issue["file"] == "substances.yaml"
    assert issue["check"] == check
    assert message in issue["message"]
    if located:
        assert isinstance(issue["line"], int)
        assert isinstance(issue["column"], int)
    assert peak - baseline < EXTRA_MEMORY_KIB, f"{kind}: {peak - baseline} KiB more"


def test_text_has_one_located_message(hostile: tuple[str, Path], tmp_path: Path) -> None:
    kind, catalog = hostile
    _, message, located = EXPECTED[kind]
    result, _ = _run(tmp_path, "validate", str(catalog))
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    errors = [line.strip() for line in result.stdout.splitlines() if ": error" in line]
    assert len(errors) == 1, result.stdout
    [error] = errors
    assert message in error
    prefix = r"substances\.yaml:\d+:\d+: error" if located else r"substances\.yaml: error"
    assert re.match(prefix, error), error
    assert "INVALID: 1 error(s)" in result.stdout


@pytest.mark.parametrize("command", [["catalog", "export"], ["reactor", "solve", "2"]])
def test_a_command_that_loads_a_hostile_catalog_says_why_and_exits_1(
    command: list[str], tmp_path: Path
) -> None:
    catalog = tmp_path / "catalog"
    shutil.copytree(default_catalog_dir(), catalog)
    _fill_over(catalog / "installations.yaml", _bomb().replace("substances", "installations"))
    result, _ = _run(tmp_path, *command, "--catalog", str(catalog))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "installations.yaml:" in result.stderr
    assert "MAX_NODES" in result.stderr


def _fill_over(path: Path, text: str) -> None:
    path.write_text(text, "utf-8")


def test_libyaml_and_the_pure_parser_refuse_alike(
    hostile: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, catalog = hostile
    fast = validate_catalog(catalog)
    monkeypatch.setattr(yamldoc, "_FAST", None)
    pure = validate_catalog(catalog)
    assert len(fast.errors) == 1
    assert fast.issues == pure.issues
