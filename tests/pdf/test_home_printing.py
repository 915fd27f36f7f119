"""Printing at home: backs past the cut, the calibration reading on the command line, an
ink-saving kit, a one-page cutting guide — measured in the written PDFs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from PIL import ImageStat
from typer.testing import CliRunner

from mhp_cards.catalog import Catalog
from mhp_cards.cli.app import app
from mhp_cards.pdf import build_kit
from mhp_cards.pdf.layout import load_profile

Built = Any
PT_PER_MM = 72 / 25.4


def _manifest(out: Path) -> dict[str, Any]:
    return json.loads((out / "mhp-kit.manifest.json").read_text("utf-8"))


def _page(out: Path, section: str, face: str) -> tuple[int, dict[str, Any]]:
    manifest = _manifest(out)
    page = next(p for p in manifest["pages"] if p["section"] == section and p["face"] == face)
    return page["number"], page


def test_home_backs_run_two_millimetres_past_the_cut(built: Built) -> None:
    """Rendered: 1.5 mm outside a raw card's back the colour is the back's, not the paper's."""
    assert load_profile("a4").spill == 2
    number, page = _page(built.out, "raw", "back")
    scale = 8.0
    image = pdfium.PdfDocument(built.path("kit"))[number - 1].render(scale=scale / PT_PER_MM)
    bitmap = image.to_pil()
    height = page["size_mm"][1]
    pieces = [p for p in _manifest(built.out)["pieces"] if p["page"] == number]
    for piece in pieces[:4]:
        x0, y0, x1, y1 = piece["trim_mm"]
        for x, y in ((x0 - 1.5, (y0 + y1) / 2), ((x0 + x1) / 2, y1 + 1.5)):
            pixel = bitmap.getpixel((round(x * scale), round((height - y) * scale)))[:3]
            assert max(pixel) < 200, (piece["id"], pixel)  # teal, not white paper


def test_the_back_offset_is_given_on_the_command_line(catalog: Catalog, tmp_path: Path) -> None:
    plain, moved = tmp_path / "plain", tmp_path / "moved"
    build_kit(catalog, only=["mission"], out_dir=plain)
    build_kit(catalog, only=["mission"], out_dir=moved, back_offset=(1.5, -0.5))

    def back(out: Path) -> list[float]:
        return next(p["trim_mm"] for p in _manifest(out)["pieces"] if p["face"] == "back")

    (a0, b0, *_), (a1, b1, *_) = back(plain), back(moved)
    # x to the right on the page; y up in PDF, so a back moved down by 0.5 mm rises by −0.5
    assert a1 - a0 == pytest.approx(1.5, abs=0.01)
    assert b1 - b0 == pytest.approx(0.5, abs=0.01)


@pytest.mark.parametrize("value", ["1.5", "a,b", "1,2,3", "30,0"])
def test_a_malformed_back_offset_is_a_usage_error(value: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["build", "--only", "mission", "--out", str(tmp_path), "--back-offset", value]
    )
    assert result.exit_code == 2
    assert "--back-offset" in result.output
    assert not (tmp_path / "mhp-kit.pdf").exists()


def _ink(path: Path) -> float:
    """The share of the page area covered by ink, averaged over the pages (grey darkness)."""
    document = pdfium.PdfDocument(path)
    total = 0.0
    for index in range(len(document)):
        grey = document[index].render(scale=20 / 72).to_pil().convert("L")
        total += 1 - ImageStat.Stat(grey).mean[0] / 255
    return total / len(document)


def test_the_ink_saving_kit_uses_far_less_ink(catalog: Catalog, tmp_path: Path) -> None:
    full, save = tmp_path / "full", tmp_path / "save"
    sections = ["raw", "reactors", "mission"]
    build_kit(catalog, only=sections, out_dir=full)
    build_kit(catalog, only=sections, out_dir=save, ink="save")
    for section in sections:
        normal, saving = _ink(full / f"mhp-{section}.pdf"), _ink(save / f"mhp-{section}.pdf")
        assert saving < 0.5 * normal, (section, normal, saving)
    # the backs, most of the ink: a light tint now
    assert _ink(save / "mhp-raw.pdf") < 0.12


def test_the_cutting_guide_is_one_page_with_the_profiles_sizes(built: Built) -> None:
    manifest = _manifest(built.out)
    pages = [p for p in manifest["pages"] if p["section"] == "cutting"]
    assert len(pages) == 2  # the guide, and its blank back in the double-sided kit
    document = pdfium.PdfDocument(built.path("cutting"))
    assert len(document) == 1
    text = document[0].get_textpage().get_text_range()
    sizes = load_profile("a4").card_sizes
    for kind in ("coin", "chemist", "combine"):
        assert f"{sizes[kind].width:g} мм" in text, kind
    assert "--back-offset" in text
    assert "Кубик" in text
