"""The kit's manifest, checked against the PDF it describes (read back with pypdf and pdfplumber).

Both kits are checked: A4 for home printing (grey cut lines around every piece, no bleed) and
the print shop's (3 mm bleed, crop marks, a cut contour around the tokens, CMYK).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pdfplumber
import pytest
from pypdf import PdfReader

from mhp_cards.catalog import Catalog
from mhp_cards.pdf.layout import load_profile
from mhp_cards.resources import default_layouts_dir

PT_PER_MM = 72 / 25.4
#: How far apart (mm) a manifest length and the PDF's may be: PDF numbers are rounded to 0.01 pt.
TOLERANCE = 0.02
Built = Any
CARD_SECTIONS = ("raw", "fate", "field", "reactors", "mission", "aids")


def _manifest(built: Built) -> dict[str, Any]:
    return json.loads((built.out / "mhp-kit.manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=["a4", "print-shop"])
def case(request: pytest.FixtureRequest, built: Built, built_shop: Built) -> tuple[str, Built]:
    return request.param, built if request.param == "a4" else built_shop


def _mm(box: Any) -> list[float]:
    return [float(v) / PT_PER_MM for v in box]


def _close(a: list[float], b: list[float], tolerance: float = TOLERANCE) -> bool:
    return len(a) == len(b) and all(
        math.isclose(x, y, abs_tol=tolerance) for x, y in zip(a, b, strict=False)
    )


def test_the_manifest_follows_its_schema(case: tuple[str, Built]) -> None:
    schema = json.loads(
        (default_layouts_dir() / "schema" / "manifest.schema.json").read_text(encoding="utf-8")
    )
    jsonschema.Draft202012Validator(schema).validate(_manifest(case[1]))


def test_pages_are_the_pdf_pages_with_their_sizes_and_boxes(case: tuple[str, Built]) -> None:
    layout, built = case
    manifest = _manifest(built)
    reader = PdfReader(built.path("kit"))
    assert [page["number"] for page in manifest["pages"]] == list(range(1, len(reader.pages) + 1))
    for entry, page in zip(manifest["pages"], reader.pages, strict=True):
        assert _close(_mm(page.mediabox)[2:], entry["size_mm"]), entry
        trim = entry.get("trim_mm")
        expected = trim if trim is not None else [0, 0, *entry["size_mm"]]
        assert _close(_mm(page.trimbox), expected), entry
    # The sections follow each other as in the section PDFs (blank backs of single pages aside).
    sections = [page["section"] for page in manifest["pages"]]
    assert list(dict.fromkeys(sections)) == [f.section for f in built.result.files[1:]]
    for kit_file in built.result.files[1:]:
        pages = [p for p in manifest["pages"] if p["section"] == kit_file.section]
        single = any(p["face"] == "single" for p in pages)  # each followed by a blank back
        assert len(pages) == kit_file.pages * (2 if single else 1), kit_file.section
    assert load_profile(layout).name == manifest["layout"]


def test_every_piece_is_counted_once_per_face(case: tuple[str, Built], catalog: Catalog) -> None:
    manifest = _manifest(case[1])
    fronts = Counter(p["kind"] for p in manifest["pieces"] if p["face"] != "back")
    components = catalog.components
    assert fronts["raw"] == sum(raw.copies for raw in catalog.raw_materials)
    assert fronts["fate"] == components.fate_cards.count
    assert fronts["electrolyser"] == len(catalog.electrolysers)
    assert fronts["reactor"] == sum(len(i.cards) for i in catalog.installations)
    assert fronts["chemist"] == components.chemist_tokens.per_player * len(components.colours)
    assert fronts["coin"] == components.coins.count
    assert (fronts["mission"], fronts["base"], fronts["warehouse"]) == (1, 1, 1)
    # the guides are printed back to back (nothing on them is cut): one per installation
    assert sum(1 for p in manifest["pieces"] if p["kind"] == "guide") == len(catalog.installations)
    ids = [(p["id"], p["face"]) for p in manifest["pieces"]]
    assert len(ids) == len(set(ids))
    assert {"water-ice#1", "fate-1", "4А", "mission", "chemist-red#1"} <= {i for i, _ in ids}
    # Every card has its back on the other side of the sheet, at the mirrored place.
    by_id: dict[str, dict[str, dict[str, Any]]] = {}
    for piece in manifest["pieces"]:
        by_id.setdefault(piece["id"], {})[piece["face"]] = piece
    width = {p["number"]: p["size_mm"][0] for p in manifest["pages"]}
    for faces in by_id.values():
        if "front" in faces and "back" in faces:
            front, back = faces["front"], faces["back"]
            assert back["page"] == front["page"] + 1
            x0, y0, x1, y1 = front["trim_mm"]
            mirrored = [width[front["page"]] - x1, y0, width[front["page"]] - x0, y1]
            assert _close(back["trim_mm"], mirrored), front["id"]


def _strokes(page: Any) -> list[tuple[list[float], Any]]:
    """(bbox in mm from the lower-left corner, stroking colour) of every stroked path."""
    height = float(page.height)
    found = []
    for obj in [*page.rects, *page.curves, *page.lines]:
        if not obj.get("stroke"):
            continue
        box = [obj["x0"], height - obj["bottom"], obj["x1"], height - obj["top"]]
        found.append(([v / PT_PER_MM for v in box], obj.get("stroking_color")))
    return found


def test_pieces_lie_on_their_page_along_the_cut_lines(case: tuple[str, Built]) -> None:
    """Each piece's trim is on its page, inside the TrimBox, and the PDF shows where to cut it.

    At home every piece has a grey cut line around it; for the print shop the cards have crop
    marks in the margins in line with their edges, and the tokens a CutContour path.
    """
    layout, built = case
    manifest = _manifest(built)
    pages = {p["number"]: p for p in manifest["pages"]}
    with pdfplumber.open(built.path("kit")) as pdf:
        strokes = {}
        for piece in manifest["pieces"]:
            page = pages[piece["page"]]
            x0, y0, x1, y1 = piece["trim_mm"]
            width, height = page["size_mm"]
            assert 0 <= x0 < x1 <= width, piece
            assert 0 <= y0 < y1 <= height, piece
            trim = page.get("trim_mm")
            if trim is not None:
                assert trim[0] - TOLERANCE <= x0 < x1 <= trim[2] + TOLERANCE, piece
                assert trim[1] - TOLERANCE <= y0 < y1 <= trim[3] + TOLERANCE, piece
            if piece["face"] != "front" or piece["kind"] in ("die", "guide"):
                continue  # the die's net is its own cut contour; a guide is a page, not cut
            number = piece["page"]
            if number not in strokes:
                strokes[number] = _strokes(pdf.pages[number - 1])
            boxes = [box for box, _ in strokes[number]]
            outlined = any(_close(box, piece["trim_mm"], 0.15) for box in boxes)
            if layout == "a4" or piece["section"] == "tokens":
                assert outlined, piece
            else:
                verticals = {round(b[0], 1) for b in boxes if math.isclose(b[0], b[2])}
                horizontals = {round(b[1], 1) for b in boxes if math.isclose(b[1], b[3])}
                assert {round(x0, 1), round(x1, 1)} <= verticals, piece
                assert {round(y0, 1), round(y1, 1)} <= horizontals, piece


def test_places_lie_inside_their_piece(case: tuple[str, Built], catalog: Catalog) -> None:
    manifest = _manifest(case[1])
    pieces = {(p["id"], p["page"]): p for p in manifest["pieces"]}
    for place in manifest["places"]:
        piece = pieces[(place["piece"], place["page"])]
        assert piece["face"] == "front"
        x0, y0, x1, y1 = piece["trim_mm"]
        (cx, cy), r = place["centre_mm"], place["diameter_mm"] / 2
        assert x0 <= cx - r < cx + r <= x1, place
        assert y0 <= cy - r < cy + r <= y1, place
    # Every product place of every reactor card and of the Mission card, and no other.
    expected = Counter()
    for card in [c for i in catalog.installations for c in i.cards] + list(catalog.electrolysers):
        for container in card.containers:
            if container.role == "product":
                expected[(card.id, container.substance)] += container.places
    for mission in catalog.missions:
        for place in mission.places:
            expected[("mission", place.formula)] += place.count
    assert Counter((p["piece"], p["substance"]) for p in manifest["places"]) == expected


def test_token_sizes_are_the_profiles(case: tuple[str, Built]) -> None:
    layout, built = case
    sizes = load_profile(layout).card_sizes
    tokens = _manifest(built)["tokens"]
    assert tokens["chemist"] == {"diameter_mm": sizes["chemist"].width}
    assert tokens["coin"] == {"diameter_mm": sizes["coin"].width}
    assert tokens["battery"] == {"size_mm": [sizes["upgrade"].width, sizes["upgrade"].height]}


def test_every_token_fits_every_place_meant_for_it(built: Built, built_shop: Built) -> None:
    for kit in (built, built_shop):
        manifest = _manifest(kit)
        chemist = manifest["tokens"]["chemist"]["diameter_mm"]
        too_small = [
            (p["piece"], p["substance"], p["diameter_mm"])
            for p in manifest["places"]
            if p["diameter_mm"] < chemist + 1
        ]
        assert manifest["places"]
        assert too_small == [], f"chemist tokens of {chemist} mm do not fit"


def test_the_manifest_is_written_with_the_pdf(built: Built) -> None:
    path: Path = built.result.manifest
    assert path == built.out / "mhp-kit.manifest.json"
    text = path.read_text(encoding="utf-8")
    assert text.endswith("}\n")
    assert json.loads(text)["pdf"] == "mhp-kit.pdf"
