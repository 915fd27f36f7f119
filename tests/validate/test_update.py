"""Catalog variants: fields changed by path, validated by the models and every check."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import CatalogUpdateError
from mhp_cards.resources import default_catalog_dir
from mhp_cards.validate import load_catalog
from mhp_cards.validate.update import Change, resolve, update_catalog


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


def _changed_fields(before: dict, after: dict, path: tuple = ()) -> list[tuple]:
    if isinstance(before, dict):
        return [f for key in before for f in _changed_fields(before[key], after[key], (*path, key))]
    if isinstance(before, list):
        assert len(before) == len(after)
        return [
            f
            for i, (b, a) in enumerate(zip(before, after, strict=True))
            for f in _changed_fields(b, a, (*path, i))
        ]
    return [path] if before != after else []


@pytest.mark.parametrize(
    ("text", "value", "check"),
    [
        # The default deck has 72 raw cards, the most 72 Fate cards allow (L1.S3): a valid
        # change of water ice's 9 copies is downwards.
        ("copies.water-ice", 8, lambda c: c.raw_material("water-ice").copies),
        ("raw_materials.water-ice.copies", "7", lambda c: c.raw_material("water-ice").copies),
        ("price.CH4", 7, lambda c: c.substance("CH4").price),
        ("substances.CH4.price", 7, lambda c: c.substance("CH4").price),
        # CH4 + 4 O2 adds up to C H4 O8 = CO2 + 2 H2O + 2 O2: still a set of raw cards (level 1).
        ("missions.M1.places.CH4.count", 1, lambda c: c.mission("M1").places[0].count),
    ],
)
def test_a_change_sets_exactly_that_field(catalog: Catalog, text, value, check) -> None:
    variant = update_catalog(catalog, [Change(text, value)])
    assert check(variant) == int(value)
    assert check(variant) != check(catalog)
    changed = _changed_fields(catalog.model_dump(mode="json"), variant.model_dump(mode="json"))
    assert len(changed) == 1


def test_the_files_and_the_original_catalog_are_untouched(catalog: Catalog) -> None:
    files = {p: p.read_bytes() for p in default_catalog_dir().glob("*.yaml")}
    update_catalog(catalog, [Change("copies.water-ice", 8)])
    assert catalog.raw_material("water-ice").copies == 9
    assert {p: p.read_bytes() for p in files} == files


@pytest.mark.parametrize(
    ("text", "value", "message"),
    [
        ("copies.nope", 3, "raw_materials has no 'nope'; it has: water-ice"),
        ("copies", 3, "copies needs a name after it"),
        ("copies.water-ice", "many", "this field is a whole number (now 9)"),
        ("copies.water-ice", 0, "copies: 0 is too small (at least 1)"),
        ("components.coins", 3, "components.coins is not a single value; under it: count"),
        ("copies..x", 3, "a field path is names joined by dots"),
        # 4 water-ice cards (of 9) leave 67 raw cards: too few for level 3 (the box check).
        ("copies.water-ice", 4, "the variant fails the check setup-counts"),
    ],
)
def test_a_bad_change_is_a_located_error(catalog: Catalog, text, value, message) -> None:
    with pytest.raises(CatalogUpdateError) as caught:
        update_catalog(catalog, [Change(text, value, file="sweep.yaml", line=3, column=5)])
    [issue] = caught.value.issues[:1]
    assert message in issue.message
    assert issue.message.startswith(f"{text}=")
    assert (issue.file, issue.line, issue.column) == ("sweep.yaml", 3, 5)
    assert str(issue).startswith("sweep.yaml:3:5: error")


def test_every_bad_change_is_reported_at_once(catalog: Catalog) -> None:
    with pytest.raises(CatalogUpdateError) as caught:
        update_catalog(catalog, [Change("copies.nope", 3), Change("price.CH4", "x")])
    assert len(caught.value.issues) == 2


def test_an_item_is_found_by_id_number_formula_or_position(catalog: Catalog) -> None:
    document = catalog.model_dump(mode="json")
    assert resolve(document, "installations.2.name.en")[0] == ("installations", 1, "name", "en")
    assert resolve(document, "raw_materials.0.copies") == (("raw_materials", 0, "copies"), 9)
    assert resolve(document, "components.upgrades.armour.price")[1] == 4


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abcdefgsoptmrw-._0123456789", max_size=30), st.integers(-5, 200))
def test_any_path_is_a_change_or_a_located_error(catalog: Catalog, text: str, value: int) -> None:
    try:
        update_catalog(catalog, [Change(text, value, file="--vary")])
    except CatalogUpdateError as error:
        assert error.issues
        assert all(issue.file == "--vary" for issue in error.issues)
