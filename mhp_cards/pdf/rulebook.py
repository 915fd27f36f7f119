"""The printed rulebook, ``mhp-rules.pdf``: a book that teaches the game to players.

The book opens with what is in the box (counted from the catalog), a one-page quick start for
level 1 and the anatomy of the cards (real faces with numbered callouts). Each level then has
its chapter: the goal in two sentences, the setup as numbered steps with the counts this box
allows (computed by :mod:`mhp_cards.game.setups`, never typed in), a picture of the table from
a real deal, the worked examples of :mod:`mhp_cards.pdf.examples` (positions of seeded games,
drawn with the kit's faces and checked by the referee as the book is built), and the rules in
the words players read: each rule with its default Rulings merged in (``book`` texts of
``rules.yaml``), its ID small beside it. The house rules follow by their player-facing names,
then a glossary and an index of rule IDs with their pages. :func:`setup_facts` are the computed
counts, shared with the player aids.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final

from mhp_cards.catalog.cardid import english_card_id
from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import TypesetError
from mhp_cards.pdf.book_anatomy import anatomy
from mhp_cards.pdf.book_examples import HEROES, ExampleContext, example_figure, set_example
from mhp_cards.pdf.book_setup import (
    FieldSetup,
    SetupFacts,
    count_range,
    ru_count,
    ru_raw_cards,
    setup_facts,
    setup_steps,
)
from mhp_cards.pdf.book_table import setup_picture
from mhp_cards.pdf.book_texts import GLOSSARY, tr
from mhp_cards.pdf.bookflow import ACCENT, BODY_SIZE, CAPTION_SIZE, Book
from mhp_cards.pdf.diagrams import DrawFace, field_extent
from mhp_cards.pdf.examples import Example, find_examples
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.layout import SheetProfile, Templates
from mhp_cards.pdf.places import token_diameter
from mhp_cards.pdf.sketch import Mark, PageSketch, Sketch, Text
from mhp_cards.pdf.style import INK, LEVEL_TITLES, MUTED, WHITE
from mhp_cards.pdf.typeset import Run, draw_runs, text_runs
from mhp_cards.rules.numbers import (
    DIE_SIDES,
    LEVELS,
    PLAYERS,
    Lang,
    Level,
)
from mhp_cards.rules.rulebook import HouseRule, Rule, Rulebook, load_rulebook

__all__ = [
    "BODY_SIZE",
    "FieldSetup",
    "SetupFacts",
    "phase_title",
    "plan_rulebook",
    "player_facing",
    "setup_facts",
]

_RULING: Final = "#2E5E8C"
#: Where each worked example is set: after the setup of its level.
_EXAMPLES_OF: Final[dict[Level, tuple[str, ...]]] = {
    "1": ("l1-turn", "l1-mission", "fight"),
    "2": ("l2-reaction", "trade"),
    "1v1": (),
    "3": ("l3-base",),
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
    return tr(_SECTION_KEYS[section], lang)


# The counts of a setup, computed ------------------------------------------------------------------


# Player-facing words ----------------------------------------------------------------------------


def player_facing(text: str, rulebook: Rulebook, lang: Lang) -> str:
    """``text`` with every house rule named as players call it (its title), not by its switch.

    The Russian book prints no Latin switch names: «armour-sum» becomes «Сумма бросков с
    бронёй».
    """
    quote = ("«", "»") if lang == "ru" else ("“", "”")
    for house in sorted(rulebook.house_rules, key=lambda h: -len(h.id)):
        name = f"{quote[0]}{_house_title(house, lang)}{quote[1]}"
        for written in (f"«{house.id}»", f"“{house.id}”", f'"{house.id}"', house.id):
            text = text.replace(written, name)
    if lang == "en":  # card IDs as the English cards print them: 4В is 4C
        text = _CARD_ID.sub(lambda found: english_card_id(found.group(0)), text)
    return text


_CARD_ID: Final = re.compile(r"\b[1-9][0-9]?[А-Я]\b")


def _house_title(house: HouseRule, lang: Lang) -> str:
    return house.title[lang].replace(" (по умолчанию)", "").replace(" (default)", "")


# The content -------------------------------------------------------------------------------------


def _ids(ids: Sequence[str]) -> Run:
    """Rule IDs, small and grey at the end of a paragraph, for the companion's citations."""
    return Run("  " + " · ".join(ids), colour="#8A8A8A", scale=0.78)


def _step(book: Book, number: int, text: str, rules: str) -> None:
    runs = [*text_runs(text), _ids(rules.split(", "))]
    book.paragraph(runs, indent=5, label=[Run(f"{number}.", bold=True, colour=ACCENT)], after=1.0)


def _bullet(book: Book, runs: Sequence[Run], size: float = BODY_SIZE) -> None:
    book.paragraph(runs, size=size, indent=4, label=[Run("•", bold=True, colour=ACCENT)], after=0.5)


def _components(book: Book, catalog: Catalog, lang: Lang) -> None:
    components = catalog.components
    ru = lang == "ru"
    installations = catalog.installations
    reactor_cards = sum(len(i.cards) for i in installations)
    colours = len(components.colours)
    lines = [
        (
            f"{ru_raw_cards(catalog.raw_deck_size)} сырья ({len(catalog.raw_materials)} веществ)"
            if ru
            else f"{catalog.raw_deck_size} raw-material cards "
            f"({len(catalog.raw_materials)} substances)"
        ),
        ru_count(components.fate_cards.count, "карта Судьбы", "карты Судьбы", "карт Судьбы")
        + " (поле)"
        if ru
        else f"{components.fate_cards.count} Fate cards (the field)",
        "Карточки «База МАРСХИМПРОМА» и «Склад»"
        if ru
        else "The Base card and the Warehouse marker",
        (
            f"{ru_count(reactor_cards, 'карта', 'карты', 'карт')} "
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
        f"{components.combines.count} комбайнов" if ru else f"{components.combines.count} combines",
        *(
            f"{u.count} × {u.name.get(lang)} ({u.price} {'мР' if ru else 'mR'})"
            for u in components.upgrades
        ),
        (
            f"{colours} памяток игрока (по одной на игрока)"
            if ru
            else f"{colours} player aids (one per player)"
        ),
    ]
    book.heading(tr("components", lang))
    for line in lines:
        _bullet(book, text_runs(line))
    book.heading(tr("also_need", lang))
    _bullet(book, text_runs(tr("die", lang, sides=DIE_SIDES)))


def _rule_paragraph(book: Book, rule: Rule, merged: Sequence[str], rulebook: Rulebook) -> None:
    """A rule as players read it: its title, its book text, its IDs small at the end."""
    lang = book.lang
    text = player_facing(rule.book_text(lang), rulebook, lang)
    runs = [Run(f"{rule.title[lang]}. ", bold=True), *text_runs(text), _ids([rule.id, *merged])]
    if rule.is_ruling:
        book.paragraph(runs, size=CAPTION_SIZE + 0.5, indent=3, bar=_RULING)
    else:
        book.paragraph(runs)


def _rules_of(book: Book, rulebook: Rulebook, level: Level, index: dict[str, int]) -> None:
    merged: dict[str, list[str]] = {}
    for rule in rulebook.rules:
        if rule.merged and rule.ruling_for is not None:
            merged.setdefault(rule.ruling_for, []).append(rule.id)
    section = None
    for rule in rulebook.rules:
        if rule.level != level or rule.merged:
            continue
        if rule.section != section:
            section = rule.section
            book.heading(
                tr(_SECTION_KEYS[section], book.lang)
                + (" · " + tr("rules_of_level", book.lang) if section == "setup" else "")
            )
        _rule_paragraph(book, rule, merged.get(rule.id, []), rulebook)
        for rule_id in (rule.id, *merged.get(rule.id, [])):
            index[rule_id] = len(book.pages)


def _chapter(
    book: Book,
    catalog: Catalog,
    profile: SheetProfile,
    rulebook: Rulebook,
    facts: SetupFacts,
    level: Level,
    examples: dict[str, Example],
    draw_face: DrawFace,
    index: dict[str, int],
) -> None:
    lang = book.lang
    book.chapter_page(LEVEL_TITLES[level][lang])
    context = ExampleContext(book, catalog, profile, draw_face, lang)
    hero = examples.get(HEROES.get(level, ""))
    if hero is not None:
        example_figure(context, hero)
    players = (
        tr("players_exactly", lang, low=2)
        if level == "1v1"
        else tr("players", lang, low=PLAYERS.start, high=PLAYERS.stop - 1)
    )
    book.paragraph(text_runs(players, bold=True))
    book.heading(tr("goal", lang))
    book.paragraph(text_runs(tr(f"goal_{level}", lang)))
    book.heading(tr("setup", lang))
    for number, (text, rules) in enumerate(setup_steps(facts, level, lang), start=1):
        _step(book, number, text, rules)
    if level in ("1", "3"):
        setup = facts.fields[level]
        for removed, field_size, warehouse in setup.options:
            book.paragraph(
                text_runs(
                    tr("s_options", lang, removed=removed, field=field_size, warehouse=warehouse)
                ),
                size=CAPTION_SIZE,
                indent=5,
                after=0.2,
            )
        book.space(1.5)
    setup_picture(book, catalog, profile, level, draw_face)
    if level == "2":
        book.heading(tr("how_runs", lang))
        for paragraph in tr("how_runs_text", lang).split("|"):
            book.paragraph(text_runs(paragraph))
        book.paragraph([_ids(["L2.T4", "L2.T4-portion", "L2.T4-transit", "L2.M1"])], after=1)
    for key in _EXAMPLES_OF[level]:
        if key in examples:
            set_example(context, examples[key])
    _rules_of(book, rulebook, level, index)


def _house_rules(book: Book, rulebook: Rulebook, index: dict[str, int]) -> None:
    lang = book.lang
    book.chapter_page(tr("house", lang), share=True)
    book.paragraph(text_runs(tr("house_intro", lang)))
    for house in rulebook.house_rules:
        if house.default:
            continue  # the book's own rule, not a variant
        replaced = house.replaces
        instead = ""
        if replaced is not None and replaced in rulebook:
            try:
                target = rulebook.rule(replaced)
                title = target.title[lang]
                if target.merged and target.ruling_for is not None:
                    title = rulebook.rule(target.ruling_for).title[lang]
            except KeyError:
                title = _house_title(rulebook.house_rule(replaced), lang)
            instead = tr("house_instead", lang, rule=title)
        runs = [
            Run(f"{_house_title(house, lang)}. ", bold=True, colour=ACCENT),
            *text_runs(player_facing(house.text[lang], rulebook, lang)),
            Run(f" ({instead})", colour=MUTED) if instead else Run(""),
        ]
        if lang == "en":
            runs.append(_ids([house.id]))
        book.paragraph(runs)
        index[house.id] = len(book.pages)


def _glossary(book: Book) -> None:
    lang = book.lang
    book.chapter_page(tr("glossary", lang), share=True)
    book.starts["glossary"] = len(book.pages)
    terms = sorted(GLOSSARY, key=lambda item: item[0][lang].casefold())
    for term, meaning in terms:
        book.paragraph(
            [Run(f"{term[lang]} — ", bold=True), *text_runs(meaning[lang])], size=9.0, after=0.8
        )


def _index(book: Book, index: dict[str, int], rulebook: Rulebook) -> None:
    lang = book.lang
    book.heading(tr("index", lang))
    order = [rule.id for rule in rulebook.rules] + [
        h.id for h in rulebook.house_rules if h.id in index and lang == "en"
    ]
    entries = [f"{rule_id} {index[rule_id]}" for rule_id in order if rule_id in index]
    book.paragraph(text_runs(" · ".join(entries)), size=7.5, after=1)


def _quick_start(
    book: Book,
    catalog: Catalog,
    profile: SheetProfile,
    facts: SetupFacts,
    starts: dict[str, int],
    draw_face: DrawFace,
) -> None:
    lang = book.lang
    book.chapter_page(tr("quick", lang))
    book.starts["quick"] = len(book.pages)
    book.paragraph(text_runs(tr("quick_sub", lang), bold=True))
    setup = facts.fields["1"]
    removed = count_range(setup.removed, lang) if setup.removed else "8–12"
    warehouse = count_range(setup.warehouse, lang) if setup.warehouse else "4–8"
    parts = [
        ("q_goal", [tr("goal_1", lang)]),
        (
            "q_setup",
            [
                tr("q_setup_1", lang, removed=removed),
                tr("q_setup_2", lang, warehouse=warehouse),
                tr("q_setup_3", lang, coins=facts.coins),
            ],
        ),
        ("q_turn", [tr("q_turn_1", lang), tr("q_turn_2", lang), tr("q_turn_3", lang)]),
        ("q_win", [tr("q_win_1", lang), tr("q_win_2", lang)]),
        (
            "q_next",
            [
                tr(
                    "q_next_1",
                    lang,
                    l2=starts.get(LEVEL_TITLES["2"][lang], "?"),
                    l3=starts.get(LEVEL_TITLES["3"][lang], "?"),
                    anatomy=starts.get("anatomy", "?"),
                    glossary=starts.get("glossary", "?"),
                )
            ],
        ),
    ]
    for key, paragraphs in parts:
        if key == "q_win" and book.columns > 1:
            book.next_column()
        book.heading(tr(key, lang))
        for number, text in enumerate(paragraphs, start=1):
            if len(paragraphs) > 1:
                label = [Run(f"{number}.", bold=True, colour=ACCENT)]
                book.paragraph(text_runs(text), indent=5, label=label, after=1.0)
            else:
                book.paragraph(text_runs(text))
    setup_picture(book, catalog, profile, "1", draw_face)


def plan_rulebook(
    catalog: Catalog,
    profile: SheetProfile,
    templates: Templates,
    lang: str = "ru",
    problems: list[TypesetError] | None = None,
) -> list[PageSketch]:
    """The rulebook's pages as sketches, an even number of them (the last may be blank).

    Typesetting problems, and worked examples the referee rules otherwise than the book says,
    are appended to ``problems`` (the kit reports them all together); without a list, the first
    one is raised.
    """
    code: Lang = "en" if lang == "en" else "ru"
    examples, example_problems = find_examples(catalog)
    # Twice: the first pass finds the page of each chapter for the contents of the second.
    draft = _typeset(catalog, profile, templates, code, {}, [], examples)
    found: list[TypesetError] = list(example_problems)
    book = _typeset(catalog, profile, templates, code, draft.starts, found, examples)
    if problems is not None:
        problems.extend(found)
    elif found:
        raise found[0]
    # The figures draw real card faces, smaller: nobody plays on them, so they have no places.
    for page in book.pages:
        page.ops = [
            op for op in page.ops if not (isinstance(op, Mark) and op.kind in ("place", "input"))
        ]
    return book.pages


def _typeset(
    catalog: Catalog,
    profile: SheetProfile,
    templates: Templates,
    code: Lang,
    contents: dict[str, int],
    found: list[TypesetError],
    examples: dict[str, Example],
) -> Book:
    rulebook = load_rulebook()
    facts = setup_facts(catalog)
    width, height = profile.page.dimensions
    m = profile.margins
    book = Book(
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

    index: dict[str, int] = {}
    _title_page(book, catalog, profile, facts, contents)
    _quick_start(book, catalog, profile, facts, contents, draw_face)
    anatomy(book, catalog, profile, templates, draw_face, examples)
    for level in LEVELS:
        _chapter(book, catalog, profile, rulebook, facts, level, examples, draw_face, index)
    _house_rules(book, rulebook, index)
    _glossary(book)
    _index(book, index, rulebook)
    if len(book.pages) % 2:
        book.sketch.new_page(width, height, f"rules-{(len(book.pages) + 1) // 2}", "back")
        book.pages.append(book.sketch.page)
    return book


def _title_page(
    book: Book,
    catalog: Catalog,
    profile: SheetProfile,
    facts: SetupFacts,
    contents: dict[str, int],
) -> None:
    code = book.lang
    book.new_page()
    title = "МАРСХИМПРОМ" if code == "ru" else "MARSCHEMPROM"
    band = 34.0
    book.sketch.rect(book.left, book.y, book.width - book.left - book.right, band, fill=ACCENT)
    for text, size, dy, bold in ((title, 26, 15, True), (tr("title", code), 13, 26, False)):
        runs = text_runs(text, bold=bold, colour=WHITE)
        if book.check(runs, "title"):
            draw_runs(book.sketch, book.left + 6, book.y + dy, runs, size, INK)
    book.y = book.column_top = book.y + band + 6
    book.paragraph(text_runs(tr("intro", code, quick=contents.get("quick", 2))))
    book.paragraph(
        text_runs(tr("players", code, low=PLAYERS.start, high=PLAYERS.stop - 1)), after=0.5
    )
    largest = facts.fields["1"].field
    if largest is not None:
        columns, rows = field_extent(largest[1])
        cell_cm = profile.card_sizes["fate"].width / 10
        table = tr("table", code, w=round(columns * cell_cm), h=round(rows * cell_cm))
        book.paragraph(text_runs(table))
    _components(book, catalog, code)
    book.next_column()
    book.heading(tr("contents", code))
    chapters = [
        (tr("quick", code), "quick"),
        (tr("anatomy", code), "anatomy"),
        *((LEVEL_TITLES[level][code], LEVEL_TITLES[level][code]) for level in LEVELS),
        (tr("house", code), tr("house", code)),
        (tr("glossary", code), "glossary"),
    ]
    for chapter, key in chapters:
        page = contents.get(key)
        folio = tr("page", code, page=page) if page else ""
        book.paragraph(
            [*text_runs(chapter, bold=True), Run(f"  {folio}", colour=MUTED)],
            indent=4,
            label=[Run("•", bold=True, colour=ACCENT)],
            after=0.6,
        )
    book.heading(tr("legend", code))
    book.paragraph(text_runs(tr("legend_text", code)))


def font_sizes(pages: Sequence[PageSketch]) -> set[float]:
    """Every text size used on the pages, in points (for tests and checks)."""
    return {op.size for page in pages for op in page.ops if isinstance(op, Text)}
