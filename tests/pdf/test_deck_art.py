"""Pictures on deck cards: fitted three ways, stored once per PDF, a placeholder when missing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from mhp_cards.decks import DECKS_FILE
from mhp_cards.decks.load import load_pack, validate_pack
from mhp_cards.decks.models import DeckCard, DeckFace
from mhp_cards.pdf.deck_faces import deck_side, face_template
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.kit import build_deck_kit
from mhp_cards.pdf.layout import CardSize
from mhp_cards.pdf.sketch import Clip, Image, Sketch, Unclip

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "terra-former"


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "pack"
    shutil.copytree(EXAMPLE, target)
    return target


def _images(path: Path) -> list[object]:
    """Every picture stored in the PDF: the image XObjects, each counted once."""
    seen = {}
    for page in PdfReader(path).pages:
        resources = page.get("/Resources") or {}
        objects = resources.get("/XObject") or {}
        for reference in objects.values():
            if reference.get_object().get("/Subtype") == "/Image":
                seen[reference.idnum] = reference
    return list(seen)


def test_each_picture_is_stored_once_however_many_cards_show_it(tmp_path: Path) -> None:
    build_deck_kit(load_pack(EXAMPLE), only=["nature"], out_dir=tmp_path, root=EXAMPLE)
    # Ten nature cards, five pictures (two copies of each kind).
    assert len(_images(tmp_path / "mhp-nature.pdf")) == 5
    assert len(_images(tmp_path / "mhp-kit.pdf")) == 5


@pytest.mark.parametrize(
    ("fit", "height", "expected"),
    [
        ("fill", 30, [(10, 10, 40, 30)]),
        ("contain", 30, [(10, 15, 40, 20)]),
        ("cover", 30, ["clip", (0, 10, 60, 30), "unclip"]),
    ],
)
def test_a_picture_fits_its_region_as_asked(
    fit: str, height: float, expected: list[object]
) -> None:
    side = DeckFace.model_validate(
        {
            "regions": {
                "art": {"x": 10, "y": 10, "width": 40, "height": height, "image": "art", "fit": fit}
            }
        }
    )
    sketch = Sketch()
    sketch.new_page(63, 88, "face")
    face = Face(sketch, face_template(side), CardSize(width=63, height=88), "ru")
    card = DeckCard.model_validate({"id": "forest", "art": "art/forest.png"})
    deck_side(face, side, card, "nature/forest", EXAMPLE)
    drawn: list[object] = []
    for op in sketch.page.ops:
        if isinstance(op, Image):
            drawn.append(tuple(round(v, 6) for v in (op.x, op.y, op.width, op.height)))
        elif isinstance(op, Clip):
            drawn.append("clip")
        elif isinstance(op, Unclip):
            drawn.append("unclip")
    assert drawn == expected


def test_a_missing_picture_is_a_located_warning_and_a_placeholder(tmp_path: Path) -> None:
    pack = _copy(tmp_path)
    (pack / "art" / "lake.png").unlink()
    validation = validate_pack(pack)
    assert validation.is_valid()
    [issue] = validation.issues
    assert (issue.check, issue.severity) == ("art-missing", "warning")
    text = (pack / DECKS_FILE).read_text(encoding="utf-8")
    index = text.index("art/lake.png")
    assert issue.line == text.count("\n", 0, index) + 1
    assert issue.message == "card 'lake': no picture at 'art/lake.png'; a placeholder is printed"
    build_deck_kit(load_pack(pack), only=["nature"], out_dir=tmp_path / "out", root=pack)
    page = PdfReader(tmp_path / "out" / "mhp-nature.pdf").pages[0].extract_text()
    assert " ".join(page.split()).count("нет рисунка: lake.png") == 2
    assert len(_images(tmp_path / "out" / "mhp-nature.pdf")) == 4


def test_a_file_that_is_no_picture_and_an_absolute_path_are_errors(tmp_path: Path) -> None:
    pack = _copy(tmp_path)
    (pack / "art" / "lake.png").write_text("not a picture", encoding="utf-8")
    path = pack / DECKS_FILE
    path.write_text(
        path.read_text(encoding="utf-8").replace("art: art/tundra.png", "art: /tmp/tundra.png"),
        encoding="utf-8",
    )
    messages = sorted(issue.message for issue in validate_pack(pack).issues)
    assert messages == [
        "card 'lake': 'art/lake.png' is not a PNG, JPEG or SVG picture",
        "card 'tundra': picture '/tmp/tundra.png' is an absolute path",
    ]


def test_strict_art_makes_a_missing_picture_an_error(cli, tmp_path: Path) -> None:
    pack = _copy(tmp_path)
    (pack / "art" / "marsh.png").unlink()
    out = tmp_path / "out"
    lenient = cli("build", "--catalog", str(pack), "--out", str(out), "--only", "nature")
    assert lenient.exit_code == 0
    assert "no picture at 'art/marsh.png'" in lenient.stderr
    strict = cli("build", "--catalog", str(pack), "--out", str(tmp_path / "strict"), "--strict-art")
    assert strict.exit_code == 1
    assert "1 picture(s) missing (--strict-art)" in strict.stderr
    assert f"{pack / DECKS_FILE}:" in strict.stderr
    assert not (tmp_path / "strict").exists()


_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">
<rect width="200" height="100" fill="#3f7d3a"/><circle cx="100" cy="50" r="40" fill="#f2c12e"/>
</svg>
"""


def test_an_svg_picture_stays_vector_and_is_stored_once(tmp_path: Path) -> None:
    pack = _copy(tmp_path)
    (pack / "art" / "sun.svg").write_text(_SVG, encoding="utf-8")
    path = pack / DECKS_FILE
    path.write_text(
        path.read_text(encoding="utf-8").replace("art/steppe.png", "art/sun.svg"), "utf-8"
    )
    assert validate_pack(pack).issues == ()
    out = tmp_path / "out"
    build_deck_kit(load_pack(pack), only=["nature"], out_dir=out, root=pack)
    forms = set()
    for page in PdfReader(out / "mhp-nature.pdf").pages:
        objects = (page.get("/Resources") or {}).get("/XObject") or {}
        for name, reference in objects.items():
            if reference.get_object().get("/Subtype") == "/Form" and "svg" in name:
                forms.add(reference.idnum)
    # Two steppe cards, one picture in the file, kept as vector drawing (a form, no image).
    assert len(forms) == 1
    assert len(_images(out / "mhp-nature.pdf")) == 4


def test_a_broken_svg_is_an_error(tmp_path: Path) -> None:
    pack = _copy(tmp_path)
    (pack / "art" / "sun.svg").write_text("<svg", encoding="utf-8")
    path = pack / DECKS_FILE
    path.write_text(
        path.read_text(encoding="utf-8").replace("art/steppe.png", "art/sun.svg"), "utf-8"
    )
    [issue] = validate_pack(pack).issues
    assert issue.message == "card 'steppe': 'art/sun.svg' is not a PNG, JPEG or SVG picture"
