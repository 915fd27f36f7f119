"""``export_png``: sizes at the dpi, one file per distinct face, and the same pixels as the kit.

The faces are compared with the real kit: its PDF (written by the session's ``built`` fixture)
is rasterised by PDFium at the same dpi, cropped to the card's slot on the sheet, and compared
pixel by pixel with the exported PNG. A different card in the same test must fail the same
comparison, so the tolerance is known to discriminate.
"""

from __future__ import annotations

import json
import math
import struct
import sys
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat

from mhp_cards.catalog import Catalog
from mhp_cards.errors import ExportError
from mhp_cards.pdf.export_png import DEFAULT_BLEED, export_png
from mhp_cards.pdf.impose import Slot, impose
from mhp_cards.pdf.layout import SheetProfile, load_profile
from mhp_cards.pdf.raster import renderer
from mhp_cards.validate import load_catalog

#: 4 px per mm: the kit puts cards on half millimetres, so at this dpi a card's slot starts on a
#: whole pixel and the kit's pixels and the PNG's sample the drawing at the same points.
DPI = 4 * 25.4


@pytest.fixture(scope="module")
def exported(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("png")
    export_png(catalog, out, dpi=DPI)
    return out


@pytest.fixture(scope="module")
def index(exported: Path) -> dict:
    return json.loads((exported / "cards.json").read_text(encoding="utf-8"))


def _expected_px(mm: float, dpi: float) -> int:
    return round(mm * dpi / 25.4)


def _chunks(path: Path) -> list[bytes]:
    """The chunk types of a PNG file, read with struct (not with PIL)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    kinds, offset = [], 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length : offset + 12 + length])
        assert zlib.crc32(kind + body) == crc
        kinds.append(kind)
        offset += 12 + length
    return kinds


def test_one_image_per_distinct_face(exported: Path, index: dict, catalog: Catalog) -> None:
    pngs = sorted(p.name for p in exported.glob("*.png"))
    referenced = {entry["front"] for entry in index["cards"]} | {
        entry["back"] for entry in index["cards"]
    }
    assert sorted(referenced) == pngs  # nothing missing, nothing extra
    kinds = len(catalog.raw_materials)
    assert sum(name.startswith("raw-") for name in pngs) == kinds
    # One back for the whole raw deck, one for reactors, and the Fate back shared by the Base
    # and the Warehouse (the same drawing at the same size).
    backs = [name for name in pngs if name.endswith(".back.png")]
    assert sorted(backs) == [
        "aid.back.png",
        "fate.back.png",
        "mission.back.png",
        "raw.back.png",
        "reactor.back.png",
    ]
    assert "raw-water-ice.front.png" in pngs
    assert "reactor-4a.front.png" in pngs
    by_id = {entry["id"]: entry for entry in index["cards"]}
    assert by_id["water-ice"]["copies"] == catalog.raw_material("water-ice").copies
    assert by_id["water-ice"]["back"] == "raw.back.png"
    assert by_id["base"]["back"] == "fate.back.png"
    # a Fate card is a field tile: the Mars surface on both faces
    assert by_id["fate-1"]["front"] == by_id["fate-1"]["back"] == "fate.front.png"
    assert by_id["4А"]["front"] == "reactor-4a.front.png"
    assert by_id["coin"]["back"] == by_id["coin"]["front"]  # tokens: the same on both sides
    assert sum(e["copies"] for e in index["cards"] if e["deck"] == "raw") == catalog.raw_deck_size


def test_sizes_follow_the_card_size_and_dpi(exported: Path, index: dict, a4: SheetProfile) -> None:
    for entry in index["cards"]:
        size = a4.card_sizes[entry["kind"]]
        for name in (entry["front"], entry["back"]):
            with Image.open(exported / name) as image:
                assert image.size == (
                    _expected_px(size.width, DPI),
                    _expected_px(size.height, DPI),
                ), name
                assert image.mode == "RGBA"
                assert image.info.get("srgb") == 0  # tagged sRGB, perceptual intent


def test_png_files_are_tagged_srgb(exported: Path) -> None:
    kinds = _chunks(exported / "raw-water-ice.front.png")
    assert b"sRGB" in kinds
    assert b"pHYs" in kinds
    assert kinds.index(b"sRGB") < kinds.index(b"IDAT")


def test_corners_outside_a_rounded_card_are_transparent(exported: Path) -> None:
    with Image.open(exported / "raw-water-ice.front.png") as image:
        assert image.getpixel((0, 0))[3] == 0
        middle = image.getpixel((image.width // 2, image.height // 2))
        assert middle[3] == 255


def test_a_face_at_300_dpi_has_the_exact_pixel_size(catalog: Catalog, tmp_path: Path) -> None:
    result = export_png(catalog, tmp_path, dpi=300, cards="water-ice,4А")
    sizes = {face.path.name: (face.width, face.height) for face in result.faces}
    assert sizes == {
        "raw-water-ice.front.png": (744, 744),  # 63 mm at 300 dpi: 744.09 px
        "raw.back.png": (744, 744),
        "reactor-4a.front.png": (945, 945),  # 80 mm: 944.88 px
        "reactor.back.png": (945, 945),
    }
    with Image.open(tmp_path / "raw.back.png") as image:
        assert image.size == (744, 744)
    index = json.loads((tmp_path / "cards.json").read_text(encoding="utf-8"))
    assert [entry["id"] for entry in index["cards"]] == ["water-ice", "4А"]


def test_a_poker_sized_card_is_744_by_1039_at_300_dpi(catalog: Catalog, tmp_path: Path) -> None:
    profile = load_profile("a4")
    sizes = dict(profile.card_sizes)
    sizes["raw"] = sizes["raw"].model_copy(update={"width": 63.0, "height": 88.0})
    layout = tmp_path / "poker.yaml"
    layout.write_text(
        "extends: a4\nname: poker\ncard_sizes:\n  raw: {width: 63, height: 88, corner_radius: 3}\n",
        encoding="utf-8",
    )
    result = export_png(catalog, tmp_path / "out", dpi=300, cards="water-ice", layout=str(layout))
    assert {(f.path.name, f.width, f.height) for f in result.faces} == {
        ("raw-water-ice.front.png", 744, 1039),
        ("raw.back.png", 744, 1039),
    }


def test_bleed_adds_the_bleed_on_every_side(catalog: Catalog, tmp_path: Path) -> None:
    export_png(catalog, tmp_path / "a4", dpi=100, bleed=True, cards="water-ice")
    export_png(
        catalog, tmp_path / "shop", dpi=100, bleed=True, cards="water-ice", layout="print-shop"
    )
    shop_bleed = load_profile("print-shop").bleed
    for folder, bleed in (("a4", DEFAULT_BLEED), ("shop", shop_bleed)):
        with Image.open(tmp_path / folder / "raw-water-ice.front.png") as image:
            side = _expected_px(63 + 2 * bleed, 100)
            assert image.size == (side, side)
            # The bleed is printed: the corner is paper, not transparent.
            assert image.getpixel((1, 1))[3] == 255
        index = json.loads((tmp_path / folder / "cards.json").read_text(encoding="utf-8"))
        assert index["bleed_mm"] == bleed


# The same pixels as the kit ----------------------------------------------------------------------


def _kit_region(pdf: Path, page_index: int, slot: Slot, dpi: float) -> Image.Image:
    """The card at ``slot`` of a kit page: the whole page rasterised by PDFium, then cut out."""
    document = pdfium.PdfDocument(pdf)
    page = document[page_index]
    # pypdfium2 maps the page onto its size in pixels rounded up: at a hair under the scale,
    # A4 at 4 px/mm is exactly 840 × 1188 px instead of being stretched onto 1189 rows.
    image = page.render(scale=dpi / 72 * (1 - 1e-6)).to_pil().convert("RGB")
    document.close()
    px = dpi / 25.4
    left, top = round(slot.x * px), round(slot.y * px)
    assert math.isclose(left, slot.x * px)  # the slot starts on a whole pixel
    assert math.isclose(top, slot.y * px)
    return image.crop(
        (left, top, left + _expected_px(slot.width, dpi), top + _expected_px(slot.height, dpi))
    )


def _on_white(path: Path) -> Image.Image:
    with Image.open(path) as image:
        white = Image.new("RGBA", image.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, image.convert("RGBA")).convert("RGB")


def _difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean absolute difference over all channels, share of pixels off by more than 48)."""
    assert a.size == b.size
    diff = ImageChops.difference(a, b)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    grey = diff.convert("L")
    off = sum(grey.histogram()[49:]) / (a.width * a.height)
    return mean, off


#: The carbon-dioxide card follows the copies of water ice on the first raw sheet.
WATER_COPIES = load_catalog().raw_material("water-ice").copies

# (png, kit section, page of the section, slot on the page, front or back)
CASES = [
    ("raw-water-ice.front.png", "raw", 0, 0, "front"),
    ("raw-water-vapour.front.png", "raw", 0, WATER_COPIES, "front"),
    ("raw.back.png", "raw", 1, 0, "back"),
    ("reactor-4a.front.png", "reactors", 2, 0, "front"),  # 1А…3Б fill the first sheet of 6
    ("reactor.back.png", "reactors", 1, 0, "back"),
    ("fate.front.png", "fate", 0, 0, "front"),
    ("fate.front.png", "fate", 0, 3, "front"),
    ("mission.front.png", "mission", 0, 0, "front"),
]


@pytest.mark.parametrize(("png", "section", "page", "slot", "side"), CASES)
def test_a_face_has_the_pixels_of_the_kit(
    exported: Path, built, a4: SheetProfile, png: str, section: str, page: int, slot: int, side: str
) -> None:
    kind = {"raw": "raw", "reactors": "reactor", "fate": "fate", "mission": "mission"}[section]
    imposition = impose(a4, kind)
    slots = imposition.fronts if side == "front" else imposition.backs
    kit = _kit_region(built.path(section), page, slots[slot], DPI)
    mine = _on_white(exported / png)
    # The kit's art runs on past the cut (the home profile's spill) and so fills the rounded
    # corners the image leaves transparent: the comparison leaves out a corner's radius.
    inset = round(a4.card_sizes[kind].corner_radius * DPI / 25.4)
    box = (inset, inset, kit.width - inset, kit.height - inset)
    mean, off = _difference(kit.crop(box), mine.crop(box))
    # What may differ: the kit's hairline cut line on the card edge, and anti-aliasing.
    assert mean < 1.5, (png, mean)
    assert off < 0.005, (png, off)


def test_the_comparison_tells_cards_apart(exported: Path, built, a4: SheetProfile) -> None:
    slots = impose(a4, "raw").fronts
    water = _on_white(exported / "raw-water-ice.front.png")
    vapour = _kit_region(built.path("raw"), 0, slots[WATER_COPIES], DPI)  # water vapour
    mean, off = _difference(vapour, water)
    assert off > 0.005 or mean > 1.5  # the same test fails for a different card
    shifted = _kit_region(built.path("raw"), 0, slots[0], DPI).transform(
        water.size, Image.Transform.AFFINE, (1, 0, 3, 0, 1, 0), fillcolor="white"
    )
    mean, off = _difference(shifted, water)
    assert off > 0.005 or mean > 1.5  # and for the right card three pixels off


def test_without_pypdfium2_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    with pytest.raises(ExportError, match=r"pip install 'mhp-cards\[export\]'"):
        renderer()


def test_a_dpi_out_of_range_is_refused(catalog: Catalog, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="--dpi"):
        export_png(catalog, tmp_path, dpi=5)
    assert not any(tmp_path.iterdir())
