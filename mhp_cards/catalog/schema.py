"""JSON Schema of the catalog files, generated from the models and committed in catalog/schema/.

Editors validate and autocomplete the YAML files against these schemas (each file names its
schema in its first line); the loader validates with them too, so a structural mistake is
reported with all others at once. A test fails when the committed files drift from the models.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

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


def schema_name(file_name: str) -> str:
    """``substances.yaml`` → ``substances.schema.json``."""
    return file_name.removesuffix(".yaml") + ".schema.json"


def schema_for(model: type[BaseModel], name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``model``, identified as ``name``."""
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
