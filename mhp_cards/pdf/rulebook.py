"""The printed rulebook, ``mhp-rules.pdf``: every rule of ``rules.yaml``, set like a game's booklet.

The book opens with what is in the box (counted from the catalog) and what else a table needs,
then gives each level its own chapter: the setup as numbered steps with the counts this box
allows (computed by :mod:`mhp_cards.game.setups`, never typed in), a diagram where one helps,
and every rule and Ruling of the level with its ID, title and text in the project's words. The
house rules close the book. Pages have two columns on A4 and Letter, a running head and a page
number. :func:`setup_facts` are the computed counts, shared with the player aids.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Final, Literal

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import TypesetError
from mhp_cards.game.setups import removal_options
from mhp_cards.pdf.diagrams import (
    DrawFace,
    InstallationDiagram,
    draw_field,
    draw_installation,
    field_extent,
)
from mhp_cards.pdf.faces import Face, token_diameter
from mhp_cards.pdf.fonts import MM_PER_POINT
from mhp_cards.pdf.layout import SheetProfile, Templates
from mhp_cards.pdf.sketch import Mark, PageSketch, Sketch, Text
from mhp_cards.pdf.style import INK, LEVEL_TITLES, MARS, WHITE
from mhp_cards.pdf.typeset import LEADING, Run, check_glyphs, draw_runs, runs_width, text_runs, wrap
from mhp_cards.rules.numbers import (
    BANK_START_L2,
    COINS_PER_PLAYER_L2,
    DIE_SIDES,
    FATE_REMOVED,
    LEVELS,
    MIN_FIELD,
    PILES_L2,
    PLAYERS,
    TOKENS_PER_PLAYER,
    WAREHOUSE_SIZE,
    Lang,
    Level,
)
from mhp_cards.rules.rulebook import Rule, Rulebook, load_rulebook

__all__ = [
    "BODY_SIZE",
    "FieldSetup",
    "SetupFacts",
    "phase_title",
    "plan_rulebook",
    "setup_facts",
]

#: The body text size of the rulebook, in points.
BODY_SIZE: Final = 9.5
_SMALL: Final = 8.5
_H2: Final = 11.5
_ACCENT: Final = MARS
_RULING: Final = "#2E5E8C"
_GAP: Final = 7.0

# Fixed texts of the rulebook, in Russian and English. Counts come in as format fields.
_T: Final[dict[str, dict[Lang, str]]] = {
    "title": {"ru": "Правила игры", "en": "Rules of play"},
    "head": {"ru": "МАРСХИМПРОМ · Правила", "en": "MARSCHEMPROM · Rules"},
    "intro": {
        "ru": "МАРСХИМПРОМ — игра о химическом производстве на Марсе. Правила разбиты на уровни: "
        "начните с первого, а когда освоитесь, переходите к следующим. Каждое правило носит "
        "номер (например, L1.T4): по нему правило находят в этой книге, на памятках и в "
        "подсказках судьи программы. Синие абзацы — наши разъяснения спорных мест.",
        "en": "MARSCHEMPROM is a game of chemical industry on Mars. The rules come in levels: "
        "start with the first and move on once it feels easy. Every rule has a number (for "
        "example L1.T4) that finds it in this book, on the player aids and in the software "
        "referee's answers. Blue paragraphs are our rulings on points the rules leave open.",
    },
    "players": {"ru": "Игроков: от {low} до {high}.", "en": "Players: {low} to {high}."},
    "players_exactly": {"ru": "Игроков: {low}.", "en": "Players: {low}."},
    "legend": {"ru": "Как читать номера правил", "en": "How rule numbers read"},
    "legend_text": {
        "ru": "L1, L2, L3 — уровень, V1 — «один на один». Затем раздел: S — подготовка, T — ход, "
        "M — миссии, E — конец игры, P — очки, и номер правила. Номер с .R1, .R2 или с "
        "названием (L1.S1-range) — наше разъяснение к правилу.",
        "en": "L1, L2, L3 are the levels, V1 is head to head. Then the part: S setup, T turn, "
        "M missions, E end, P scoring, and the rule's number. A number ending in .R1, .R2 or "
        "a name (L1.S1-range) is our ruling on that rule.",
    },
    "page": {"ru": "с. {page}", "en": "p. {page}"},
    "components": {"ru": "Состав игры", "en": "Components"},
    "also_need": {"ru": "Понадобится ещё", "en": "You also need"},
    "die": {
        "ru": "Один шестигранный кубик (d{sides}) — для нападений на уровнях 1 и 3. "
        "Если кубика нет, склейте его из развёртки на листе фишек.",
        "en": "One six-sided die (d{sides}) for attacks at levels 1 and 3. If you have "
        "none, fold one from the net on the token sheet.",
    },
    "table": {
        "ru": "Стол, на котором поместится поле примерно {w} × {h} см.",
        "en": "A table that holds a field of about {w} × {h} cm.",
    },
    "levels": {"ru": "Уровни", "en": "Levels"},
    "setup": {"ru": "Подготовка", "en": "Setup"},
    "turn": {"ru": "Ход", "en": "The turn"},
    "end": {"ru": "Конец игры", "en": "End of the game"},
    "scoring": {"ru": "Подсчёт очков", "en": "Scoring"},
    "mission": {"ru": "Миссии", "en": "Missions"},
    "rules_of_level": {"ru": "Правила уровня", "en": "Rules of the level"},
    "house": {"ru": "Домашние правила", "en": "House rules"},
    "house_intro": {
        "ru": "Варианты, которые стол может включить до начала партии (в программе — "
        "--house-rule). Без них действуют правила и разъяснения этой книги.",
        "en": "Variants a table may switch on before the game (--house-rule in the software). "
        "Without them the rules and rulings of this book apply.",
    },
    "varies": {"ru": "изменяет {rule}", "en": "varies {rule}"},
    "replaces": {"ru": "вместо {rule}", "en": "instead of {rule}"},
    "default": {"ru": "действует по умолчанию", "en": "in force by default"},
    # Setup steps, counted for this box.
    "s_remove": {
        "ru": "Отложите от {low} до {high} карт Судьбы (в наборе {fate}): на поле останется от "
        "{field_low} до {field_high} карт.",
        "en": "Put aside {low} to {high} Fate cards (the box has {fate}): {field_low} to "
        "{field_high} cards stay for the field.",
    },
    "s_remove_one": {
        "ru": "Отложите {low_fate} (в наборе {fate}): на поле останется {field_low_cards}.",
        "en": "Put aside {low} Fate cards (the box has {fate}): {field_low} cards stay for the "
        "field.",
    },
    "s_remove_none": {
        "ru": "С этим набором карточек уровень не собрать: ни одно число от {low} до {high} не "
        "даёт поля из {min_field} карт и Склада нужного размера.",
        "en": "This box cannot set up the level: no number from {low} to {high} leaves a field "
        "of {min_field} cards and a Warehouse of the right size.",
    },
    "s_options": {
        "ru": "Отложено {removed}: поле {field}, Склад {warehouse}",
        "en": "{removed} put aside: field {field}, Warehouse {warehouse}",
    },
    "s_field": {
        "ru": "Перемешайте оставшиеся карты Судьбы и выложите поле рубашкой вверх; "
        "базу — примерно в центр (рисунок).",
        "en": "Shuffle the remaining Fate cards and lay the field face down, the Base roughly "
        "in the middle (see the picture).",
    },
    "s_raw": {
        "ru": "Перемешайте {raw_cards} сырья и положите по одной рубашкой вверх на каждую "
        "карту поля; остальные {warehouse} — Склад.",
        "en": "Shuffle the {raw} raw cards and put one face down on every field card; the "
        "{warehouse} left over are the Warehouse.",
    },
    "s_combines": {
        "ru": "Каждый игрок ставит комбайн своего цвета у базы (комбайнов {combines}).",
        "en": "Each player stands a combine of their colour by the Base ({combines} in the box).",
    },
    "s_bank": {
        "ru": "Все {coins} монет — Банк.",
        "en": "All {coins} coins are the Bank.",
    },
    "s_tokens": {
        "ru": "Каждому игроку — {tokens} фишек химиков своего цвета.",
        "en": "Each player takes {tokens} chemist tokens of their colour.",
    },
    "s_deal": {
        "ru": "Раздайте наугад по одной основной карте (с красным кружком) из {mains}: у кого "
        "карта, тот владеет установкой. Установки без владельца — общие.",
        "en": "Deal one of the {mains} main-part cards (red circle) at random to each player; "
        "the holder owns that installation. Installations nobody holds are shared.",
    },
    "s_shared": {
        "ru": "Общих установок: {table}.",
        "en": "Shared installations: {table}.",
    },
    "s_shared_row": {
        "ru": "{shared} при {n} игроках",
        "en": "{shared} with {n} players",
    },
    "s_assemble": {
        "ru": "Соберите установки из их карт (схема каждой установки — в конце набора). "
        "Электролизёров {electrolysers}, они одинаковые.",
        "en": "Assemble the installations from their cards (each has a guide page at the end "
        "of the kit). The {electrolysers} electrolysers are identical.",
    },
    "s_piles": {
        "ru": "Перемешайте {raw_cards} сырья и разложите в {piles} стопки лицом вверх.",
        "en": "Shuffle the {raw} raw cards into {piles} piles, face up.",
    },
    "s_piles_down": {
        "ru": "Перемешайте {raw_cards} сырья и разложите в {piles} стопки рубашкой вверх.",
        "en": "Shuffle the {raw} raw cards into {piles} piles, face down.",
    },
    "s_money": {
        "ru": "Каждому по {each} мР; в Банк — {bank} мР; остальные монеты — в коробку: {table}.",
        "en": "Each player gets {each} mR; the Bank gets {bank} mR; the other coins stay in the "
        "box: {table}.",
    },
    "s_money_row": {"ru": "при {n} игроках — {left}", "en": "{n} players — {left}"},
    "s_alone": {
        "ru": "Раздают только установки, которые работают на одном сырье: {numbers}.",
        "en": "Deal only installations that run from raw cards alone: {numbers}.",
    },
    "s_two": {"ru": "Играют двое.", "en": "For two players."},
    "s_l3_shared": {
        "ru": "Общие установки ставят на базу.",
        "en": "Shared installations stand at the Base.",
    },
    "fig_field": {
        "ru": "Поле из {cells} карт Судьбы с базой (синяя) в середине; на каждой карте — "
        "карточка сырья.",
        "en": "A field of {cells} Fate cards with the Base (blue) in the middle; a raw card lies "
        "on every one.",
    },
    "fig_installation": {
        "ru": "Собранная установка {number} «{name}»: ёмкости соединены трубопроводами, "
        "масштаб 1:{ratio}.",
        "en": "Installation {number} “{name}” assembled: pipes meet pipes; scale 1:{ratio}.",
    },
    "ruling": {"ru": "Разъяснение", "en": "Ruling"},
    "contents": {"ru": "Содержание", "en": "Contents"},
}

_SECTION_KEYS: Final = {
    "setup": "setup",
    "turn": "turn",
    "end": "end",
    "scoring": "scoring",
    "mission": "mission",
}


def phase_title(section: str, lang: Lang) -> str:
    """The heading of a part of the rules: setup, the turn, missions, the end, scoring."""
    return _tr(_SECTION_KEYS[section], lang)


def _tr(key: str, lang: Lang, **values: object) -> str:
    return _T[key][lang].format(**values)


def _ru_count(number: int, one: str, few: str, many: str) -> str:
    """``number`` with the Russian noun form it takes: 1 карта, 2 карты, 5 карт, 21 карта."""
    if number % 10 == 1 and number % 100 != 11:
        form = one
    elif 2 <= number % 10 <= 4 and not 12 <= number % 100 <= 14:
        form = few
    else:
        form = many
    return f"{number} {form}"


def _raw_cards(number: int) -> str:
    return _ru_count(number, "карточка", "карточки", "карточек")


# The counts of a setup, computed ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FieldSetup:
    """The field of level 1 or 3 for this box: each allowed removal with its field and Warehouse."""

    level: Level
    fate: int
    raw: int
    #: (removed Fate cards, field size, Warehouse size), for every removal the rules allow.
    options: tuple[tuple[int, int, int], ...]

    @property
    def removed(self) -> tuple[int, int] | None:
        """The fewest and most Fate cards to put aside, or None when no removal works."""
        return (self.options[0][0], self.options[-1][0]) if self.options else None

    @property
    def field(self) -> tuple[int, int] | None:
        """The smallest and largest field."""
        return (self.options[-1][1], self.options[0][1]) if self.options else None

    @property
    def warehouse(self) -> tuple[int, int] | None:
        """The smallest and largest Warehouse."""
        return (self.options[0][2], self.options[-1][2]) if self.options else None


@dataclass(frozen=True, slots=True)
class SetupFacts:
    """The counts the setups of every level need, computed from the catalog and the rules."""

    fields: dict[str, FieldSetup]
    raw: int
    fate: int
    coins: int
    combines: int
    mains: int
    electrolysers: int
    alone: tuple[int, ...]
    #: Coins left in the box at level 2 for each number of players.
    coins_left: dict[int, int] = field(default_factory=dict)


def setup_facts(catalog: Catalog) -> SetupFacts:
    """The setup counts of every level for ``catalog`` (the ranges of Ruling L1.S1-range)."""
    fate = catalog.components.fate_cards.count
    raw = catalog.raw_deck_size
    fields = {}
    for level in ("1", "3"):
        options = removal_options(fate, raw, WAREHOUSE_SIZE[level])
        fields[level] = FieldSetup(
            level, fate, raw, tuple((r, fate - r, raw - fate + r) for r in options)
        )
    coins = catalog.components.coins.count
    left = {
        n: coins - COINS_PER_PLAYER_L2 * n - BANK_START_L2
        for n in PLAYERS
        if coins >= COINS_PER_PLAYER_L2 * n + BANK_START_L2
    }
    return SetupFacts(
        fields=fields,
        raw=raw,
        fate=fate,
        coins=coins,
        combines=catalog.components.combines.count,
        mains=len(catalog.main_cards),
        electrolysers=len(catalog.electrolysers),
        alone=tuple(i.number for i in catalog.installations_running_alone),
        coins_left=left,
    )


def _range(values: tuple[int, int], lang: Lang) -> str:
    low, high = values
    return str(low) if low == high else f"{low}–{high}"


def removal_text(setup: FieldSetup, lang: Lang) -> str:
    """The setup step that says how many Fate cards to put aside, for this box."""
    if setup.removed is None or setup.field is None:
        return _tr(
            "s_remove_none", lang, low=FATE_REMOVED[0], high=FATE_REMOVED[1], min_field=MIN_FIELD
        )
    low, high = setup.removed
    key = "s_remove_one" if low == high else "s_remove"
    return _tr(
        key,
        lang,
        low=low,
        high=high,
        low_fate=_ru_count(low, "карту Судьбы", "карты Судьбы", "карт Судьбы"),
        fate=setup.fate,
        field_low=setup.field[0],
        field_high=setup.field[1],
        field_low_cards=_ru_count(setup.field[0], "карта", "карты", "карт"),
    )


# The flow of a two-column book -------------------------------------------------------------------


def _line_height(size: float) -> float:
    return size * MM_PER_POINT * LEADING


@dataclass(slots=True)
class _Book:
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
        usable = self.width - self.left - self.right
        return (usable - _GAP * (self.columns - 1)) / self.columns

    @property
    def x(self) -> float:
        return self.left + self.column * (self.column_width + _GAP)

    @property
    def floor(self) -> float:
        return self.height - self.bottom

    def new_page(self) -> None:
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
        head = text_runs(_tr("head", self.lang), colour="#6B6B6B")
        baseline = self.top - 7
        draw_runs(self.sketch, self.left, baseline, head, size, INK)
        if self.chapter:
            chapter = text_runs(self.chapter, bold=True, colour=_ACCENT)
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
        if self.column + 1 < self.columns:
            self.column += 1
            self.y = self.column_top
        else:
            self.new_page()

    def room(self) -> float:
        return self.floor - self.y

    def space(self, mm: float) -> None:
        if self.y > self.column_top + 1e-6:
            self.y = min(self.floor, self.y + mm)

    def check(self, runs: Sequence[Run], what: str) -> bool:
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
        height = _line_height(size)
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

    def heading(self, text: str, size: float = _H2) -> None:
        """A section heading in the column, kept with at least three lines after it."""
        runs = text_runs(text, bold=True, colour=_ACCENT)
        if not self.check(runs, "heading"):
            return
        self.space(2.5)
        height = _line_height(size) + 1.5
        if self.room() < height + 3 * _line_height(BODY_SIZE):
            self.next_column()
        draw_runs(self.sketch, self.x, self.y + _line_height(size) * 0.78, runs, size, INK)
        self.y += _line_height(size)
        self.sketch.line(
            self.x,
            self.y + 0.3,
            self.x + self.column_width,
            self.y + 0.3,
            stroke=_ACCENT,
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
        band = _line_height(size) + 5
        self.sketch.rect(self.left, self.y, self.width - self.left - self.right, band, fill=_ACCENT)
        draw_runs(
            self.sketch, self.left + 4, self.y + 2.5 + _line_height(size) * 0.78, runs, size, INK
        )
        self.y = self.column_top = self.y + band + 5


def _side(number: int) -> Literal["front", "back"]:
    return "front" if number % 2 else "back"


# The content --------------------------------------------------------------------------------------


def _rule_runs(rule: Rule, lang: Lang) -> list[Run]:
    colour = _RULING if rule.is_ruling else _ACCENT
    return [
        Run(f"{rule.id} ", bold=True, colour=colour),
        Run(f"{rule.title[lang]}. ", bold=True),
        *text_runs(rule.text[lang]),
    ]


def _step(book: _Book, number: int, text: str, rules: str) -> None:
    runs = [*text_runs(text), Run(f"  {rules}", colour="#7A7A7A", scale=0.85)]
    book.paragraph(runs, indent=5, label=[Run(f"{number}.", bold=True, colour=_ACCENT)], after=1.0)


def _setup_steps(facts: SetupFacts, level: Level, lang: Lang) -> list[tuple[str, str]]:
    """The numbered setup steps of a level, each with the rules it carries out."""
    steps: list[tuple[str, str]] = []
    if level in ("1", "3"):
        setup = facts.fields[level]
        first = "L1.S1, L1.S1-range" if level == "1" else "L3.S1, L1.S1-range"
        steps.append((removal_text(setup, lang), first))
        steps.append((_tr("s_field", lang), "L1.S2"))
        if setup.warehouse is not None:
            raw = _tr(
                "s_raw",
                lang,
                raw=facts.raw,
                raw_cards=_raw_cards(facts.raw),
                warehouse=_range(setup.warehouse, lang),
            )
            steps.append((raw, "L1.S3" if level == "1" else "L3.S2"))
        steps.append((_tr("s_combines", lang, combines=facts.combines), "L1.S4"))
        steps.append((_tr("s_bank", lang, coins=facts.coins), "L1.S5" if level == "1" else "L3.S4"))
    if level == "1v1":
        steps.append((_tr("s_two", lang), "V1.1"))
        steps.append((_tr("s_alone", lang, numbers=", ".join(map(str, facts.alone))), "V1.2"))
    if level in ("2", "3"):
        shared = ", ".join(
            _tr("s_shared_row", lang, n=n, shared=facts.mains - n)
            for n in PLAYERS
            if facts.mains >= n
        )
        deal = _tr("s_deal", lang, mains=facts.mains) + " " + _tr("s_shared", lang, table=shared)
        steps.append((deal, "L2.S1, L2.S2"))
    if level != "1":
        assemble = _tr("s_assemble", lang, electrolysers=facts.electrolysers)
        if level == "3":
            steps.append((assemble + " " + _tr("s_l3_shared", lang), "L2.S3–L2.S5, L3.S5"))
            steps.append((_tr("s_tokens", lang, tokens=TOKENS_PER_PLAYER), "L3.S5"))
        else:
            steps.append((assemble, "L2.S3–L2.S5"))
    raw_cards = _raw_cards(facts.raw)
    if level == "2":
        steps.append(
            (_tr("s_piles", lang, raw=facts.raw, raw_cards=raw_cards, piles=PILES_L2), "L2.S6")
        )
    if level == "1v1":
        steps.append(
            (
                _tr("s_piles_down", lang, raw=facts.raw, raw_cards=raw_cards, piles=PILES_L2),
                "V1.1",
            )
        )
    if level in ("2", "1v1"):
        players = [2] if level == "1v1" else list(PLAYERS)
        table = ", ".join(
            _tr("s_money_row", lang, n=n, left=facts.coins_left[n])
            for n in players
            if n in facts.coins_left
        )
        money = _tr("s_money", lang, each=COINS_PER_PLAYER_L2, bank=BANK_START_L2, table=table)
        steps.append((money + " " + _tr("s_tokens", lang, tokens=TOKENS_PER_PLAYER), "L2.S7"))
    return steps


def _components(book: _Book, catalog: Catalog, lang: Lang) -> None:
    components = catalog.components
    ru = lang == "ru"
    installations = catalog.installations
    reactor_cards = sum(len(i.cards) for i in installations)
    colours = len(components.colours)
    lines = [
        (
            f"{_raw_cards(catalog.raw_deck_size)} сырья ({len(catalog.raw_materials)} веществ)"
            if ru
            else f"{catalog.raw_deck_size} raw-material cards "
            f"({len(catalog.raw_materials)} substances)"
        ),
        _ru_count(components.fate_cards.count, "карта Судьбы", "карты Судьбы", "карт Судьбы")
        if ru
        else f"{components.fate_cards.count} Fate cards",
        "Карточки «База МАРСХИМПРОМА» и «Склад»"
        if ru
        else "The Base card and the Warehouse marker",
        (
            f"{_ru_count(reactor_cards, 'карта', 'карты', 'карт')} "
            f"{len(installations)} химических установок и "
            f"{len(catalog.electrolysers)} электролизёров"
            if ru
            else f"{reactor_cards} cards of {len(installations)} installations and "
            f"{len(catalog.electrolysers)} electrolysers"
        ),
        "Карта Миссий" if ru else "The Mission card",
        f"{components.coins.count} монет по 1 мР"
        if ru
        else f"{components.coins.count} coins of 1 mR",
        (
            f"{components.chemist_tokens.per_player * colours} фишек химиков "
            f"({components.chemist_tokens.per_player} × {colours} цветов)"
            if ru
            else f"{components.chemist_tokens.per_player * colours} chemist tokens "
            f"({components.chemist_tokens.per_player} × {colours} colours)"
        ),
        (
            f"{components.combines.count} комбайнов"
            if ru
            else f"{components.combines.count} combines"
        ),
        *(
            f"{u.count} × {u.name.get(lang)} ({u.price} {'мР' if ru else 'mR'})"
            for u in components.upgrades
        ),
        (f"{len(LEVELS)} памятки игрока" if ru else f"{len(LEVELS)} player aids"),
    ]
    book.heading(_tr("components", lang))
    for line in lines:
        book.paragraph(
            text_runs(line), indent=4, label=[Run("•", bold=True, colour=_ACCENT)], after=0.4
        )
    book.heading(_tr("also_need", lang))
    book.paragraph(
        text_runs(_tr("die", lang, sides=DIE_SIDES)),
        indent=4,
        label=[Run("•", bold=True, colour=_ACCENT)],
        after=0.4,
    )


def _chapter(
    book: _Book,
    rulebook: Rulebook,
    facts: SetupFacts,
    level: Level,
    lang: Lang,
    figure: Callable[[_Book], None] | None,
) -> None:
    book.chapter_page(LEVEL_TITLES[level][lang])
    players = (
        _tr("players_exactly", lang, low=2)
        if level == "1v1"
        else _tr("players", lang, low=PLAYERS.start, high=PLAYERS.stop - 1)
    )
    book.paragraph(text_runs(players, bold=True))
    book.heading(_tr("setup", lang))
    for number, (text, rules) in enumerate(_setup_steps(facts, level, lang), start=1):
        _step(book, number, text, rules)
    if level in ("1", "3"):
        setup = facts.fields[level]
        for removed, field_size, warehouse in setup.options:
            book.paragraph(
                text_runs(
                    _tr("s_options", lang, removed=removed, field=field_size, warehouse=warehouse)
                ),
                size=_SMALL,
                indent=5,
                after=0.2,
            )
        book.space(1.5)
    if figure is not None:
        figure(book)
    section = None
    for rule in rulebook.rules:
        if rule.level != level:
            continue
        if rule.section != section:
            section = rule.section
            book.heading(
                _tr(_SECTION_KEYS[section], lang)
                + (" · " + _tr("rules_of_level", lang) if section == "setup" else "")
            )
        if rule.is_ruling:
            book.paragraph(_rule_runs(rule, lang), size=_SMALL + 0.5, indent=3, bar=_RULING)
        else:
            book.paragraph(_rule_runs(rule, lang))


def _house_rules(book: _Book, rulebook: Rulebook, lang: Lang) -> None:
    book.chapter_page(_tr("house", lang), share=True)
    book.paragraph(text_runs(_tr("house_intro", lang)))
    for house in rulebook.house_rules:
        notes = []
        if house.ruling_for:
            notes.append(_tr("varies", lang, rule=house.ruling_for))
        if house.replaces:
            notes.append(_tr("replaces", lang, rule=house.replaces))
        if house.default:
            notes.append(_tr("default", lang))
        runs = [
            Run(f"{house.id} ", bold=True, colour=_ACCENT),
            Run(f"{house.title[lang]}. ", bold=True),
            *text_runs(house.text[lang]),
            Run(f" ({'; '.join(notes)})", colour="#6B6B6B"),
        ]
        book.paragraph(runs)


def plan_rulebook(
    catalog: Catalog,
    profile: SheetProfile,
    templates: Templates,
    lang: str = "ru",
    problems: list[TypesetError] | None = None,
) -> list[PageSketch]:
    """The rulebook's pages as sketches, an even number of them (the last may be blank).

    Typesetting problems are appended to ``problems`` (the kit reports them all together);
    without a list, the first one is raised.
    """
    code: Lang = "en" if lang == "en" else "ru"
    # Twice: the first pass finds the page of each chapter for the contents of the second.
    draft = _typeset(catalog, profile, templates, code, {}, [])
    found: list[TypesetError] = []
    book = _typeset(catalog, profile, templates, code, draft.starts, found)
    if problems is not None:
        problems.extend(found)
    elif found:
        raise found[0]
    # The figures draw real card faces, smaller: nobody plays on them, so they have no places.
    for page in book.pages:
        page.ops = [op for op in page.ops if not (isinstance(op, Mark) and op.kind == "place")]
    return book.pages


def _typeset(
    catalog: Catalog,
    profile: SheetProfile,
    templates: Templates,
    code: Lang,
    contents: dict[str, int],
    found: list[TypesetError],
) -> _Book:
    rulebook = load_rulebook()
    facts = setup_facts(catalog)
    width, height = profile.page.dimensions
    m = profile.margins
    book = _Book(
        Sketch(),
        width,
        height,
        code,
        found,
        left=max(14.0, m.left),
        right=max(14.0, m.right),
        top=max(20.0, m.top + 12),
        bottom=max(18.0, m.bottom + 10),
        columns=2 if width >= 170 else 1,
    )

    def draw_face(draw: Callable[[Face], None], sketch: Sketch, template: str, kind: str) -> None:
        face = Face(
            sketch,
            templates[template],
            profile.card_sizes[kind],
            code,
            0.0,
            token_diameter(profile),
        )
        try:
            draw(face)
        except TypesetError as problem:
            found.append(problem)

    _title_page(book, catalog, profile, facts, contents)
    figures: dict[Level, Callable[[_Book], None] | None] = {
        "1": _field_figure(facts.fields["1"], code),
        "2": partial(_installation_figure, catalog, profile, code, draw_face),
        "1v1": None,
        "3": _field_figure(facts.fields["3"], code),
    }
    for level in LEVELS:
        _chapter(book, rulebook, facts, level, code, figures[level])
    _house_rules(book, rulebook, code)
    if len(book.pages) % 2:
        book.sketch.new_page(width, height, f"rules-{(len(book.pages) + 1) // 2}", "back")
        book.pages.append(book.sketch.page)
    return book


def _title_page(
    book: _Book,
    catalog: Catalog,
    profile: SheetProfile,
    facts: SetupFacts,
    contents: dict[str, int],
) -> None:
    code = book.lang
    book.new_page()
    title = "МАРСХИМПРОМ" if code == "ru" else "MARSCHEMPROM"
    band = 34.0
    book.sketch.rect(book.left, book.y, book.width - book.left - book.right, band, fill=_ACCENT)
    for text, size, dy, bold in ((title, 26, 15, True), (_tr("title", code), 13, 26, False)):
        runs = text_runs(text, bold=bold, colour=WHITE)
        if book.check(runs, "title"):
            draw_runs(book.sketch, book.left + 6, book.y + dy, runs, size, INK)
    book.y = book.column_top = book.y + band + 6
    book.paragraph(text_runs(_tr("intro", code)))
    book.paragraph(
        text_runs(_tr("players", code, low=PLAYERS.start, high=PLAYERS.stop - 1)), after=0.5
    )
    largest = facts.fields["1"].field
    if largest is not None:
        columns, rows = field_extent(largest[1])
        cell_cm = profile.card_sizes["fate"].width / 10
        table = _tr("table", code, w=round(columns * cell_cm), h=round(rows * cell_cm))
        book.paragraph(text_runs(table))
    _components(book, catalog, code)
    book.next_column()
    book.heading(_tr("contents", code))
    chapters = [LEVEL_TITLES[level][code] for level in LEVELS] + [_tr("house", code)]
    for chapter in chapters:
        page = contents.get(chapter)
        folio = _tr("page", code, page=page) if page else ""
        book.paragraph(
            [*text_runs(chapter, bold=True), Run(f"  {folio}", colour="#6B6B6B")],
            indent=4,
            label=[Run("•", bold=True, colour=_ACCENT)],
            after=0.6,
        )
    book.heading(_tr("legend", code))
    book.paragraph(text_runs(_tr("legend_text", code)))


def _field_figure(setup: FieldSetup, code: Lang) -> Callable[[_Book], None] | None:
    """The field of a level at its smallest, with the Base, under the setup steps."""
    if setup.field is None:
        return None
    cells = setup.field[0]

    def figure(book: _Book) -> None:
        def draw(x: float, y: float, w: float) -> None:
            draw_field(book.sketch, x, y, w, 48, cells)

        book.block(50, draw)
        book.paragraph(text_runs(_tr("fig_field", code, cells=cells)), size=_SMALL, after=2)

    return figure


def _installation_figure(
    catalog: Catalog,
    profile: SheetProfile,
    code: Lang,
    draw_face: DrawFace,
    book: _Book,
) -> None:
    """An assembled installation (the first of the catalog), made of its card faces."""
    installation = catalog.installations[0]
    card = profile.card_sizes["reactor"].width
    shown: list[InstallationDiagram] = []

    def draw(x: float, y: float, w: float) -> None:
        diagram = draw_installation(
            book.sketch, catalog, installation.number, card, x, y, w, 70, draw_face
        )
        if diagram is not None:
            shown.append(diagram)

    book.block(72, draw)
    if shown:
        ratio = f"{1 / shown[0].scale:.2g}"
        if code == "ru":
            ratio = ratio.replace(".", ",")  # Russian writes the decimal comma: 1:2,3
        name = installation.name.get(code)
        caption = _tr("fig_installation", code, number=installation.number, name=name, ratio=ratio)
        book.paragraph(text_runs(caption), size=_SMALL, after=2)


def font_sizes(pages: Sequence[PageSketch]) -> set[float]:
    """Every text size used on the pages, in points (for tests and checks)."""
    return {op.size for page in pages for op in page.ops if isinstance(op, Text)}
