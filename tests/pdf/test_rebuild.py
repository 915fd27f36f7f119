"""Rebuilding after an edit: only what changed is written; a broken catalog writes nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mhp_cards.pdf.rebuild import KitRebuilder
from mhp_cards.resources import default_catalog_dir

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "terra-former"


def _snapshot(out: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(out.iterdir())}


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[KitRebuilder, Path]:
    root = tmp_path_factory.mktemp("watch")
    catalog = root / "catalog"
    shutil.copytree(default_catalog_dir(), catalog)
    rebuilder = KitRebuilder(catalog, out_dir=root / "out")
    steps = list(rebuilder.rebuild())
    assert [step.step for step in steps] == ["cards", "kit"]
    assert set(steps[0].sections) | set(steps[1].sections) == {
        "calibration", "cutting", "raw", "fate", "field", "reactors", "mission", "tokens",
        "aids", "guides", "cover", "rules",
    }  # fmt: skip
    return rebuilder, catalog


def test_an_edit_of_a_raw_card_rewrites_its_section_and_the_kit_only(
    game: tuple[KitRebuilder, Path],
) -> None:
    rebuilder, catalog = game
    out = rebuilder.out_dir
    before = _snapshot(out)
    path = catalog / "raw_materials.yaml"
    text = path.read_text(encoding="utf-8")
    renamed = text.replace("Восстановленный углерод", "Углерод восстановленный")
    path.write_text(renamed, encoding="utf-8")
    cards, kit = rebuilder.rebuild()
    assert cards.sections == ("raw",)
    assert [p.name for p in cards.written] == ["mhp-raw.pdf"]
    # The cover's checklist names the raw cards; the rulebook and the guides do not name
    # reduced carbon.
    assert kit.sections == ("cover",)
    assert {p.name for p in kit.written} == {
        "mhp-kit.pdf",
        "mhp-cover.pdf",
        "mhp-kit.manifest.json",
    }
    after = _snapshot(out)
    changed = {name for name in after if after[name] != before.get(name)}
    # The manifest is written again, the same: a name moves no piece.
    assert changed == {"mhp-raw.pdf", "mhp-cover.pdf", "mhp-kit.pdf"}
    # Nothing changed since: nothing is written.
    again = list(rebuilder.rebuild())
    assert [step.written for step in again] == [(), ()]
    path.write_text(text, encoding="utf-8")


def test_an_invalid_catalog_keeps_the_last_good_pdfs(game: tuple[KitRebuilder, Path]) -> None:
    rebuilder, catalog = game
    list(rebuilder.rebuild())
    before = _snapshot(rebuilder.out_dir)
    path = catalog / "raw_materials.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("formula: C\n", "formula: Xq\n"), encoding="utf-8")
    [step] = rebuilder.rebuild()
    assert step.failed
    [issue] = step.issues
    assert "unknown element symbol 'Xq'" in issue.message
    assert issue.file == "raw_materials.yaml"
    assert issue.line == text[: text.index("formula: C\n")].count("\n") + 1
    assert _snapshot(rebuilder.out_dir) == before
    path.write_text(text, encoding="utf-8")
    steps = list(rebuilder.rebuild())
    assert not any(step.failed for step in steps)


def test_a_deck_pack_rebuilds_the_deck_edited(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(EXAMPLE, pack)
    rebuilder = KitRebuilder(pack, out_dir=tmp_path / "out")
    first = list(rebuilder.rebuild())
    assert first[0].sections == ("nature", "organisms", "changes")
    path = pack / "decks.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "{ru: Волк, en: Wolf}", "{ru: Серый волк, en: Grey wolf}"
        ),
        encoding="utf-8",
    )
    cards, kit = rebuilder.rebuild()
    assert cards.sections == ("organisms",)
    assert [p.name for p in kit.written] == ["mhp-kit.pdf", "mhp-kit.manifest.json"]
