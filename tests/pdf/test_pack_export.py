"""A deck pack exported as the game is: one PNG per face, Tabletop Simulator decks, pictures in."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from mhp_cards.decks.load import load_pack
from mhp_cards.pdf.export_png import export_png
from mhp_cards.pdf.export_tts import export_tts
from mhp_cards.pdf.pack_cards import PackSource

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "terra-former"


def test_png_export_writes_every_face_with_its_picture(tmp_path: Path) -> None:
    result = export_png(PackSource(load_pack(EXAMPLE), EXAMPLE), tmp_path, dpi=100)
    # 35 designs (5 + 26 + 4), their 3 shared backs.
    assert (result.designs, result.cards, len(result.faces)) == (35, 40, 38)
    index = json.loads((tmp_path / "cards.json").read_text(encoding="utf-8"))
    forest = next(card for card in index["cards"] if card["id"] == "forest")
    assert (forest["deck"], forest["copies"], forest["front"]) == (
        "nature",
        2,
        "nature-forest.front.png",
    )
    with Image.open(tmp_path / forest["front"]) as image:
        picture = image.convert("RGB")
        # The picture's region (4–59 × 21–45 mm): the forest's dark green is there, which no
        # text or paper of the card is.
        greens = [
            picture.getpixel((x, y))
            for x in range(int(8 / 25.4 * 100), int(55 / 25.4 * 100), 3)
            for y in range(int(30 / 25.4 * 100), int(44 / 25.4 * 100), 3)
        ]
    assert any(g > r + 30 and g > b + 30 for r, g, b in greens)


def test_tts_export_makes_a_deck_of_each(tmp_path: Path) -> None:
    result = export_tts(PackSource(load_pack(EXAMPLE), EXAMPLE), tmp_path, lang="en", dpi=60)
    assert [(deck.deck, deck.cards) for deck in result.decks] == [
        ("nature", 10),
        ("organisms", 26),
        ("changes", 4),
    ]
    saved = json.loads(result.saved_object.read_text(encoding="utf-8"))
    assert saved["SaveName"] == "Terra-former"
    assert [deck["Nickname"] for deck in saved["ObjectStates"]] == [
        "Nature",
        "Organisms",
        "Changes",
    ]
    organisms = saved["ObjectStates"][1]
    assert {card["Nickname"] for card in organisms["ContainedObjects"]} >= {"Wolf", "Snowy owl"}
    assert organisms["Description"] == "Terra-former"


def test_the_cli_exports_a_pack(cli, tmp_path: Path) -> None:
    result = cli("export", "png", "--catalog", str(EXAMPLE), "--out", str(tmp_path), "--dpi", "60")
    assert result.exit_code == 0, result.stdout
    assert "wrote 38 images of 35 cards (40 with copies)" in result.stdout
