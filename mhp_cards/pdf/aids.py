"""Player aids: the turn of every level in short sentences, with the rule IDs beside them.

:func:`aid_groups` takes each level's lines from ``rules.yaml`` (``player_aids``), grouped by
phase, and fills in the counts that depend on the box (how many Fate cards to put aside, how
big the Warehouse is) from :func:`mhp_cards.pdf.book_setup.setup_facts`; :func:`aid_front` draws
one level on a card. The kit prints one aid per player, both sides used (:data:`AID_SIDES`):
the field levels (1 and 3) on the front, the chemists' (2 and head to head) on the back, each
level's turn, missions, end and scoring (the setup is done once, from the rulebook), drawn by
:func:`aid_side`. Every text of an aid is at least 6 pt.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import TypesetError
from mhp_cards.pdf.book_setup import SetupFacts, setup_facts
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.fonts import MM_PER_POINT
from mhp_cards.pdf.layout import Region
from mhp_cards.pdf.rulebook import phase_title
from mhp_cards.pdf.style import LEVEL_TITLES
from mhp_cards.pdf.typeset import LEADING, Run, check_glyphs, draw_runs, runs_width, text_runs, wrap
from mhp_cards.rules.numbers import (
    FATE_REMOVED,
    MIN_FIELD,
    UPGRADE_RULES,
    WAREHOUSE_SIZE,
    Lang,
    Level,
)
from mhp_cards.rules.rulebook import load_rulebook

__all__ = [
    "AID_MIN_SIZE",
    "AID_SIDES",
    "AidGroups",
    "aid_front",
    "aid_groups",
    "aid_side",
    "common_size",
    "fitting_size",
    "side_groups",
]

#: The levels on each side of the printed aid: the field levels, then the chemists'.
AID_SIDES: Final[tuple[tuple[Level, ...], ...]] = (("1", "3"), ("2", "1v1"))

#: (phase heading, [(rule ID, sentence), …]) in the order of the aid.
AidGroups = Sequence[tuple[str, Sequence[tuple[str, str]]]]


def _span(values: tuple[int, int]) -> str:
    low, high = values
    return str(low) if low == high else f"{low}–{high}"


def aid_counts(facts: SetupFacts, level: Level) -> dict[str, str]:
    """The box-dependent counts an aid's summaries may name (``{removed}``, ``{field}``, ...).

    Levels without a field of their own (2, head to head) take level 1's; a box that cannot
    set up the level gets the rules' bare ranges (the setup check reports the box).
    """
    setup = facts.fields.get(level) or facts.fields["1"]
    warehouse = WAREHOUSE_SIZE.get(level, WAREHOUSE_SIZE["1"])
    removed, field, stock = setup.removed, setup.field, setup.warehouse
    return {
        "removed": _span(removed or FATE_REMOVED),
        "field": _span(field or (MIN_FIELD, setup.fate - FATE_REMOVED[0])),
        "warehouse": _span(stock or warehouse),
    }


def common_size(every: Sequence[AidGroups], body: Region) -> float | None:
    """One body size for a set of aids: the smallest of their fitting sizes (None: none fits)."""
    sizes = [fitting_size(groups, body) for groups in every]
    return None if None in sizes else min(size for size in sizes if size is not None)


def aid_groups(
    catalog: Catalog, level: Level, lang: str, setup: bool = True
) -> list[tuple[str, list[tuple[str, str]]]]:
    """The lines of ``level``'s aid for this box, grouped by phase: (heading, [(ID, text)]).

    ``setup=False`` leaves out the setup and the lines of other levels' rules: the two-sided
    aid, where the rulebook sets the table up and each rule stands once, under its own level.
    """
    code: Lang = "en" if lang == "en" else "ru"
    counts = aid_counts(setup_facts(catalog), level)
    groups: list[tuple[str, list[tuple[str, str]]]] = []
    section = None
    unsold = {
        UPGRADE_RULES[upgrade.id]
        for upgrade in catalog.components.upgrades
        if upgrade.id in UPGRADE_RULES and not upgrade.sold_at(level)
    }
    for rule, summary in load_rulebook().player_aid(level):
        if not setup and (rule.section == "setup" or rule.level != level):
            continue
        if rule.id in unsold:
            continue  # the box does not sell that upgrade at this level (L1.T6.R2)
        if rule.section != section:
            section = rule.section
            groups.append((phase_title(section, code), []))
        groups[-1][1].append((rule.id, summary[code].format(**counts)))
    return groups


AID_MIN_SIZE: Final = 6.5
"""The smallest body text of a player aid, in points (rule IDs beside it are at least 6 pt)."""


_ID_WIDTH: Final = 13.0


def _id_width(groups: AidGroups) -> float:
    """The column of rule IDs: at least :data:`_ID_WIDTH`, as wide as the longest ID needs."""
    ids = [rule for _, lines in groups for rule, _ in lines]
    widest = max((runs_width([Run(rule)], 6.0) for rule in ids), default=0.0)
    return max(_ID_WIDTH, widest + 0.5)


def fitting_size(groups: AidGroups, body: Region) -> float | None:
    """The largest body size, in quarter points down to :data:`AID_MIN_SIZE`, that fits; or None."""
    size = body.size
    text_width = body.width - _id_width(groups) - 1
    while size >= AID_MIN_SIZE - 1e-9:
        if _aid_layout(groups, text_width, size)[-1] <= body.height + 1e-6:
            return size
        size -= 0.25
    return None


def aid_front(
    face: Face,
    title: str,
    groups: AidGroups,
    card: str,
    size: float | None = None,
) -> None:
    """A player aid: the level's turn in short sentences, phase by phase, each rule ID beside.

    ``groups`` are (phase heading, [(rule ID, sentence), …]). The text is set at ``size`` (the
    kit gives every aid the same), else at the largest that fits (:func:`fitting_size`); the
    IDs sit small and grey in a column at the right, level with their sentence's first line.
    """
    accent = face.template.accent
    face.background(border=accent)
    face.line(text_runs(title, bold=True, colour=accent), "title", card)
    body = face.region("body")
    text_width = body.width - _id_width(groups) - 1
    for _, lines in groups:
        for rule, text in lines:
            check_glyphs([Run(rule), *text_runs(text)], card, "body")
    fits = fitting_size(groups, body)
    if fits is None:
        needed = _aid_layout(groups, text_width, AID_MIN_SIZE)[-1]
        raise TypesetError(
            card,
            "body",
            f"the aid needs {needed:.1f} mm at {AID_MIN_SIZE} pt but the body region is "
            f"{body.height:g} mm tall; shorten its lines or enlarge the region",
        )
    chosen = fits if size is None else min(size, fits)
    _draw_aid(face, groups, body, text_width, _id_width(groups), chosen, accent)


def _aid_layout(groups: AidGroups, width: float, size: float) -> list[float]:
    """The top of every heading and sentence in order, then the total height, in mm."""
    line = size * MM_PER_POINT * LEADING
    tops = []
    y = 0.0
    for index, (heading, lines) in enumerate(groups):
        if index:
            y += line * (0.8 if heading.startswith(_LEVEL) else 0.45)
        tops.append(y)
        y += line * (1.25 if heading.startswith(_LEVEL) else 1.05) + 0.6
        for _, text in lines:
            tops.append(y)
            y += line * len(wrap([text_runs(text)], width, size)) + line * 0.18
    return [*tops, y]


def _draw_aid(
    face: Face,
    groups: AidGroups,
    body: Region,
    text_width: float,
    id_width: float,
    size: float,
    accent: str,
) -> None:
    sketch = face.sketch
    ink = face.template.ink
    line = size * MM_PER_POINT * LEADING
    ascent = line * 0.78
    tops = iter(_aid_layout(groups, text_width, size))
    id_size = 6.0  # the ID column is measured at this size
    for heading, lines in groups:
        top = body.y + next(tops)
        if heading.startswith(_LEVEL):  # a level's title: white on a band of the accent
            sketch.rect(body.x, top, body.width, line * 1.25, fill=accent, radius=0.8)
            runs = text_runs(heading.removeprefix(_LEVEL), bold=True, colour="#FFFFFF")
            draw_runs(sketch, body.x + 1.5, top + ascent + line * 0.12, runs, size, ink)
            continue
        runs = text_runs(heading.upper(), bold=True, colour=accent)
        draw_runs(sketch, body.x, top + ascent, runs, max(6.0, size * 0.9), ink)
        sketch.line(
            body.x,
            top + line * 1.05,
            body.x + body.width,
            top + line * 1.05,
            stroke=accent,
            line_width=0.2,
        )
        for rule, text in lines:
            top = body.y + next(tops)
            for k, wrapped in enumerate(wrap([text_runs(text)], text_width, size)):
                draw_runs(sketch, body.x, top + ascent + k * line, wrapped, size, ink)
            label = [Run(rule, colour="#7A7A7A")]
            x = body.x + body.width - runs_width(label, id_size)
            draw_runs(sketch, x, top + ascent, label, id_size, ink)


def side_groups(catalog: Catalog, levels: Sequence[Level], lang: str) -> AidGroups:
    """One side of the two-sided aid as one list of groups: each level's title, then its phases.

    A level's title is a group of its own with no lines (drawn as a band by :func:`aid_side`).
    """
    code: Lang = "en" if lang == "en" else "ru"
    groups: list[tuple[str, Sequence[tuple[str, str]]]] = []
    for level in levels:
        groups.append((_LEVEL + LEVEL_TITLES[level][code], ()))
        groups += aid_groups(catalog, level, code, setup=False)
    return groups


#: Marks a group heading that is a level's title.
_LEVEL: Final = "\x00"


def aid_side(
    face: Face, title: str, groups: AidGroups, card: str, size: float | None = None
) -> None:
    """One side of the two-sided player aid: a title, then level after level, phase by phase."""
    aid_front(face, title, groups, card, size)
