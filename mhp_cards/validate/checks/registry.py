"""The check registry: what each check needs, and the runner that skips what cannot be judged."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from mhp_cards.catalog.models import (
    formula_of,
)
from mhp_cards.errors import FormulaError
from mhp_cards.issues import Issue
from mhp_cards.validate.checks.fields import formula_fields
from mhp_cards.validate.checks.parts import (
    COMPONENTS,
    INSTALLATIONS,
    MISSIONS,
    RAW,
    SUBSTANCES,
    Parts,
)

__all__ = ["CHECKS", "Check", "CheckFunction", "SkipCheck", "check", "run_checks"]

CheckFunction = Callable[[Parts], Iterator[Issue]]


@dataclass(frozen=True, slots=True)
class Check:
    """A registered check: its name, what it verifies, the files it needs."""

    name: str
    description: str
    needs: tuple[str, ...]
    run: CheckFunction


CHECKS: list[Check] = []


class SkipCheck(Exception):  # noqa: N818 - a signal, not an error
    """Raised by a check that cannot judge yet (its status then says why)."""


def check(name: str, description: str, *needs: str) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check function under ``name``."""

    def register(function: CheckFunction) -> CheckFunction:
        CHECKS.append(Check(name, description, needs, function))
        return function

    return register


def _available(parts: Parts, file: str) -> bool:
    return {
        SUBSTANCES: parts.substances is not None,
        RAW: parts.raw_materials is not None,
        INSTALLATIONS: parts.installations is not None,
        MISSIONS: parts.missions is not None,
        COMPONENTS: parts.components is not None,
    }[file]


def run_checks(parts: Parts) -> tuple[list[Issue], dict[str, str]]:
    """Run every check whose files are available; return the issues and each check's status."""
    issues: list[Issue] = []
    status: dict[str, str] = {}
    broken = _broken_formulas(parts)
    for registered in CHECKS:
        missing = [file for file in registered.needs if not _available(parts, file)]
        if missing:
            status[registered.name] = f"skipped: {', '.join(missing)} has errors"
            continue
        try:
            found = [
                issue
                for issue in registered.run(parts)
                if registered.name in {"formulas", "reactions"} or not _mentions(issue, broken)
            ]
        except SkipCheck as skipped:
            status[registered.name] = f"skipped: {skipped}"
            continue
        issues.extend(found)
        errors = sum(issue.severity == "error" for issue in found)
        warnings = len(found) - errors
        status[registered.name] = (
            "ok"
            if not found
            else ", ".join(
                part
                for part in (
                    f"{errors} error(s)" if errors else "",
                    f"{warnings} warning(s)" if warnings else "",
                )
                if part
            )
        )
    return issues, status


def _mentions(issue: Issue, broken: set[str]) -> bool:
    """True when an issue is only a consequence of a formula that does not parse."""
    return any(
        f"'{text}'" in issue.message or f" {text} " in f" {issue.message} " for text in broken
    )


def _broken_formulas(parts: Parts) -> set[str]:
    broken = set()
    for _, _, text in formula_fields(parts):
        try:
            formula_of(text)
        except FormulaError:
            broken.add(text)
    return broken
