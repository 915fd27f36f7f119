"""``mhp build --cards`` and ``mhp export png|tts`` from the command line.

The PDF of ``--cards`` is read back with pdfplumber: it must hold the named cards and their
backs, and no other card of the catalog.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pdfplumber
import pytest

from mhp_cards.validate import load_catalog

CATALOG = load_catalog()


def _page_texts(path: Path) -> list[str]:
    with pdfplumber.open(path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def _other_cards(keep: set[str]) -> list[str]:
    """Texts that only another card would print: raw names, and reactor IDs as a whole word."""
    names = [m.name.ru for m in CATALOG.raw_materials if m.id not in keep]
    ids = [c.id for i in CATALOG.installations for c in i.cards if c.id not in keep]
    return names + ids + [e.id for e in CATALOG.electrolysers]


def test_cards_water_ice_and_4a_print_those_cards_and_their_backs(cli, tmp_path: Path) -> None:
    result = cli("build", "--cards", "water-ice,4A", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mhp-cards.pdf"]
    pages = _page_texts(tmp_path / "mhp-cards.pdf")
    assert len(pages) == 4  # raw front, raw back, reactor front, reactor back
    raw_front, raw_back, reactor_front, reactor_back = pages
    assert "Водяной лёд" in raw_front
    assert "СЫРЬЁ" in raw_back
    assert "МАРСХИМПРОМ" in raw_back
    assert "Водяной лёд" not in raw_back
    card = CATALOG.card("4А")
    assert "4А" in reactor_front.split()
    assert card.name is not None
    assert card.name.ru.split()[0] in reactor_front
    assert "УСТАНОВКА" in reactor_back
    everything = "\n".join(pages)
    assert everything.count("Водяной лёд") == 1
    words = set(everything.split())
    for other in _other_cards({"water-ice", "4А"}):
        is_card_id = other[0].isdigit() or other[0] == "Э"
        assert other not in (words if is_card_id else everything), other
    assert "2 cards (water-ice ×1, 4А ×1)" in result.stdout


def test_cards_prints_n_copies_with_a_star(cli, tmp_path: Path) -> None:
    result = cli("build", "--cards", "water-ice*3", "--out", str(tmp_path), "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["pieces"] == 3
    assert report["cards"] == [{"id": "water-ice", "copies": 3}]
    pages = _page_texts(tmp_path / "mhp-cards.pdf")
    assert len(pages) == 2
    assert pages[0].count("Водяной лёд") == 3


def test_an_unknown_card_is_located_and_writes_nothing(cli, tmp_path: Path) -> None:
    result = cli("build", "--cards", "water-ice,4Ж,halite", "--out", str(tmp_path))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: no card '4Ж' in the catalog")
    assert lines[1:] == ["  water-ice,4Ж,halite", "            ^"]
    assert "Traceback" not in result.stderr
    assert not tmp_path.exists() or not any(tmp_path.iterdir())


def test_a_misspelt_card_gets_close_matches(cli, tmp_path: Path) -> None:
    result = cli("build", "--cards", "hallite", "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "did you mean halite" in result.stderr


def test_cards_and_only_exclude_each_other(cli, tmp_path: Path) -> None:
    result = cli("build", "--cards", "coin", "--only", "raw", "--out", str(tmp_path))
    assert result.exit_code == 2


def test_export_png_writes_images_and_an_index(cli, tmp_path: Path) -> None:
    result = cli(
        "export", "png", "--out", str(tmp_path), "--dpi", "60", "--cards", "coin,4А", "--json"
    )
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["images"] == 3  # a coin (the same both sides), 4А's front, the reactor back
    index = json.loads((tmp_path / "cards.json").read_text(encoding="utf-8"))
    assert [(e["id"], e["front"], e["back"]) for e in index["cards"]] == [
        ("coin", "coin.front.png", "coin.front.png"),  # in the order asked for
        ("4А", "reactor-4a.front.png", "reactor.back.png"),
    ]


def test_export_png_refuses_a_bad_language(cli, tmp_path: Path) -> None:
    result = cli("export", "png", "--out", str(tmp_path), "--lang", "de")
    assert result.exit_code == 2


def test_export_without_the_extra_names_it(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    result = cli("export", "tts", "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "pip install 'mhp-cards[export]'" in result.stderr
    assert "Traceback" not in result.stderr


def test_export_tts_says_where_the_json_goes(cli, tmp_path: Path) -> None:
    result = cli("export", "tts", "--out", str(tmp_path), "--dpi", "40")
    assert result.exit_code == 0, result.stderr
    assert "raw: 72 cards on raw-1.png, back raw-back.png" in result.stdout
    assert "fate: 72 cards on fate-1.png, fate-2.png" in result.stdout
    assert "Tabletop Simulator/Saves/Saved Objects/" in result.stdout
    saved = json.loads((tmp_path / "mhp-tts.json").read_text(encoding="utf-8"))
    assert saved["ObjectStates"]
