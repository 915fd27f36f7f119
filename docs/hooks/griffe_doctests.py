"""Griffe extension: the doctest examples of the docstrings shown as Python sessions.

The package's docstrings hold their examples as doctests (``>>>`` lines and their output),
which plain Markdown would read as nested quotes and reference links. Before mkdocstrings
renders a docstring, each run of doctest lines (up to the next blank line) is fenced as a
``pycon`` block, and a cross-reference written the Sphinx way (``:class:`~x.Y```) becomes
plain code; the doctests themselves still run under pytest unchanged.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:func|class|meth|attr|mod|data|exc|obj):`~?([^`]+)`")


def fence_doctests(text: str) -> str:
    """The text with every doctest example fenced as ``pycon`` code."""
    out: list[str] = []
    open_indent: str | None = None
    in_fence = False
    for line in text.splitlines():
        stripped = line.strip()
        if open_indent is None and stripped.startswith("```"):
            in_fence = not in_fence
        elif open_indent is None and not in_fence and stripped.startswith(">>>"):
            open_indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{open_indent}```pycon")
        elif open_indent is not None and not stripped:
            out.append(f"{open_indent}```")
            open_indent = None
        out.append(line)
    if open_indent is not None:
        out.append(f"{open_indent}```")
    return _ROLE.sub(r"`\1`", "\n".join(out))


class DoctestFences(griffe.Extension):
    """Fence the doctests of every docstring the API reference shows."""

    def on_object(self, *, obj: griffe.Object, **_: Any) -> None:
        """Rewrite one object's docstring."""
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)

    def on_package(self, *, pkg: griffe.Module, **_: Any) -> None:
        """Rewrite the top package's docstring, which ``on_object`` is not given."""
        self.on_object(obj=pkg)
