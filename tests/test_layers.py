"""The package's layout: each stage imports only the stages below it, and nothing in a cycle.

The order is the pipeline: the base modules, chemistry, the rules, the catalog models, reactor
assembly, the game, validation, spreadsheets, decks from data, the referee, the simulator, the
PDF kit, the table server, the command line. A module may import its own stage and any stage
below; an import of a stage above is a layering error.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mhp_cards"
BASE = {"errors", "issues", "fileio", "resources", "wording", "yamldoc"}
ORDER = [
    "base",
    "chem",
    "rules",
    "catalog",
    "assembly",
    "game",
    "validate",
    "sheets",
    "decks",
    "referee",
    "sim",
    "pdf",
    "serve",
    "cli",
]
#: References up a layer: none (the 0.2 alias mhp_cards.catalog.load_catalog went in 0.3).
ALLOWED_UP: set[tuple[str, str]] = set()


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _stage(module: str) -> str:
    """The stage of a module: its folder, "base" for a base module, "top" for the package."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] == "__main__":
        return "top"
    return "base" if parts[1] in BASE else parts[1]


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module_name(path)
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.startswith("mhp_cards"):
                    targets.add(node.module)
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names if a.name.startswith("mhp_cards"))
        graph[name] = targets
    return graph


GRAPH = _imports()


def test_the_folders_are_the_stages() -> None:
    stages = {_stage(name) for name in GRAPH} - {"top"}
    assert stages == set(ORDER)
    top_modules = [p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")]
    assert sorted(top_modules) == sorted(BASE)
    assert len(top_modules) <= 6


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_point_down(module: str) -> None:
    stage = _stage(module)
    if stage == "top":
        return  # the package itself re-exports the chemistry core; __main__ runs the CLI
    rank = ORDER.index(stage)
    upward = sorted(
        target
        for target in GRAPH[module]
        if _stage(target) != "top"
        and ORDER.index(_stage(target)) > rank
        and (module, target) not in ALLOWED_UP
    )
    assert upward == [], f"{module} imports a later stage"


def test_no_import_cycles() -> None:
    # A package's __init__ re-exporting its own submodules is not an edge of the cycle search.
    edges = {
        name: sorted(
            target
            for target in targets
            if target in GRAPH
            and not target.startswith(name + ".")
            and target != name
            and (name, target) not in ALLOWED_UP
        )
        for name, targets in GRAPH.items()
    }
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            pytest.fail("import cycle: " + " → ".join([*path[path.index(node) :], node]))
        if node in done:
            return
        for target in edges[node]:
            visit(target, [*path, node])
        done.add(node)

    for name in sorted(GRAPH):
        visit(name, [])


def test_the_catalog_no_longer_lends_the_loader() -> None:
    """0.3: mhp_cards.catalog.load_catalog and validate_catalog are gone (mhp_cards.validate)."""
    import mhp_cards.catalog

    for name in ("load_catalog", "validate_catalog", "Validation", "check_names"):
        assert not hasattr(mhp_cards.catalog, name)
