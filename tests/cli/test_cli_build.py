"""``mhp build``: the print-and-play kit from the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from mhp_cards.pdf import SECTIONS

WROTE = re.compile(r"^wrote (?P<path>.+\.pdf) \((?P<pages>\d+) (?P<noun>pages?)\)$")


def test_build_writes_every_file_and_lists_it(cli, tmp_path: Path) -> None:
    result = cli("build", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    listed = [WROTE.match(line) for line in lines[:-2]]
    assert all(listed), lines
    files = {Path(m["path"]).name: int(m["pages"]) for m in listed if m}
    assert list(files) == ["mhp-kit.pdf", *(f"mhp-{name}.pdf" for name in SECTIONS)]
    manifest = tmp_path / "mhp-kit.manifest.json"
    assert lines[-2] == f"wrote {manifest} (where every piece is in mhp-kit.pdf)"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*files, manifest.name])
    for name, pages in files.items():
        assert len(PdfReader(tmp_path / name).pages) == pages, name
    for match in listed:
        assert match
        assert match["noun"] == ("page" if match["pages"] == "1" else "pages")
    assert re.fullmatch(
        r"\d+ cards and tokens; print at 100 %, double-sided \(long edge\)", lines[-1]
    )
    assert "Traceback" not in result.stdout + result.stderr


def test_only_rules_writes_the_rulebook_on_its_own(cli, tmp_path: Path) -> None:
    result = cli("build", "--only", "rules", "--lang", "en", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "mhp-kit.manifest.json",
        "mhp-kit.pdf",
        "mhp-rules.pdf",
    ]
    reader = PdfReader(tmp_path / "mhp-rules.pdf")
    assert len(reader.pages) % 2 == 0
    first = reader.pages[0].extract_text()
    assert "Rules of play" in first
    assert "Components" in first
    assert "Правила" not in first
    assert result.stdout.splitlines()[-1].startswith("nothing to cut; print at 100 %")


def test_only_raw_writes_the_kit_and_the_raw_cards(cli, tmp_path: Path) -> None:
    result = cli("build", "--only", "raw", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "mhp-kit.manifest.json",
        "mhp-kit.pdf",
        "mhp-raw.pdf",
    ]
    kit, raw = (len(PdfReader(tmp_path / f"mhp-{n}.pdf").pages) for n in ("kit", "raw"))
    assert kit == raw  # raw cards are double-sided: no blank backs


def test_only_takes_a_comma_separated_list(cli, tmp_path: Path) -> None:
    result = cli("build", "--only", " mission, field ", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "mhp-field.pdf",
        "mhp-kit.manifest.json",
        "mhp-kit.pdf",
        "mhp-mission.pdf",
    ]


def test_unknown_section_is_a_usage_error(cli, tmp_path: Path) -> None:
    result = cli("build", "--only", "raw,cardz,tokenz", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown section(s) cardz, tokenz; choose from cover,")
    assert not tmp_path.exists() or not any(tmp_path.iterdir())


def test_unknown_language_is_a_usage_error(cli, tmp_path: Path) -> None:
    result = cli("build", "--lang", "de", "--out", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr == "error: --lang must be ru or en, not 'de'\n"
    assert not any(tmp_path.iterdir())


def test_broken_layout_is_located(cli, tmp_path: Path) -> None:
    layout = tmp_path / "broken.yaml"
    layout.write_text("extends: a4\nname: broken\ngutter: three\n", encoding="utf-8")
    out = tmp_path / "out"
    result = cli("build", "--layout", str(layout), "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {layout}:3:9: error: gutter: ")
    assert "Traceback" not in result.stderr
    assert not out.exists()


def test_unknown_layout_names_the_known_ones(cli, tmp_path: Path) -> None:
    result = cli("build", "--layout", "a5", "--out", str(tmp_path))
    assert result.exit_code == 1
    assert "no sheet profile 'a5'" in result.stderr
    assert "a4, letter, print-shop" in result.stderr


def test_json(cli, tmp_path: Path) -> None:
    result = cli(
        "build", "--only", "field,mission", "--lang", "en", "--json", "--out", str(tmp_path)
    )
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["pieces"] == 3  # Base card, Warehouse marker, Mission card
    assert [f["section"] for f in document["files"]] == ["kit", "field", "mission"]
    for entry in document["files"]:
        path = Path(entry["path"])
        assert path.parent == tmp_path
        assert len(PdfReader(path).pages) == entry["pages"]
    assert document["files"][0]["pages"] == 4


@pytest.mark.parametrize("layout", ["letter", "print-shop"])
def test_other_profiles(cli, tmp_path: Path, layout: str) -> None:
    result = cli("build", "--layout", layout, "--only", "aids", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    page = PdfReader(tmp_path / "mhp-aids.pdf").pages[0]
    width_mm = float(page.mediabox.width) * 25.4 / 72
    assert width_mm == pytest.approx(215.9 if layout == "letter" else 210, abs=0.2)


def test_help_has_an_example(cli) -> None:
    result = cli("build", "--help")
    assert result.exit_code == 0
    assert "Example: mhp build" in result.stdout
    for option in ("--layout", "--lang", "--only", "--out", "--json"):
        assert option in result.stdout


def test_color_cmyk_writes_cmyk_and_a_wrong_value_is_a_usage_error(cli, tmp_path: Path) -> None:
    result = cli("build", "--only", "field", "--color", "cmyk", "--out", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    page = PdfReader(tmp_path / "mhp-field.pdf").pages[0]
    content = page.get_contents().get_data()
    assert b" k" in content
    assert b" rg" not in content
    wrong = cli("build", "--color", "rgbk", "--out", str(tmp_path / "no"))
    assert wrong.exit_code == 2
    assert wrong.stderr.startswith("error: --color must be rgb or cmyk, not 'rgbk'")
    assert not (tmp_path / "no").exists()
