"""The wheel carries what an installed mhp needs: the catalog, the layouts, the page, the rules.

A wheel is built in-process with hatchling (the project's build backend, in the [test] extra)
from this checkout, and its zip is read: every data file of the source tree must be in it at
the place ``mhp_cards.resources`` looks for it. The font is not in the wheel: it comes with
the ``fontpkg-pt-sans`` dependency, which the wheel's metadata must require.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from mhp_cards.pdf import fonts

hatchling_wheel = pytest.importorskip("hatchling.builders.wheel")

ROOT = Path(__file__).resolve().parents[1]


def _files(directory: Path) -> set[str]:
    """The files under a directory, relative to it, as a wheel names them."""
    return {
        path.relative_to(directory).as_posix()
        for path in directory.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    directory = tmp_path_factory.mktemp("dist")
    builder = hatchling_wheel.WheelBuilder(str(ROOT))
    [path] = builder.build(directory=str(directory), versions=["standard"])
    with zipfile.ZipFile(path) as archive:
        yield archive


def _names(wheel: zipfile.ZipFile, prefix: str) -> set[str]:
    return {name.removeprefix(prefix) for name in wheel.namelist() if name.startswith(prefix)}


@pytest.mark.parametrize("data", ["catalog", "layouts"])
def test_the_wheel_carries_the_default_catalog_and_layouts(wheel, data: str) -> None:
    expected = _files(ROOT / data)
    assert "README.md" in expected
    assert any(name.startswith("schema/") for name in expected)
    assert _names(wheel, f"mhp_cards/_data/{data}/") == expected


def test_the_wheel_carries_every_data_file_of_the_package(wheel) -> None:
    package = {name for name in _files(ROOT / "mhp_cards") if not name.endswith((".py", ".pyc"))}
    assert {"py.typed", "rules/rules.yaml", "serve/API.md", "serve/static/index.html"} <= package
    assert package <= _names(wheel, "mhp_cards/")


def test_the_wheel_carries_the_companion_page(wheel) -> None:
    static = _names(wheel, "mhp_cards/serve/static/")
    assert static == _files(ROOT / "mhp_cards" / "serve" / "static")
    assert {"index.html", "app.js", "app.css", "i18n.js"} <= static


def test_the_font_comes_with_a_required_dependency(wheel) -> None:
    [metadata_name] = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
    metadata = Parser().parsestr(wheel.read(metadata_name).decode("utf-8"))
    required = [r.split(";")[0] for r in metadata.get_all("Requires-Dist") if ";" not in r]
    assert any(r.startswith("fontpkg-pt-sans") for r in required)
    assert not [n for n in wheel.namelist() if n.endswith((".ttf", ".otf"))]
    # The files the kit embeds, where that dependency installs them.
    assert all(path.is_file() for path in fonts.fonts().paths.values())


def test_the_wheel_has_the_mhp_command_and_no_tests(wheel) -> None:
    [entry_points] = [n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt")]
    assert "mhp = mhp_cards.cli:main" in wheel.read(entry_points).decode("utf-8")
    assert not [n for n in wheel.namelist() if n.startswith(("tests/", "docs/", "benchmarks/"))]


def test_the_installed_wheel_builds_the_kit(wheel, tmp_path: Path) -> None:
    """pip installs the wheel (its dependencies are this environment's) and its mhp prints.

    The installed copy, not this checkout, must be the one that runs: the data it reads is the
    wheel's own mhp_cards/_data.
    """
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--target",
            str(target),
            wheel.filename,
        ],
        check=True,
    )
    environment = {**os.environ, "PYTHONPATH": str(target)}
    run = [
        sys.executable,
        "-c",
        "import sys, mhp_cards, mhp_cards.resources as r; from mhp_cards.cli import main; "
        "print(mhp_cards.__file__, r.default_catalog_dir(), file=sys.stderr); "
        "sys.argv[0] = 'mhp'; sys.exit(main())",
        "build",
        "--only",
        "raw",
        "--out",
        str(tmp_path / "output"),
    ]
    result = subprocess.run(
        run, check=False, env=environment, capture_output=True, text=True, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    where = result.stderr.splitlines()[0]
    assert where.startswith(str(target)), where
    assert f"{target}/mhp_cards/_data/catalog" in where
    pdf = (tmp_path / "output" / "mhp-raw.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-")
    assert len(pdf) > 10_000
