"""A deck pack printed as the game's kit is: read back from the PDFs with pypdf."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
from pypdf import PdfReader

from mhp_cards.decks import DECKS_FILE
from mhp_cards.decks.load import load_pack
from mhp_cards.errors import KitError
from mhp_cards.pdf.kit import build_deck_kit
from mhp_cards.resources import default_layouts_dir

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "terra-former"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("terra-former")
    build_deck_kit(load_pack(EXAMPLE), out_dir=out)
    return out


def _text(path: Path) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(path).pages)


def test_every_deck_is_a_section_with_its_fronts_and_mirrored_backs(built: Path) -> None:
    # Nine poker cards a sheet of A4: 10 nature cards take 2 sheets, 26 organisms 3, the 4
    # changes 1; every sheet a front page and a back page.
    pages = {
        name: len(PdfReader(built / f"mhp-{name}.pdf").pages)
        for name in ("nature", "organisms", "changes")
    }
    assert pages == {"nature": 4, "organisms": 6, "changes": 2}
    assert len(PdfReader(built / "mhp-kit.pdf").pages) == 12


def test_every_card_shows_its_fields(built: Path) -> None:
    pack = load_pack(EXAMPLE)
    text = _text(built / "mhp-kit.pdf")
    for deck in pack.decks:
        for card in deck.cards:
            name = card.shown("name", "ru")
            assert " ".join(name.split()) in " ".join(text.split()), name
    organisms = _text(built / "mhp-organisms.pdf")
    assert organisms.count("Температура") == 26
    # The backs say the game's name, and only that: one per card.
    assert text.count("Терра-формер") == 40


def test_the_manifest_places_every_printed_card_once(built: Path) -> None:
    manifest = json.loads((built / "mhp-kit.manifest.json").read_text(encoding="utf-8"))
    schema = json.loads(
        (default_layouts_dir() / "schema" / "manifest.schema.json").read_text(encoding="utf-8")
    )
    jsonschema.Draft202012Validator(schema).validate(manifest)
    fronts = Counter(
        piece["id"].split("#")[0] for piece in manifest["pieces"] if piece["face"] == "front"
    )
    assert fronts["nature/forest"] == 2
    assert fronts["organisms/moose"] == 1
    assert sum(fronts.values()) == 40


def test_english_cards_in_english(tmp_path: Path) -> None:
    build_deck_kit(load_pack(EXAMPLE), lang="en", only=["changes"], out_dir=tmp_path)
    text = _text(tmp_path / "mhp-changes.pdf")
    for name in ("Warming", "Cooling", "Drought", "Flood", "Terra-former"):
        assert name in text
    assert not (tmp_path / "mhp-organisms.pdf").exists()


def test_text_that_does_not_fit_names_the_card_and_region(tmp_path: Path) -> None:
    target = tmp_path / "pack"
    target.mkdir()
    text = (EXAMPLE / DECKS_FILE).read_text(encoding="utf-8")
    long_name = "Очень " * 40 + "длинное имя"
    text = text.replace("{ru: Лось, en: Moose}", "{ru: " + long_name + ", en: Moose}")
    (target / DECKS_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(KitError) as raised:
        build_deck_kit(load_pack(target), out_dir=tmp_path / "out")
    [problem] = raised.value.problems
    assert "organisms/moose" in str(problem)
    assert "name" in str(problem)
    assert not (tmp_path / "out").exists()
