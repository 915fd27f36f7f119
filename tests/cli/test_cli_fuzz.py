"""Every ``mhp`` command, given hostile arguments and files, answers with exit 0, 1 or 2.

The commands are enumerated from the typer application, so a new command is fuzzed without
touching this file. Each parameter gets values by its kind: flags on or off, integers from
small to huge and negative (and words where a number is expected), paths to random bytes,
Latin-1 text, 20,000-deep JSON and YAML, an alias bomb, a directory, a missing file, a FIFO,
``/dev/zero``; texts from the words the commands know and from arbitrary Unicode; sheet
profiles that lack a card size, name a broken templates file (a colour with a dropped digit,
``min_size`` above ``size``, a region outside its card, a missing template) or extend
nothing; languages the game has and has not. Outputs only ever go to the test's own directory.
A command may answer 0, 1 or 2, never 70 (a bug) and never a traceback.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from mhp_cards.cli import app
from mhp_cards.game import deal
from mhp_cards.resources import default_catalog_dir, default_layouts_dir
from mhp_cards.validate import load_catalog

WORDS = [
    "",
    "-",
    "a4",
    "letter",
    "ru",
    "en",
    "de",
    "RU",
    "print-shop",
    "1",
    "2",
    "1v1",
    "3",
    "-1",
    "99999999999999999999999",
    "M1",
    "raw",
    "raw,reactors",
    "whole-hand",
    "at-least",
    "rectangle",
    "ring",
    "move 3,4",
    "end",
    "buy solar-battery",
    '{"kind": "end"}',
    '{"kind": 1',
    "{",
    "2А 2Б / Э .",
    ". 2А / Э 2Б",
    "CO2, H2O, H2O, CO2, H2O, H2O",
    "2 H2 + O2 -> 2 H2O",
    "H2O",
    "NaXx2",
]


def _commands() -> Iterator[tuple[tuple[str, ...], Any]]:
    def walk(command: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
        children = getattr(command, "commands", None)
        if children:
            for name, child in sorted(children.items()):
                yield from walk(child, (*path, name))
        else:
            yield path, command

    yield from walk(typer.main.get_command(app), ())


COMMANDS = dict(_commands())


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """Hostile input paths, and output paths inside the test directory only."""
    root = tmp_path_factory.mktemp("hostile")
    noise = random.Random(16).randbytes(4096)
    state = deal(load_catalog(), "1", 2, 3).to_json()
    contents: dict[str, bytes] = {
        "noise.bin": noise,
        "noise.yaml": noise,
        "noise.json": noise,
        "latin1.json": '{"level": "é"}'.encode("latin-1"),
        "latin1.yaml": "rows: ['é']\n".encode("latin-1"),
        "deep.json": b"[" * 20_000,
        "deep.yaml": b"rows: " + b"[" * 20_000 + b"]" * 20_000 + b"\n",
        "bomb.yaml": _alias_bomb().encode(),
        "big.json": b" " * (3 * 1024 * 1024),
        "empty.json": b"",
        "not-a-state.json": b'{"level": 99, "players": -5}',
        "state.json": state.encode(),
        "truncated.json": state[: len(state) // 2].encode(),
        "huge-numbers.json": state.replace('"seed": 3', '"seed": ' + "9" * 5000).encode(),
        "rows.yaml": "rows: ['2А 2Б', 'Э .']\n".encode(),
        "ctrl.yaml": b"rows: ['\x01']\n",
    }
    for name, data in contents.items():
        (root / name).write_bytes(data)
    profiles = _sheet_profiles(root / "profiles")
    (root / "folder").mkdir()
    (root / "folder.json").mkdir()
    (root / "folder.yaml").mkdir()
    os.mkfifo(root / "pipe.json")
    os.mkfifo(root / "pipe.yaml")
    inputs = [str(root / name) for name in contents]
    inputs += [str(root / name) for name in ("folder", "folder.json", "folder.yaml")]
    inputs += [str(root / "pipe.json"), str(root / "pipe.yaml"), str(root / "missing.json")]
    inputs += ["/dev/zero", "/dev/null", str(root / "missing.yaml"), str(root / "noise.bin/x")]
    plausible = [str(root / "state.json"), str(root / "rows.yaml"), str(default_catalog_dir())]
    (root / "blocker").write_bytes(b"a file where a directory is expected")
    (root / "existing-dir").mkdir()
    outputs = [
        str(root / "out" / "written.json"),
        str(root / "out"),
        str(root / "existing-dir"),
        str(root / "blocker" / "written.json"),
        str(root / "blocker"),
    ]
    return {
        "inputs": inputs + profiles,
        "outputs": outputs,
        "plausible": plausible,
        "profiles": profiles,
    }


def _sheet_profiles(root: Path) -> list[str]:
    """Sheet profiles, each broken in one way (and one sound copy), as paths to pass --layout."""
    root.mkdir()
    a4 = (default_layouts_dir() / "sheets" / "a4.yaml").read_text(encoding="utf-8")
    templates = (default_layouts_dir() / "templates.yaml").read_text(encoding="utf-8")
    broken_templates = {
        "colour": templates.replace('"#F3F5F7"', '"#F3F5F"', 1),
        "min-size": templates.replace("size: 24, min_size: 10", "size: 24, min_size: 30", 1),
        "outside": templates.replace("formula: {x: 3,", "formula: {x: 30,", 1),
        "no-die": templates.replace("  die:\n    extends: card\n", ""),
        "not-a-mapping": "- a\n- b\n",
    }
    sheets = {
        "sound": a4,
        "no-chemist": a4.replace("  chemist:", "  # chemist:"),
        "no-card-sizes": a4.split("card_sizes:")[0],
        "bad-size": a4.replace("chemist: {width: 10", "chemist: {width: -10"),
        "empty": "",
        "extends-nothing": "extends: nosuch\nname: x\n",
        "no-templates-file": a4.replace("templates: templates.yaml", "templates: nosuch.yaml"),
    }
    for case, text in broken_templates.items():
        (root / f"templates-{case}.yaml").write_text(text, encoding="utf-8")
        sheets[f"templates-{case}"] = a4.replace(
            "templates: templates.yaml", f"templates: templates-{case}.yaml"
        )
    for name, text in sheets.items():
        (root / f"{name}.yaml").write_text(text, encoding="utf-8")
    assert all(text != a4 for name, text in sheets.items() if name != "sound")
    return [str(root / f"{name}.yaml") for name in sheets]


def _alias_bomb() -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 9):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def _writes(parameter: Any) -> bool:
    """A parameter naming an output: help says it writes, or it is --out."""
    help_text = (getattr(parameter, "help", None) or "").lower()
    return parameter.name in ("out", "pdf") or "write" in help_text or "output" in help_text


def _help_words(parameter: Any) -> list[str]:
    """The values a parameter's help names ("1, 2, 1v1 or 3.", "ru or en"), tried often."""
    help_text = getattr(parameter, "help", None) or ""
    words = re.split(r"[\s,.:;()']+|\bor\b", help_text.split("(")[0])
    return [word for word in words if word and len(word) <= 12] * 3


def _annotation(parameter: Any) -> Any:
    descriptor = getattr(parameter, "type_descriptor", None)
    return getattr(descriptor, "annotation", None)


def _value(parameter: Any, files: dict[str, list[str]]) -> st.SearchStrategy[str]:
    annotation = _annotation(parameter)
    # the words the commands know come twice as often: past the first check, deeper code runs
    words = st.sampled_from(WORDS + _help_words(parameter))
    texts = st.one_of(words, words, st.text(max_size=30), st.sampled_from(files["inputs"]))
    if _writes(parameter):
        return st.sampled_from(files["outputs"])
    if parameter.name == "layout":  # a sheet profile: mostly one of the broken files
        return st.one_of(st.sampled_from(files["profiles"]), texts)
    if annotation is int:
        small = st.integers(-3, 10)
        return st.one_of(
            small,
            small,
            small,
            st.integers(-(10**40), 10**40),
            st.sampled_from(["abc", "", "1.5", "1e9"]),
        ).map(str)
    if annotation is Path:
        return st.one_of(
            st.sampled_from(files["plausible"]),
            st.sampled_from(files["inputs"]),
            st.text(max_size=20),
        )
    return texts


@st.composite
def _arguments(draw: Any, command: Any, files: dict[str, list[str]]) -> list[str]:
    args: list[str] = []
    for parameter in command.params:
        opts = getattr(parameter, "opts", [])
        is_option = bool(opts) and opts[0].startswith("-")
        if getattr(parameter, "is_flag", False):
            # a flag that writes files (schema --write) would write outside the test directory
            if not _writes(parameter) and draw(st.booleans()):
                args.append(opts[0])
            continue
        if is_option:
            if parameter.required:
                count = draw(st.integers(0, 1)) if draw(st.integers(0, 9)) == 0 else 1
            else:
                present = draw(st.integers(0, 2)) == 0
                count = draw(st.integers(1, 2 if parameter.multiple else 1)) if present else 0
            for _ in range(count):
                args += [opts[0], draw(_value(parameter, files))]
        else:
            if parameter.nargs == -1:
                count = draw(st.integers(0 if not parameter.required else 1, 3))
            else:
                count = 1 if parameter.required or draw(st.booleans()) else 0
            args += [draw(_value(parameter, files)) for _ in range(count)]
    return args


@pytest.fixture
def no_serving(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``mhp serve`` reads its arguments, binds and prints, then returns instead of serving.

    ``mhp balance`` plays two games a table in this process, whatever ``--games`` says (its
    default, 400 a table, is minutes of play; the fuzz is about the arguments).

    Every command runs in the test's own directory, so that a relative path a command is given
    (or makes up) never lands in the checkout.
    """
    import dataclasses
    import signal
    import types

    import uvicorn
    import watchfiles

    import mhp_cards.cli.build as build_module
    import mhp_cards.sim.balance as balance_module

    summed, played = balance_module.simulate_tables, balance_module.play_tables

    def fewer(tables: Any) -> Any:
        return [dataclasses.replace(table, games=min(table.games, 2)) for table in tables]

    def few_games(catalog: Any, tables: Any, workers: Any = None, progress: Any = None) -> Any:
        return summed(catalog, fewer(tables), 1, progress)

    def few_plays(catalog: Any, tables: Any, workers: Any = None, progress: Any = None) -> Any:
        return played(catalog, fewer(tables), 1, progress)

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    # Both ways balance plays: its tables and their playing on (play_tables), its duels
    # (simulate_tables). With play_tables left alone, a drawn `mhp balance` played every
    # table in full, minutes an example.
    monkeypatch.setattr(balance_module, "simulate_tables", few_games)
    monkeypatch.setattr(balance_module, "play_tables", few_plays)
    # `mhp build --watch` builds once, then its watcher ends at once (no file event), and it
    # leaves the test process's signal handlers alone.
    monkeypatch.setattr(watchfiles, "watch", lambda *paths, **options: iter(()))
    quiet_signals = types.SimpleNamespace(
        signal=lambda number, handler: None,
        SIGINT=signal.SIGINT,
        SIGTERM=signal.SIGTERM,
        default_int_handler=signal.default_int_handler,
    )
    monkeypatch.setattr(build_module, "signal", quiet_signals)
    monkeypatch.setenv("MHP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_no_command_answers_with_a_traceback(
    path: tuple[str, ...], files: dict[str, list[str]], data: st.DataObject, no_serving: None
) -> None:
    command = COMMANDS[path]
    args = [*path, *data.draw(_arguments(command, files))]
    stdin = data.draw(st.one_of(st.none(), st.text(max_size=60)))
    result = CliRunner().invoke(app, args, input=stdin)
    shown = f"mhp {' '.join(map(repr, args))}\n{result.stdout}\n{result.stderr}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{shown}\n{result.exception!r}"
    )
    assert result.exit_code in (0, 1, 2), shown
    assert "Traceback" not in result.stdout + result.stderr, shown
    if result.exit_code == 1:
        assert result.stderr.strip() or result.stdout.strip(), f"no message: {shown}"


@pytest.mark.parametrize("command", [["build", "--only", "raw,reactors"], ["export", "png"]])
def test_every_broken_sheet_profile_is_a_located_error(
    command: list[str], files: dict[str, list[str]], tmp_path: Path
) -> None:
    """Each broken profile (or templates file it names) is refused with its file named, exit 1."""
    for profile in files["profiles"]:
        if profile.endswith("/sound.yaml"):
            continue
        args = [*command, "--layout", profile, "--out", str(tmp_path / "out")]
        result = CliRunner().invoke(app, args)
        shown = f"mhp {' '.join(args)}\n{result.output}"
        assert result.exit_code == 1, shown
        assert result.stderr.startswith("error: "), shown
        assert str(Path(profile).parent) in result.stderr or "nosuch" in result.stderr, shown
        assert "this is a bug" not in result.stderr, shown
        assert not (tmp_path / "out").exists()
