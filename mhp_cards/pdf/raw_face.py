"""The raw-material card, front and back.

The front shows the mineral's formula, its name, its element tally (the notation the Mission
card's level-1 totals share: ``C 1 · O 2``), where it was found on Mars, and where the card is
used in this box: the installations that take it and the level-1 missions it is part of
(computed from the catalog, :func:`mhp_cards.validate.figures.catalog_figures`). The back is a
dark mineral teal with a crystal, never mistaken for the Mars surface of the field.
"""

from __future__ import annotations

import math
from pathlib import Path

from mhp_cards.catalog.art import art_path
from mhp_cards.catalog.models import Catalog, RawMaterial
from mhp_cards.pdf.art import draw_picture
from mhp_cards.pdf.faces import Face, blend, tally
from mhp_cards.pdf.sketch import Sketch
from mhp_cards.pdf.style import WHITE, t
from mhp_cards.pdf.typeset import Run, formula_runs, text_runs
from mhp_cards.validate.figures import catalog_figures

__all__ = ["raw_accent", "raw_back", "raw_front", "raw_uses", "use_runs"]

#: The colours of the "where used" line: installations as on the reactor cards, missions as on
#: the Mission card.
_INSTALLATION = "#2E5E8C"
_MISSION = "#1E6B52"
_QUIET = "#5E5A55"


def raw_accent(raw: RawMaterial) -> str:
    """A colour for a raw card from its chemistry (gas/ice, iron, sulfur, chlorine, carbonate…)."""
    elements = raw.parsed.elements
    if set(elements) <= {"H", "O", "C", "N", "Ar"} and len(elements) <= 2:
        return "#2F6E9E"  # atmosphere and ice
    if "Cl" in elements:
        return "#7B4F9D"  # salts and perchlorates
    if "S" in elements:
        return "#B38B00"  # sulfates and sulfides
    if "Fe" in elements:
        return "#A23E25"  # iron minerals
    if "C" in elements:
        return "#6E6E6E"  # carbonates
    return "#3F7D4E"  # silicates and the rest


def raw_uses(catalog: Catalog, raw: RawMaterial) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """(the installations that take this raw card, the level-1 missions it is part of)."""
    for figures in catalog_figures(catalog).raw:
        if figures.id == raw.id:
            return figures.feeds, figures.missions
    return (), ()


def use_runs(installations: tuple[int, ...], missions: tuple[str, ...], lang: str) -> list[Run]:
    """The "where used" line of a raw card: ``Установки 1, 10 · уровень 1: M4``."""
    runs: list[Run] = []
    if installations:
        key = "raw_use_installation" if len(installations) == 1 else "raw_use_installations"
        runs += [
            Run(t(key, lang) + " ", colour=_QUIET),
            Run(", ".join(map(str, installations)), bold=True, colour=_INSTALLATION),
        ]
    if missions:
        lead = t("raw_use_level1", lang) + " "
        runs += [
            Run(
                (" · " if runs else "") + (lead if runs else lead[:1].upper() + lead[1:]),
                colour=_QUIET,
            ),
            Run(", ".join(missions), bold=True, colour=_MISSION),
        ]
    if not runs:
        runs = [Run(t("raw_use_none", lang), colour=_QUIET)]
    return runs


def raw_front(
    face: Face,
    raw: RawMaterial,
    copy: int,
    catalog: Catalog | None = None,
    root: Path | None = None,
) -> None:
    """The front of a raw-material card: formula, name, tally, where found, where used.

    With a template that has an ``art`` region, the card's picture (its own, else its
    substance's) is drawn there first, from ``root``, the catalog's directory.
    """
    card = f"raw card {raw.id} #{copy}"
    accent = raw_accent(raw)
    width, height = face.size.width, face.size.height
    face.background()
    art = raw.art or (_substance_art(catalog, raw.formula) if catalog is not None else None)
    if art and root is not None and "art" in face.template.regions:
        draw_picture(face, face.region("art"), art_path(root, art), f"{card} art")
    face.sketch.rect(0, 0, width, 9.5, fill=accent, radius=face.size.corner_radius)
    face.sketch.rect(0, 5, width, 4.5, fill=accent)
    face.line(text_runs(t("raw", face.lang), bold=True, colour=WHITE), "header", card)
    face.line(formula_runs(raw.formula, bold=True), "formula", card)
    face.line(text_runs(raw.name.get(face.lang), bold=True), "name", card)
    face.line(text_runs(tally(raw.parsed.elements)), "tally", card)
    _rule_above(face, "tally", 6, 0.3, blend(accent, WHITE, 0.5), 0.3)
    if raw.mars is not None:
        face.lines([text_runs(raw.mars.get(face.lang))], "mars", card)
    if catalog is not None and "use" in face.template.regions:
        _rule_above(face, "use", 4, 0.4, blend(accent, WHITE, 0.6), 0.25)
        face.line(use_runs(*raw_uses(catalog, raw), face.lang), "use", card)
    face.sketch.rect(
        0.8,
        0.8,
        width - 1.6,
        height - 1.6,
        stroke=accent,
        line_width=0.5,
        radius=max(0.0, face.size.corner_radius - 0.8),
    )


def _rule_above(
    face: Face, region: str, inset: float, gap: float, colour: str, width: float
) -> None:
    """A thin rule just above a region, ``inset`` mm short of its ends."""
    box = face.region(region)
    y = box.y - gap
    face.sketch.line(
        box.x + inset, y, box.x + box.width - inset, y, stroke=colour, line_width=width
    )


def _substance_art(catalog: Catalog, formula: str) -> str | None:
    substance = next((s for s in catalog.substances if s.formula == formula), None)
    return substance.art if substance is not None else None


def raw_back(face: Face) -> None:
    """The back of a raw-material card: a dark mineral teal with a crystal lattice.

    It must not pass for the field (the orange Mars surface) on the table: another hue, a
    darker tone and a regular lattice instead of craters.
    """
    width, height = face.size.width, face.size.height
    face.background()
    paper = face.template.paper
    bleed = face.bleed
    radius = 0.0 if bleed else face.size.corner_radius
    lattice = blend(paper, WHITE, 0.16)
    with face.sketch.clip(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, radius=radius):
        # two families of lines at ±30° make a lattice of rhombi, like a crystal's; the lines
        # keep their places on the card whatever the bleed (y = c ± x·tan 30°, c on a 7 mm step)
        slope = math.tan(math.radians(30))
        left, right = -bleed, width + bleed
        start = -slope * width
        first = math.floor((-bleed - slope * (width + bleed) - start) / 7.0)
        last = math.ceil((height + bleed + slope * (width + bleed) - start) / 7.0)
        for k in range(first, last + 1):
            c = start + 7.0 * k
            face.sketch.line(
                left, c + slope * left, right, c + slope * right, stroke=lattice, line_width=0.35
            )
            face.sketch.line(
                left, c - slope * left, right, c - slope * right, stroke=lattice, line_width=0.35
            )
    crystal(face.sketch, width / 2, 24, 11, WHITE, blend(paper, WHITE, 0.25))
    face.line(text_runs(t("raw_back", face.lang), bold=True), "title", "raw card back")
    face.line(text_runs(t("company", face.lang)), "subtitle", "raw card back")


def crystal(sketch: Sketch, cx: float, cy: float, r: float, stroke: str, fill: str) -> None:
    """A hexagonal prism seen from above at an angle: one outline, its lit top, two front edges.

    The top is a hexagon flattened to half its height around ``cy - 0.45 r``, the base the same
    hexagon ``r`` lower; only the edges a viewer sees are drawn, so no line crosses another.
    """

    def corner(angle: int, y: float) -> tuple[float, float]:
        a = math.radians(angle)
        return (cx + r * math.cos(a), y + 0.5 * r * math.sin(a))

    top, bottom = cy - 0.45 * r, cy + 0.55 * r
    outline = [corner(a, top) for a in (180, 240, 300, 0)]
    outline += [corner(a, bottom) for a in (0, 60, 120, 180)]
    sketch.polygon(outline, fill=fill, stroke=stroke, line_width=0.5)
    lit = blend(fill, WHITE, 0.35)
    sketch.polygon(
        [corner(a, top) for a in range(0, 360, 60)], fill=lit, stroke=stroke, line_width=0.4
    )
    for angle in (60, 120):
        (x0, y0), (x1, y1) = corner(angle, top), corner(angle, bottom)
        sketch.line(x0, y0, x1, y1, stroke=stroke, line_width=0.4)
