"""Nothing lost, nothing changed: interrupted builds, read-only inputs, the error boundary.

- a build that fails half-way (a face that cannot be drawn, a disk that fills up, a rename that
  fails) leaves the previous ``output/`` byte-identical, with no temporary file;
- validate, build, setup and referee only read their inputs (bytes and modification times);
- an error a library call did not turn into an ``MhpError`` still ends as a message, exit 1;
- any other exception is a bug: one located line, the command to report, exit 70.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mhp_cards.validate as validate_package
from mhp_cards.assembly import solver as solver_module
from mhp_cards.cli import app, main
from mhp_cards.cli import catalog as catalog_command
from mhp_cards.cli import reactor as reactor_command
from mhp_cards.errors import CatalogError
from mhp_cards.fileio import MAX_FILE_BYTES
from mhp_cards.issues import Issue
from mhp_cards.pdf import mission_face
from mhp_cards.resources import default_catalog_dir, default_layouts_dir

SECTIONS = "raw,field,mission"


def _state(directory: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under ``directory``: its bytes and modification time (ns)."""
    return {
        str(path.relative_to(directory)): (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def previous_output(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished build, copied for each test that tries to break it."""
    out = tmp_path_factory.mktemp("built") / "output"
    result = CliRunner().invoke(app, ["build", "--only", SECTIONS, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def output(previous_output: Path, tmp_path: Path) -> Path:
    out = tmp_path / "output"
    shutil.copytree(previous_output, out)
    return out


def _fail_on_call(
    monkeypatch: pytest.MonkeyPatch, target: object, name: str, nth: int, error: BaseException
) -> list[int]:
    real = getattr(target, name)
    calls: list[int] = []

    def wrapper(*args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == nth:
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(target, name, wrapper)
    return calls


def test_a_face_that_fails_after_some_sections_changes_no_output(
    output: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _state(output)
    calls = _fail_on_call(
        monkeypatch, mission_face, "mission_front", 1, RuntimeError("ink ran out")
    )
    result = CliRunner().invoke(app, ["build", "--only", SECTIONS, "--out", str(output)])
    assert calls, "the mission face was never drawn: the failure was not injected"
    assert result.exit_code == 70  # a bug: reported in one line, not a traceback
    assert "internal error RuntimeError: ink ran out at " in result.stderr
    assert _state(output) == before


def test_a_full_disk_in_the_middle_of_writing_changes_no_output(
    output: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _state(output)
    full = OSError(errno.ENOSPC, "No space left on device")
    calls = _fail_on_call(monkeypatch, os, "fsync", 3, full)  # the third of four PDFs
    result = CliRunner().invoke(app, ["build", "--only", SECTIONS, "--out", str(output)])
    assert len(calls) == 3
    assert result.exit_code == 1
    assert "No space left on device" in result.stderr
    assert "Traceback" not in result.output
    assert _state(output) == before


def test_a_rename_that_fails_half_way_puts_back_the_previous_output(
    output: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _state(output)
    broken = OSError(errno.EIO, "Input/output error")
    calls = _fail_on_call(monkeypatch, os, "replace", 3, broken)
    result = CliRunner().invoke(app, ["build", "--only", SECTIONS, "--out", str(output)])
    assert len(calls) > 3  # two renames done, the third failed, then the two undone
    assert result.exit_code == 1
    assert _state(output) == before


def test_a_build_that_succeeds_replaces_the_whole_set(output: Path) -> None:
    stale = b"%PDF-1.4 stale\n"
    for name in ("mhp-kit.pdf", "mhp-raw.pdf"):
        (output / name).write_bytes(stale)
    result = CliRunner().invoke(app, ["build", "--only", SECTIONS, "--out", str(output)])
    assert result.exit_code == 0, result.output
    for name in ("mhp-kit.pdf", "mhp-raw.pdf"):
        assert (output / name).read_bytes().startswith(b"%PDF-1.")
        assert (output / name).read_bytes() != stale
    assert not [p for p in output.iterdir() if p.name.endswith(".tmp")]


def test_commands_only_read_their_inputs(tmp_path: Path) -> None:
    catalog = tmp_path / "catalog"
    layouts = tmp_path / "layouts"
    shutil.copytree(default_catalog_dir(), catalog)
    shutil.copytree(default_layouts_dir(), layouts)
    game = tmp_path / "game" / "state.json"
    runner = CliRunner()
    dealt = runner.invoke(
        app, ["setup", "deal", "--level", "1", "--players", "2", "--seed", "3", "--out", str(game)]
    )
    assert dealt.exit_code == 0, dealt.output
    legal = runner.invoke(app, ["referee", "legal", str(game), "--json"])
    action = json.dumps(json.loads(legal.stdout)[0])
    inputs = {"catalog": catalog, "layouts": layouts, "game": game.parent}
    before = {name: _state(path) for name, path in inputs.items()}
    for command in (
        ["validate", str(catalog)],
        ["validate", str(catalog), "--json"],
        [
            "build",
            "--catalog",
            str(catalog),
            "--layout",
            str(layouts / "sheets" / "a4.yaml"),
            "--only",
            "mission",
            "--out",
            str(tmp_path / "out"),
        ],
        ["setup", "check", str(game), "--catalog", str(catalog)],
        ["referee", "legal", str(game), "--catalog", str(catalog)],
        ["referee", "score", str(game), "--catalog", str(catalog)],
        ["referee", "check", str(game), action, "--catalog", str(catalog)],
        [
            "referee",
            "apply",
            str(game),
            action,
            "--catalog",
            str(catalog),
            "--out",
            str(tmp_path / "next.json"),
        ],
        ["reactor", "check", ". 2А / Э 2Б", "--catalog", str(catalog)],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code in (0, 1), (command, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)
    assert (tmp_path / "next.json").is_file()  # the commands did run to their outputs
    after = {name: _state(path) for name, path in inputs.items()}
    assert after == before


# The boundary -----------------------------------------------------------------------------------


def _replace(
    monkeypatch: pytest.MonkeyPatch, command: object, library: object, name: str, new: object
) -> None:
    """Replace a library function where a command finds it, imported at the top or lazily."""
    monkeypatch.setattr(command, name, new, raising=False)
    monkeypatch.setattr(library, name, new)


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (ValueError("a value the library could not handle"), "a value the library could not"),
        (
            OSError(errno.EACCES, "Permission denied", "catalog/x.yaml"),
            "catalog/x.yaml: Permission",
        ),
        (RecursionError("maximum recursion depth exceeded"), "maximum recursion depth"),
        (
            CatalogError([Issue("files", "boom", file="x.yaml")], "the catalog has 1 problem"),
            "the catalog has 1 problem",
        ),
    ],
)
def test_an_error_escaping_a_command_is_a_message_and_exit_1(
    error: BaseException, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(*args: object) -> None:
        raise error

    _replace(monkeypatch, catalog_command, validate_package, "validate_catalog", failing)
    result = CliRunner().invoke(app, ["validate"])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr.startswith("error: ")
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_the_boundary_covers_the_commands_of_sub_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(*args: object) -> None:
        raise OSError(errno.EIO, "Input/output error", "installations.yaml")

    _replace(monkeypatch, reactor_command, solver_module, "solve_installation", failing)
    result = CliRunner().invoke(app, ["reactor", "solve", "2"])
    assert result.exit_code == 1
    assert result.stderr == "error: installations.yaml: Input/output error\n"


def test_main_exits_with_the_code_and_the_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(*args: object) -> None:
        raise ValueError("unexpected input")

    _replace(monkeypatch, catalog_command, validate_package, "validate_catalog", failing)
    with pytest.raises(SystemExit) as done:
        main(["validate"])
    assert done.value.code == 1
    assert "error: cannot handle this input: unexpected input" in capsys.readouterr().err
    with pytest.raises(SystemExit) as done:
        main(["no-such-command"])
    assert done.value.code == 2


@pytest.mark.parametrize(
    "error",
    [KeyError("chemist"), TypeError("unsupported operand"), AttributeError("x"), AssertionError()],
)
def test_an_unexpected_exception_is_a_bug_report_in_one_line_and_exit_70(
    error: BaseException, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(*args: object) -> None:
        raise error

    _replace(monkeypatch, catalog_command, validate_package, "validate_catalog", failing)
    result = CliRunner().invoke(app, ["validate", "my catalog"])
    assert result.exit_code == 70
    assert result.exception is None or isinstance(result.exception, SystemExit)
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: internal error {type(error).__name__}")
    # located: the innermost frame inside the package (the stand-in is the test's own code)
    assert re.search(r" at mhp_cards/cli/catalog\.py:\d+ in validate; ", line), line
    assert line.endswith(
        "this is a bug: please report it with this command: mhp validate 'my catalog'"
    )
    assert "Traceback" not in result.output


def test_a_bug_in_a_sub_group_names_the_whole_command(monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(*args: object) -> None:
        raise KeyError("4А")

    _replace(monkeypatch, reactor_command, solver_module, "solve_installation", failing)
    result = CliRunner().invoke(app, ["reactor", "solve", "2"])
    assert result.exit_code == 70
    assert "KeyError: '4А'" in result.stderr
    assert result.stderr.rstrip().endswith("with this command: mhp reactor solve 2")


def test_main_reports_a_bug_with_exit_70(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def failing(*args: object) -> None:
        raise LookupError("no such face")

    _replace(monkeypatch, catalog_command, validate_package, "validate_catalog", failing)
    with pytest.raises(SystemExit) as done:
        main(["validate"])
    assert done.value.code == 70
    err = capsys.readouterr().err
    assert "internal error LookupError: no such face at " in err
    assert "please report it with this command: mhp validate" in err


@pytest.mark.parametrize(
    "args",
    [
        ["setup", "deal", "--level", "1", "--players", "2", "--seed", "1", "--lang", "de"],
        ["referee", "score", "--lang", "de", "state.json"],
        ["build", "--lang", "fr"],
        ["export", "png", "--lang", "RU"],
    ],
)
def test_an_unknown_language_is_a_usage_error_naming_the_languages(args: list[str]) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "--lang must be ru or en, not " in result.stderr


def test_the_cli_languages_are_the_game_s() -> None:
    from mhp_cards.cli.app import LANGS as CLI_LANGS
    from mhp_cards.rules.numbers import LANGS

    assert CLI_LANGS == LANGS


def test_setup_deal_with_a_sheet_in_an_unknown_language_writes_nothing(tmp_path: Path) -> None:
    args = ["setup", "deal", "--level", "1", "--players", "2", "--seed", "1"]
    result = CliRunner().invoke(app, [*args, "--pdf", str(tmp_path / "s.pdf"), "--lang", "de"])
    assert result.exit_code == 2
    assert result.stderr == "error: --lang must be ru or en, not 'de'\n"
    assert not list(tmp_path.iterdir())


def test_a_profile_without_a_chemist_size_is_a_located_error_not_a_bug(tmp_path: Path) -> None:
    a4 = (default_layouts_dir() / "sheets" / "a4.yaml").read_text(encoding="utf-8")
    profile = tmp_path / "mine.yaml"
    profile.write_text(
        "\n".join(line for line in a4.splitlines() if not line.startswith("  chemist:")) + "\n",
        encoding="utf-8",
    )
    for args in (
        ["build", "--layout", str(profile), "--only", "raw", "--out", str(tmp_path / "out")],
        ["export", "png", "--layout", str(profile), "--out", str(tmp_path / "png")],
    ):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 1, (args, result.output)
        assert result.stderr.startswith(f"error: {profile}:"), result.stderr
        assert "no size for chemist" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["referee", "check", "/dev/zero", "end"],
        ["referee", "score", "/"],
        ["setup", "check", "/nonexistent/state.json"],
        ["reactor", "check", "/dev/zero.yaml"],
        ["build", "--layout", "/", "--out", "{tmp}/out"],
        ["setup", "deal", "--level", "1", "--players", "2", "--seed", "1", "--out", "/"],
        ["setup", "deal", "--level", "1", "--players", "-5", "--seed", "1"],
        ["setup", "deal", "--level", "1", "--players", str(10**30), "--seed", str(-(10**30))],
        ["reactor", "solve", str(10**30)],
        ["validate", "/dev/zero"],
    ],
)
def test_the_installed_command_answers_hostile_arguments_without_a_traceback(
    args: list[str], tmp_path: Path
) -> None:
    args = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    result = subprocess.run(
        [sys.executable, "-m", "mhp_cards", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode in (1, 2), result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stderr.strip() or result.stdout.strip()


def test_standard_input_is_read_within_the_size_limit() -> None:
    result = CliRunner().invoke(app, ["formula", "-"], input="x" * (MAX_FILE_BYTES + 1))
    assert result.exit_code == 1
    assert f"limit MAX_FILE_BYTES = {MAX_FILE_BYTES}" in result.stderr
    result = CliRunner().invoke(app, ["formula", "-", "--json"], input="H2O\n\nCO2\r\n")
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 2
