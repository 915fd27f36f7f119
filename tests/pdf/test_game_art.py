"""Pictures on the game's own cards: in the template's art region, checked and located."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from mhp_cards.resources import default_catalog_dir, default_layouts_dir

RAW_ART = "      art:     {x: 44, y: 11, width: 16, height: 16, fit: contain}\n"


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path]:
    """A catalog whose water ice has a picture, and a layout whose raw template shows it."""
    catalog = tmp_path / "catalog"
    shutil.copytree(default_catalog_dir(), catalog)
    (catalog / "art").mkdir()
    Image.new("RGB", (64, 64), (40, 110, 200)).save(catalog / "art" / "ice.png")
    raw = catalog / "raw_materials.yaml"
    text = raw.read_text(encoding="utf-8")
    raw.write_text(
        text.replace("    copies: 9\n", "    copies: 9\n    art: art/ice.png\n", 1), "utf-8"
    )
    layouts = tmp_path / "layouts"
    shutil.copytree(default_layouts_dir(), layouts)
    templates = layouts / "templates.yaml"
    lines = templates.read_text(encoding="utf-8")
    anchor = "      use:     {x: 3.5, y: 55"
    templates.write_text(lines.replace(anchor, RAW_ART + anchor, 1), encoding="utf-8")
    return catalog, layouts / "sheets" / "a4.yaml"


def _images(path: Path) -> int:
    seen = set()
    for page in PdfReader(path).pages:
        for reference in ((page.get("/Resources") or {}).get("/XObject") or {}).values():
            if reference.get_object().get("/Subtype") == "/Image":
                seen.add(reference.idnum)
    return len(seen)


def test_a_raw_card_shows_its_picture_in_the_art_region(
    cli, setup: tuple[Path, Path], tmp_path: Path
) -> None:
    catalog, layout = setup
    out = tmp_path / "out"
    result = cli(
        "build",
        "--catalog",
        str(catalog),
        "--layout",
        str(layout),
        "--only",
        "raw",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.stderr
    # Nine water-ice cards, one picture in the file.
    assert _images(out / "mhp-raw.pdf") == 1
    # The default layout has no art region: the same catalog prints no picture.
    plain = cli(
        "build", "--catalog", str(catalog), "--only", "raw", "--out", str(tmp_path / "plain")
    )
    assert plain.exit_code == 0
    assert _images(tmp_path / "plain" / "mhp-raw.pdf") == 0


def test_a_missing_picture_is_located_and_strict_art_refuses_it(
    cli, setup: tuple[Path, Path], tmp_path: Path
) -> None:
    catalog, layout = setup
    (catalog / "art" / "ice.png").unlink()
    validated = cli("validate", str(catalog))
    assert validated.exit_code == 0
    [line] = [line for line in validated.stdout.splitlines() if "no picture at" in line]
    text = (catalog / "raw_materials.yaml").read_text(encoding="utf-8")
    row = text[: text.index("art: art/ice.png")].count("\n") + 1
    assert line.strip().startswith(f"raw_materials.yaml:{row}:10: warning")
    assert "raw water-ice: no picture at 'art/ice.png'; a placeholder is printed" in line
    lenient = cli(
        "build",
        "--catalog",
        str(catalog),
        "--layout",
        str(layout),
        "--only",
        "raw",
        "--out",
        str(tmp_path / "a"),
    )
    assert lenient.exit_code == 0
    assert "no picture at 'art/ice.png'" in lenient.stderr
    page = " ".join(
        (PdfReader(tmp_path / "a" / "mhp-raw.pdf").pages[0].extract_text() or "").split()
    )
    assert "нет рисунка: ice.png" in page
    strict = cli(
        "build",
        "--catalog",
        str(catalog),
        "--layout",
        str(layout),
        "--only",
        "raw",
        "--out",
        str(tmp_path / "b"),
        "--strict-art",
    )
    assert strict.exit_code == 1
    assert not (tmp_path / "b").exists()


def test_a_substance_picture_serves_its_raw_cards(
    cli, setup: tuple[Path, Path], tmp_path: Path
) -> None:
    catalog, layout = setup
    substances = catalog / "substances.yaml"
    text = substances.read_text(encoding="utf-8")
    substances.write_text(
        text.replace(
            "  - formula: CO2\n    name: {ru: Углекислый газ, en: Carbon dioxide}\n",
            "  - formula: CO2\n    name: {ru: Углекислый газ, en: Carbon dioxide}\n"
            "    art: art/ice.png\n",
            1,
        ),
        encoding="utf-8",
    )
    assert "art: art/ice.png" in substances.read_text(encoding="utf-8")
    out = tmp_path / "out"
    result = cli(
        "build",
        "--catalog",
        str(catalog),
        "--layout",
        str(layout),
        "--only",
        "raw",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.stderr
    assert _images(out / "mhp-raw.pdf") == 1  # the same file for water ice and the CO2 cards
