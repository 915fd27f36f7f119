"""Print-shop output: CMYK-only content, art running into the bleed, token sheets, calibration."""

from __future__ import annotations

import json
import math
from typing import Any

import pdfplumber
import pypdfium2 as pdfium
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader
from pypdf.generic import ContentStream

from mhp_cards.pdf.impose import Slot, run_into_bleed
from mhp_cards.pdf.render import rgb_to_cmyk
from mhp_cards.pdf.sketch import Circle, Line, Rect, Text

Built = Any
PT_PER_MM = 72 / 25.4
RGB_OPERATORS = {b"rg", b"RG"}


# CMYK ---------------------------------------------------------------------------------------------


def _operators(reader: PdfReader) -> set[bytes]:
    found: set[bytes] = set()
    for page in reader.pages:
        for _, operator in ContentStream(page.get_contents(), reader).operations:
            found.add(operator)
    return found


def test_cmyk_kit_has_no_rgb_colour_anywhere(built_shop: Built) -> None:
    for kit_file in built_shop.result.files:
        reader = PdfReader(kit_file.path)
        operators = _operators(reader)
        assert not operators & RGB_OPERATORS, kit_file.path.name
        assert b"k" in operators or b"K" in operators, kit_file.path.name
        for page in reader.pages:
            spaces = page.get("/Resources", {}).get("/ColorSpace", {})
            for space in spaces.values():
                assert "/DeviceRGB" not in str(space.get_object()), kit_file.path.name


def test_rgb_kit_uses_rgb(built: Built) -> None:
    """The check above can fail: the default kit does use RGB operators."""
    assert _operators(PdfReader(built.path("raw"))) & RGB_OPERATORS


unit = st.integers(0, 255).map(lambda v: v / 255)


@given(unit, unit, unit)
def test_rgb_to_cmyk_is_the_device_conversion(red: float, green: float, blue: float) -> None:
    c, m, y, k = rgb_to_cmyk(red, green, blue)
    assert all(0 <= v <= 1 for v in (c, m, y, k))
    assert min(c, m, y) == 0  # the lightest channel is black's alone
    assert c + m + y + k <= 3 + 1e-9
    # It inverts the device rendering: red = (1 − c)(1 − k), and so on (to the rounding).
    for channel, ink in ((red, c), (green, m), (blue, y)):
        assert math.isclose(channel, (1 - ink) * (1 - k), abs_tol=0.002)


@pytest.mark.parametrize("value", [0, 0x23, 0x80, 0xFF])
def test_greys_print_with_black_ink_only(value: int) -> None:
    """Black text and grey lines: one plate, no colour fringes."""
    grey = value / 255
    assert rgb_to_cmyk(grey, grey, grey) == (0, 0, 0, round(1 - grey, 3))


# Bleed --------------------------------------------------------------------------------------------


def test_run_into_bleed_moves_only_what_reaches_the_cut_line() -> None:
    slot = Slot(10, 20, 63, 63, 0, 0)
    inside = Rect(15, 25, 10, 10, fill="#123456")
    band = Rect(10, 20, 63, 9.5, fill="#AA0000", radius=3)
    border = Rect(10.3, 20.3, 62.4, 62.4, stroke="#0000AA", line_width=0.6, radius=2)
    text = Text(12, 22, "x", False, 8, "#000000")
    line = Line(10, 50, 73, 50)
    out = run_into_bleed([inside, band, border, text, line], slot, 3)
    assert out[0] == inside
    assert text in out
    assert line in out
    assert out[1] == Rect(7, 17, 69, 12.5, fill="#AA0000", radius=0)  # top, left, right moved
    bands = [op for op in out[3:] if isinstance(op, Rect)]
    assert len(bands) == 4
    assert {op.fill for op in bands} == {"#0000AA"}
    left = min(op.x for op in bands)
    right = max(op.x + op.width for op in bands)
    assert (left, right) == (7, 76)
    assert run_into_bleed([band], slot, 0) == [band]


def test_run_into_bleed_grows_a_token() -> None:
    slot = Slot(0, 0, 16, 16, 0, 0)
    disc = Circle(8, 8, 8, fill="#FF0000")
    ring = Circle(8, 8, 7.7, stroke="#550000", line_width=0.6)
    small = Circle(8, 8, 3, fill="#FFFFFF")
    out = run_into_bleed([disc, ring, small], slot, 2, circle=True)
    assert out[0] == Circle(8, 8, 10, fill="#FF0000")
    assert out[1] == ring
    assert out[-1] == small
    assert isinstance(out[2], Circle)
    assert out[2].stroke == "#550000"
    assert math.isclose(out[2].r + out[2].line_width / 2, 10, abs_tol=0.05)


def _pixel(bitmap: Any, scale: float, height_mm: float, x_mm: float, y_mm: float) -> tuple:
    """The colour at (x, y) mm from the page's lower-left corner."""
    return bitmap.getpixel((round(x_mm * scale), round((height_mm - y_mm) * scale)))[:3]


@pytest.mark.parametrize("section", ["raw", "fate", "field", "reactors", "mission", "aids"])
def test_card_art_reaches_the_bleed(built_shop: Built, section: str) -> None:
    """Rendered: 1.5 mm outside each edge of a card the colour is the one just inside it."""
    manifest = json.loads((built_shop.out / "mhp-kit.manifest.json").read_text("utf-8"))
    bleed = 3.0
    numbers = [p["number"] for p in manifest["pages"] if p["section"] == section][:2]
    pdf = pdfium.PdfDocument(built_shop.path("kit"))
    scale = 8.0  # px per mm
    checked = 0
    for number in numbers:
        page = next(p for p in manifest["pages"] if p["number"] == number)
        bitmap = pdf[number - 1].render(scale=scale / PT_PER_MM).to_pil()
        height = page["size_mm"][1]
        for piece in (p for p in manifest["pieces"] if p["page"] == number):
            x0, y0, x1, y1 = piece["trim_mm"]
            for edge in range(4):
                # a few places along the edge, off any centred tab or label; a pattern's thin
                # line (the raw back's lattice) may fall on one of them, not on all
                pairs = []
                for shift in (7, 9.5, 12):
                    midx, midy = (x0 + x1) / 2 + shift, (y0 + y1) / 2 + shift
                    inside, outside = (
                        ((midx, y1 - 0.25), (midx, y1 + bleed / 2)),
                        ((midx, y0 + 0.25), (midx, y0 - bleed / 2)),
                        ((x0 + 0.25, midy), (x0 - bleed / 2, midy)),
                        ((x1 - 0.25, midy), (x1 + bleed / 2, midy)),
                    )[edge]
                    a = _pixel(bitmap, scale, height, *inside)
                    b = _pixel(bitmap, scale, height, *outside)
                    assert b != (255, 255, 255), (piece["id"], piece["face"], outside)
                    pairs.append(max(abs(u - v) for u, v in zip(a, b, strict=False)))
                assert min(pairs) <= 48, (piece["id"], edge, pairs)
                checked += 1
    assert checked >= 8


# Token sheets -------------------------------------------------------------------------------------


def test_token_sheets_have_a_trim_box_and_a_cut_contour(built_shop: Built) -> None:
    manifest = json.loads((built_shop.out / "mhp-kit.manifest.json").read_text("utf-8"))
    reader = PdfReader(built_shop.path("kit"))
    token_pages = [p for p in manifest["pages"] if p["section"] == "tokens"]
    assert token_pages
    for page in token_pages:
        pieces = [p for p in manifest["pieces"] if p["page"] == page["number"]]
        around = [
            min(p["trim_mm"][0] for p in pieces),
            min(p["trim_mm"][1] for p in pieces),
            max(p["trim_mm"][2] for p in pieces),
            max(p["trim_mm"][3] for p in pieces),
        ]
        trim = [float(v) / PT_PER_MM for v in reader.pages[page["number"] - 1].trimbox]
        assert all(math.isclose(a, b, abs_tol=0.02) for a, b in zip(trim, around, strict=False)), (
            page
        )
        assert trim != [0, 0, *page["size_mm"]]
        spaces = reader.pages[page["number"] - 1]["/Resources"].get("/ColorSpace", {})
        names = [str(space.get_object()) for space in spaces.values()]
        if page["face"] == "front":
            assert any("/CutContour" in name for name in names), page
    with pdfplumber.open(built_shop.path("kit")) as pdf:
        first = token_pages[0]
        curves = [c for c in pdf.pages[first["number"] - 1].curves if c.get("stroke")]
        assert len(curves) >= sum(
            p["page"] == first["number"] for p in manifest["pieces"]
        )  # one contour per token (the tokens' own rings come on top)


# Calibration --------------------------------------------------------------------------------------


def _words(path: Any, index: int) -> list[dict[str, Any]]:
    with pdfplumber.open(path) as pdf:
        return pdf.pages[index].extract_words()


def test_calibration_rulers_are_numbered_from_minus_to_plus_twenty(built: Built) -> None:
    words = _words(built.path("calibration"), 1)
    labels = [w["text"] for w in words]
    for value in ("−20", "−15", "−10", "−5", "+5", "+10", "+15", "+20"):
        assert labels.count(value) >= 3, value  # one ruler pair per cross, A, B, C
    # Numbers increase to the right on the horizontal ruler: −20 is left of +20.
    row = sorted((w for w in words if w["text"] in ("−20", "+20")), key=lambda w: w["top"])
    assert row[0]["x0"] < row[1]["x0"] or row[0]["text"] == "−20"
    text = " ".join(labels)
    assert "--back-offset" in text
    assert "вправо" in text
    assert "вниз" in text


def test_calibration_back_follows_the_profile_offset(catalog: Any, tmp_path: Any) -> None:
    from mhp_cards.pdf import build_kit

    layout = tmp_path / "shifted.yaml"
    layout.write_text(
        "extends: a4\nname: shifted\nduplex: {back_offset: {x: 2, y: -1.5}}\n", encoding="utf-8"
    )
    build_kit(catalog, layout=str(layout), lang="en", only=["calibration"], out_dir=tmp_path)
    plain = tmp_path / "plain"
    build_kit(catalog, lang="en", only=["calibration"], out_dir=plain)
    shifted_words = _words(tmp_path / "mhp-calibration.pdf", 1)
    plain_words = _words(plain / "mhp-calibration.pdf", 1)
    text = " ".join(w["text"] for w in shifted_words)
    assert "(now x: 2, y: −1.5)" in text
    assert "right and down" in text
    first = next(w for w in plain_words if w["text"] == "+10")
    moved = next(w for w in shifted_words if w["text"] == "+10")
    assert math.isclose((moved["x0"] - first["x0"]) / PT_PER_MM, 2, abs_tol=0.05)
    assert math.isclose((moved["top"] - first["top"]) / PT_PER_MM, -1.5, abs_tol=0.05)


def test_print_shop_sheets_hold_eight_small_cards(built_shop: Built) -> None:
    """3 mm bleeds meeting between the cards: 2 × 4 on A4, so 72 raw cards take 9 sheets.

    The Fate tiles are printed on one side: 9 pages.
    """
    pages = {f.section: f.pages for f in built_shop.result.files}
    assert (pages["raw"], pages["fate"]) == (18, 9)
