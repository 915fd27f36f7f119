"""The kit as PDF, read back: sizes, pages, text, fonts, boxes, determinism, atomic writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from pypdf.generic import DictionaryObject

import mhp_cards.pdf.kit as kit_module
from mhp_cards.catalog import Catalog
from mhp_cards.pdf import SECTIONS, build_kit
from mhp_cards.pdf.impose import impose
from mhp_cards.pdf.kit import Section
from mhp_cards.pdf.layout import SheetProfile, Templates
from mhp_cards.pdf.sketch import PageSketch

A4_PT = (595.28, 841.89)
PT_PER_MM = 72 / 25.4
Built = Any  # the ``built`` fixtures of conftest.py: ``out``, ``result``, ``path(name)``


def _reader(path: Path) -> PdfReader:
    return PdfReader(path)


def _blank(page: Any) -> bool:
    return not list(page.get_objects())


def test_files_written(built: Built) -> None:
    names = [f.section for f in built.result.files]
    assert names == ["kit", *SECTIONS]
    assert sorted(p.name for p in built.out.iterdir()) == sorted(
        [*(f"mhp-{name}.pdf" for name in names), "mhp-kit.manifest.json"]
    )
    assert built.result.manifest == built.out / "mhp-kit.manifest.json"
    for kit_file in built.result.files:
        assert kit_file.path == built.path(kit_file.section)
        assert len(_reader(kit_file.path).pages) == kit_file.pages, kit_file.section


def test_page_counts_per_file(built: Built, kit: list[Section]) -> None:
    pages = {f.section: f.pages for f in built.result.files}
    for section in kit:
        assert pages[section.name] == len(section.pages), section.name


def test_every_page_is_a4(built: Built) -> None:
    for kit_file in built.result.files:
        for number, page in enumerate(_reader(kit_file.path).pages, start=1):
            width, height = float(page.mediabox.width), float(page.mediabox.height)
            assert width == pytest.approx(A4_PT[0], abs=0.5), (kit_file.section, number)
            assert height == pytest.approx(A4_PT[1], abs=0.5), (kit_file.section, number)


def test_kit_is_the_sections_with_blank_backs(built: Built, kit: list[Section]) -> None:
    kit_pdf = pdfium.PdfDocument(built.path("kit"))
    total = len(kit_pdf)
    assert total % 2 == 0  # a double-sided kit: every sheet has two sides
    sections = [f for f in built.result.files if f.section != "kit"]
    blanks = [i for i in range(total) if _blank(kit_pdf[i])]
    assert total == sum(f.pages for f in sections) + len(blanks)
    single = sum(len(s.pages) for s in kit if not s.duplex)
    assert len(blanks) == single
    # each blank back follows a printed page, so every front stays on an odd page
    assert all(i % 2 == 1 and not _blank(kit_pdf[i - 1]) for i in blanks)
    # the printed pages of the kit are the section files' pages, in order
    printed = [kit_pdf[i].get_textpage().get_text_range() for i in range(total) if i not in blanks]
    parts = []
    for kit_file in sections:
        document = pdfium.PdfDocument(kit_file.path)
        parts += [document[i].get_textpage().get_text_range() for i in range(len(document))]
    assert printed == parts


def test_every_raw_card_reads_back(
    built: Built, catalog: Catalog, a4: SheetProfile, templates: Templates
) -> None:
    """The formula and the name of every raw card are real text at their place on the sheet."""
    imposition = impose(a4, "raw")
    regions = templates["raw"].regions
    cards = [(raw, copy) for raw in catalog.raw_materials for copy in range(raw.copies)]
    with pdfplumber.open(built.path("raw")) as pdf:
        assert len(pdf.pages) == 2 * -(-len(cards) // imposition.per_page)
        for index, (raw, _) in enumerate(cards):
            page = pdf.pages[2 * (index // imposition.per_page)]  # fronts are the odd pages
            slot = imposition.fronts[index % imposition.per_page]

            def read(region: str, page: Any = page, slot: Any = slot) -> list[dict[str, Any]]:
                r = regions[region]
                box = (
                    (slot.x + r.x) * PT_PER_MM,
                    (slot.y + r.y) * PT_PER_MM,
                    (slot.x + r.x + r.width) * PT_PER_MM,
                    (slot.y + r.y + r.height) * PT_PER_MM,
                )
                return page.crop(box).chars

            formula = sorted(read("formula"), key=lambda char: char["x0"])
            # subscripts are separate, smaller, lower runs: read left to right they spell it
            assert "".join(char["text"] for char in formula) == raw.formula, raw.id
            assert {round(char["size"], 1) for char in formula} >= {round(formula[0]["size"], 1)}
            name = sorted(read("name"), key=lambda char: char["x0"])
            assert "".join(char["text"] for char in name) == raw.name.get("ru"), raw.id
            assert all("PTSans-Bold" in char["fontname"] for char in formula + name)


def test_reactor_and_mission_texts(built: Built, catalog: Catalog) -> None:
    def text(name: str) -> str:
        document = pdfium.PdfDocument(built.path(name))
        return "".join(document[i].get_textpage().get_text_range() for i in range(len(document)))

    reactors = text("reactors").replace("\r\n", "")
    for installation in catalog.installations:
        for card in installation.cards:
            assert card.id in reactors
    mission = "".join(text("mission").split())
    for item in catalog.missions:
        assert "".join(item.name.get("ru").split()) in mission


def _fonts(reader: PdfReader) -> dict[str, DictionaryObject]:
    found: dict[str, DictionaryObject] = {}
    for page in reader.pages:
        resources = page.get("/Resources")
        fonts = resources.get_object().get("/Font") if resources else None
        for reference in (fonts.get_object() if fonts else {}).values():
            font = reference.get_object()
            found[str(font["/BaseFont"])] = font
    return found


def _descriptor(font: DictionaryObject) -> DictionaryObject | None:
    if "/DescendantFonts" in font:
        font = font["/DescendantFonts"][0].get_object()
    descriptor = font.get("/FontDescriptor")
    return descriptor.get_object() if descriptor is not None else None


def test_pt_sans_is_embedded(built: Built) -> None:
    fonts = _fonts(_reader(built.path("kit")))
    pt_sans = {name: font for name, font in fonts.items() if "PTSans" in name}
    assert {name.split("+")[-1] for name in pt_sans} == {"PTSans-Regular", "PTSans-Bold"}
    for name, font in pt_sans.items():
        descriptor = _descriptor(font)
        assert descriptor is not None, name
        assert "/FontFile2" in descriptor, name
        assert "+" in name  # a subset: only the glyphs used


def test_every_font_is_embedded(built: Built) -> None:
    fonts = _fonts(_reader(built.path("kit")))
    unembedded = [
        name
        for name, font in fonts.items()
        if not (d := _descriptor(font))
        or not any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    ]
    assert unembedded == []


def test_card_pages_have_trim_and_bleed_boxes(built: Built, kit: list[Section]) -> None:
    raw_sketches = next(s for s in kit if s.name == "raw").pages
    raw = _reader(built.path("raw"))
    for page, sketch in zip(raw.pages, raw_sketches, strict=True):
        assert "/TrimBox" in page
        assert "/BleedBox" in page
        assert sketch.trim is not None
        x, y, w, h = sketch.trim
        height = float(page.mediabox.height)
        trim = [float(v) for v in page.trimbox]
        expected = [x, 297 - (y + h), x + w, 297 - y]
        assert trim == pytest.approx([v * PT_PER_MM for v in expected], abs=0.01)
        assert height == pytest.approx(297 * PT_PER_MM)
        assert [float(v) for v in page.bleedbox] == pytest.approx(trim, abs=0.01)  # no bleed
    # in the combined kit, every page of every card section has its own boxes
    for page, kit_sketch in zip(_reader(built.path("kit")).pages, _kit_sequence(kit), strict=True):
        if kit_sketch is not None and kit_sketch.trim is not None:
            x, y, w, h = kit_sketch.trim
            expected = [x, 297 - (y + h), x + w, 297 - y]
            assert [float(v) for v in page.trimbox] == pytest.approx(
                [v * PT_PER_MM for v in expected], abs=0.01
            ), kit_sketch.label


def _kit_sequence(kit: list[Section]) -> list[PageSketch | None]:
    """The sketches in the order of the combined kit; None for a blank back."""
    sequence: list[PageSketch | None] = []
    for section in kit:
        for page in section.pages:
            sequence.append(page)
            if not section.duplex:
                sequence.append(None)
    return sequence


def test_pages_without_cut_cards_have_no_trim_box(built: Built, kit: list[Section]) -> None:
    stale = []
    for number, (page, sketch) in enumerate(
        zip(_reader(built.path("kit")).pages, _kit_sequence(kit), strict=True), start=1
    ):
        if sketch is None or sketch.trim is None:
            box = [float(v) for v in page.trimbox]
            if box != pytest.approx([float(v) for v in page.mediabox], abs=0.01):
                stale.append(number)
    assert stale == []


def test_viewer_preferences_and_metadata(built: Built) -> None:
    for kit_file in built.result.files:
        reader = _reader(kit_file.path)
        root = reader.trailer["/Root"]
        preferences = root["/ViewerPreferences"]
        assert preferences["/PrintScaling"] == "/None"  # real size, not "fit to page"
        assert root["/Lang"] == "ru"
        metadata = reader.metadata
        assert metadata is not None
        assert metadata.title == f"МАРСХИМПРОМ — {kit_file.section}"
        assert metadata.author == "mhp-cards"
        assert metadata.subject == "МАРСХИМПРОМ: набор для печати"


def test_two_builds_are_byte_identical(built: Built, catalog: Catalog, tmp_path: Path) -> None:
    again = build_kit(catalog, out_dir=tmp_path)
    for first, second in zip(built.result.files, again.files, strict=True):
        assert first.path.read_bytes() == second.path.read_bytes(), first.section


BUILD = """
import sys
from pathlib import Path
from mhp_cards.validate import load_catalog
from mhp_cards.pdf import build_kit
build_kit(load_catalog(), only=["mission", "field"], out_dir=Path(sys.argv[1]))
"""


def test_builds_in_other_processes_are_byte_identical(built_small: Built, tmp_path: Path) -> None:
    """String hashing differs between processes (PYTHONHASHSEED): the bytes must not."""
    for seed in ("1", "2"):
        out = tmp_path / seed
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", BUILD, str(out)], check=True, env=env, timeout=120)
        for kit_file in built_small.result.files:
            assert (out / kit_file.path.name).read_bytes() == kit_file.path.read_bytes()


def _fail_on_call(
    monkeypatch: pytest.MonkeyPatch, target: Any, name: str, call: int
) -> Callable[..., Any]:
    real = getattr(target, name)
    calls = {"n": 0}

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == call:
            raise RuntimeError(f"{name} failed on call {call}")
        return real(*args, **kwargs)

    monkeypatch.setattr(target, name, wrapper)
    return wrapper


def test_a_failed_render_leaves_the_previous_files(
    built: Built, catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build that stops mid-way changes no file: the set is replaced all together or not."""
    previous = {name: f"%PDF-1.4 previous {name}\n".encode() for name in ("kit", "raw", "mission")}
    for name, data in previous.items():
        (tmp_path / f"mhp-{name}.pdf").write_bytes(data)
    # the documents are rendered kit, raw, mission: the second one fails
    _fail_on_call(monkeypatch, kit_module, "render_pdf", 2)
    with pytest.raises(RuntimeError, match="render_pdf failed"):
        build_kit(catalog, only=["raw", "mission"], out_dir=tmp_path)
    for name, data in previous.items():
        assert (tmp_path / f"mhp-{name}.pdf").read_bytes() == data, name
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "mhp-kit.pdf",
        "mhp-mission.pdf",
        "mhp-raw.pdf",
    ]  # and no temporary file is left, nor a manifest of the failed build
    monkeypatch.undo()
    build_kit(catalog, only=["raw", "mission"], out_dir=tmp_path)
    expected = sum(len(_reader(built.path(name)).pages) for name in ("raw", "mission"))
    assert len(_reader(tmp_path / "mhp-kit.pdf").pages) == expected


def test_a_failed_write_leaves_the_previous_file_and_no_temporary(
    built_small: Built, catalog: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The data is in the temporary file when the write fails: the target must not change."""
    previous = b"%PDF-1.4 the previous kit\n"
    (tmp_path / "mhp-kit.pdf").write_bytes(previous)
    _fail_on_call(monkeypatch, os, "fsync", 1)  # after the bytes are written, before the rename
    with pytest.raises(RuntimeError, match="fsync failed"):
        build_kit(catalog, only=["mission", "field"], out_dir=tmp_path)
    assert (tmp_path / "mhp-kit.pdf").read_bytes() == previous
    assert [p.name for p in tmp_path.iterdir()] == ["mhp-kit.pdf"]  # no temporary left behind
    monkeypatch.undo()
    build_kit(catalog, only=["mission", "field"], out_dir=tmp_path)
    assert (tmp_path / "mhp-kit.pdf").read_bytes() == built_small.path("kit").read_bytes()


# Rendering ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "low", "high"),
    [
        ("raw-1 front", 0.6, 0.9),  # twelve cream cards (measured 0.78)
        ("raw-1 back", 0.6, 0.9),  # twelve red backs (0.77)
        ("reactors-1 front", 0.4, 0.7),  # six pale grey reactor cards (0.54)
        ("tokens-1 front", 0.4, 0.75),  # coins and chemist tokens, 2 mm of spill each (0.63)
        ("aids-1 front", 0.08, 0.3),  # white cards: only text and frames show (0.16)
        ("guide-1 front", 0.08, 0.3),  # two reactor cards on a white page (0.17)
        ("rules-2 front", 0.08, 0.3),  # two columns of text under a red band
        ("cover front", 0.2, 0.6),  # red band, striped paper table
    ],
)
def test_pages_render(
    built: Built, kit: list[Section], label: str, low: float, high: float
) -> None:
    sequence = [f"{p.label} {p.side}" if p else "blank" for p in _kit_sequence(kit)]
    index = sequence.index(label)
    document = pdfium.PdfDocument(built.path("kit"))
    image = document[index].render(scale=50 / 72, grayscale=True).to_pil()
    assert image.size == pytest.approx((210 / 25.4 * 50, 297 / 25.4 * 50), abs=1)
    histogram = image.histogram()  # 256 counts of grey levels
    ink = sum(histogram[:245]) / sum(histogram)
    assert low <= ink <= high, f"{label}: {ink:.2f} of the page is not white"


def test_no_page_of_the_kit_is_blank(built: Built) -> None:
    """Every back carries something: the cover its checklist, guide pages the next guide.

    Only the Fate cards' sheets have blank backs (they are field tiles, printed on one side),
    and the one-page cutting guide.
    """
    manifest = json.loads((built.out / "mhp-kit.manifest.json").read_text("utf-8"))
    fate = [p["number"] for p in manifest["pages"] if p["section"] in ("cutting", "fate")]
    document = pdfium.PdfDocument(built.path("kit"))
    blank = [
        number
        for number in range(1, len(document) + 1)
        if document[number - 1].render(scale=20 / 72, grayscale=True).to_pil().getextrema()
        == (255, 255)
    ]
    assert blank == [n for n in fate if n % 2 == 0]
    assert len(blank) == len(fate) // 2


def test_reportlab_writes_numbers_and_streams_with_its_c_accelerators() -> None:
    # reportlab 4 and later ship their C accelerators apart (rl_accel, the accel extra the
    # package asks for); without them every coordinate of the kit is formatted, and every page
    # stream encoded, in pure Python: the whole kit took 7.0 s instead of 4.1 s, with the
    # same bytes.
    from reportlab.lib import rl_accel

    assert rl_accel.fp_str.__module__ == "_rl_accel"
    assert rl_accel.asciiBase85Encode.__module__ == "_rl_accel"
