"""The flow of the two-column rulebook: pages filled column by column, top to bottom.

:class:`Book` places paragraphs (split between columns where they must), headings kept with
the lines after them, figures of a given height, chapter bands, and the running head and page
number of every page. It knows nothing of rules: :mod:`mhp_cards.pdf.rulebook` says what to set.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from mhp_cards.errors import TypesetError
from mhp_cards.pdf.fonts import MM_PER_POINT
from mhp_cards.pdf.sketch import PageSketch, Sketch
from mhp_cards.pdf.style import INK, MARS, MUTED, WHITE
from mhp_cards.pdf.typeset import LEADING, Run, check_glyphs, draw_runs, runs_width, text_runs, wrap
from mhp_cards.rules.numbers import Lang

__all__ = ["ACCENT", "BODY_SIZE", "CAPTION_SIZE", "Book", "line_height"]

#: The body text size of the rulebook, in points.
BODY_SIZE: Final = 9.5
#: The size of a caption or a note beside the body text, in points.
CAPTION_SIZE: Final = 8.5
_H2: Final = 11.5
ACCENT: Final = MARS
_GAP: Final = 7.0
#: The running head of every page.
HEAD: Final = {"ru": "МАРСХИМПРОМ · Правила", "en": "MARSCHEMPROM · Rules"}


def line_height(size: float) -> float:
    """The height of a line of text at ``size`` points, in mm."""
    return size * MM_PER_POINT * LEADING


@dataclass(slots=True)
class Book:
    """Pages being filled column by column, top to bottom."""

    sketch: Sketch
    width: float
    height: float
    lang: Lang
    problems: list[TypesetError]
    left: float = 16.0
    right: float = 16.0
    top: float = 20.0
    bottom: float = 18.0
    columns: int = 2
    chapter: str = ""
    pages: list[PageSketch] = field(default_factory=list)
    #: The page number on which each chapter starts.
    starts: dict[str, int] = field(default_factory=dict)
    column: int = 0
    y: float = 0.0
    column_top: float = 0.0

    @property
    def column_width(self) -> float:
        """The width of one column, in mm."""
        usable = self.width - self.left - self.right
        return (usable - _GAP * (self.columns - 1)) / self.columns

    @property
    def x(self) -> float:
        """The left edge of the current column."""
        return self.left + self.column * (self.column_width + _GAP)

    @property
    def floor(self) -> float:
        """The lowest line a column may reach."""
        return self.height - self.bottom

    def new_page(self) -> None:
        """Start a page: its running head, its number, the first column."""
        number = len(self.pages) + 1
        # A sheet's two pages share a label, as the kit's card sheets do.
        label = f"rules-{(number + 1) // 2}"
        page = self.sketch.new_page(self.width, self.height, label, _side(number))
        self.pages.append(page)
        self.column = 0
        self.y = self.column_top = self.top
        self._furniture(number)

    def _furniture(self, number: int) -> None:
        """The running head (book and chapter) and the page number."""
        size = 8.0
        head = text_runs(HEAD[self.lang], colour=MUTED)
        baseline = self.top - 7
        draw_runs(self.sketch, self.left, baseline, head, size, INK)
        if self.chapter:
            chapter = text_runs(self.chapter, bold=True, colour=ACCENT)
            width = runs_width(chapter, size)
            draw_runs(self.sketch, self.width - self.right - width, baseline, chapter, size, INK)
        self.sketch.line(
            self.left,
            baseline + 1.8,
            self.width - self.right,
            baseline + 1.8,
            stroke="#C9B8A8",
            line_width=0.25,
        )
        folio = text_runs(str(number), bold=True)
        width = runs_width(folio, 9)
        draw_runs(self.sketch, (self.width - width) / 2, self.height - 9, folio, 9, INK)

    def next_column(self) -> None:
        """Go on in the next column, or on a new page after the last."""
        if self.column + 1 < self.columns:
            self.column += 1
            self.y = self.column_top
        else:
            self.new_page()

    def room(self) -> float:
        """The room left in the current column, in mm."""
        return self.floor - self.y

    def space(self, mm: float) -> None:
        """Leave ``mm`` of space, unless at the top of a column."""
        if self.y > self.column_top + 1e-6:
            self.y = min(self.floor, self.y + mm)

    def check(self, runs: Sequence[Run], what: str) -> bool:
        """Whether the font can draw ``runs``; a problem is kept for the report otherwise."""
        try:
            check_glyphs(runs, "rulebook", what)
        except TypesetError as problem:
            self.problems.append(problem)
            return False
        return True

    def paragraph(
        self,
        runs: Sequence[Run],
        size: float = BODY_SIZE,
        indent: float = 0.0,
        label: Sequence[Run] = (),
        bar: str | None = None,
        keep: int = 2,
        after: float = 1.6,
    ) -> None:
        """Wrap a paragraph into the columns, splitting it between columns when it must.

        ``label`` hangs in the indent (a step number); ``bar`` draws a rule beside the text.
        """
        if not self.check([*runs, *label], "paragraph"):
            return
        width = self.column_width - indent
        lines = wrap([list(runs)], width, size)
        height = line_height(size)
        if self.room() < height * min(keep, len(lines)):
            self.next_column()
        first = True
        for line in lines:
            if self.room() < height - 1e-6:
                self.next_column()
            baseline = self.y + height * 0.78
            if first and label:
                draw_runs(self.sketch, self.x, baseline, label, size, INK)
            if bar:
                self.sketch.line(
                    self.x + 0.6, self.y, self.x + 0.6, self.y + height, stroke=bar, line_width=0.8
                )
            draw_runs(self.sketch, self.x + indent, baseline, line, size, INK)
            self.y += height
            first = False
        self.space(after)

    def heading(self, text: str, size: float = _H2, keep: float = 0.0) -> None:
        """A section heading in the column, kept with at least three lines after it.

        ``keep`` asks for more room after it (a figure's height): it goes to the next column
        rather than stand alone at the foot of this one.
        """
        runs = text_runs(text, bold=True, colour=ACCENT)
        if not self.check(runs, "heading"):
            return
        self.space(2.5)
        height = line_height(size) + 1.5
        if self.room() < height + max(3 * line_height(BODY_SIZE), keep):
            self.next_column()
        draw_runs(self.sketch, self.x, self.y + line_height(size) * 0.78, runs, size, INK)
        self.y += line_height(size)
        self.sketch.line(
            self.x,
            self.y + 0.3,
            self.x + self.column_width,
            self.y + 0.3,
            stroke=ACCENT,
            line_width=0.35,
        )
        self.y += 1.5

    def block(self, height: float, draw: Callable[[float, float, float], None]) -> None:
        """A figure of ``height`` mm across the column: ``draw(x, y, width)``."""
        if self.room() < height:
            self.next_column()
        self.sketch.mark("figure", self.x, self.y, self.column_width, height)
        draw(self.x, self.y, self.column_width)
        self.y += height
        self.space(2)

    def make_wide_room(self, height: float) -> None:
        """Go where a figure across both columns of ``height`` mm fits.

        That is on in the first column when it has the room, else a new page.
        """
        if self.columns > 1 and (self.column > 0 or self.room() < height):
            self.new_page()

    def wide_block(self, height: float, draw: Callable[[float, float, float], None]) -> None:
        """A figure of ``height`` mm across the whole text width (both columns).

        Placed below the first column's text so far; both columns go on below it. In the
        second column it starts a new page (see :meth:`make_wide_room`).
        """
        if self.columns == 1:
            self.block(height, draw)
            return
        self.make_wide_room(height)
        width = self.width - self.left - self.right
        self.sketch.mark("figure", self.left, self.y, width, height)
        draw(self.left, self.y, width)
        self.y = self.column_top = self.y + height + 3

    def chapter_page(self, title: str, *, share: bool = False) -> None:
        """Start a chapter under a coloured band.

        On a new page; with ``share``, below the text of the page so far when its first column
        is not yet half full.
        """
        self.chapter = title
        if not (share and self.column == 0 and self.room() > (self.floor - self.top) / 2):
            self.new_page()
        else:
            self.space(4)
        self.starts[title] = len(self.pages)
        self.banner(title, 15)

    def banner(self, title: str, size: float) -> None:
        """A band across the page at the top of the columns, then the columns below it."""
        runs = text_runs(title, bold=True, colour=WHITE)
        if not self.check(runs, "chapter"):
            return
        band = line_height(size) + 5
        self.sketch.rect(self.left, self.y, self.width - self.left - self.right, band, fill=ACCENT)
        draw_runs(
            self.sketch, self.left + 4, self.y + 2.5 + line_height(size) * 0.78, runs, size, INK
        )
        self.y = self.column_top = self.y + band + 5


def _side(number: int) -> Literal["front", "back"]:
    return "front" if number % 2 else "back"
