"""A game catalog's own decks: Fate card fronts and a deck more, printed with the game."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

from mhp_cards.resources import default_catalog_dir

DECKS = Path(__file__).resolve().parents[1] / "data" / "fate-fronts.yaml"


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    target = tmp_path / "catalog"
    shutil.copytree(default_catalog_dir(), target)
    shutil.copy(DECKS, target / "decks.yaml")
    return target


def test_the_decks_are_validated_with_the_game(cli, catalog: Path) -> None:
    result = cli("validate", str(catalog), "--json")
    document = json.loads(result.stdout)
    assert result.exit_code == 0, result.stdout
    assert document["checks"]["decks"] == "ok"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "copies: 24, name: {ru: Находка",
            "copies: 23, name: {ru: Находка",
            "the fate deck prints 71 cards; the game has 72 Fate cards",
        ),
        ("  - id: events", "  - id: raw", "deck 'raw' has the name of a section of the kit"),
    ],
)
def test_a_fate_deck_of_the_wrong_size_or_a_taken_name_is_refused(
    cli, catalog: Path, old: str, new: str, message: str
) -> None:
    path = catalog / "decks.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(old, new), encoding="utf-8")
    result = cli("validate", str(catalog))
    assert result.exit_code == 1
    [line] = [line for line in result.stdout.splitlines() if message in line]
    assert line.strip().startswith(f"{path}:")
    built = cli(
        "build", "--catalog", str(catalog), "--out", str(catalog.parent / "out"), "--only", "raw"
    )
    assert built.exit_code == 1
    assert message in built.stderr


def test_fate_fronts_print_double_sided_and_the_deck_after(
    cli, catalog: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    result = cli("build", "--catalog", str(catalog), "--out", str(out), "--only", "fate,events")
    assert result.exit_code == 0, result.stderr
    fate = PdfReader(out / "mhp-fate.pdf")
    fronts = [" ".join((page.extract_text() or "").split()) for page in fate.pages[0::2]]
    backs = [" ".join((page.extract_text() or "").split()) for page in fate.pages[1::2]]
    assert sum(text.count("Пылевая буря") for text in fronts) == 24
    assert sum(text.count("Находка") for text in fronts) == 24
    # The backs are the field's face: the Mars surface with the game's name.
    assert all(set(text.split()) == {"МАРСХИМПРОМ"} for text in backs)
    manifest = json.loads((out / "mhp-kit.manifest.json").read_text(encoding="utf-8"))
    fate_fronts = [p for p in manifest["pieces"] if p["kind"] == "fate" and p["face"] == "front"]
    assert len(fate_fronts) == 72
    assert fate_fronts[0]["id"] == "fate/dust-storm#1"
    events = " ".join(PdfReader(out / "mhp-events.pdf").pages[0].extract_text().split())
    assert "Солнечная вспышка" in events


def test_without_decks_the_fate_cards_stay_field_tiles(cli, tmp_path: Path) -> None:
    result = cli("build", "--out", str(tmp_path), "--only", "fate")
    assert result.exit_code == 0
    pages = PdfReader(tmp_path / "mhp-fate.pdf").pages
    assert all(set((page.extract_text() or "").split()) == {"МАРСХИМПРОМ"} for page in pages)
