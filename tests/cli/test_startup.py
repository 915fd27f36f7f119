"""Start-up: a command imports only what it uses, checked in a fresh interpreter.

These are behavioural tests (which modules a new process holds after a command), not timings:
the speed itself is measured by ``benchmarks/startup_bench.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import mhp_cards
from mhp_cards.cli.build import SECTION_NAMES
from mhp_cards.cli.setup import SHAPE_NAMES
from mhp_cards.game import SHAPES
from mhp_cards.pdf import SECTIONS

#: Run one command in a new interpreter, then print the top-level packages and the mhp_cards
#: modules it imported, as JSON on the last line.
PROBE = """
import json, sys
from mhp_cards.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
names = sorted({name.split(".")[0] for name in sys.modules} | set(sys.modules))
print(json.dumps(names))
"""

HEAVY = ("pydantic", "reportlab", "jsonschema", "yaml", "rich")


def imported_by(*args: str) -> set[str]:
    completed = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return set(json.loads(completed.stdout.splitlines()[-1]))


def test_help_imports_no_heavy_library() -> None:
    modules = imported_by("--help")
    assert not [name for name in HEAVY if name in modules]


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("build", "--help"),
        ("referee", "--help"),
        ("setup", "deal", "--help"),
        ("validate", "--help"),
        ("simulate", "--help"),
    ],
)
def test_help_imports_no_model_and_no_library_of_ours(args: tuple[str, ...]) -> None:
    modules = imported_by(*args)
    assert not [name for name in HEAVY if name in modules]
    ours = {name for name in modules if name.startswith("mhp_cards.")}
    assert not {name for name in ours if not name.startswith("mhp_cards.cli")} - {
        "mhp_cards.errors",
        "mhp_cards.issues",
    }


def test_formula_imports_the_formula_and_nothing_of_the_catalog_or_the_kit() -> None:
    modules = imported_by("formula", "H2O")
    assert "mhp_cards.chem.formula" in modules
    assert not [name for name in HEAVY if name in modules]
    assert not [name for name in modules if name.startswith(("mhp_cards.catalog", "mhp_cards.pdf"))]
    # the reaction balancer and its exact linear algebra are not needed to read a formula
    assert "mhp_cards.chem.reaction" not in modules


def test_validate_does_not_import_the_kit() -> None:
    modules = imported_by("validate")
    assert "mhp_cards.validate.loader" in modules
    assert "reportlab" not in modules
    assert not [name for name in modules if name.startswith("mhp_cards.pdf")]


def test_a_cached_validate_reads_no_yaml_and_runs_no_check(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MHP_CACHE_DIR", str(tmp_path / "cache"))
    first = imported_by("validate")
    assert "yaml" in first
    assert "mhp_cards.validate.checks" in first
    second = imported_by("validate")
    assert "mhp_cards.validate.cache" in second
    assert not [name for name in ("yaml", "jsonschema", "reportlab") if name in second]
    assert not [name for name in second if name.startswith("mhp_cards.validate.checks")]


def test_the_package_imports_the_chemistry_on_first_use() -> None:
    probe = (
        "import sys, mhp_cards; before = 'mhp_cards.chem.formula' in sys.modules; "
        "from mhp_cards import parse_formula; "
        "print(before, 'mhp_cards.chem.formula' in sys.modules, parse_formula('H2O').hill())"
    )
    completed = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert completed.stdout.split() == ["False", "True", "H2O"]


def test_the_package_lists_and_resolves_its_lazy_names() -> None:
    for name in mhp_cards.__all__:
        assert name in dir(mhp_cards)
        assert getattr(mhp_cards, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'parse_formulas'"):
        _ = mhp_cards.parse_formulas  # type: ignore[attr-defined]


def test_the_help_names_every_section_and_shape() -> None:
    assert SECTION_NAMES.split(", ") == list(SECTIONS)
    assert SHAPE_NAMES.split(", ") == list(SHAPES)


def test_build_help_lists_the_sections(cli) -> None:
    result = cli("build", "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    for name in SECTIONS:
        assert name in text
