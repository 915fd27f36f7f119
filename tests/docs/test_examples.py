"""The examples of the README and the documentation pages work as they are written.

Python examples (``>>>``) run as doctests (``--doctest-glob`` in pyproject.toml). This file
covers the rest: each ``console`` block is a terminal session — every ``$ mhp …`` line runs in
a new process, in one temporary directory per block, and what it prints must match the lines
below it (``...`` stands for any text, as in a doctest); each ``mhp`` command of an ``sh``
block, which is not run (it prints a kit or starts a server), must name commands and options
that exist. A renamed option or a changed message fails here.
"""

from __future__ import annotations

import doctest
import importlib.util
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer.main

from mhp_cards.cli import app

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
HOOKS = ROOT / "docs" / "hooks"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    language: str
    text: str

    def __str__(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def _blocks(language: str) -> list[Block]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if match.group(1) == language:
                line = text.count("\n", 0, match.start()) + 1
                found.append(Block(page, line, language, match.group(2)))
    return found


def _session(block: Block) -> list[tuple[str, str]]:
    """The commands of a console block, each with the output written below it."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            pytest.fail(f"{block}: output before the first '$ ' command")
    return [(command, "\n".join(output).rstrip() + "\n") for command, output in steps]


CONSOLE = _blocks("console")
SHELL = _blocks("sh")


def test_the_pages_have_examples() -> None:
    assert len(CONSOLE) >= 5
    assert len(SHELL) >= 10


@pytest.mark.parametrize("block", CONSOLE, ids=str)
def test_console_session(block: Block, tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb"}
    checker = doctest.OutputChecker()
    session = _session(block)
    assert session, f"{block}: a console block with no '$ ' command"
    for command, expected in session:
        words = shlex.split(command, comments=True)
        assert words[0] == "mhp", f"{block}: only mhp commands are run, not {command!r}"
        done = subprocess.run(
            [sys.executable, "-m", "mhp_cards", *words[1:]],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        # stdout then stderr, as a terminal shows a command that writes one after the other.
        printed = "\n".join(
            line.rstrip() for line in (done.stdout + done.stderr).splitlines()
        ).rstrip()
        assert done.returncode in (0, 1), f"{block}: {command!r} exited {done.returncode}"
        if not checker.check_output(expected, printed + "\n", doctest.ELLIPSIS):
            pytest.fail(f"{block}: {command!r} printed\n{printed}\n\nthe page says\n{expected}")


def _mhp_commands(text: str) -> list[list[str]]:
    """Every ``mhp`` command line of a shell block, as words, without redirections."""
    commands = []
    for line in text.splitlines():
        words = shlex.split(line, comments=True)
        current: list[str] | None = None
        for word in words:
            if word in {"&&", "||", ";", "|", ">", "<", "2>"}:
                if current:
                    commands.append(current)
                current = None
            elif current is None:
                current = [] if word == "mhp" else None
            else:
                current.append(word)
        if current is not None:
            commands.append(current)
    return commands


@pytest.mark.parametrize("block", SHELL, ids=str)
def test_shell_commands_exist(block: Block) -> None:
    root = typer.main.get_command(app)
    for words in _mhp_commands(block.text):
        command, context = root, root.context_class(root, info_name="mhp")
        options = [word.strip("[]").split("=")[0] for word in words if word.startswith(("-", "["))]
        for word in words:
            sub = getattr(command, "commands", {}).get(word)
            if sub is None:
                break
            command, context = sub, sub.context_class(sub, info_name=word, parent=context)
        assert not getattr(command, "commands", None), f"{block}: 'mhp {' '.join(words)}'"
        known = {name for param in command.get_params(context) for name in param.opts}
        for option in options:
            if option.startswith("--"):
                assert option in known, f"{block}: {option} is not an option of {command.name}"


@pytest.mark.parametrize("block", _blocks("python"), ids=str)
def test_python_blocks_are_doctests(block: Block) -> None:
    """A Python block runs only as a doctest: one without ``>>>`` would test nothing."""
    assert block.text.lstrip().startswith(">>> "), f"{block}: write it as a doctest"


def test_the_cli_reference_names_every_command_and_option() -> None:
    """The reference page is rendered from the command tree: every command and option is in it."""
    spec = importlib.util.spec_from_file_location("cli_reference", HOOKS / "cli_reference.py")
    assert spec is not None
    assert spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    page = hook.on_page_markdown(f"# Command line\n\n{hook.MARKER}\n")
    assert hook.MARKER not in page

    def walk(command, context, path: list[str]) -> None:
        assert f"`{' '.join(path)}`" in page, path
        for param in command.get_params(context):
            for name in param.opts:
                if name.startswith("--"):
                    assert name in page, (path, name)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, sub.context_class(sub, info_name=name, parent=context), [*path, name])

    root = typer.main.get_command(app)
    walk(root, root.context_class(root, info_name="mhp"), ["mhp"])
    assert "#### `mhp referee mission`" in page
