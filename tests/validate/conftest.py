"""Fixtures of the catalog tests: a copy of the default game to break one small edit at a time.

A broken catalog is the real game with one textual edit (or a few), so every test is a minimal
diff from the shipped data. Expected positions are computed from the edited text: in the new
snippet of an edit, the caret ``‸`` marks the character the validator must point at (it is
removed before the file is written).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable
from pathlib import Path

import pytest

from mhp_cards.issues import Issue, format_path
from mhp_cards.resources import default_catalog_dir
from mhp_cards.validate import Validation, validate_catalog

CARET = "‸"


def line_column(text: str, index: int) -> tuple[int, int]:
    """1-based line and column (in characters) of ``text[index]``."""
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def path_matches(path: str, pattern: str) -> bool:
    """``installations[4].cards[*].id`` matches ``installations[*].cards[*].id``."""
    regex = re.escape(pattern).replace(re.escape("[*]"), r"\[\d+\]")
    return re.fullmatch(regex, path) is not None


def describe(issues: Iterable[Issue]) -> str:
    """Every issue on its own line, for assertion messages."""
    return "\n".join(f"  {issue}" for issue in issues) or "  (no issues)"


class CatalogCopy:
    """A writable copy of the default catalog, edited textually."""

    describe = staticmethod(describe)

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def text(self, file: str) -> str:
        """The current text of a catalog file (exactly as on disk)."""
        return (self.directory / file).read_bytes().decode("utf-8")

    def write(self, file: str, text: str) -> None:
        """Replace a catalog file's text (UTF-8, newlines untouched)."""
        (self.directory / file).write_bytes(text.encode("utf-8"))

    def edit(self, file: str, old: str, new: str) -> tuple[int, int] | None:
        """Replace the single occurrence of ``old`` by ``new`` in ``file``.

        A caret ``‸`` in ``new`` marks a position; it is not written, and its line and column
        in the edited file are returned (None without a caret).
        """
        text = self.text(file)
        occurrences = text.count(old)
        assert occurrences == 1, f"{old!r} occurs {occurrences} times in {file}, not once"
        marker = new.find(CARET)
        clean = new.replace(CARET, "")
        start = text.index(old)
        edited = text[:start] + clean + text[start + len(old) :]
        self.write(file, edited)
        if marker < 0:
            return None
        return line_column(edited, start + marker)

    def position(self, file: str, anchor: str) -> tuple[int, int]:
        """Line and column of the ‸ in ``anchor``, which occurs once in ``file`` without it."""
        assert CARET in anchor, "mark the position with ‸"
        clean = anchor.replace(CARET, "")
        text = self.text(file)
        occurrences = text.count(clean)
        assert occurrences == 1, f"{clean!r} occurs {occurrences} times in {file}, not once"
        return line_column(text, text.index(clean) + anchor.index(CARET))

    def validate(self) -> Validation:
        """Validate the copy."""
        return validate_catalog(self.directory)

    @staticmethod
    def find_issue(
        validation: Validation,
        check: str,
        contains: str | tuple[str, ...] = (),
        rule: str | None = None,
        file: str | None = None,
    ) -> Issue:
        """The one issue of ``check`` whose message contains every ``contains`` string."""
        needles = (contains,) if isinstance(contains, str) else contains
        found = [
            issue
            for issue in validation.issues
            if issue.check == check
            and all(needle in issue.message for needle in needles)
            and (rule is None or issue.rule == rule)
            and (file is None or issue.file == file)
        ]
        assert found, (
            f"no {check!r} issue containing {needles!r} (rule {rule}); the validator reported:\n"
            + describe(validation.issues)
        )
        assert len(found) == 1, f"{len(found)} matching issues, expected one:\n" + describe(found)
        return found[0]

    @staticmethod
    def assert_located(issue: Issue, file: str, where: tuple[int, int], path: str | None) -> None:
        """The issue stands at ``file:line:column`` (and at the field ``path`` pattern)."""
        line, column = where
        expected = f"{file}:{line}:{column}"
        assert issue.location == expected, f"{issue}\n  expected at {expected}"
        assert (issue.file, issue.line, issue.column) == (file, line, column)
        if path is not None:
            shown = format_path(issue.path)
            assert path_matches(shown, path), f"field path {shown!r} does not match {path!r}"


@pytest.fixture(scope="session")
def default_validation() -> Validation:
    """The validation of the shipped catalog (read once)."""
    return validate_catalog(default_catalog_dir())


@pytest.fixture
def catalog_copy(tmp_path: Path) -> CatalogCopy:
    """A fresh copy of the default catalog in ``tmp_path/catalog``."""
    target = tmp_path / "catalog"
    shutil.copytree(default_catalog_dir(), target)
    return CatalogCopy(target)
