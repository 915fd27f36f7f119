"""What a prepress desk checks, measured in the PDFs: the safe zone, black ink, overprint, corners.

Every number here is read back from the written files (pdfplumber, pypdf, PDFium), not from the
drawing code: the text of every card keeps 3 mm from its cut line, black and grey text prints
on the black plate alone in the CMYK kit, the cut contour overprints, and a card's border runs
square into the bleed with no wedge of paper colour at its corners.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from mhp_cards.catalog import Catalog
from mhp_cards.catalog.cardid import english_card_id
from mhp_cards.errors import KitError
from mhp_cards.pdf.kit import Section, plan_kit
from mhp_cards.pdf.layout import load_profile, load_templates
from mhp_cards.pdf.raw_face import crystal
from mhp_cards.pdf.safezone import CARD_KINDS, SAFE_ZONE
from mhp_cards.pdf.sketch import Line, Polygon, Sketch, Text
from mhp_cards.resources import default_layouts_dir
from mhp_cards.validate.figures import catalog_figures

Built = Any
PT_PER_MM = 72 / 25.4
#: The manifest's kinds of the pieces held to the safe zone (the electrolyser is a reactor card).
SAFE_KINDS = CARD_KINDS | {"electrolyser"}


def _manifest(built: Built) -> dict[str, Any]:
    return json.loads((built.out / "mhp-kit.manifest.json").read_text("utf-8"))


def _char_margins(built: Built) -> Iterator[tuple[str, str, float]]:
    """(piece, character, its distance to the nearest cut line in mm) for every character that
    lies on a card, read with pdfplumber (its box: advance width, font ascent and descent)."""
    manifest = _manifest(built)
    pieces: dict[int, list[dict[str, Any]]] = {}
    for piece in manifest["pieces"]:
        if piece["kind"] in SAFE_KINDS:
            pieces.setdefault(piece["page"], []).append(piece)
    with pdfplumber.open(built.path("kit")) as pdf:
        for number, on_page in pieces.items():
            page = pdf.pages[number - 1]
            height = float(page.height) / PT_PER_MM
            for char in page.chars:
                if not char["text"].strip():
                    continue
                left, right = char["x0"] / PT_PER_MM, char["x1"] / PT_PER_MM
                top, bottom = height - char["top"] / PT_PER_MM, height - char["bottom"] / PT_PER_MM
                cx, cy = (left + right) / 2, (top + bottom) / 2
                for piece in on_page:
                    x0, y0, x1, y1 = piece["trim_mm"]
                    if x0 <= cx <= x1 and y0 <= cy <= y1:
                        margin = min(left - x0, x1 - right, y1 - top, bottom - y0)
                        yield piece["id"], char["text"], margin


@pytest.mark.parametrize("which", ["built", "built_shop"])
def test_no_text_within_three_millimetres_of_a_cut_line(
    which: str, request: pytest.FixtureRequest
) -> None:
    built = request.getfixturevalue(which)
    margins = list(_char_margins(built))
    assert len(margins) > 10_000  # every card's text was found and measured
    close = sorted((m, piece, char) for piece, char, m in margins if m < SAFE_ZONE - 0.05)
    assert close == [], close[:10]
    # the nearest text sits right at the limit: the check measures what the build checks
    assert min(m for _, _, m in margins) < SAFE_ZONE + 0.5


def test_text_in_the_safe_zone_stops_the_build(tmp_path: Path, catalog: Catalog) -> None:
    copy = tmp_path / "layouts"
    import shutil

    shutil.copytree(default_layouts_dir(), copy)
    templates = copy / "templates.yaml"
    text = templates.read_text("utf-8")
    old = "header:  {x: 4, y: 3.5, width: 55, height: 5,"
    assert text.count(old) == 1
    templates.write_text(text.replace(old, "header:  {x: 4, y: 0.5, width: 55, height: 5,"))
    profile = load_profile(str(copy / "sheets" / "a4.yaml"))
    with pytest.raises(KitError) as caught:
        plan_kit(catalog, profile, load_templates(profile, copy / "sheets"), only=["raw"])
    problems = caught.value.problems
    assert {p.region for p in problems} == {"safe zone"}
    assert "water-ice#1" in {p.card for p in problems}
    assert "'СЫРЬЁ' is" in str(caught.value)
    assert "from the top edge" in str(caught.value)


# Black ink ----------------------------------------------------------------------------------------


def _text_colours(reader: PdfReader) -> Iterator[tuple[float, ...]]:
    """The fill colour of every text-showing operation of every page."""
    for page in reader.pages:
        fill: tuple[float, ...] = ()
        stack: list[tuple[float, ...]] = []
        for operands, operator in ContentStream(page.get_contents(), reader).operations:
            if operator == b"k":
                fill = tuple(float(v) for v in operands)
            elif operator == b"q":
                stack.append(fill)
            elif operator == b"Q" and stack:
                fill = stack.pop()
            elif operator in (b"Tj", b"TJ", b"'", b'"'):
                yield fill


def test_black_and_grey_text_prints_on_the_black_plate_alone(built_shop: Built) -> None:
    colours = [c for f in built_shop.result.files for c in _text_colours(PdfReader(f.path))]
    dark = [c for c in colours if len(c) == 4 and c[3] >= 0.5]
    assert len(dark) > 5_000
    # a black or a grey on colour plates (the first editions' ink was C0 M11 Y9 K86); a dark
    # colour meant as a colour (a brown note, a gold price) has a colour channel above 25 %
    rich = [c for c in dark if any(v > 0 for v in c[:3]) and max(c[:3]) <= 0.25]
    assert rich == []
    assert (0.0, 0.0, 0.0, 1.0) in set(dark)  # the kit's ink is 100 % K


def test_cut_contour_overprints(built_shop: Built) -> None:
    reader = PdfReader(built_shop.path("tokens"))
    strokes = 0
    for page in reader.pages:
        states = page["/Resources"].get("/ExtGState", {})
        spaces = page["/Resources"].get("/ColorSpace", {})
        spot = {name for name, space in spaces.items() if "/CutContour" in str(space.get_object())}
        if not spot:
            continue  # the backs of the token sheets carry no contour
        overprint, space = False, ""
        stack: list[tuple[bool, str]] = []
        for operands, operator in ContentStream(page.get_contents(), reader).operations:
            if operator == b"q":
                stack.append((overprint, space))
            elif operator == b"Q":
                overprint, space = stack.pop()
            elif operator == b"gs":
                state = states[operands[0]].get_object()
                overprint = bool(state.get("/OP", overprint))
            elif operator == b"CS":
                space = str(operands[0])
            elif operator in (b"S", b"s", b"B", b"b") and space in spot:
                assert overprint
                strokes += 1
    assert strokes >= 100  # every token's contour


def _pixel(bitmap: Any, scale: float, height_mm: float, x: float, y: float) -> tuple[int, ...]:
    return tuple(bitmap.getpixel((round(x * scale), round((height_mm - y) * scale))))[:3]


@pytest.mark.parametrize("section", ["reactors", "mission", "aids"])
def test_bordered_cards_have_square_corners_into_the_bleed(built_shop: Built, section: str) -> None:
    """Rendered: just inside each corner of the trim is the border's colour, not the paper's."""
    manifest = _manifest(built_shop)
    number = next(p["number"] for p in manifest["pages"] if p["section"] == section)
    page = next(p for p in manifest["pages"] if p["number"] == number)
    scale = 16.0  # px per mm
    bitmap = (
        pdfium.PdfDocument(built_shop.path("kit"))[number - 1]
        .render(scale=scale / PT_PER_MM)
        .to_pil()
    )
    corners = 0
    for piece in (p for p in manifest["pieces"] if p["page"] == number):
        x0, y0, x1, y1 = piece["trim_mm"]
        for x, y in (
            (x0 + 0.2, y0 + 0.2),
            (x1 - 0.2, y0 + 0.2),
            (x0 + 0.2, y1 - 0.2),
            (x1 - 0.2, y1 - 0.2),
        ):
            red, green, blue = _pixel(bitmap, scale, page["size_mm"][1], x, y)
            assert 0.2126 * red + 0.7152 * green + 0.0722 * blue < 170, (piece["id"], x, y)
            corners += 1
    assert corners >= 4


# Cards -------------------------------------------------------------------------------------------


def test_the_raw_back_crystal_draws_no_line_across_itself() -> None:
    """One outline, its top inside it, and only the two front edges between top and base."""
    sketch = Sketch()
    sketch.new_page(63, 63, "probe")
    crystal(sketch, 31.5, 24, 11, "#FFFFFF", "#556677")
    outline, top = [op for op in sketch.page.ops if isinstance(op, Polygon)]
    edges = [op for op in sketch.page.ops if isinstance(op, Line)]
    xs = [x for x, _ in outline.points]
    ys = [y for _, y in outline.points]
    for x, y in top.points:  # the top hexagon lies within the outline's box, on its upper part
        assert min(xs) - 1e-9 <= x <= max(xs) + 1e-9
        assert min(ys) - 1e-9 <= y <= max(ys)
    assert (len(top.points), len(outline.points), len(edges)) == (6, 8, 2)
    for edge in edges:  # each front edge runs from a front corner of the top straight down
        assert edge.x1 == edge.x2
        assert edge.y2 > edge.y1
        assert any(abs(edge.x1 - x) < 1e-9 and abs(edge.y1 - y) < 1e-9 for x, y in top.points)


def test_each_raw_card_says_where_it_is_used(catalog: Catalog, kit: list[Section]) -> None:
    raw = next(s for s in kit if s.name == "raw")
    text = "".join(op.text for page in raw.pages for op in page.ops if isinstance(op, Text))
    figures = catalog_figures(catalog)
    for kind in figures.raw:
        if len(kind.feeds) > 1:
            assert ", ".join(map(str, kind.feeds)) in text, kind.id
        if kind.missions:
            assert ", ".join(kind.missions) in text, kind.id
    if figures.idle_kinds:
        assert "Для продажи и обмена" in text


def test_english_card_ids_use_latin_letters_by_their_place(
    catalog: Catalog, kit_en: list[Section]
) -> None:
    reactors = next(s for s in kit_en if s.name == "reactors")
    text = {op.text for page in reactors.pages for op in page.ops if isinstance(op, Text)}
    for installation in catalog.installations:
        for card in installation.cards:
            assert english_card_id(card.id) in text, card.id
            assert card.id not in text or card.id == english_card_id(card.id), card.id
    assert "E" in text
    assert "Э" not in text
