"""Reading YAML safely while remembering where every value stands (line and column).

PyYAML's safe loader builds plain data; this module also walks the node tree so that a path
into the data (``("installations", 2, "cards", 0, "id")``) can be turned back into the line
and column the designer typed it at. Duplicate keys, which PyYAML would silently collapse,
are reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from mhp_cards.issues import Issue, Path

__all__ = ["Mark", "YamlDocument", "read_yaml"]


@dataclass(frozen=True, slots=True)
class Mark:
    """Where a node starts: 1-based line and column, and how the scalar was written."""

    line: int
    column: int
    #: '' for a plain scalar, or the quote character that opens it.
    style: str = ""


@dataclass(slots=True)
class YamlDocument:
    """Data read from a YAML file, with the position of every value and key."""

    file: str
    data: Any
    values: dict[Path, Mark] = field(default_factory=dict)
    keys: dict[Path, Mark] = field(default_factory=dict)

    def locate(
        self, path: Path, offset: int | None = None, at_key: bool = False
    ) -> tuple[int, int]:
        """Line and column of ``path`` (of its key with ``at_key``), or of its nearest parent.

        ``offset`` moves the column into a scalar on one line, e.g. to a bad character of a
        formula (quotes are skipped).
        """
        table = self.keys if at_key else self.values
        probe = path
        while probe:
            mark = table.get(probe) or self.values.get(probe)
            if mark is not None:
                column = mark.column
                if offset is not None and probe == path:
                    column += offset + (1 if mark.style else 0)
                return mark.line, column
            probe = probe[:-1]
        mark = self.values.get((), Mark(1, 1))
        return mark.line, mark.column


def read_yaml(text: str, file: str) -> tuple[YamlDocument | None, list[Issue]]:
    """Parse ``text``; on a syntax error return no document and the located error."""
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return YamlDocument(file, None), []
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (None, None)
        problem = error.problem or "cannot read YAML"
        context = f" ({error.context})" if error.context else ""
        return None, [
            Issue(
                "yaml-syntax",
                f"{problem}{context}",
                file=file,
                line=line,
                column=column,
                hint="fix the YAML syntax (indentation, quotes, colons)",
            )
        ]
    except yaml.YAMLError as error:
        return None, [Issue("yaml-syntax", str(error), file=file, line=1, column=1)]
    finally:
        loader.dispose()
    document = YamlDocument(file, data)
    issues: list[Issue] = []
    _walk(node, (), document, issues)
    return document, issues


def _mark(node: yaml.Node) -> Mark:
    style = getattr(node, "style", None) or ""
    return Mark(
        node.start_mark.line + 1, node.start_mark.column + 1, style if style in "'\"" else ""
    )


def _walk(node: yaml.Node, path: Path, document: YamlDocument, issues: list[Issue]) -> None:
    document.values[path] = _mark(node)
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, Mark] = {}
        for key_node, value_node in node.value:
            key = str(key_node.value)
            key_mark = _mark(key_node)
            # Pairs merged in from an anchor ("<<: *base") stand elsewhere in the file; a key
            # written here may override them. Only two keys written here are a duplicate.
            written_here = node.start_mark.index <= key_node.start_mark.index < node.end_mark.index
            if written_here and key in seen:
                first = seen[key]
                issues.append(
                    Issue(
                        "yaml-duplicate-key",
                        f"key {key!r} appears twice in one mapping; the first one (line "
                        f"{first.line}) would be silently ignored",
                        file=document.file,
                        path=(*path, key),
                        line=key_mark.line,
                        column=key_mark.column,
                        hint="remove one of them",
                    )
                )
            if written_here:
                seen[key] = key_mark
            document.keys[(*path, key)] = key_mark
            _walk(value_node, (*path, key), document, issues)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*path, index), document, issues)
