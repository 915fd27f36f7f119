"""The printed rulebook, read back from its PDF: every rule, the computed setups, its type."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest

from mhp_cards.catalog import Catalog
from mhp_cards.game.setups import removal_options
from mhp_cards.pdf.book_setup import ru_count, setup_facts
from mhp_cards.pdf.book_texts import EXAMPLE_TITLES, GLOSSARY, tr
from mhp_cards.pdf.examples import EXAMPLES
from mhp_cards.pdf.layout import SheetProfile, Templates, load_profile, load_templates
from mhp_cards.pdf.render import render_pdf
from mhp_cards.pdf.rulebook import BODY_SIZE, plan_rulebook, player_facing
from mhp_cards.pdf.sketch import Mark, PageSketch, Text
from mhp_cards.pdf.style import LEVEL_TITLES
from mhp_cards.pdf.typeset import SUB_SCALE, runs_width, text_runs
from mhp_cards.rules.numbers import DIE_SIDES, LEVELS, WAREHOUSE_SIZE
from mhp_cards.rules.rulebook import Rule, load_rulebook

MM = 72 / 25.4


def _normal(text: str) -> str:
    """Whitespace collapsed, and sub- and superscripts as plain characters (as a reader of the
    PDF's text gets them)."""
    return re.sub(r"\s+", " ", text.translate(_SCRIPTS)).strip()


_SCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉₊₋⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+−0123456789+−")


@pytest.fixture(scope="module", params=["ru", "en"])
def book(
    request: pytest.FixtureRequest,
    catalog: Catalog,
    a4: SheetProfile,
    templates: Templates,
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[str, list[PageSketch], Path]:
    lang = request.param
    pages = plan_rulebook(catalog, a4, templates, lang)
    path = tmp_path_factory.mktemp("rules") / f"mhp-rules-{lang}.pdf"
    path.write_bytes(render_pdf(pages, "rules", "rules", lang))
    return lang, pages, path


def _columns(path: Path) -> list[str]:
    """The text of every page, read column by column (left, then right), as a reader reads it."""
    texts = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            middle = page.width / 2
            top, bottom = 18 * MM, page.height - 14 * MM  # below the running head, above the folio
            # A subscript sits lower than its line: a tolerance of half a line keeps it in it.
            left = page.crop((0, top, middle, bottom)).extract_text(y_tolerance=4.5) or ""
            right = page.crop((middle, top, page.width, bottom)).extract_text(y_tolerance=4.5) or ""
            texts.append(left + "\n" + right)
    return texts


@pytest.fixture(scope="module")
def flowed(book: tuple[str, list[PageSketch], Path]) -> str:
    return _normal(" ".join(_columns(book[2])))


def _printed(rule: Rule, lang: str) -> str:
    """What the book prints of a rule: its title, then its text for players."""
    text = player_facing(rule.book_text(lang), load_rulebook(), "en" if lang == "en" else "ru")
    return _normal(f"{rule.title[lang]}. {text}")


def test_every_rule_is_printed_with_its_title_text_and_small_id(
    book: tuple[str, list[PageSketch], Path], flowed: str
) -> None:
    """Each rule as players read it, its Rulings merged in where they are the default, and the
    IDs (its own and its merged Rulings') right after it, for the companion's citations."""
    lang = book[0]
    rulebook = load_rulebook()
    merged: dict[str, list[str]] = {}
    for rule in rulebook.rules:
        if rule.merged and rule.ruling_for:
            merged.setdefault(rule.ruling_for, []).append(rule.id)
    missing = []
    for rule in rulebook.rules:
        if rule.merged:
            continue
        ids = " · ".join([rule.id, *merged.get(rule.id, [])])
        if f"{_printed(rule, lang)} {ids}" not in flowed:
            missing.append(rule.id)
    assert missing == []
    assert len(rulebook.rules) > 70  # the whole book, not a sample
    assert sum(map(len, merged.values())) >= 10  # the defaults merged into their rules


def test_a_merged_ruling_is_not_printed_on_its_own(
    book: tuple[str, list[PageSketch], Path], flowed: str
) -> None:
    """L1.T3 reads as played ("one or two cells"), not printed and then rewritten below it."""
    lang = book[0]
    rulebook = load_rulebook()
    literal = _normal(rulebook.rule("L1.T3").text[lang])
    assert literal not in flowed
    assert _normal(rulebook.rule("L1.T3").book_text(lang)) in flowed
    for rule in rulebook.rules:
        if rule.merged:
            assert _normal(rule.text[lang]) not in flowed, rule.id


def test_house_rules_are_printed_by_their_player_facing_names(
    book: tuple[str, list[PageSketch], Path], flowed: str
) -> None:
    lang = book[0]
    rulebook = load_rulebook()
    for house in rulebook.house_rules:
        if house.default:
            continue
        name = house.title[lang].replace(" (по умолчанию)", "").replace(" (default)", "")
        text = player_facing(house.text[lang], rulebook, "en" if lang == "en" else "ru")
        assert _normal(f"{name}. {text}") in flowed, house.id
    if lang == "ru":  # the Russian book names no switch in Latin letters
        for house in rulebook.house_rules:
            assert house.id not in flowed, house.id


def test_no_software_words_in_the_printed_book(
    book: tuple[str, list[PageSketch], Path], flowed: str
) -> None:
    lang = book[0]
    words = (
        ["каталог", "валидатор", "судья", "программ", "--house", "проверка подготовки", "отказ"]
        if lang == "ru"
        else ["catalog", "validator", "referee", "software", "--house", "setup check"]
    )
    lowered = flowed.casefold()
    assert [word for word in words if word in lowered] == []


def test_rules_appear_in_the_order_of_the_rulebook(
    book: tuple[str, list[PageSketch], Path], flowed: str
) -> None:
    lang = book[0]
    position = 0
    for rule in load_rulebook().rules:
        if rule.merged:
            continue
        found = flowed.find(_printed(rule, lang), position)
        assert found >= 0, rule.id
        position = found


def test_the_book_teaches(
    book: tuple[str, list[PageSketch], Path], flowed: str, catalog: Catalog
) -> None:
    """A goal per level, a setup picture per level, the worked examples, a glossary, an index."""
    lang = book[0]
    code = "en" if lang == "en" else "ru"
    for level in LEVELS:
        assert _normal(tr(f"goal_{level}", code)) in flowed, level
    assert flowed.count(tr("setup_picture", code)) >= len(LEVELS) + 1  # and the quick start's
    for key in EXAMPLES:
        assert f"{tr('example', code)}: {EXAMPLE_TITLES[key][code]}" in flowed, key
    assert _normal(tr("how_runs_text", code).split("|")[1]) in flowed  # the portion rule
    for term, _ in GLOSSARY:
        assert f"{term[code]} —" in flowed, term
    index = flowed[flowed.rindex(tr("index", code)) :]
    for rule in load_rulebook().rules:
        assert re.search(rf"{re.escape(rule.id)} \d+", index), rule.id


def test_the_quick_start_is_one_page(book: tuple[str, list[PageSketch], Path]) -> None:
    lang, _, path = book
    code = "en" if lang == "en" else "ru"
    with pdfplumber.open(path) as pdf:
        heads = [
            (page.crop((0, 0, page.width, 40 * MM)).extract_text() or "") for page in pdf.pages
        ]
    quick = [n for n, head in enumerate(heads) if tr("quick", code) in head]
    assert len(quick) == 1


def test_the_field_counts_are_computed_for_this_box(
    book: tuple[str, list[PageSketch], Path], flowed: str, catalog: Catalog
) -> None:
    lang = book[0]
    fate, raw = catalog.components.fate_cards.count, catalog.raw_deck_size
    for level in ("1", "3"):
        options = removal_options(fate, raw, WAREHOUSE_SIZE[level])
        assert options, level
        low, high = options[0], options[-1]
        if low == high:  # one count works: the step names it alone, not "from 8 to 8"
            put_aside = (
                f"Отложите {low} карт Судьбы (в наборе {fate})"
                if lang == "ru"
                else f"Put aside {low} Fate cards (the box has {fate})"
            )
        else:
            put_aside = (
                f"Отложите от {low} до {high} карт Судьбы (в наборе {fate})"
                if lang == "ru"
                else f"Put aside {low} to {high} Fate cards (the box has {fate})"
            )
        assert put_aside in flowed
        for removed in options:
            row = (
                f"Отложено {removed}: поле {fate - removed}, Склад {raw - fate + removed}"
                if lang == "ru"
                else f"{removed} put aside: field {fate - removed}, "
                f"Warehouse {raw - fate + removed}"
            )
            assert row in flowed
    # This box, 72 Fate cards and 72 raw cards, so the Warehouse holds as many cards as are put
    # aside: level 1 (Warehouse 4..8) allows only 8, the rules' bare 8..12 is not the answer;
    # level 3 (Warehouse 8..12) allows all of 8..12.
    facts = setup_facts(catalog)
    assert (facts.fate, facts.raw) == (72, 72)
    assert facts.fields["1"].options == ((8, 64, 8),)
    assert re.search(r"(?<!\d)(\d+) (?:to|до) \1(?!\d)", flowed) is None  # no "8 to 8"
    assert facts.fields["3"].removed == (8, 12)
    assert facts.fields["3"].field == (60, 64)
    assert facts.fields["3"].warehouse == (8, 12)


def test_the_coins_left_in_the_box_are_counted(
    book: tuple[str, list[PageSketch], Path], flowed: str, catalog: Catalog
) -> None:
    lang = book[0]
    coins = catalog.components.coins.count
    for players in (2, 5):
        left = coins - 8 * players - 10  # L2.S7 and its ruling: 8 each, 10 in the Bank
        ru = f"при {players} игроках — {left}"
        expected = ru if lang == "ru" else f"{players} players — {left}"
        assert expected in flowed


def test_the_die_and_the_components_are_listed(
    book: tuple[str, list[PageSketch], Path], flowed: str, catalog: Catalog
) -> None:
    lang = book[0]
    die = "шестигранный кубик" if lang == "ru" else "six-sided die"
    assert die in flowed
    assert f"d{DIE_SIDES}" in flowed
    # The default box has 72 raw cards and 72 Fate cards: Russian counts ending in 2 take
    # the "few" form (72 карточки, 72 Карты), not the genitive plural of 5–20.
    assert (catalog.raw_deck_size, catalog.components.fate_cards.count) == (72, 72)
    raw = "72 карточки сырья" if lang == "ru" else "72 raw-material cards"
    assert raw in flowed
    assert ("72 карты Судьбы" if lang == "ru" else "72 Fate cards") in flowed


@pytest.mark.parametrize(
    ("number", "word"),
    [
        (1, "карта"),
        (2, "карты"),
        (4, "карты"),
        (5, "карт"),
        (11, "карт"),
        (12, "карт"),
        (14, "карт"),
        (21, "карта"),
        (22, "карты"),
        (60, "карт"),
        (64, "карты"),
        (111, "карт"),
        (112, "карт"),
        (101, "карта"),
    ],
)
def test_russian_counts_take_the_noun_form_of_their_number(number: int, word: str) -> None:
    assert ru_count(number, "карта", "карты", "карт") == f"{number} {word}"


def test_pages_are_numbered_and_the_contents_point_to_the_chapters(
    book: tuple[str, list[PageSketch], Path],
) -> None:
    lang, pages, path = book
    assert len(pages) % 2 == 0  # a booklet printed double-sided
    with pdfplumber.open(path) as pdf:
        folios = []
        heads = []
        for page in pdf.pages:
            foot = page.crop((0, page.height - 14 * MM, page.width, page.height))
            folios.append((foot.extract_text() or "").strip())
            heads.append(page.crop((0, 18 * MM, page.width, 40 * MM)).extract_text() or "")
        contents = _normal(pdf.pages[0].extract_text() or "")
    printed = [n for n in folios if n]
    assert printed == [str(n) for n in range(1, len(printed) + 1)]
    assert len(printed) >= len(pages) - 1  # only a blank last page goes unnumbered
    word = "с." if lang == "ru" else "p."
    for level in LEVELS:
        title = LEVEL_TITLES[level][lang]
        found = re.search(re.escape(title) + rf" {word} (\d+)", contents)
        assert found, title
        assert title in heads[int(found.group(1)) - 1]


def _in_figure(op: Text, figures: list[Mark]) -> bool:
    return any(x <= op.x <= x + w and y <= op.y <= y + h for x, y, w, h in (f.box for f in figures))


def test_body_text_is_readable(book: tuple[str, list[PageSketch], Path]) -> None:
    """Text is at least 8 pt except inside the figures (card faces drawn to scale)."""
    _, pages, _ = book
    weight: Counter[float] = Counter()
    for page in pages:
        figures = [op for op in page.ops if isinstance(op, Mark) and op.kind == "figure"]
        for op in page.ops:
            if isinstance(op, Text) and not _in_figure(op, figures):
                weight[round(op.size, 2)] += len(op.text)
                # Rule references beside a step are the smallest text; a subscript or
                # superscript is set at SUB_SCALE of its line.
                script = op.text.isdigit() or op.text in ("+", "−")
                smallest = 8 * 0.85 * (SUB_SCALE if script else 1)
                assert op.size >= smallest - 1e-6, op
    body, _ = weight.most_common(1)[0]
    assert body == BODY_SIZE >= 9


def test_text_stays_inside_the_page_margins(
    book: tuple[str, list[PageSketch], Path], a4: SheetProfile
) -> None:
    _, pages, _ = book
    for page in pages:
        for op in page.ops:
            if isinstance(op, Text):
                width = runs_width(text_runs(op.text, op.bold), op.size)
                assert op.x >= 10, (page.label, op.text)
                assert op.x + width <= page.width - 10, (page.label, op.text)
                assert 10 <= op.y <= page.height - 5, (page.label, op.text)


def test_letter_pages_have_two_columns_too(catalog: Catalog, tmp_path: Path) -> None:
    letter = load_profile("letter")
    pages = plan_rulebook(catalog, letter, load_templates(letter), "en")
    assert {(p.width, p.height) for p in pages} == {letter.page.dimensions}
    width = letter.page.dimensions[0]
    body = [op for op in pages[2].ops if isinstance(op, Text)]
    # two columns: a full page of rules has text in each half of the page
    assert any(op.x < width / 2 - 10 for op in body)
    assert any(op.x > width / 2 + 3 for op in body)
