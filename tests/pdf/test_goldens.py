"""Golden tests at two levels: the drawing log of representative pages, and a small PDF.

Regenerate after an intended change with ``pytest tests/pdf --update-goldens`` and review the
diff of ``tests/pdf/golden/`` like any other change.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any

import pdfplumber
import pytest
from pypdf import PdfReader

from mhp_cards.pdf.kit import Section

TOLERANCE_PT = 72 / 25.4  # 1 mm
DATES = {"/CreationDate", "/ModDate"}

#: (label, side) of the pages whose drawing log is kept: one of each kind of sheet.
PAGES = [
    ("raw-1", "front"),
    ("reactors-1", "front"),
    ("reactors-1", "back"),
    ("mission-1", "front"),
    ("tokens-1", "front"),
    ("aids-1", "front"),
    ("guide-1", "front"),
    ("rules-1", "back"),
]


@pytest.mark.parametrize(("label", "side"), PAGES, ids=[f"{label}-{side}" for label, side in PAGES])
def test_drawing_log(kit: list[Section], golden: Any, label: str, side: str) -> None:
    (page,) = [p for s in kit for p in s.pages if (p.label, p.side) == (label, side)]
    golden.text(f"sketch-{label}-{side}.txt", page.log())


def _structure(built: Any) -> dict[str, Any]:
    files = {}
    for kit_file in built.result.files:
        reader = PdfReader(kit_file.path)
        metadata = {k: str(v) for k, v in (reader.metadata or {}).items() if k not in DATES}
        root = reader.trailer["/Root"]
        files[kit_file.path.name] = {
            "pages": len(reader.pages),
            "sizes": sorted(
                {
                    f"{float(p.mediabox.width):.2f}x{float(p.mediabox.height):.2f}"
                    for p in reader.pages
                }
            ),
            "metadata": metadata,
            "lang": str(root.get("/Lang")),
            "viewer_preferences": {k: str(v) for k, v in root["/ViewerPreferences"].items()},
        }
    return files


def test_small_pdf_structure(built_small: Any, golden: Any) -> None:
    golden.json("small-structure.json", _structure(built_small))


def _words(built: Any) -> list[list[list[Any]]]:
    """[text, x, y] of every word on every page of the small kit, in points, top-left origin."""
    with pdfplumber.open(built.path("kit")) as pdf:
        return [
            [[w["text"], round(w["x0"], 2), round(w["top"], 2)] for w in page.extract_words()]
            for page in pdf.pages
        ]


def _compare_words(expected: Any, actual: Any) -> Iterator[str]:
    if len(expected) != len(actual):
        yield f"{len(actual)} pages, the golden file has {len(expected)}"
    for number, (old, new) in enumerate(zip(expected, actual, strict=False), start=1):
        old_texts, new_texts = [w[0] for w in old], [w[0] for w in new]
        if old_texts != new_texts:
            for line in difflib.unified_diff(old_texts, new_texts, lineterm="", n=1):
                if not line.startswith(("---", "+++")):
                    yield f"page {number}: words {line}"
            continue
        for (text, x0, y0), (_, x1, y1) in zip(old, new, strict=True):
            if abs(x1 - x0) > TOLERANCE_PT or abs(y1 - y0) > TOLERANCE_PT:
                yield (
                    f"page {number}: {text!r} moved from ({x0}, {y0}) to ({x1}, {y1}) pt, "
                    "more than 1 mm"
                )


def test_small_pdf_text_positions(built_small: Any, golden: Any) -> None:
    golden.json("small-words.json", _words(built_small), _compare_words)


def test_word_comparison_tolerates_less_than_a_millimetre() -> None:
    golden_words = [[["КАРТА", 100.0, 200.0], ["МИССИЙ", 150.0, 200.0]]]
    close = [[["КАРТА", 102.5, 197.5], ["МИССИЙ", 150.0, 200.0]]]
    assert list(_compare_words(golden_words, close)) == []
    moved = [[["КАРТА", 103.0, 200.0], ["МИССИЙ", 150.0, 200.0]]]
    assert list(_compare_words(golden_words, moved)) == [
        "page 1: 'КАРТА' moved from (100.0, 200.0) to (103.0, 200.0) pt, more than 1 mm"
    ]
    changed = [[["КАРТА", 100.0, 200.0], ["МИССИИ", 150.0, 200.0]]]
    assert "page 1: words -МИССИЙ" in list(_compare_words(golden_words, changed))
    assert list(_compare_words(golden_words, [*close, []])) == ["2 pages, the golden file has 1"]
