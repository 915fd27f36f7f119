"""Loading a catalog directory: YAML → JSON Schema → models → checks, all problems at once.

1. Each file is read as YAML with safe loading, within the limits of :mod:`mhp_cards.fileio`
   (size, nesting, aliases, entries); a syntax error or a limit is located and that file stops.
2. Its data becomes frozen models, read with the models' strict JSON rules (no string for a
   number, no number for a boolean), the rules of the file's JSON Schema. When the models
   reject a file, it is validated against its JSON Schema (generated from the models); every
   structural error is reported, located at the offending value or key.
3. The checks of :mod:`mhp_cards.validate.checks` run on whatever could be read.

Every problem is an :class:`~mhp_cards.issues.Issue` with file, line, column, field path,
what is wrong and what would be right. A valid catalog is cached (:mod:`.cache`): a second
validation of the same files reads the cached result back through the models.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from mhp_cards import __version__
from mhp_cards.catalog.models import Catalog
from mhp_cards.catalog.schema import CATALOG_FILES
from mhp_cards.errors import CatalogError
from mhp_cards.issues import Issue, has_errors
from mhp_cards.resources import default_catalog_dir
from mhp_cards.validate import cache as catalog_cache

if TYPE_CHECKING:  # the rest is imported when a catalog is validated, not read from the cache
    import jsonschema

    from mhp_cards.validate.checks import Parts
    from mhp_cards.yamldoc import YamlDocument

__all__ = ["Validation", "load_catalog", "validate_catalog"]


@dataclass(frozen=True, slots=True)
class Validation:
    """The outcome of validating a catalog directory."""

    directory: Path
    issues: tuple[Issue, ...]
    #: What each check concluded: "ok", "2 error(s)", "skipped: …".
    checks: dict[str, str] = field(default_factory=dict)
    catalog: Catalog | None = None
    #: What each check verifies, by name (as :func:`check_names`).
    descriptions: dict[str, str] = field(default_factory=dict)

    def is_valid(self) -> bool:
        """True when no issue is an error (warnings allowed)."""
        return not has_errors(self.issues)

    @property
    def errors(self) -> tuple[Issue, ...]:
        """The issues that are errors."""
        return tuple(issue for issue in self.issues if issue.severity == "error")

    @property
    def warnings(self) -> tuple[Issue, ...]:
        """The issues that are warnings."""
        return tuple(issue for issue in self.issues if issue.severity == "warning")


@cache
def _validator(file_name: str) -> jsonschema.Draft202012Validator:
    import jsonschema

    # The schema as the models give it, without the descriptions, which only people read.
    schema = CATALOG_FILES[file_name].model_json_schema(mode="validation")
    return jsonschema.Draft202012Validator(schema)


def validate_catalog(directory: Path | str | None = None, *, cached: bool = True) -> Validation:
    """Validate the catalog in ``directory`` (the default game when None).

    Never raises for problems in the data: they are in the returned :class:`Validation`. A
    valid catalog's result is cached (see :mod:`mhp_cards.validate.cache`); ``cached=False``
    neither reads nor writes the cache.
    """
    root = Path(directory) if directory is not None else default_catalog_dir()
    key = catalog_cache.cache_key(root, CATALOG_FILES, __version__) if cached else None
    entry = catalog_cache.read_entry(key) if key is not None else None
    if entry is not None:
        return Validation(
            root, entry.issues, dict(entry.checks), entry.catalog, dict(entry.descriptions)
        )
    validation = _validate(root)
    if key is not None and validation.catalog is not None:
        catalog_cache.write_entry(
            catalog_cache.CacheEntry(
                key=key,
                catalog=validation.catalog,
                issues=validation.issues,
                checks=validation.checks,
                descriptions=validation.descriptions,
            )
        )
    return validation


def _validate(root: Path) -> Validation:
    from mhp_cards.validate.checks import run_checks
    from mhp_cards.yamldoc import read_yaml_file

    issues: list[Issue] = []
    documents: dict[str, YamlDocument] = {}
    models: dict[str, BaseModel] = {}
    if not root.is_dir():
        issue = Issue(
            "files",
            f"no catalog directory at {root}",
            file=str(root),
            hint="give the directory that holds substances.yaml and the other files",
        )
        return Validation(root, (issue,))
    for file_name, model in CATALOG_FILES.items():
        path = root / file_name
        if not (path.exists() or path.is_symlink()):
            issues.append(
                Issue(
                    "files",
                    f"{file_name} is missing",
                    file=file_name,
                    hint=f"the catalog needs {', '.join(CATALOG_FILES)}",
                )
            )
            continue
        document, yaml_issues = read_yaml_file(path, file_name)
        issues.extend(yaml_issues)
        if document is None:
            continue
        documents[file_name] = document
        if document.data is None:
            top = next(iter(model.model_fields))
            issues.append(
                Issue(
                    "schema",
                    f"{file_name} is empty",
                    file=file_name,
                    line=1,
                    column=1,
                    hint=f"it starts with '{top}:' (see docs/catalog-format.md)",
                )
            )
            continue
        strict = _strictly(model, document.data)
        if strict is not None:
            models[file_name] = strict
            continue
        from mhp_cards.validate.schema_issues import model_issues, schema_issues

        structural = schema_issues(_validator(file_name), document.data, [document])
        issues.extend(structural)
        if structural:
            continue
        try:
            models[file_name] = model.model_validate(document.data)
        except ValidationError as error:
            issues.extend(model_issues(error, [document]))
    parts = _parts(models)
    found, statuses = run_checks(parts)
    for issue in found:
        document_for = documents.get(issue.file or "")
        if document_for is not None and issue.line is None:
            line, column = document_for.locate(issue.path, issue.offset)
            issues.append(_with_location(issue, line, column))
        else:
            issues.append(issue)
    checks = {"files": "ok" if not _from(issues, {"files"}) else "failed"}
    checks["yaml"] = "ok" if not _from(issues, {"yaml-syntax", "yaml-duplicate-key"}) else "failed"
    checks["limits"] = "ok" if not _from(issues, {"limits"}) else "failed"
    checks["schema"] = "ok" if not _from(issues, {"schema"}) else "failed"
    checks.update(statuses)
    catalog = parts.catalog() if not has_errors(issues) else None
    return Validation(root, tuple(issues), checks, catalog, dict(check_names()))


def _strictly(model: type[BaseModel], data: Any) -> BaseModel | None:
    """``data`` as ``model`` by the strict JSON rules, or None when it is not exactly that.

    Strict JSON validation accepts what the file's JSON Schema accepts, so a file it takes
    needs no schema validation; a file it rejects goes through the schema, which locates every
    structural error, and then through the models as before.
    """
    if not _text_keys(data):
        return None  # json.dumps would turn a YAML key such as 1 or NO (False) into text
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return None  # a YAML date or NaN: the schema will say what is wrong
    try:
        return model.model_validate_json(text, strict=True)
    except ValidationError:
        return None


def _text_keys(data: Any) -> bool:
    """Whether every mapping key in ``data`` is a string, as in JSON."""
    if isinstance(data, dict):
        return all(isinstance(key, str) and _text_keys(value) for key, value in data.items())
    if isinstance(data, list):
        return all(_text_keys(item) for item in data)
    return True


def load_catalog(directory: Path | str | None = None) -> Catalog:
    """The validated catalog in ``directory`` (the default game when None).

    Raises :class:`CatalogError` with every issue when the catalog has errors.
    """
    validation = validate_catalog(directory)
    if validation.catalog is None:
        errors = validation.errors
        summary = (
            f"the catalog in {validation.directory} has {len(errors)} error(s); first: "
            f"{errors[0]}\nrun 'mhp validate {validation.directory}' for the full report"
        )
        raise CatalogError(validation.issues, summary)
    return validation.catalog


def check_names() -> list[tuple[str, str]]:
    """Every check the validator runs: (name, what it verifies)."""
    from mhp_cards.validate.checks import CHECKS

    return [
        ("files", "the five catalog files are there and are UTF-8"),
        ("yaml", "each file is well-formed YAML without duplicate keys"),
        ("limits", "each file is within the limits of size, nesting, aliases and list lengths"),
        ("schema", "each file matches its JSON Schema (types, required fields, known keys)"),
        *((check.name, check.description) for check in CHECKS),
    ]


def _from(issues: list[Issue], checks: set[str]) -> bool:
    return any(issue.check in checks for issue in issues)


def _with_location(issue: Issue, line: int, column: int) -> Issue:
    return Issue(
        issue.check,
        issue.message,
        file=issue.file,
        path=issue.path,
        line=line,
        column=column,
        hint=issue.hint,
        severity=issue.severity,
        offset=issue.offset,
        rule=issue.rule,
    )


def _parts(models: dict[str, BaseModel]) -> Parts:
    from mhp_cards.validate.checks import Parts

    substances = models.get("substances.yaml")
    raw = models.get("raw_materials.yaml")
    installations = models.get("installations.yaml")
    missions = models.get("missions.yaml")
    components = models.get("components.yaml")
    return Parts(
        substances=getattr(substances, "substances", None),
        raw_materials=getattr(raw, "raw_materials", None),
        installations=getattr(installations, "installations", None),
        electrolysers=getattr(installations, "electrolysers", None),
        missions=getattr(getattr(missions, "mission_card", None), "missions", None),
        components=getattr(components, "components", None),
        value_rules=getattr(substances, "value_rules", None),
        design=getattr(missions, "design", None),
    )
