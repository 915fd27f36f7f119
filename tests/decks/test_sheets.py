"""A deck pack in a spreadsheet: a sheet a deck, a card added with its picture, bad cells named."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from mhp_cards.decks.load import load_pack, validate_pack
from mhp_cards.decks.sheets import deck_sheets

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "terra-former"


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    target = tmp_path / "pack"
    shutil.copytree(EXAMPLE, target)
    return target


def test_a_sheet_per_deck_with_its_fields() -> None:
    sheets = deck_sheets(load_pack(EXAMPLE))
    assert [sheet.name for sheet in sheets] == ["nature", "organisms", "changes"]
    assert sheets[1].headers == (
        "id", "copies", "name.ru", "name.en", "role", "needs", "temperature", "humidity",
    )  # fmt: skip


def test_round_trip_add_a_card_with_its_picture_and_print_it(
    cli, pack: Path, tmp_path: Path
) -> None:
    before = (pack / "decks.yaml").read_bytes()
    folder = tmp_path / "csv"
    assert cli("catalog", "export", "--catalog", str(pack), "--csv", str(folder)).exit_code == 0
    unchanged = cli("catalog", "import", "--catalog", str(pack), "--csv", str(folder))
    assert unchanged.exit_code == 0
    assert (pack / "decks.yaml").read_bytes() == before
    # A sixth landscape with its picture: a row in the sheet, the file beside the others.
    shutil.copy(pack / "art" / "steppe.png", pack / "art" / "meadow.png")
    with (folder / "nature.csv").open("a", encoding="utf-8", newline="") as stream:
        csv.writer(stream, lineterminator="\n").writerow(
            [
                "meadow",
                "1",
                "Луг",
                "Meadow",
                "Лг",
                "Луговые травы на влажной почве.",
                "Grasses on damp soil.",
                "art/meadow.png",
            ]
        )
    result = cli("catalog", "import", "--catalog", str(pack), "--csv", str(folder))
    assert result.exit_code == 0, result.stderr
    assert "nature: 0 changed, 1 added, 0 removed" in result.stdout
    after = (pack / "decks.yaml").read_text(encoding="utf-8")
    assert after.startswith(before.decode("utf-8").split("      - {id: tundra")[0])
    validation = validate_pack(pack)
    assert validation.is_valid()
    assert validation.pack is not None
    assert validation.pack.decks[0].printed == 11
    built = cli(
        "build",
        "--catalog",
        str(pack),
        "--out",
        str(tmp_path / "out"),
        "--only",
        "nature",
        "--strict-art",
    )
    assert built.exit_code == 0, built.stderr


def test_a_cell_the_pack_refuses_is_named(cli, pack: Path, tmp_path: Path) -> None:
    folder = tmp_path / "csv"
    cli("catalog", "export", "--catalog", str(pack), "--csv", str(folder))
    path = folder / "organisms.csv"
    with path.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.reader(stream))
    wolf = next(i for i, row in enumerate(rows) if row[0] == "wolf")
    rows[wolf][rows[0].index("role")] = "П7"
    with path.open("w", encoding="utf-8", newline="") as stream:
        csv.writer(stream, lineterminator="\n").writerows(rows)
    before = (pack / "decks.yaml").read_bytes()
    result = cli("catalog", "import", "--catalog", str(pack), "--csv", str(folder))
    assert result.exit_code == 1
    assert (
        f"organisms!E{wolf + 1}: error: card 'wolf': role is 'П7', not one of its choices"
        in result.stderr
    )
    assert (pack / "decks.yaml").read_bytes() == before
