"""The kit's cover sheet: how to print it on what paper (front), and a checklist to cut (back).

The front tells a newcomer how to print (scale, duplex, calibration first), which paper each
section wants and in how many sheets, and which sleeves fit the cards of this layout; the back
lists every piece to cut with a check box and its count, section by section, with the totals.
Every text is at least :data:`COVER_MIN_SIZE` points; the counts come from the planned kit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from mhp_cards.errors import TypesetError
from mhp_cards.pdf.layout import Region, SheetProfile
from mhp_cards.pdf.sketch import PageSketch, Sketch
from mhp_cards.pdf.style import INK, MARS, SECTION_TITLES, STRIPE, WHITE, t
from mhp_cards.pdf.typeset import Run, fit_lines, formula_runs, place_line, text_runs

__all__ = ["COVER_MIN_SIZE", "CoverSection", "plan_cover"]

#: The smallest text on the cover, in points (subscripts of formulas are two thirds of it).
COVER_MIN_SIZE: Final = 8.0

#: Sections printed on card stock (cut and handled at the table), by their paper key.
_PAPER: Final = {
    "cover": "office",
    "rules": "office",
    "calibration": "office",
    "cutting": "office",
    "raw": "card",
    "fate": "card",
    "field": "card",
    "reactors": "card",
    "mission": "card",
    "tokens": "heavy",
    "aids": "card",
    "guides": "office",
}

_T: Final[dict[str, dict[str, str]]] = {
    "how": {"ru": "Как печатать", "en": "How to print"},
    "steps": {
        "ru": "1. Печатайте в масштабе 100 % («фактический размер»), с двух сторон, с "
        "переворотом по длинному краю.|2. Сначала напечатайте лист калибровки на той бумаге, "
        "на которой будете печатать карты, и, если лицо и оборот разошлись, соберите набор "
        "снова с --back-offset X,Y (прочитанное на его обороте).|3. Режьте по серым линиям "
        "и меткам на полях: ножом по линейке "
        "ровнее, чем ножницами. Жетоны удобно вырубать круглым дыроколом.|4. Правила и "
        "схемы сборки не режут: их можно печатать на обычной бумаге.",
        "en": "1. Print at 100 % (“actual size”), double-sided, flipping on the long edge.|"
        "2. Print the calibration sheet first, on the paper you will use for the cards; if "
        "front and back do not meet, build the kit again with --back-offset X,Y (read on its "
        "back).|3. Cut along the "
        "grey lines and the marks in the margins: a knife and a ruler cut straighter than "
        "scissors. A circle punch makes quick work of the tokens.|4. The rules and the "
        "assembly guides are not cut: plain paper will do for them.",
    },
    "paper": {"ru": "Бумага", "en": "Paper"},
    "office": {"ru": "офисная 80–120 г/м²", "en": "office paper, 80–120 g/m²"},
    "card": {"ru": "картон 250–300 г/м²", "en": "card stock, 250–300 g/m²"},
    "heavy": {"ru": "картон 300 г/м² и толще", "en": "card stock, 300 g/m² or heavier"},
    "table_head": {
        "ru": "Раздел|страницы|листов|бумага|штук",
        "en": "Section|pages|sheets|paper|pieces",
    },
    "total": {"ru": "Всего", "en": "Total"},
    "sleeves": {"ru": "Протекторы", "en": "Sleeves"},
    "sleeves_text": {
        "ru": "Карты этого макета: {sizes}. Протектор берите на 2–4 мм больше карты по каждой "
        "стороне; карты установок в протекторах не кладите — их трубопроводы должны сходиться "
        "встык. Памятки и карту Миссий можно заламинировать.",
        "en": "Cards of this layout: {sizes}. Pick sleeves 2–4 mm larger than the card each "
        "way; keep the installation cards unsleeved, their pipes must meet edge to edge. The "
        "aids and the Mission card can be laminated.",
    },
    "size_of": {"ru": "{what} {w} × {h} мм", "en": "{what} {w} × {h} mm"},
    "kinds": {
        "ru": "сырьё и карты Судьбы|установки|памятки|карта Миссий",
        "en": "raw and Fate cards|installations|aids|Mission card",
    },
    "also": {
        "ru": "Кроме того, нужен один шестигранный кубик — или склейте его из развёртки на листе "
        "фишек (на картоне, клапаны внутрь).",
        "en": "You also need one six-sided die, or fold one from the net on the token sheet "
        "(on card stock, flaps inside).",
    },
    "checklist": {"ru": "Состав набора: отметьте вырезанное", "en": "Contents: tick what you cut"},
    "checklist_head": {
        "ru": "что вырезать|страницы в mhp-kit.pdf|штук",
        "en": "what to cut|pages in mhp-kit.pdf|count",
    },
    "total_line": {
        "ru": "Всего вырезать: {pieces} шт. Страниц: {pages}, листов: {sheets}.",
        "en": "In all: {pieces} cards and tokens to cut; {pages} pages on {sheets} sheets.",
    },
    "start": {"ru": "С чего начать", "en": "Where to start"},
    "start_text": {
        "ru": "Правила игры — на страницах {pages} этого файла и отдельным файлом "
        "mhp-rules.pdf: напечатайте их первыми и начните с уровня 1. На обороте этого листа — "
        "всё, что нужно вырезать, с окошками для отметок.",
        "en": "The rules are on pages {pages} of this file and in mhp-rules.pdf on their own: "
        "print them first and start with level 1. The back of this sheet lists everything to "
        "cut, with boxes to tick.",
    },
    "start_no_rules": {
        "ru": "На обороте этого листа — всё, что нужно вырезать, с окошками для отметок.",
        "en": "The back of this sheet lists everything to cut, with boxes to tick.",
    },
}


def _tr(key: str, lang: str) -> str:
    return _T[key]["en" if lang == "en" else "ru"]


@dataclass(frozen=True, slots=True)
class CoverSection:
    """What the cover needs of a section: its pages in the kit and what to cut from it."""

    name: str
    pages: int
    """Pages in ``mhp-kit.pdf``, blank backs included."""
    first_page: int
    pieces: int
    contents: tuple[tuple[str, str | None, int], ...]


def _region(
    x: float,
    y: float,
    width: float,
    height: float,
    size: float,
    align: Literal["left", "center", "right"] = "left",
) -> Region:
    return Region.text_block(x, y, width, height, size, min_size=COVER_MIN_SIZE, align=align)


@dataclass(slots=True)
class _Cover:
    sketch: Sketch
    lang: str
    problems: list[TypesetError]

    def line(self, runs: Sequence[Run], region: Region, colour: str = INK) -> None:
        if any(run.text for run in runs):
            try:
                place_line(self.sketch, runs, region, "cover", "cover", colour)
            except TypesetError as problem:
                self.problems.append(problem)

    def lines(self, paragraphs: Sequence[Sequence[Run]], region: Region) -> None:
        try:
            fit_lines(self.sketch, paragraphs, region, "cover", "cover", INK)
        except TypesetError as problem:
            self.problems.append(problem)

    def heading(self, text: str, x: float, y: float, width: float) -> None:
        self.line(text_runs(text, bold=True, colour=MARS), _region(x, y, width, 6, 12))
        self.sketch.line(x, y + 5.6, x + width, y + 5.6, stroke=MARS, line_width=0.35)


def _sheets(section: CoverSection) -> int:
    return (section.pages + 1) // 2


def _page_range(section: CoverSection) -> str:
    last = section.first_page + section.pages - 1
    return f"{section.first_page}–{last}" if section.pages > 1 else f"{section.first_page}"


def _is_cut(section: CoverSection) -> bool:
    """Cards and tokens are cut out; the cover, rules, calibration and guides are read."""
    return _PAPER.get(section.name, "card") != "office"


def _cut_pieces(sections: Sequence[CoverSection]) -> int:
    return sum(section.pieces for section in sections if _is_cut(section))


def plan_cover(
    sections: Sequence[CoverSection],
    profile: SheetProfile,
    lang: str,
    problems: list[TypesetError],
) -> list[PageSketch]:
    """The cover's two pages: how to print and on what paper, then the checklist to cut."""
    width, height = profile.page.dimensions
    m = profile.margins
    left, usable = max(m.left, 12.0), width - max(m.left, 12.0) - max(m.right, 12.0)
    sketch = Sketch()
    cover = _Cover(sketch, lang, problems)
    front = sketch.new_page(width, height, "cover", "front")
    sketch.rect(0, 0, width, 46, fill=MARS)
    cover.line(
        text_runs(t("company", lang), bold=True), _region(left, 12, usable, 16, 30, "center"), WHITE
    )
    cover.line(
        text_runs(t("kit_subtitle", lang)), _region(left, 30, usable, 9, 12, "center"), "#FBE3D0"
    )
    y = 54.0
    cover.heading(_tr("how", lang), left, y, usable)
    steps = [text_runs(step) for step in _tr("steps", lang).split("|")]
    cover.lines(
        steps, _region(left, y + 8, usable, 34, 10).model_copy(update={"paragraph_gap": 0.3})
    )
    y += 44
    cover.heading(_tr("paper", lang), left, y, usable)
    y += 9
    y = _paper_table(cover, sections, left, y, usable)
    y += 6
    cover.heading(_tr("sleeves", lang), left, y, usable)
    kinds = _tr("kinds", lang).split("|")
    sizes = ", ".join(
        _T["size_of"]["en" if lang == "en" else "ru"].format(
            what=what,
            w=f"{profile.card_sizes[kind].width:g}",
            h=f"{profile.card_sizes[kind].height:g}",
        )
        for what, kind in zip(kinds, ("raw", "reactor", "aid", "mission"), strict=True)
    )
    text = _tr("sleeves_text", lang).format(sizes=sizes)
    rules = [section for section in sections if section.name == "rules"]
    start = (
        _tr("start_text", lang).format(pages=_page_range(rules[0]))
        if rules
        else _tr("start_no_rules", lang)
    )
    cover.lines(
        [text_runs(text), text_runs(_tr("also", lang)), text_runs(start, bold=True)],
        _region(left, y + 8, usable, height - m.bottom - y - 8, 10).model_copy(
            update={"paragraph_gap": 0.4}
        ),
    )
    back = sketch.new_page(width, height, "cover", "back")
    _checklist(cover, sections, left, usable, height - max(m.bottom, 10.0))
    return [front, back]


def _paper_table(
    cover: _Cover, sections: Sequence[CoverSection], left: float, y: float, usable: float
) -> float:
    """Section, pages, sheets, paper and pieces, one row each, with a totals row."""
    lang = cover.lang
    size, row = 9.0, 4.6
    columns = (  # x offset, width, alignment
        (1.0, usable * 0.42, "left"),
        (usable * 0.43, usable * 0.12, "right"),
        (usable * 0.56, usable * 0.09, "right"),
        (usable * 0.68, usable * 0.22, "left"),
        (usable * 0.9, usable * 0.095, "right"),
    )
    head = _tr("table_head", lang).split("|")
    rows: list[tuple[list[str], bool]] = [(head, True)]
    for section in sections:
        rows.append(
            (
                [
                    SECTION_TITLES[section.name]["en" if lang == "en" else "ru"],
                    _page_range(section),
                    str(_sheets(section)),
                    _tr(_PAPER.get(section.name, "card"), lang),
                    str(section.pieces) if _is_cut(section) else "—",
                ],
                False,
            )
        )
    total_pages = sum(s.pages for s in sections)
    rows.append(
        (
            [
                _tr("total", lang),
                str(total_pages),
                str(sum(_sheets(s) for s in sections)),
                "",
                str(_cut_pieces(sections)),
            ],
            True,
        )
    )
    for index, (cells, bold) in enumerate(rows):
        if index % 2 == 1:
            cover.sketch.rect(left, y - 0.3, usable, row, fill=STRIPE)
        if index == len(rows) - 1:
            cover.sketch.line(left, y - 0.3, left + usable, y - 0.3, stroke=INK, line_width=0.3)
        for text, (dx, cell_w, align) in zip(cells, columns, strict=True):
            cover.line(
                text_runs(text, bold=bold),
                _region(left + dx, y + 0.2, cell_w, row, size, align),  # type: ignore[arg-type]
            )
        y += row
    return y


def _checklist(
    cover: _Cover, sections: Sequence[CoverSection], left: float, usable: float, floor: float
) -> None:
    """Every piece to cut with a check box, in two columns, section by section."""
    lang = cover.lang
    sketch = cover.sketch
    top = 14.0
    cover.heading(_tr("checklist", lang), left, top, usable)
    size, row = 8.5, 4.15
    gap = 6.0
    column_w = (usable - gap) / 2
    entries: list[tuple[str, CoverSection | None, tuple[str, str | None, int] | None]] = []
    for section in sections:
        if section.name == "cover":
            continue
        entries.append(("section", section, None))
        entries += [("item", None, item) for item in section.contents]
    start = top + 10
    per_column = int((floor - 10 - start) // row)
    # Break between the columns at a section where one is near the middle.
    half = -(-len(entries) // 2)
    breaks = [i for i, (kind, _, _) in enumerate(entries) if kind == "section"]
    split = min(breaks, key=lambda i: abs(i - half)) if breaks else half
    if split > per_column or len(entries) - split > per_column:
        split = min(half, per_column)
    head = _tr("checklist_head", lang).split("|")
    for column, chunk in enumerate((entries[:split], entries[split:])):
        x = left + column * (column_w + gap)
        y = start
        cover.line(text_runs(head[0], bold=True), _region(x + 6, y, column_w - 36, row, size))
        cover.line(
            text_runs(head[2], bold=True), _region(x + column_w - 12, y, 12, row, size, "right")
        )
        y += row + 0.6
        for kind, part, item in chunk:
            if kind == "section" and part is not None:
                sketch.rect(x, y - 0.3, column_w, row, fill=STRIPE)
                title = SECTION_TITLES[part.name]["en" if lang == "en" else "ru"]
                cover.line(
                    text_runs(title, bold=True), _region(x + 1, y + 0.2, column_w - 22, row, size)
                )
                cover.line(
                    text_runs(_page_range(part), bold=True),
                    _region(x + column_w - 21, y + 0.2, 20, row, size, "right"),
                )
            elif item is not None:
                what, formula, count = item
                box = row * 0.62
                sketch.rect(
                    x + 1.2, y + (row - box) / 2 - 0.2, box, box, stroke=INK, line_width=0.25
                )
                runs = text_runs(what)
                if formula:
                    runs += [Run(" ("), *formula_runs(formula), Run(")")]
                cover.line(runs, _region(x + 6, y + 0.2, column_w - 20, row, size))
                cover.line(
                    text_runs(f"×{count}"),
                    _region(x + column_w - 13, y + 0.2, 12, row, size, "right"),
                )
            y += row
    total = _tr("total_line", lang).format(
        pieces=_cut_pieces(sections),
        pages=sum(s.pages for s in sections),
        sheets=sum(_sheets(s) for s in sections),
    )
    cover.line(text_runs(total, bold=True), _region(left, floor - 6, usable, 6, 10))
