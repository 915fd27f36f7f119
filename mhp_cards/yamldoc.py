"""Reading YAML safely while remembering where every value stands (line and column).

PyYAML's safe loader builds plain data; this module also walks the node tree so that a path
into the data (``("installations", 2, "cards", 0, "id")``) can be turned back into the line
and column the designer typed it at. Duplicate keys, which PyYAML would silently collapse,
are reported.

Input is bounded before it is composed: an iterative scan of the parser's events refuses a
document nested deeper than :data:`~mhp_cards.fileio.MAX_DEPTH`, with more values than
:data:`~mhp_cards.fileio.MAX_NODES` (counting each alias as the values it repeats, so an alias
bomb is refused before it grows), more entries in one collection than
:data:`~mhp_cards.fileio.MAX_ITEMS` or more aliases than :data:`~mhp_cards.fileio.MAX_ALIASES`.
The C parser (libyaml) is used when PyYAML has it; its syntax errors are worded by the pure
parser, so that the issues are the same either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from typing import Any, Final

import yaml

from mhp_cards.errors import InputFileError
from mhp_cards.fileio import (
    MAX_ALIASES,
    MAX_DEPTH,
    MAX_ITEMS,
    MAX_NODES,
    read_text_limited,
)
from mhp_cards.issues import Issue, Path

__all__ = ["LIBYAML", "Mark", "YamlDocument", "read_yaml", "read_yaml_file"]

_PURE: Final[Any] = yaml.SafeLoader
_FAST: Final[Any] = getattr(yaml, "CSafeLoader", None)
#: True when PyYAML was built with libyaml, whose parser is about ten times faster.
LIBYAML: Final = _FAST is not None
#: The characters YAML forbids (the pure reader's rule, checked the same way for both parsers).
_NON_PRINTABLE: Final = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
_SYNTAX_HINT: Final = "fix the YAML syntax (indentation, quotes, colons)"


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


def read_yaml_file(
    path: FilePath, file: str | None = None, *, fast: bool = True
) -> tuple[YamlDocument | None, list[Issue]]:
    """Read and parse the YAML file ``path`` within the limits; issues name it ``file``.

    A file that cannot be read (missing, a directory, a device, too large, not UTF-8) gives no
    document and one located issue, like a syntax error.
    """
    name = file if file is not None else str(path)
    try:
        text = read_text_limited(path, name)
    except InputFileError as error:
        return None, [error.issue]
    return read_yaml(text, name, fast=fast)


def read_yaml(
    text: str, file: str, *, fast: bool = True
) -> tuple[YamlDocument | None, list[Issue]]:
    """Parse ``text``; on a syntax error or a limit reached, no document and the located issue.

    ``fast`` uses libyaml when PyYAML has it (``fast=False`` forces the pure parser); the
    issues are the same either way.
    """
    loader = _FAST if fast and _FAST is not None else _PURE
    bad = _NON_PRINTABLE.search(text)
    if bad is not None:
        line, column = _line_column(text, bad.start())
        return None, [
            Issue(
                "yaml-syntax",
                f"unacceptable character #x{ord(bad.group()):04x}: special characters are not "
                "allowed",
                file=file,
                line=line,
                column=column,
                hint="this is not a text file, or it holds a control character: remove it",
            )
        ]
    try:
        refusal = _scan(text, file, loader)
        if refusal is not None:
            return None, [refusal]
        return _compose(text, file, loader)
    except yaml.YAMLError as error:
        if loader is _PURE:
            return None, [_syntax_issue(error, file)]
        # libyaml words its errors differently: let the pure parser find and word the same
        # error (bounded: the C scan reached it within the limits).
        try:
            refusal = _scan(text, file, _PURE)
        except yaml.YAMLError as pure_error:
            return None, [_syntax_issue(pure_error, file)]
        return None, [refusal or _syntax_issue(error, file)]


@dataclass(slots=True)
class _Open:
    """A mapping or list being scanned: its anchor, values inside (aliases expanded), entries."""

    anchor: str | None
    mapping: bool
    size: int = 1
    entries: int = 0


def _scan(text: str, file: str, loader: Any) -> Issue | None:
    """The first limit ``text`` goes past, or an alias the composer would refuse; else None.

    Iterative over the parser's events, so that depth costs no recursion, and it stops at the
    first refusal, so that an alias bomb or a huge list costs no more than the limit.
    """
    stack: list[_Open] = []
    anchors: dict[str, tuple[int, int]] = {}  # name → (values, line)
    total = 0
    aliases = 0

    def refuse(event: yaml.Event, message: str, hint: str, check: str = "limits") -> Issue:
        mark = event.start_mark
        line, column = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        return Issue(check, message, file=file, line=line, column=column, hint=hint)

    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.CollectionEndEvent):
            closed = stack.pop()
            if closed.anchor is not None:
                anchors[closed.anchor] = (closed.size, anchors[closed.anchor][1])
            if stack:
                stack[-1].size += closed.size
            continue
        if not isinstance(event, (yaml.AliasEvent, yaml.ScalarEvent, yaml.CollectionStartEvent)):
            continue  # stream and document events hold no value
        if stack:
            parent = stack[-1]
            parent.entries += 1  # a key or a value in a mapping, an item in a list
            if parent.entries > MAX_ITEMS * (2 if parent.mapping else 1):
                kind = "mapping" if parent.mapping else "list"
                return refuse(
                    event,
                    f"more than {MAX_ITEMS} entries in one {kind} (limit MAX_ITEMS = {MAX_ITEMS})",
                    "the game's longest list has 60 entries: check the data",
                )
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                return refuse(
                    event,
                    f"more than {MAX_ALIASES} aliases (limit MAX_ALIASES = {MAX_ALIASES})",
                    "write the values out, or use fewer anchors",
                )
            known = anchors.get(str(event.anchor))
            if known is None:
                return refuse(
                    event,
                    f"found undefined alias {event.anchor!r}",
                    f"define the anchor '&{event.anchor}' before '*{event.anchor}'",
                    "yaml-syntax",
                )
            size = known[0]  # an alias stands for every value of its anchor, again
        else:
            anchor = event.anchor
            if anchor is not None and anchor in anchors:
                return refuse(
                    event,
                    f"found duplicate anchor {anchor!r}; the first occurrence is at line "
                    f"{anchors[anchor][1]}",
                    "give each anchor its own name",
                    "yaml-syntax",
                )
            size = 1
            if anchor is not None:
                anchors[anchor] = (size, _line(event))  # a collection's size: when it closes
        total += size
        if total > MAX_NODES:
            return refuse(
                event,
                f"more than {MAX_NODES} values, counting each alias as the values it repeats "
                f"(limit MAX_NODES = {MAX_NODES})",
                "the game's largest file has 900 values: check the data, or its aliases",
            )
        if isinstance(event, yaml.CollectionStartEvent):
            if len(stack) >= MAX_DEPTH:
                return refuse(
                    event,
                    f"nested deeper than {MAX_DEPTH} levels (limit MAX_DEPTH = {MAX_DEPTH})",
                    "the game's files nest at most 8 levels: flatten the data",
                )
            stack.append(_Open(event.anchor, isinstance(event, yaml.MappingStartEvent)))
        elif stack:
            stack[-1].size += size
    return None


def _line(event: yaml.Event) -> int:
    return event.start_mark.line + 1 if event.start_mark is not None else 0


def _compose(text: str, file: str, loader_class: Any) -> tuple[YamlDocument | None, list[Issue]]:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return YamlDocument(file, None), []
        try:
            data = loader.construct_document(node)
        except (ValueError, TypeError, OverflowError) as error:
            # A scalar that looks like a value Python cannot hold (a 31st of February, an
            # integer of 5,000 digits): the constructor raises without a mark.
            line, column = _unreadable_scalar(node)
            return None, [
                Issue(
                    "yaml-syntax",
                    f"cannot read a value: {error}",
                    file=file,
                    line=line,
                    column=column,
                    hint="quote the value to keep it as text",
                )
            ]
    finally:
        loader.dispose()
    document = YamlDocument(file, data)
    issues: list[Issue] = []
    _walk(node, (), document, issues)
    return document, issues


def _unreadable_scalar(root: yaml.Node) -> tuple[int, int]:
    """Line and column of the first scalar the safe constructor fails on (1, 1 if none does)."""
    constructor = yaml.constructor.SafeConstructor()
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            try:
                constructor.construct_object(node)
            except (ValueError, TypeError, OverflowError):
                return node.start_mark.line + 1, node.start_mark.column + 1
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            stack.extend(child for pair in reversed(node.value) for child in reversed(pair))
    return 1, 1


def _syntax_issue(error: yaml.YAMLError, file: str) -> Issue:
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (None, None)
        problem = error.problem or "cannot read YAML"
        context = f" ({error.context})" if error.context else ""
        return Issue(
            "yaml-syntax",
            f"{problem}{context}",
            file=file,
            line=line,
            column=column,
            hint=_SYNTAX_HINT,
        )
    return Issue("yaml-syntax", str(error), file=file, line=1, column=1, hint=_SYNTAX_HINT)


def _line_column(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


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
