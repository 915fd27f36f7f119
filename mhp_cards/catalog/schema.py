"""JSON Schema of the catalog files, generated from the models and committed in catalog/schema/.

Editors validate and autocomplete the YAML files against these schemas (each file names its
schema in its first line); the loader validates with them too, so a structural mistake is
reported with all others at once. A test fails when the committed files drift from the models.
"""

from __future__ import annotations

import ast
import inspect
import json
import textwrap
from pathlib import Path
from typing import Any, Final, get_args

from pydantic import BaseModel

from mhp_cards.catalog.models import (
    Catalog,
    ComponentsFile,
    InstallationsFile,
    MissionsFile,
    RawMaterialsFile,
    SubstancesFile,
)
from mhp_cards.fileio import write_text_atomic

__all__ = [
    "CATALOG_FILES",
    "SCHEMA_BASE_URI",
    "catalog_schemas",
    "check_schemas",
    "document_fields",
    "render",
    "schema_for",
    "schema_name",
    "write_schemas",
]

SCHEMA_BASE_URI: Final = "https://mhp-cards.example/schema/"
#: The catalog files, each with the model of its content.
CATALOG_FILES: Final[dict[str, type[BaseModel]]] = {
    "substances.yaml": SubstancesFile,
    "raw_materials.yaml": RawMaterialsFile,
    "installations.yaml": InstallationsFile,
    "missions.yaml": MissionsFile,
    "components.yaml": ComponentsFile,
}
_EXPORT_SCHEMA: Final = "catalog.schema.json"
#: The models whose fields :func:`document_fields` has described, and rebuilt since.
_DESCRIBED: set[type[BaseModel]] = set()


def schema_name(file_name: str) -> str:
    """``substances.yaml`` → ``substances.schema.json``."""
    return file_name.removesuffix(".yaml") + ".schema.json"


def schema_for(model: type[BaseModel], name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``model``, identified as ``name``."""
    document_fields(model)
    schema = model.model_json_schema(mode="validation")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_BASE_URI + name,
        **schema,
    }


def catalog_schemas() -> dict[str, dict[str, Any]]:
    """The catalog's schemas by file name: one per catalog file and the export's."""
    schemas = {
        schema_name(file): schema_for(model, schema_name(file))
        for file, model in CATALOG_FILES.items()
    }
    schemas[_EXPORT_SCHEMA] = schema_for(Catalog, _EXPORT_SCHEMA)
    return schemas


def render(schema: dict[str, Any]) -> str:
    """The committed text of a schema: stable key order, two-space indent, final newline."""
    return json.dumps(schema, ensure_ascii=False, indent=2) + "\n"


def write_schemas(directory: Path, schemas: dict[str, dict[str, Any]]) -> list[Path]:
    """Write ``schemas`` (file name → schema) into ``directory`` atomically; the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas.items():
        path = directory / name
        write_text_atomic(path, render(schema))
        written.append(path)
    return written


def check_schemas(directory: Path, schemas: dict[str, dict[str, Any]]) -> list[str]:
    """Names of the files of ``schemas`` that are missing from ``directory`` or differ there."""
    stale = []
    for name, schema in schemas.items():
        path = directory / name
        if not path.is_file() or path.read_text(encoding="utf-8") != render(schema):
            stale.append(name)
    return stale


def document_fields(model: type[BaseModel]) -> None:
    """Describe each field of ``model``, and of the models it holds, by its attribute docstring.

    A field's docstring (the string literal right below it) becomes its ``description`` where
    ``Field(description=...)`` gives none, as pydantic's ``use_attribute_docstrings`` would do.
    That option reads the source of every model when the class is created, a cost paid at
    every start-up; the descriptions serve only the JSON Schemas, so they are read here, once,
    when a schema is generated. The models are then rebuilt, the held ones first.
    """
    held = [cls for cls in _models_held_by(model) if cls not in _DESCRIBED]
    for cls in held:
        _describe(cls)
    for cls in held:  # a model's schema embeds those of the models it holds: they come first
        cls.model_rebuild(force=True)
        _DESCRIBED.add(cls)


def _models_held_by(model: type[BaseModel]) -> list[type[BaseModel]]:
    """``model`` and every model its fields hold, each after the models it holds."""
    ordered: list[type[BaseModel]] = []
    seen: set[type[BaseModel]] = set()

    def visit(cls: type[BaseModel]) -> None:
        if cls in seen:
            return
        seen.add(cls)
        for info in cls.model_fields.values():
            for held in _models_in(info.annotation):
                visit(held)
        ordered.append(cls)

    visit(model)
    return ordered


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for argument in get_args(annotation) for model in _models_in(argument)]


def _describe(cls: type[BaseModel]) -> None:
    """Fill the missing descriptions of ``cls``'s fields from their docstrings."""
    docstrings: dict[str, str] = {}
    for base in reversed(cls.__mro__):
        if issubclass(base, BaseModel) and base is not BaseModel:
            docstrings.update(_attribute_docstrings(base))
    for name, info in cls.model_fields.items():
        if info.description is None and name in docstrings:
            info.description = docstrings[name]


def _attribute_docstrings(cls: type) -> dict[str, str]:
    """The string literals right below the annotated attributes of ``cls``'s own body."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    definition = ast.parse(source).body[0]
    if not isinstance(definition, ast.ClassDef):
        return {}
    docstrings: dict[str, str] = {}
    for statement, following in zip(definition.body, definition.body[1:], strict=False):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docstrings[statement.target.id] = inspect.cleandoc(following.value.value)
    return docstrings
