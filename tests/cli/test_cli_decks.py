"""``mhp validate`` and ``mhp build`` on a deck pack (the Terra-former example)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from mhp_cards.decks import DECKS_FILE

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "terra-former"


def test_validate_lists_the_decks_and_says_valid(cli) -> None:
    result = cli("validate", str(EXAMPLE))
    assert result.exit_code == 0, result.stdout
    lines = result.stdout.splitlines()
    assert lines[0] == f"Deck pack: {EXAMPLE}"
    assert "  organisms          26 cards, 26 printed (Organisms)" in lines
    assert lines[-1] == "VALID: 0 error(s), 0 warning(s)"
    document = json.loads(cli("validate", str(EXAMPLE), "--json").stdout)
    assert document["kind"] == "deck-pack"
    assert [deck["printed"] for deck in document["decks"]] == [10, 26, 4]


def test_validate_locates_a_broken_cell_and_exits_1(cli, tmp_path: Path) -> None:
    target = tmp_path / "pack"
    shutil.copytree(EXAMPLE, target)
    path = target / DECKS_FILE
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("role: П1, needs: Тн", "role: П1, needs: Xx"), "utf-8")
    result = cli("validate", str(target))
    assert result.exit_code == 1
    # Two consumers of the tundra, reindeer and lemming, each reported at its own row.
    lines = [line for line in result.stdout.splitlines() if ": error" in line]
    broken = path.read_text(encoding="utf-8").splitlines()
    expected = [
        f"{path}:{number}:{row.index('needs: Xx') + len('needs: ') + 1}"
        for number, row in enumerate(broken, start=1)
        if "needs: Xx" in row
    ]
    assert len(expected) == 2
    assert [line.split(": error")[0] for line in lines] == expected
    assert all("needs 'Xx' is no symbol of deck 'nature'" in line for line in lines)
    assert result.stdout.splitlines()[-1] == "INVALID: 2 error(s), 0 warning(s)"


def test_build_prints_the_pack(cli, tmp_path: Path) -> None:
    result = cli("build", "--catalog", str(EXAMPLE), "--out", str(tmp_path), "--only", "nature")
    assert result.exit_code == 0, result.stdout
    assert f"wrote {tmp_path / 'mhp-nature.pdf'} (4 pages)" in result.stdout
    assert result.stdout.splitlines()[-1] == "10 cards; print at 100 %, double-sided (long edge)"


def test_build_refuses_what_a_pack_has_not(cli, tmp_path: Path) -> None:
    unknown = cli("build", "--catalog", str(EXAMPLE), "--out", str(tmp_path), "--only", "raw")
    assert unknown.exit_code == 2
    assert "unknown deck(s) raw; choose from nature, organisms, changes" in unknown.stderr
    cards = cli("build", "--catalog", str(EXAMPLE), "--out", str(tmp_path), "--cards", "wolf")
    assert cards.exit_code == 2
    assert "not a deck pack" in cards.stderr


def test_build_of_a_broken_pack_exits_1_with_the_location(cli, tmp_path: Path) -> None:
    target = tmp_path / "pack"
    shutil.copytree(EXAMPLE, target)
    path = target / DECKS_FILE
    path.write_text(path.read_text(encoding="utf-8").replace("copies: 2", "copies: 0", 1), "utf-8")
    result = cli("build", "--catalog", str(target), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert f"{path}:" in result.stderr
    assert not (tmp_path / "out").exists()
