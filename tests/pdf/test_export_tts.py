"""``export_tts``: the saved object parses, sheets obey TTS's limits, CardIDs point at the right
cells, and every deck holds as many cards as the box (counted from the catalog, not from the
exporter's own list of designs)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest
from PIL import Image, ImageChops, ImageStat

from mhp_cards.catalog import Catalog
from mhp_cards.errors import ExportError
from mhp_cards.pdf.export_png import export_png
from mhp_cards.pdf.export_tts import export_tts


@pytest.fixture(scope="module")
def tts(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tts")
    export_tts(catalog, out)
    return out


@pytest.fixture(scope="module")
def saved(tts: Path) -> dict:
    return json.loads((tts / "mhp-tts.json").read_text(encoding="utf-8"))


def _objects(saved: dict) -> dict[str, dict]:
    return {obj["GUID"]: obj for obj in saved["ObjectStates"]}


def _cards(obj: dict) -> list[dict]:
    return obj["ContainedObjects"] if obj["Name"] == "DeckCustom" else [obj]


def _file(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file"
    return Path(url2pathname(parsed.path))


def _deck(saved: dict, name: str) -> dict:
    matches = [obj for obj in saved["ObjectStates"] if obj["GMNotes"] == name]
    assert len(matches) == 1, [obj["GMNotes"] for obj in saved["ObjectStates"]]
    return matches[0]


def test_the_saved_object_has_the_shape_tts_reads(saved: dict) -> None:
    assert isinstance(saved["ObjectStates"], list)
    assert len(_objects(saved)) == len(saved["ObjectStates"])  # GUIDs are unique
    for obj in saved["ObjectStates"]:
        assert obj["Name"] in ("DeckCustom", "CardCustom")
        assert set(obj["Transform"]) >= {"posX", "posY", "posZ", "rotZ", "scaleX", "scaleZ"}
        for deck in obj["CustomDeck"].values():
            assert set(deck) >= {
                "FaceURL",
                "BackURL",
                "NumWidth",
                "NumHeight",
                "BackIsHidden",
                "UniqueBack",
            }
            assert deck["BackIsHidden"] is True
        if obj["Name"] == "DeckCustom":
            assert obj["DeckIDs"] == [card["CardID"] for card in obj["ContainedObjects"]]
            assert all(card["Name"] == "Card" for card in obj["ContainedObjects"])
            assert all(card["Nickname"] for card in obj["ContainedObjects"])
    keys = [key for obj in saved["ObjectStates"] for key in obj["CustomDeck"]]
    assert len(keys) == len(set(keys))  # one key per sheet in the whole save


def test_sheets_obey_the_limits(saved: dict) -> None:
    for obj in saved["ObjectStates"]:
        for deck in obj["CustomDeck"].values():
            assert 1 <= deck["NumWidth"] <= 10
            assert 1 <= deck["NumHeight"] <= 7
            for url in {deck["FaceURL"], deck["BackURL"]}:
                with Image.open(_file(url)) as image:
                    assert image.width <= 4096
                    assert image.height <= 4096
                    assert image.mode == "RGB"
            with Image.open(_file(deck["FaceURL"])) as sheet:
                # Cells of whole pixels: TTS cuts the sheet into NumWidth × NumHeight equal parts.
                assert sheet.width % deck["NumWidth"] == 0


def test_every_card_id_points_inside_its_sheet(saved: dict) -> None:
    for obj in saved["ObjectStates"]:
        for card in _cards(obj):
            key, cell = divmod(card["CardID"], 100)
            assert str(key) in card["CustomDeck"]
            assert str(key) in obj["CustomDeck"]
            deck = obj["CustomDeck"][str(key)]
            assert card["CustomDeck"][str(key)] == deck
            assert cell < deck["NumWidth"] * deck["NumHeight"]
            assert cell < 69  # the 70th cell stays free for a hidden face


def test_decks_hold_the_catalogs_copies(saved: dict, catalog: Catalog) -> None:
    components = catalog.components
    reactor_cards = sum(len(i.cards) for i in catalog.installations) + len(catalog.electrolysers)
    expected = {
        "raw": catalog.raw_deck_size,
        "fate": components.fate_cards.count,
        "field": 2,
        "reactors": reactor_cards,
        "mission": 1,
        "aids": len(components.colours),  # one aid per player
        "coins": components.coins.count,
        "chemists": components.chemist_tokens.per_player * len(components.colours),
        "combines": min(components.combines.count, len(components.colours)),
        "upgrades": sum(upgrade.count for upgrade in components.upgrades),
    }
    for deck, count in expected.items():
        assert len(_cards(_deck(saved, deck))) == count, deck
    assert catalog.raw_deck_size == 72  # the copies of catalog/raw_materials.yaml, summed
    raw = _cards(_deck(saved, "raw"))
    for material in catalog.raw_materials:
        assert sum(card["Description"] == material.id for card in raw) == material.copies
    total = sum(len(_cards(obj)) for obj in saved["ObjectStates"])
    tokens = (
        components.coins.count
        + components.chemist_tokens.per_player * len(components.colours)
        + min(components.combines.count, len(components.colours))
        + sum(upgrade.count for upgrade in components.upgrades)
    )
    aids = len(components.colours)  # one player aid per player
    assert total == catalog.raw_deck_size + components.fate_cards.count + 2 + reactor_cards + 1 + (
        aids + tokens
    )


def test_more_than_69_faces_take_two_sheets(saved: dict, catalog: Catalog) -> None:
    fate = _deck(saved, "fate")
    assert catalog.components.fate_cards.count > 69
    assert len(fate["CustomDeck"]) == 2
    first, second = sorted(fate["CustomDeck"], key=int)
    ids = [card["CardID"] for card in fate["ContainedObjects"]]
    assert ids[:69] == [int(first) * 100 + i for i in range(69)]
    assert ids[69:] == [
        int(second) * 100 + i for i in range(catalog.components.fate_cards.count - 69)
    ]


def test_a_card_id_shows_the_card_it_names(saved: dict, catalog: Catalog, tmp_path: Path) -> None:
    """Cut the cell a CardID names out of its sheet: it is that card's face, not a neighbour's."""
    export_png(catalog, tmp_path, dpi=100, cards="hematite,halite")
    raw = _deck(saved, "raw")

    def cell_of(material: str) -> Image.Image:
        card = next(c for c in raw["ContainedObjects"] if c["Description"] == material)
        key, cell = divmod(card["CardID"], 100)
        deck = raw["CustomDeck"][str(key)]
        sheet = Image.open(_file(deck["FaceURL"])).convert("RGB")
        width, height = sheet.width // deck["NumWidth"], sheet.height // deck["NumHeight"]
        row, column = divmod(cell, deck["NumWidth"])
        return sheet.crop((column * width, row * height, (column + 1) * width, (row + 1) * height))

    def face(material: str, size: tuple[int, int]) -> Image.Image:
        with Image.open(tmp_path / f"raw-{material}.front.png") as image:
            white = Image.new("RGBA", image.size, "white")
            return Image.alpha_composite(white, image).convert("RGB").resize(size, Image.LANCZOS)

    def distance(a: Image.Image, b: Image.Image) -> float:
        return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3

    hematite, halite = cell_of("hematite"), cell_of("halite")
    assert distance(hematite, face("hematite", hematite.size)) < 4
    assert distance(halite, face("halite", halite.size)) < 4
    assert distance(hematite, face("halite", hematite.size)) > 8


def test_tokens_show_their_face_on_both_sides(saved: dict) -> None:
    coins = _deck(saved, "coins")
    deck = next(iter(coins["CustomDeck"].values()))
    assert deck["UniqueBack"] is True
    assert deck["BackURL"] == deck["FaceURL"]
    assert deck["Type"] == 4  # round


def test_base_url_links_the_hosted_images(catalog: Catalog, tmp_path: Path) -> None:
    export_tts(catalog, tmp_path, base_url="https://example.org/mhp/", dpi=40)
    saved = json.loads((tmp_path / "mhp-tts.json").read_text(encoding="utf-8"))
    urls = [
        url
        for obj in saved["ObjectStates"]
        for deck in obj["CustomDeck"].values()
        for url in (deck["FaceURL"], deck["BackURL"])
    ]
    assert urls
    for url in urls:
        assert url.startswith("https://example.org/mhp/")
        assert (tmp_path / url.rsplit("/", 1)[1]).is_file()


def test_a_base_url_must_be_a_url(catalog: Catalog, tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="--base-url"):
        export_tts(catalog, tmp_path, base_url="example.org")
