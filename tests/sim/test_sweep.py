"""Sweeps: --vary specs, sweep files with located problems, grids, variants run side by side."""

from __future__ import annotations

from pathlib import Path

import pytest

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import SweepError
from mhp_cards.sim import simulate
from mhp_cards.sim.sweep import (
    MAX_VARIANTS,
    Variant,
    grid,
    make_variants,
    parse_vary,
    read_sweep_file,
    sweep,
)
from mhp_cards.validate.update import Change


@pytest.mark.parametrize(
    ("text", "path", "values"),
    [
        ("copies.water-ice=7..10", "copies.water-ice", (7, 8, 9, 10)),
        ("copies.water-ice = 8 .. 9", "copies.water-ice", (8, 9)),
        ("price.CH4=3,4,6", "price.CH4", (3, 4, 6)),
        ("price.CH4=5", "price.CH4", (5,)),
        ("substances.H2O.name.en=Water,Ice", "substances.H2O.name.en", ("Water", "Ice")),
        ("x=1.5,2", "x", (1.5, 2)),
    ],
)
def test_a_vary_option_is_read(text: str, path: str, values: tuple) -> None:
    variation = parse_vary(text)
    assert (variation.path, variation.values) == (path, values)
    assert variation.file == "--vary"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("copies.water-ice", "is not PATH=VALUES"),
        ("=3", "is not PATH=VALUES"),
        ("copies.water-ice=", "is not PATH=VALUES"),
        ("copies.water-ice=10..7", "the range 10..7 is empty"),
        ("copies.water-ice=1..500", f"more than {MAX_VARIANTS}"),
        ("copies.water-ice=7,,8", "an empty value between commas"),
        ("copies.water-ice=7,7", "a value is repeated"),
    ],
)
def test_a_bad_vary_option_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(SweepError) as caught:
        parse_vary(text, position=2)
    [issue] = caught.value.issues
    assert message in issue.message
    assert issue.file == "--vary #2"
    assert issue.hint


def test_a_grid_is_every_combination_the_first_varying_slowest() -> None:
    variants = grid([parse_vary("a=1..2"), parse_vary("b=x,y,z")])
    assert [v.label for v in variants] == [
        "a=1, b=x", "a=1, b=y", "a=1, b=z", "a=2, b=x", "a=2, b=y", "a=2, b=z",
    ]  # fmt: skip
    assert variants[4].values() == {"a": 2, "b": "y"}
    with pytest.raises(SweepError, match="varied twice"):
        grid([parse_vary("a=1"), parse_vary("a=2")])


def test_a_sweep_file_gives_a_grid_and_listed_variants(tmp_path: Path) -> None:
    path = tmp_path / "sweep.yaml"
    path.write_text(
        "vary:\n  copies.water-ice: 8..9\n  price.CH4: [5, 6]\n"
        "variants:\n  - {copies.water-ice: 10, price.CO2: 2}\n",
        encoding="utf-8",
    )
    variations, listed = read_sweep_file(path)
    assert [(v.path, v.values) for v in variations] == [
        ("copies.water-ice", (8, 9)),
        ("price.CH4", (5, 6)),
    ]
    assert (variations[1].line, variations[1].column) == (3, 3)
    assert len(grid(variations)) == 4
    assert [v.label for v in listed] == ["copies.water-ice=10, price.CO2=2"]
    assert (listed[0].changes[1].line, listed[0].changes[1].file) == (5, str(path))


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("vary: [1, 2]\n", 1, "'vary' maps field paths to values"),
        ("vary:\n  copies.water-ice: 9..7\n", 2, "the range 9..7 is empty"),
        ("vary:\n  a: 1\nvariants:\n  - 3\n", 4, "a variant maps field paths to one value each"),
        ("varies: {a: 1}\n", 1, "a sweep file is a mapping with 'vary' and/or 'variants'"),
        ("vary: {a: [1, [2]]}\n", 1, "non-empty list"),
        ("vary: {a: 1\n", 1, ""),  # a YAML syntax error, located by the reader
    ],
)
def test_a_bad_sweep_file_is_located(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = tmp_path / "sweep.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SweepError) as caught:
        read_sweep_file(path)
    [issue] = caught.value.issues
    assert issue.file == str(path)
    assert issue.line is not None
    assert issue.line >= line
    assert message in issue.message


def test_a_missing_sweep_file_is_a_located_error(tmp_path: Path) -> None:
    with pytest.raises(SweepError) as caught:
        read_sweep_file(tmp_path / "absent.yaml")
    assert "absent.yaml" in str(caught.value)


def test_every_bad_variant_is_reported_before_any_game(catalog: Catalog) -> None:
    variants = grid([parse_vary("copies.water-ice=4..6"), parse_vary("price.CH4=x,5")])
    played: list[Catalog] = []

    def run(variant_catalog: Catalog):
        played.append(variant_catalog)
        raise AssertionError("no game may start")

    with pytest.raises(SweepError) as caught:
        sweep(catalog, variants, run)
    assert played == []
    messages = [issue.message for issue in caught.value.issues]
    assert any(m.startswith("price.CH4=x: this field is a whole number") for m in messages)
    assert any("copies.water-ice=4, price.CH4=5" in m and "setup-counts" in m for m in messages)
    assert len(messages) == len(set(messages))  # the bad price once, not once per variant


def test_too_many_variants_are_refused(catalog: Catalog) -> None:
    variants = [Variant((Change("copies.water-ice", 9),))] * (MAX_VARIANTS + 1)
    with pytest.raises(SweepError, match=f"more than {MAX_VARIANTS}"):
        make_variants(catalog, variants)


def test_a_sweep_runs_each_variant_and_labels_it(catalog: Catalog) -> None:
    # 72 raw cards, the most 72 Fate cards allow (L1.S3): the variants take water ice away.
    variants = grid([parse_vary("copies.water-ice=7,9")])
    summaries = sweep(
        catalog,
        variants,
        lambda c: simulate(c, "1", 2, 4, seed=2, max_steps=300, workers=1),
    )
    assert [s.variant for s in summaries] == [{"copies.water-ice": 7}, {"copies.water-ice": 9}]
    # The same seeds on a different deck: the games differ.
    first, second = (s.to_json() for s in summaries)
    for document in (first, second):
        document.pop("games_per_second")
        document.pop("variant")
    assert first != second
    plain = simulate(catalog, "1", 2, 4, seed=2, max_steps=300, workers=1).to_json()
    assert plain["variant"] is None
