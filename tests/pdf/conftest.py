"""Fixtures of the print-and-play tests: the kit planned and built once per session, goldens.

The kit is laid out (``plan_kit``) and written (``build_kit``) once per test session and shared
read-only by every test that needs it, so the whole of ``tests/pdf`` stays fast.

Golden files live in ``tests/pdf/golden/``. They change only when pytest is run with
``--update-goldens`` (registered in tests/conftest.py); without the flag a difference fails
with a readable diff.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from mhp_cards.catalog import Catalog
from mhp_cards.pdf import KitResult, build_kit, plan_kit
from mhp_cards.pdf.kit import Section
from mhp_cards.pdf.layout import SheetProfile, Templates, load_profile, load_templates
from mhp_cards.pdf.sketch import Circle, Mark, PageSketch, Rect
from mhp_cards.validate import load_catalog

GOLDEN_DIR = Path(__file__).parent / "golden"


# The kit, once per session -----------------------------------------------------------------------


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def a4() -> SheetProfile:
    return load_profile("a4")


@pytest.fixture(scope="session")
def templates(a4: SheetProfile) -> Templates:
    return load_templates(a4)


@pytest.fixture(scope="session")
def kit(catalog: Catalog, a4: SheetProfile, templates: Templates) -> list[Section]:
    """The whole kit laid out on A4 in Russian (sketches, no PDF)."""
    return plan_kit(catalog, a4, templates)


@pytest.fixture(scope="session")
def kit_en(catalog: Catalog, a4: SheetProfile, templates: Templates) -> list[Section]:
    """The whole kit laid out on A4 in English."""
    return plan_kit(catalog, a4, templates, lang="en")


@dataclass(frozen=True)
class Built:
    """A kit written to disk: where, and what ``build_kit`` reported."""

    out: Path
    result: KitResult

    def path(self, name: str) -> Path:
        return self.out / f"mhp-{name}.pdf"


@pytest.fixture(scope="session")
def built(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The whole kit written as PDF (A4, Russian) — do not modify the files."""
    out = tmp_path_factory.mktemp("kit")
    return Built(out, build_kit(catalog, out_dir=out))


@pytest.fixture(scope="session")
def built_shop(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The whole kit for a print shop: ``--layout print-shop --color cmyk`` — do not modify."""
    out = tmp_path_factory.mktemp("shop")
    return Built(out, build_kit(catalog, layout="print-shop", out_dir=out, colour="cmyk"))


@pytest.fixture(scope="session")
def built_small(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Built:
    """``--only mission,field``: a small kit for the PDF goldens."""
    out = tmp_path_factory.mktemp("small")
    return Built(out, build_kit(catalog, only=["mission", "field"], out_dir=out))


@pytest.fixture(scope="session")
def section_of(kit: list[Section]) -> Callable[[str], Section]:
    by_name = {section.name: section for section in kit}
    return by_name.__getitem__


# Where the cards are on a page, read back from the recorded operations ---------------------------


def card_boxes(page: PageSketch, profile: SheetProfile) -> list[tuple[float, float, float, float]]:
    """(x, y, width, height) of every card drawn on ``page``, in drawing order, to 0.01 mm.

    A card is where the imposition marked a piece; :func:`background_boxes` checks that each
    mark sits on a drawn card.
    """
    return [_box(*op.box) for op in page.ops if isinstance(op, Mark) and op.kind == "piece"]


def background_boxes(
    page: PageSketch, profile: SheetProfile
) -> list[tuple[float, float, float, float]]:
    """(x, y, width, height) of every card background drawn on ``page``, in drawing order.

    A card's background is the first filled shape it draws: a rectangle of a card size (a
    circle of a token's diameter), grown by the bleed on every side on a sheet with a bleed.
    """
    grow = profile.reach  # the bleed, or a home profile's spill
    rects = {
        (size.width, size.height)
        for size in profile.card_sizes.values()
        if size.shape == "rectangle"
    }
    diameters = {size.width for size in profile.card_sizes.values() if size.shape == "circle"}
    boxes: list[tuple[float, float, float, float]] = []
    first = True  # the next filled shape is the first of a card
    for op in page.ops:
        if isinstance(op, Mark) and op.kind == "piece":
            first = True
        elif isinstance(op, Rect | Circle) and op.fill and first:
            first = False
            if isinstance(op, Rect) and any(
                math.isclose(op.width, w + 2 * grow, abs_tol=1e-6)
                and math.isclose(op.height, h + 2 * grow, abs_tol=1e-6)
                for w, h in rects
            ):
                boxes.append(
                    _box(op.x + grow, op.y + grow, op.width - 2 * grow, op.height - 2 * grow)
                )
            elif isinstance(op, Circle) and any(
                math.isclose(2 * (op.r - grow), d, abs_tol=1e-6) for d in diameters
            ):
                r = op.r - grow
                boxes.append(_box(op.cx - r, op.cy - r, 2 * r, 2 * r))
    return boxes


def _box(x: float, y: float, width: float, height: float) -> tuple[float, float, float, float]:
    return (round(x, 2), round(y, 2), round(width, 2), round(height, 2))


@pytest.fixture(scope="session")
def boxes_of() -> Callable[[PageSketch, SheetProfile], list[tuple[float, float, float, float]]]:
    return card_boxes


# Goldens -----------------------------------------------------------------------------------------


class Golden:
    """Compares output with a file in ``tests/pdf/golden/``, or rewrites it with the flag."""

    def __init__(self, update: bool) -> None:
        self.update = update

    def text(self, name: str, actual: str) -> None:
        """``actual`` must equal the golden text file ``name`` (a unified diff otherwise)."""
        path = GOLDEN_DIR / name
        actual = actual.rstrip("\n") + "\n"
        if self.update:
            _write(path, actual)
            return
        expected = self._read(path)
        if expected != actual:
            diff = difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                f"golden/{name}",
                "actual",
                n=2,
            )
            lines = list(diff)
            shown = "".join(lines[:120]) + (
                f"... ({len(lines) - 120} more diff lines)\n" if len(lines) > 120 else ""
            )
            pytest.fail(
                f"output differs from golden/{name} (if the change is intended, run "
                f"`pytest --update-goldens` and review the diff):\n{shown}",
                pytrace=False,
            )

    def json(
        self,
        name: str,
        actual: Any,
        compare: Callable[[Any, Any], Iterable[str]] | None = None,
    ) -> None:
        """``actual`` must match the golden JSON ``name``: equal, or ``compare`` finds nothing."""
        path = GOLDEN_DIR / name
        text = json.dumps(actual, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        if self.update:
            _write(path, text)
            return
        expected = json.loads(self._read(path))
        if compare is None:
            self.text(name, text)
            return
        problems = list(compare(expected, actual))
        if problems:
            shown = "\n".join(f"  {problem}" for problem in problems[:60])
            more = f"\n  ... and {len(problems) - 60} more" if len(problems) > 60 else ""
            pytest.fail(
                f"output differs from golden/{name} (if the change is intended, run "
                f"`pytest --update-goldens` and review the diff):\n{shown}{more}",
                pytrace=False,
            )

    @staticmethod
    def _read(path: Path) -> str:
        if not path.is_file():
            pytest.fail(
                f"no golden file {path.name}: run `pytest --update-goldens` to create it",
                pytrace=False,
            )
        return path.read_text(encoding="utf-8")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Golden:
    return Golden(bool(request.config.getoption("--update-goldens", default=False)))
