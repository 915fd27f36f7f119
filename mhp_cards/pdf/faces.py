"""Card faces: the drawing surface of one card (:class:`Face`) and the faces every kind shares.

The faces of each kind have modules of their own: raw cards (:mod:`~mhp_cards.pdf.raw_face`),
reactor cards (:mod:`~mhp_cards.pdf.reactor_face`, with the token places of
:mod:`~mhp_cards.pdf.places`), the Mission card (:mod:`~mhp_cards.pdf.mission_face`) and the
tokens (:mod:`~mhp_cards.pdf.token_faces`). Every function draws one face in the card's own
coordinates (mm from its top-left corner) using the regions of its template. Text goes
through :mod:`mhp_cards.pdf.typeset`, so a text that does not fit, or a character the font
lacks, stops the build with the card and region named.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from mhp_cards.pdf.layout import CardSize, Region, Template, Templates
from mhp_cards.pdf.sketch import Sketch
from mhp_cards.pdf.style import TEXT, WHITE, t
from mhp_cards.pdf.typeset import (
    Run,
    fit_lines,
    formula_runs,
    place_line,
    runs_width,
    text_runs,
)

__all__ = ["TEXT", "Face"]

PORT_OFFSETS: Final = {1: 0.25, 2: 0.5, 3: 0.75}
PIPE: Final = 5.0
BORDER: Final = 0.6


def _shift(region: Region, x: float, y: float, width: float | None = None) -> Region:
    return region.model_copy(
        update={"x": x, "y": y, **({"width": width} if width is not None else {})}
    )


def _ink_on(background: str) -> str:
    """Dark text on a light background, white on a dark one (relative luminance)."""
    red, green, blue = (int(background[i : i + 2], 16) / 255 for i in (1, 3, 5))
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return "#231F20" if luminance > 0.55 else WHITE


def blend(colour: str, other: str, share: float) -> str:
    """Mix two #RRGGBB colours: ``share`` of ``other``."""
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i : i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(x + (y - x) * share) for x, y in zip(a, b, strict=True)]
    return "#" + "".join(f"{v:02X}" for v in mixed)


@dataclass(frozen=True, slots=True)
class Face:
    """Draws faces of one card kind with a template and a language."""

    sketch: Sketch
    template: Template
    size: CardSize
    lang: str
    bleed: float = 0.0
    #: Diameter of a chemist token in mm (the sheet profile's ``card_sizes: chemist``): the
    #: places on reactor cards and on the Mission card are sized from it.
    token: float | None = None
    #: Where the sheet profile gives that diameter (``file:line:column``), for build messages.
    token_source: str = ""

    def region(self, name: str) -> Region:
        """The template region ``name``."""
        return self.template.regions[name]

    def background(self, fill: str | None = None, border: str | None = None) -> None:
        """The card's paper colour over its whole area, and its border.

        A border is drawn just inside the cut line, so cutting never halves it. Both are drawn
        to the trimmed size; on a sheet with a bleed the imposition runs them (and everything
        else that reaches the cut line) into the bleed: see ``impose.run_into_bleed``.
        """
        size = self.size
        paper = fill or self.template.paper
        inset = BORDER / 2
        if size.shape == "circle":
            centre, radius = size.width / 2, size.width / 2
            self.sketch.circle(centre, centre, radius, fill=paper)
            if border:
                self.sketch.circle(centre, centre, radius - inset, stroke=border, line_width=BORDER)
            return
        self.sketch.rect(0, 0, size.width, size.height, fill=paper, radius=size.corner_radius)
        if border:
            self.sketch.rect(
                inset,
                inset,
                size.width - 2 * inset,
                size.height - 2 * inset,
                stroke=border,
                line_width=BORDER,
                radius=max(0.0, size.corner_radius - inset),
            )

    def line(self, runs: Sequence[Run], region: str, card: str) -> float:
        """Fit runs on one line in a region."""
        return place_line(self.sketch, runs, self.region(region), card, region, self.template.ink)

    def lines(self, paragraphs: Sequence[Sequence[Run]], region: str, card: str) -> float:
        """Wrap paragraphs into a region."""
        return fit_lines(
            self.sketch, paragraphs, self.region(region), card, region, self.template.ink
        )


# Fate cards, Base, Warehouse ---------------------------------------------------------------------


def mars_surface(face: Face, seed: int = 1961) -> None:
    """The back of Fate cards: the surface of Mars (the field), the same on every card."""
    width, height = face.size.width, face.size.height
    face.background()
    rng = random.Random(seed)
    paper = face.template.paper
    bleed = face.bleed
    radius = 0.0 if bleed else face.size.corner_radius
    with face.sketch.clip(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, radius=radius):
        for _ in range(5):
            face.sketch.circle(
                rng.uniform(0, width),
                rng.uniform(0, height),
                rng.uniform(10, 22),
                fill=blend(paper, "#8E3B24", rng.uniform(0.12, 0.3)),
            )
        for _ in range(11):
            cx, cy = rng.uniform(4, width - 4), rng.uniform(4, height - 10)
            r = rng.uniform(1.2, 5)
            face.sketch.circle(cx + r * 0.12, cy + r * 0.12, r, fill=blend(paper, "#F3C7A6", 0.35))
            face.sketch.circle(cx, cy, r * 0.86, fill=blend(paper, "#5E2414", 0.35))
    face.line(text_runs(t("company", face.lang), bold=True), "title", "Fate card back")


def base_card(face: Face, warehouse: bool = False) -> None:
    """The Base card (or the Warehouse marker): an emblem, a title, what happens there."""
    key = "warehouse" if warehouse else "base"
    card = "Warehouse marker" if warehouse else "Base card"
    width = face.size.width
    face.background()
    accent = face.template.accent
    face.sketch.rect(2, 2, width - 4, face.size.height - 4, stroke=accent, line_width=0.8, radius=2)
    if warehouse:
        _warehouse_icon(face.sketch, width / 2, accent)
    else:
        face.sketch.circle(
            width / 2, 30, 14, fill=blend(accent, WHITE, 0.7), stroke=accent, line_width=0.6
        )
        face.sketch.rect(width / 2 - 18, 29.9, 36, 14.5, fill=face.template.paper)
        face.sketch.line(width / 2 - 18, 30, width / 2 + 18, 30, stroke=accent, line_width=0.8)
        face.sketch.rect(width / 2 - 3, 22, 6, 8, fill=accent)
    face.line(text_runs(t(key, face.lang), bold=True), "title", card)
    face.lines([text_runs(t(f"{key}_note", face.lang))], "subtitle", card)


def _warehouse_icon(sketch: Sketch, cx: float, accent: str) -> None:
    """A depot: a gabled shed with a roller door half open on crates of ore."""
    light = blend(accent, WHITE, 0.75)
    sketch.polygon(
        [(cx - 16, 17), (cx, 8), (cx + 16, 17), (cx + 16, 34), (cx - 16, 34)],
        fill=light,
        stroke=accent,
        line_width=0.7,
    )
    sketch.polygon(
        [(cx - 18, 18), (cx, 7.5), (cx + 18, 18), (cx + 18, 15.6), (cx, 5.2), (cx - 18, 15.6)],
        fill=accent,
    )
    sketch.rect(cx - 9, 19, 18, 15, fill=WHITE, stroke=accent, line_width=0.6)
    for k in range(4):
        y = 20 + k * 1.6
        sketch.line(cx - 9, y, cx + 9, y, stroke=accent, line_width=0.35)
    for x, y, w in ((cx - 8, 29, 6), (cx - 1.5, 29, 6), (cx - 5, 24.6, 6)):
        sketch.rect(x, y, w, 4.4, fill=blend(accent, WHITE, 0.35), stroke=accent, line_width=0.3)
        sketch.line(x + w / 2, y, x + w / 2, y + 4.4, stroke=accent, line_width=0.25)
    sketch.line(cx - 18, 34, cx + 18, 34, stroke=accent, line_width=0.8)


def formula_width(substance: str, size: float) -> float:
    """Width in mm of a formula set in bold at ``size`` points (a container's or a product's)."""
    return runs_width(formula_runs(substance, bold=True), size)


def tally(elements: Mapping[str, int]) -> str:
    """Element counts as the cards print them (raw cards and Mission card): ``C 1 · H 4 · O 6``."""
    return " · ".join(f"{symbol} {count}" for symbol, count in elements.items())


def plain_back(face: Face, key: str, card: str) -> None:
    """A plain coloured back with one title (Mission card, player aids)."""
    face.background()
    face.line(text_runs(t(key, face.lang), bold=True), "title", card)


def templates_for(templates: Templates, kind: str) -> Template:
    """The template of a card kind."""
    return templates[kind]
