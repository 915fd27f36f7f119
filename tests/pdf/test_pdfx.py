"""PDF/X-4, checked by a preflight independent of the code that writes it.

The PDF/X-4 rules a press checks (ISO 15930-7) are read back with pypdf — version, output
intent with its CMYK profile, XMP identification, Trapped, boxes, embedded fonts, no RGB, no
encryption — and Ghostscript (Debian's, an independent reader) must open every page. Without
Ghostscript or its CMYK profile these tests skip, unless ``CI`` is set: then they fail (.ci/run
installs Debian's ghostscript).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from mhp_cards.catalog import Catalog
from mhp_cards.errors import KitError
from mhp_cards.pdf import build_kit
from mhp_cards.pdf.pdfx import ICC_SEARCH, find_icc, read_icc

GS = shutil.which("gs")
ICC = next((path for path in ICC_SEARCH if path.is_file()), None)


def _need(what: object, name: str) -> None:
    if what is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is missing (.ci/run installs Debian's ghostscript)")
        pytest.skip(f"{name} is not installed")


@pytest.fixture(scope="module")
def pdfx(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Path:
    _need(ICC, "a free CMYK ICC profile (Ghostscript's default_cmyk.icc)")
    out = tmp_path_factory.mktemp("pdfx")
    build_kit(catalog, layout="print-shop", only=["cover", "raw", "tokens"], out_dir=out, pdfx=True)
    return out


def _files(out: Path) -> list[Path]:
    return sorted(out.glob("mhp-*.pdf"))


def test_every_file_is_pdf_x_4(pdfx: Path) -> None:
    for path in _files(pdfx):
        data = path.read_bytes()
        assert data.startswith(b"%PDF-1.6"), path.name  # X-4 is based on PDF 1.6
        reader = PdfReader(path)
        assert not reader.is_encrypted
        root = reader.trailer["/Root"]
        assert reader.trailer.get("/ID"), path.name
        # the output intent: GTS_PDFX with an embedded CMYK printer profile
        (intent,) = [i.get_object() for i in root["/OutputIntents"]]
        assert intent["/S"] == "/GTS_PDFX"
        assert intent["/OutputConditionIdentifier"]
        profile = intent["/DestOutputProfile"].get_object()
        assert profile["/N"] == 4
        icc = profile.get_data()
        assert (icc[12:16], icc[16:20], icc[36:40]) == (b"prtr", b"CMYK", b"acsp")
        # identification in XMP, and the Info dictionary's Trapped key
        xmp = root["/Metadata"].get_object().get_data().decode("utf-8")
        assert "<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
        for key in ("xmp:CreateDate", "xmp:ModifyDate", "xmpMM:DocumentID", "dc:title"):
            assert f"<{key}>" in xmp, key
        assert reader.trailer["/Info"]["/Trapped"] == "/False"
        assert re.search(r"<pdf:Trapped>False</pdf:Trapped>", xmp)


def test_pages_boxes_fonts_and_colours(pdfx: Path) -> None:
    for path in _files(pdfx):
        reader = PdfReader(path)
        for number, page in enumerate(reader.pages, start=1):
            media, trim, bleed = page.mediabox, page.trimbox, page.bleedbox
            assert "/TrimBox" in page, (path.name, number)
            inside = (
                media.left <= bleed.left <= trim.left
                and trim.right <= bleed.right <= media.right
                and media.bottom <= bleed.bottom <= trim.bottom
                and trim.top <= bleed.top <= media.top
            )
            assert inside, (path.name, number)
            resources = page["/Resources"]
            for ref in resources.get("/Font", {}).values():
                font = ref.get_object()
                descendant = (
                    font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
                )
                descriptor = descendant["/FontDescriptor"].get_object()
                assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            operators = {op for _, op in ContentStream(page.get_contents(), reader).operations}
            assert not operators & {b"rg", b"RG"}, (path.name, number)
            for space in resources.get("/ColorSpace", {}).values():
                assert "/DeviceRGB" not in str(space.get_object())


def test_the_cover_has_its_bleed(pdfx: Path) -> None:
    page = PdfReader(pdfx / "mhp-cover.pdf").pages[0]
    bleed_pt = 3 * 72 / 25.4
    assert float(page.trimbox.left) == pytest.approx(bleed_pt, abs=0.01)
    assert float(page.mediabox.width) == pytest.approx(float(page.trimbox.width) + 2 * bleed_pt)


def test_ghostscript_reads_every_page(pdfx: Path) -> None:
    _need(GS, "Ghostscript (gs)")
    for path in _files(pdfx):
        done = subprocess.run(
            [
                str(GS),
                "-q",
                "-dNOPAUSE",
                "-dBATCH",
                "-dPDFSTOPONERROR",
                "-sDEVICE=nullpage",
                str(path),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, (path.name, done.stderr[-500:])
        assert "Error" not in done.stdout + done.stderr, path.name


def test_a_profile_that_is_not_cmyk_is_refused(tmp_path: Path) -> None:
    rgb = Path("/usr/share/color/icc/colord/sRGB.icc")
    if rgb.is_file():
        with pytest.raises(KitError, match="RGB profile"):
            read_icc(rgb)
    junk = tmp_path / "junk.icc"
    junk.write_bytes(b"not a profile" * 20)
    with pytest.raises(KitError, match="not an ICC profile"):
        read_icc(junk)
    with pytest.raises(KitError, match="--icc PATH"):
        find_icc(None, search=[tmp_path / "none.icc"])
