"""YAML within limits: refused before composition, located, the same with libyaml or without."""

from __future__ import annotations

from pathlib import Path

import pytest

from mhp_cards import yamldoc
from mhp_cards.fileio import MAX_ALIASES, MAX_DEPTH, MAX_ITEMS, MAX_NODES
from mhp_cards.issues import Issue
from mhp_cards.resources import default_catalog_dir, default_layouts_dir
from mhp_cards.yamldoc import LIBYAML, read_yaml, read_yaml_file

BOTH = [pytest.param(False, id="pure")] + ([pytest.param(True, id="libyaml")] if LIBYAML else [])


def alias_bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def one_refusal(text: str, fast: bool) -> Issue:
    document, issues = read_yaml(text, "hostile.yaml", fast=fast)
    assert document is None
    assert len(issues) == 1, issues
    return issues[0]


@pytest.mark.parametrize("fast", BOTH)
def test_a_document_20000_deep_in_flow_style_is_refused_at_the_level_too_deep(fast: bool) -> None:
    issue = one_refusal("key:\n  " + "[" * 20_000 + "]" * 20_000 + "\n", fast)
    assert issue.check == "limits"
    assert f"limit MAX_DEPTH = {MAX_DEPTH}" in issue.message
    # the root mapping is level 1: the 32nd '[' opens level 33
    assert (issue.line, issue.column) == (2, 3 + MAX_DEPTH - 1)


@pytest.mark.parametrize("fast", BOTH)
def test_a_document_deep_in_block_style_is_refused(fast: bool) -> None:
    text = "".join("  " * level + "k:\n" for level in range(2_000)) + "  " * 2_000 + "x\n"
    issue = one_refusal(text, fast)
    assert "MAX_DEPTH" in issue.message
    assert issue.line == MAX_DEPTH + 1  # line n opens level n: the first one too deep


@pytest.mark.parametrize("fast", BOTH)
def test_an_alias_bomb_is_refused_before_it_grows(fast: bool) -> None:
    issue = one_refusal(alias_bomb(), fast)
    assert issue.check == "limits"
    assert f"limit MAX_NODES = {MAX_NODES}" in issue.message
    # a0..a3 hold 10, 91, 820 and 7381 values (8307 with the root and the keys); a4 repeats a3
    # nine times: its second alias goes past 20,000
    assert (issue.line, issue.column) == (5, len("a4: &a4 [*a3, ") + 1)


@pytest.mark.parametrize("fast", BOTH)
def test_many_aliases_are_refused(fast: bool) -> None:
    text = "a: &a 1\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 5)) + "]\n"
    issue = one_refusal(text, fast)
    assert f"limit MAX_ALIASES = {MAX_ALIASES}" in issue.message
    assert (issue.line, issue.column) == (2, 5 + MAX_ALIASES * 4)


@pytest.mark.parametrize("fast", BOTH)
def test_a_list_longer_than_the_limit_is_refused_at_the_entry_past_it(fast: bool) -> None:
    issue = one_refusal("items:\n" + "  - x\n" * (MAX_ITEMS + 10), fast)
    assert f"limit MAX_ITEMS = {MAX_ITEMS}" in issue.message
    assert "one list" in issue.message
    assert (issue.line, issue.column) == (MAX_ITEMS + 2, 5)


@pytest.mark.parametrize("fast", BOTH)
def test_a_list_of_too_many_mappings_is_refused(fast: bool) -> None:
    issue = one_refusal("items:\n" + "  - {a: 1}\n" * (MAX_ITEMS + 1), fast)
    assert f"limit MAX_ITEMS = {MAX_ITEMS}" in issue.message
    assert (issue.line, issue.column) == (MAX_ITEMS + 2, 5)


@pytest.mark.parametrize("fast", BOTH)
def test_a_mapping_with_too_many_keys_is_refused(fast: bool) -> None:
    issue = one_refusal("".join(f"k{i}: {i}\n" for i in range(MAX_ITEMS + 1)), fast)
    assert "one mapping" in issue.message
    assert issue.line == MAX_ITEMS + 1


@pytest.mark.parametrize("fast", BOTH)
def test_just_within_the_limits_is_read(fast: bool) -> None:
    nested = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    text = f"deep: {nested}\nlong: [{', '.join(['1'] * MAX_ITEMS)}]\n"
    document, issues = read_yaml(text, "edge.yaml", fast=fast)
    assert issues == []
    assert document is not None
    assert len(document.data["long"]) == MAX_ITEMS


@pytest.mark.parametrize("fast", BOTH)
def test_an_undefined_alias_and_a_reused_anchor_are_located(fast: bool) -> None:
    issue = one_refusal("a: 1\nb: *nowhere\n", fast)
    assert (issue.check, issue.line, issue.column) == ("yaml-syntax", 2, 4)
    assert "undefined alias 'nowhere'" in issue.message
    issue = one_refusal("a: &x 1\nb: &x 2\n", fast)
    assert (issue.check, issue.line, issue.column) == ("yaml-syntax", 2, 4)
    assert "duplicate anchor 'x'" in issue.message
    assert "line 1" in issue.message


@pytest.mark.parametrize("fast", BOTH)
def test_control_characters_are_located(fast: bool) -> None:
    issue = one_refusal("a: 1\nb: x\x01y\n", fast)
    assert (issue.check, issue.line, issue.column) == ("yaml-syntax", 2, 5)
    assert "#x0001" in issue.message


@pytest.mark.parametrize("fast", BOTH)
def test_a_value_python_cannot_hold_is_an_issue(fast: bool) -> None:
    issue = one_refusal("a: 1\nlist: [ok, 2026-02-30]\n", fast)
    assert (issue.check, issue.line, issue.column) == ("yaml-syntax", 2, 12)
    assert "cannot read a value" in issue.message
    issue = one_refusal("a:\n  b: " + "9" * 5_000 + "\n", fast)
    assert (issue.line, issue.column) == (2, 6)


HOSTILE = {
    "deep": "k: " + "[" * 5_000 + "]" * 5_000 + "\n",
    "bomb": alias_bomb(),
    "long": "[" + "1, " * 3_000 + "1]\n",
    "tab": "a:\n  b: 1\n\tc: 2\n",
    "colon": "name: {ru: Вода: лёд, en: Water}\n",
    "unclosed": "rows:\n  - [1А, 1Б\n",
    "mapping-value": "name: ru: Вода\n",
    "block-end": "- a\nb: 1\n",
    "two-documents": "a: 1\n---\nb: 2\n",
    "undefined": "a: *x\n",
    "unhashable": "? [a, b]\n: 1\n",
    "duplicate-key": "a: 1\nb: 2\na: 3\n",
    "merge": "base: &b {x: 1, y: 2}\nthis:\n  <<: *b\n  x: 3\n",
    "bad-escape": 'a: "\\q"\n',
    "empty": "",
    "comments": "# only a comment\n",
    "cyrillic-then-error": "имя: Вода\nцена: [1, 2\n",
}


@pytest.mark.skipif(not LIBYAML, reason="PyYAML without libyaml: one parser only")
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_libyaml_and_the_pure_parser_give_the_same_issues(name: str) -> None:
    fast = read_yaml(HOSTILE[name], "f.yaml", fast=True)
    pure = read_yaml(HOSTILE[name], "f.yaml", fast=False)
    assert fast[1] == pure[1]
    assert (fast[0] is None) == (pure[0] is None)
    if fast[0] is not None and pure[0] is not None:
        assert fast[0].data == pure[0].data


def _shipped_files() -> list[Path]:
    return sorted(default_catalog_dir().glob("*.yaml")) + sorted(
        default_layouts_dir().rglob("*.yaml")
    )


@pytest.mark.skipif(not LIBYAML, reason="PyYAML without libyaml: one parser only")
@pytest.mark.parametrize("path", _shipped_files(), ids=lambda path: path.name)
def test_libyaml_keeps_the_line_and_column_of_every_node(path: Path) -> None:
    fast, fast_issues = read_yaml_file(path, path.name, fast=True)
    pure, pure_issues = read_yaml_file(path, path.name, fast=False)
    assert fast is not None
    assert pure is not None
    assert fast_issues == pure_issues == []
    assert fast.data == pure.data
    assert fast.values == pure.values
    assert fast.keys == pure.keys
    assert len(fast.values) > 5


def test_the_fast_path_is_libyaml_when_present(monkeypatch: pytest.MonkeyPatch) -> None:
    if not LIBYAML:
        pytest.skip("PyYAML without libyaml")
    used: list[object] = []
    real_parse = yamldoc.yaml.parse

    def recording_parse(stream: str, Loader: object) -> object:  # noqa: N803 (PyYAML's name)
        used.append(Loader)
        return real_parse(stream, Loader=Loader)

    monkeypatch.setattr(yamldoc.yaml, "parse", recording_parse)
    read_yaml("a: 1\n", "f.yaml")
    assert used == [yamldoc.yaml.CSafeLoader]


def test_a_file_that_cannot_be_read_is_one_issue(tmp_path: Path) -> None:
    document, issues = read_yaml_file(tmp_path, "substances.yaml")
    assert document is None
    assert [issue.file for issue in issues] == ["substances.yaml"]
    assert "is a directory" in issues[0].message
