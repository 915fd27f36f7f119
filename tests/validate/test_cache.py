"""The catalog cache: a valid catalog read back from JSON, keyed by its files and the toolkit."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mhp_cards.validate import cache, loader, validate_catalog
from mhp_cards.validate.cache import CacheEntry, cache_directory

SUBSTANCES = "substances.yaml"
#: Iron (3 steps) priced below methane (2 steps, 8 мР): a "prices" warning.
CHEAPER_IRON = (
    "    name: {ru: Железо, en: Iron}\n    price: 9",
    "    name: {ru: Железо, en: Iron}\n    price: 7",
)
#: Iron's price line (the only price of 9 мР).
IRON_PRICE = "price: 9"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache directory of this test's own."""
    monkeypatch.setenv("MHP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MHP_NO_CACHE", raising=False)
    directory = cache_directory()
    assert directory is not None
    return directory


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The directories validated for real (not read from the cache), in order."""
    seen: list[Path] = []
    real = loader._validate

    def counting(root: Path) -> loader.Validation:
        seen.append(root)
        return real(root)

    monkeypatch.setattr(loader, "_validate", counting)
    return seen


def entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.json")) if directory.is_dir() else []


def test_a_second_validation_is_read_from_the_cache(catalog_copy, cache_dir, validations) -> None:
    first = validate_catalog(catalog_copy.directory)
    second = validate_catalog(catalog_copy.directory)
    assert validations == [catalog_copy.directory]
    assert first.catalog is not None
    assert second.catalog == first.catalog
    assert second.catalog is not first.catalog
    assert (second.issues, second.checks, second.descriptions) == (
        first.issues,
        first.checks,
        first.descriptions,
    )
    [entry] = entries(cache_dir)
    document = json.loads(entry.read_text(encoding="utf-8"))
    assert len(document["catalog"]["substances"]) == len(first.catalog.substances)


def test_warnings_are_reported_on_a_cache_hit(catalog_copy, cache_dir, validations) -> None:
    catalog_copy.edit(SUBSTANCES, *CHEAPER_IRON)
    fresh = validate_catalog(catalog_copy.directory)
    cached = validate_catalog(catalog_copy.directory)
    assert len(validations) == 1
    [warning] = [w for w in cached.warnings if w.check == "prices"]
    assert warning == fresh.warnings[0]
    assert (warning.check, warning.file, warning.line) == (
        "prices",
        SUBSTANCES,
        fresh.warnings[0].line,
    )
    assert warning.line is not None
    assert cached.checks["prices"] == "1 warning(s)"
    assert cached.is_valid()


def test_a_changed_file_misses_the_cache(catalog_copy, cache_dir, validations) -> None:
    before = validate_catalog(catalog_copy.directory)
    catalog_copy.edit(SUBSTANCES, *CHEAPER_IRON)
    after = validate_catalog(catalog_copy.directory)
    assert validations == [catalog_copy.directory, catalog_copy.directory]
    assert before.catalog is not None
    assert after.catalog is not None
    assert before.catalog.substance("Fe").price == 9
    assert after.catalog.substance("Fe").price == 7
    assert len(entries(cache_dir)) == 2


def test_one_changed_byte_changes_the_key(catalog_copy) -> None:
    files = loader.CATALOG_FILES
    key = cache.cache_key(catalog_copy.directory, files, "0.1.0")
    text = catalog_copy.text("components.yaml")
    catalog_copy.write("components.yaml", text + " ")
    assert cache.cache_key(catalog_copy.directory, files, "0.1.0") != key
    catalog_copy.write("components.yaml", text)
    assert cache.cache_key(catalog_copy.directory, files, "0.1.0") == key
    assert cache.cache_key(catalog_copy.directory, files, "0.2.0") != key


def test_the_same_files_elsewhere_hit_the_same_entry(
    catalog_copy, tmp_path, cache_dir, validations
) -> None:
    validate_catalog(catalog_copy.directory)
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(catalog_copy.directory, elsewhere)
    moved = validate_catalog(elsewhere)
    assert validations == [catalog_copy.directory]
    assert moved.directory == elsewhere


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],  # cut short
        lambda text: "not json at all",
        lambda text: text.replace('"substances":', '"substancez":'),  # valid JSON, wrong shape
        lambda text: "",
    ],
)
def test_a_damaged_entry_is_ignored_and_rewritten(
    catalog_copy, cache_dir, validations, damage
) -> None:
    first = validate_catalog(catalog_copy.directory)
    [entry] = entries(cache_dir)
    good = entry.read_text(encoding="utf-8")
    entry.write_text(damage(good), encoding="utf-8")
    again = validate_catalog(catalog_copy.directory)
    assert len(validations) == 2
    assert again.catalog == first.catalog
    assert CacheEntry.model_validate_json(entry.read_bytes()).catalog == first.catalog
    validate_catalog(catalog_copy.directory)
    assert len(validations) == 2


def test_an_entry_under_the_wrong_key_is_not_trusted(catalog_copy, cache_dir, validations) -> None:
    validate_catalog(catalog_copy.directory)
    [entry] = entries(cache_dir)
    document = json.loads(entry.read_text(encoding="utf-8"))
    document["key"] = "0" * 64
    entry.write_text(json.dumps(document), encoding="utf-8")
    validate_catalog(catalog_copy.directory)
    assert len(validations) == 2


def test_an_invalid_catalog_is_not_cached(catalog_copy, cache_dir, validations) -> None:
    catalog_copy.edit(SUBSTANCES, IRON_PRICE, "price: -9")
    assert not validate_catalog(catalog_copy.directory).is_valid()
    assert not validate_catalog(catalog_copy.directory).is_valid()
    assert len(validations) == 2
    assert entries(cache_dir) == []


def test_no_cache_turns_it_off(catalog_copy, cache_dir, validations, monkeypatch) -> None:
    monkeypatch.setenv("MHP_NO_CACHE", "1")
    assert cache_directory() is None
    validate_catalog(catalog_copy.directory)
    validate_catalog(catalog_copy.directory)
    assert len(validations) == 2
    assert entries(cache_dir) == []


def test_cached_false_neither_reads_nor_writes(catalog_copy, cache_dir, validations) -> None:
    validate_catalog(catalog_copy.directory, cached=False)
    assert entries(cache_dir) == []
    validate_catalog(catalog_copy.directory)
    validate_catalog(catalog_copy.directory, cached=False)
    assert len(validations) == 3


def test_an_unwritable_cache_costs_only_the_speed(catalog_copy, tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("MHP_CACHE_DIR", str(blocker))
    validation = validate_catalog(catalog_copy.directory)
    assert validation.is_valid()
    assert validate_catalog(catalog_copy.directory).catalog == validation.catalog


def test_old_entries_are_pruned(catalog_copy, cache_dir, monkeypatch) -> None:
    monkeypatch.setattr(cache, "KEPT_ENTRIES", 2)
    text = catalog_copy.text("components.yaml")
    for spaces in range(4):
        catalog_copy.write("components.yaml", text + "\n" * spaces)
        validate_catalog(catalog_copy.directory)
    assert len(entries(cache_dir)) == 2


def test_where_the_cache_lives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MHP_NO_CACHE", raising=False)
    monkeypatch.delenv("MHP_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_directory() == tmp_path / "xdg" / "mhp-cards" / "catalog"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_directory() == tmp_path / "home" / ".cache" / "mhp-cards" / "catalog"
    monkeypatch.setenv("MHP_CACHE_DIR", str(tmp_path / "mine"))
    assert cache_directory() == tmp_path / "mine" / "catalog"
    monkeypatch.setenv("MHP_NO_CACHE", "0")
    assert cache_directory() == tmp_path / "mine" / "catalog"
    monkeypatch.setenv("MHP_NO_CACHE", "1")
    assert cache_directory() is None


def test_no_home_directory_means_no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    def homeless() -> Path:
        raise RuntimeError("Could not determine home directory.")

    for name in ("MHP_NO_CACHE", "MHP_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(homeless))
    assert cache_directory() is None


def test_the_test_run_does_not_cache_into_the_home_directory() -> None:
    directory = cache_directory()
    assert directory is not None
    assert Path.home() / ".cache" not in directory.parents


def test_a_string_for_a_number_is_still_a_schema_error(catalog_copy) -> None:
    # The models alone would read "9" as 9 (pydantic's lax mode); the file's schema refuses it.
    catalog_copy.edit(SUBSTANCES, IRON_PRICE, 'price: "9"')
    validation = validate_catalog(catalog_copy.directory)
    issue = catalog_copy.find_issue(validation, "schema", "is text, expected a whole number")
    assert issue.file == SUBSTANCES
    assert issue.line is not None


def test_a_cached_catalog_prints_the_same_kit(cache_dir, tmp_path, monkeypatch) -> None:
    from mhp_cards.pdf import build_kit

    fresh = validate_catalog(cached=False).catalog
    validate_catalog()  # fills the cache

    def no_validation(root: Path) -> loader.Validation:
        raise AssertionError("the catalog should come from the cache")

    monkeypatch.setattr(loader, "_validate", no_validation)
    cached = validate_catalog().catalog
    assert fresh is not None
    assert cached is not None
    sections = ["mission", "field", "reactors"]
    first = build_kit(fresh, only=sections, out_dir=tmp_path / "fresh")
    second = build_kit(cached, only=sections, out_dir=tmp_path / "cached")
    for a, b in zip(first.files, second.files, strict=True):
        assert a.path.read_bytes() == b.path.read_bytes(), a.section


def test_a_yaml_key_that_is_not_text_is_still_reported(catalog_copy) -> None:
    # YAML 1.1 reads the key NO as False; JSON would have turned it into the text "false"
    catalog_copy.edit(SUBSTANCES, IRON_PRICE, IRON_PRICE + "\n    NO: 1")
    validation = validate_catalog(catalog_copy.directory)
    assert not validation.is_valid()
    issue = catalog_copy.find_issue(validation, "schema", "unknown key False")
    assert issue.file == SUBSTANCES
    assert issue.line is not None
