"""MkDocs hook: the CLI reference, rendered from the ``mhp`` command tree when the site builds.

A page holds the marker ``<!-- mhp-cli-reference -->``; the hook puts in its place one section
per command, read from the typer application itself (its usage line, help text, arguments and
options), so the reference cannot drift from the command line. ``render`` is also what the
tests call.
"""

from __future__ import annotations

from typing import Any

import typer.main

from mhp_cards.cli import app

MARKER = "<!-- mhp-cli-reference -->"


def _cell(text: str) -> str:
    return _plain(text).replace("|", "\\|")


def _code(text: str) -> str:
    """Text in a code span of a table cell: shown as it is, but for the cell's bar."""
    return "`" + " ".join(text.split()).replace("|", "\\|") + "`"


def _plain(text: str) -> str:
    """Help text as Markdown that shows it as written: one line, no emphasis, no HTML."""
    return " ".join(text.split()).replace("*", "\\*").replace("<", "&lt;")


def _section(command: Any, context: Any, path: list[str], level: int) -> list[str]:
    lines = [f"{'#' * level} `{' '.join(path)}`", ""]
    lines += ["```text", context.get_usage(), "```", ""]
    if command.help:
        # Paragraphs of the help as they are, each example line in code.
        for paragraph in command.help.strip().split("\n\n"):
            text = " ".join(paragraph.split())
            label, _, example = text.partition(": ")
            if label.startswith("Example") and example:
                lines += [f"{label}: `{example}`", ""]
            else:
                lines += [_plain(text), ""]
    rows = []
    for param in command.get_params(context):
        record = param.get_help_record(context)
        if record is None:  # a hidden parameter
            continue
        names, help_text = record
        rows.append((_code(names), _cell(help_text)))
    if rows:
        lines += ["| argument or option | what it does |", "|---|---|"]
        lines += [f"| {name} | {text} |" for name, text in rows]
        lines.append("")
    subcommands = getattr(command, "commands", None)
    if subcommands:
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            if sub is None or sub.hidden:
                continue
            sub_context = sub.context_class(sub, info_name=name, parent=context)
            lines += _section(sub, sub_context, [*path, name], min(level + 1, 4))
    return lines


def render() -> str:
    """The reference of every ``mhp`` command as Markdown."""
    root = typer.main.get_command(app)
    context = root.context_class(root, info_name="mhp")
    return "\n".join(_section(root, context, ["mhp"], 2))


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Put the rendered reference where a page holds the marker."""
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, render())
