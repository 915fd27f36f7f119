"""Deck packs: the Terra-former example reads as 40 cards; every broken row is located."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mhp_cards.decks import DECKS_FILE, is_deck_pack
from mhp_cards.decks.load import _value_problem, load_pack, validate_pack
from mhp_cards.decks.schema import DECKS_SCHEMA, decks_schema_text
from mhp_cards.errors import CatalogError
from mhp_cards.resources import default_catalog_dir

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "terra-former"


def test_the_example_is_a_valid_pack_of_40_cards() -> None:
    validation = validate_pack(EXAMPLE)
    assert validation.is_valid(), [str(issue) for issue in validation.issues]
    pack = validation.pack
    assert pack is not None
    printed = {deck.id: deck.printed for deck in pack.decks}
    assert printed == {"nature": 10, "organisms": 26, "changes": 4}
    roles = {card.fields["role"] for card in pack.decks[1].cards}
    assert roles == {"С", "П1", "П2", "Ч"}
    symbols = {card.fields["symbol"] for card in pack.decks[0].cards}
    assert len(symbols) == 5
    assert {card.fields["needs"] for card in pack.decks[1].cards} <= symbols


def test_only_a_directory_with_decks_and_no_game_is_a_pack(tmp_path: Path) -> None:
    assert is_deck_pack(EXAMPLE)
    assert not is_deck_pack(default_catalog_dir())
    assert not is_deck_pack(tmp_path)
    assert not is_deck_pack(None)


def _broken(tmp_path: Path, old: str, new: str) -> tuple[Path, int, int]:
    """A copy of the example with ``old`` (once in the file) replaced; where ``new`` starts."""
    text = (EXAMPLE / DECKS_FILE).read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    changed = text.replace(old, new)
    target = tmp_path / "pack"
    shutil.copytree(EXAMPLE, target)  # the pictures too
    (target / DECKS_FILE).write_text(changed, encoding="utf-8")
    index = changed.index(new)
    line = changed.count("\n", 0, index) + 1
    column = index - changed.rfind("\n", 0, index)
    return target, line, column


@pytest.mark.parametrize(
    ("old", "new", "shift", "message", "hint"),
    [
        # The organism's symbol is no nature card's (the refers check).
        (
            'needs: Тн, temperature: "−", humidity: "0"}\n      - {id: reindeer,',
            'needs: Пс, temperature: "−", humidity: "0"}\n      - {id: reindeer,',
            7,
            "card 'reindeer-lichen': needs 'Пс' is no symbol of deck 'nature'",
            "use one of Бл, Лс, Оз, Ст or Тн",
        ),
        # An opposite that does not name the card back.
        (
            "en: Flood}, opposite: drought,",
            "en: Flood}, opposite: warming,",
            22,
            "card 'flood' names 'warming' as its opposite, but 'warming' names 'cooling'",
            "opposites name each other",
        ),
        # A choice outside its choices.
        (
            'role: П2, needs: Лс, temperature: "−", humidity: "0"}\n      - {id: lynx',
            'role: П3, needs: Лс, temperature: "−", humidity: "0"}\n      - {id: lynx',
            6,
            "card 'wolf': role is 'П3', not one of its choices",
            "use one of С, П1, П2 or Ч",
        ),
        # A two-language text with one language.
        (
            "name: {ru: Щука, en: Northern pike}",
            "name: {ru: Щука}",
            6,
            'card \'pike\': name is {"ru": "Щука"}, not a text in both languages',
            "write {ru: …, en: …}",
        ),
    ],
)
def test_a_broken_row_is_reported_at_its_place(
    tmp_path: Path, old: str, new: str, shift: int, message: str, hint: str
) -> None:
    directory, line, column = _broken(tmp_path, old, new)
    validation = validate_pack(directory)
    assert not validation.is_valid()
    assert validation.pack is None
    # A broken opposite breaks the pair both ways: the row changed is reported where it is.
    [issue] = [issue for issue in validation.issues if issue.message == message]
    assert hint in issue.hint
    assert issue.file is not None
    assert issue.file.endswith(DECKS_FILE)
    assert (issue.line, issue.column) == (line, column + shift)


def test_an_unknown_field_is_located_at_its_key(tmp_path: Path) -> None:
    directory, line, column = _broken(
        tmp_path, "{id: flood,   name:", "{id: flood,   colour: blue, name:"
    )
    [issue] = validate_pack(directory).issues
    assert issue.message == "card 'flood' has a field 'colour' that deck 'changes' does not declare"
    assert (issue.line, issue.column) == (line, column + len("{id: flood,   "))


def test_a_missing_field_a_duplicate_id_and_a_bad_region_are_all_reported(tmp_path: Path) -> None:
    directory, _, _ = _broken(tmp_path, "{id: lake,   art:", "{id: forest, art:")
    text = (directory / DECKS_FILE).read_text(encoding="utf-8")
    text = text.replace("field: about}", "field: abuot}")
    text = text.replace("opposite: cooling, effect: {", "opposite: cooling, effekt: {")
    (directory / DECKS_FILE).write_text(text, "utf-8")
    messages = sorted(issue.message for issue in validate_pack(directory).issues)
    assert messages == [
        "a second card called 'forest' in deck 'nature'",
        "card 'warming' has a field 'effekt' that deck 'changes' does not declare",
        "card 'warming' has no 'effect'",
        "region 'about' shows field 'abuot', which the deck does not declare",
    ]


def test_the_shape_of_the_pack_is_checked_with_its_location(tmp_path: Path) -> None:
    directory, line, column = _broken(tmp_path, 'paper: "#EEF4E6"', 'paper: "green"')
    [issue] = validate_pack(directory).issues
    assert issue.path == ("decks", 0, "front", "paper")
    assert (issue.line, issue.column) == (line, column + len("paper: "))
    with pytest.raises(CatalogError, match=r"decks\.yaml:\d+:\d+"):
        load_pack(directory)


def test_a_yaml_error_is_located(tmp_path: Path) -> None:
    target = tmp_path / "pack"
    shutil.copytree(EXAMPLE, target)
    path = target / DECKS_FILE
    path.write_text(path.read_text(encoding="utf-8") + "\n  - [unclosed\n", encoding="utf-8")
    [issue] = validate_pack(target).issues
    assert issue.check == "yaml-syntax"
    assert re.fullmatch(r".*decks\.yaml:\d+:\d+", issue.location)


@given(st.integers(min_value=-(10**6), max_value=10**6))
def test_a_number_field_takes_every_whole_number_and_no_text(value: int) -> None:
    assert _value_problem("number", None, value) is None
    assert _value_problem("number", None, str(value)) is not None
    assert _value_problem("text", None, str(value)) is None
    assert _value_problem("text", None, value) is not None


@given(st.text(min_size=1).filter(str.strip), st.lists(st.text(min_size=1), min_size=1))
def test_a_choice_is_one_of_its_choices(value: str, choices: list[str]) -> None:
    problem = _value_problem("choice", choices, value)
    assert (problem is None) == (value in choices)


def test_the_committed_schema_is_the_models_and_takes_the_example() -> None:
    import json

    import jsonschema
    import yaml

    committed = (default_catalog_dir() / "schema" / DECKS_SCHEMA).read_text(encoding="utf-8")
    assert committed == decks_schema_text(), "run 'mhp schema --write' and commit"
    data = yaml.safe_load((EXAMPLE / DECKS_FILE).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(json.loads(committed)).validate(data)
