"""The printed rulebook, read back from its PDF: every rule, the computed setups, its type."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest

from mhp_cards.catalog import Catalog
from mhp_cards.game.setups import removal_options
from mhp_cards.pdf.layout import SheetProfile, Templates, load_profile, load_templates
from mhp_cards.pdf.render import render_pdf
from mhp_cards.pdf.rulebook import BODY_SIZE, _ru_count, plan_rulebook, setup_facts
from mhp_cards.pdf.sketch import Mark, PageSketch, Text
from mhp_cards.pdf.style import LEVEL_TITLES
from mhp_cards.pdf.typeset import SUB_SCALE, runs_width, text_runs
from mhp_cards.rules.numbers import DIE_SIDES, LEVELS, WAREHOUSE_SIZE
from mhp_cards.rules.rulebook import load_rulebook

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


def test_every_rule_is_printed_with_its_id_title_and_text(
    book: tuple[str, list[PageSketch], Path], flowed: str
) -> None:
    lang = book[0]
    rulebook = load_rulebook()
    missing = [
        rule.id
        for rule in rulebook.rules
        if _normal(f"{rule.id} {rule.title[lang]}. {rule.text[lang]}") not in flowed
    ]
    assert missing == []
    assert len(rulebook.rules) > 70  # the whole book, not a sample


def test_every_house_rule_is_printed(book: tuple[str, list[PageSketch], Path], flowed: str) -> None:
    lang = book[0]
    for house in load_rulebook().house_rules:
        assert _normal(f"{house.id} {house.title[lang]}. {house.text[lang]}") in flowed, house.id


def test_rules_appear_in_the_order_of_the_rulebook(
    book: tuple[str, list[PageSketch], Path], flowed: str
) -> None:
    lang = book[0]
    positions = [flowed.index(f"{r.id} {r.title[lang]}.") for r in load_rulebook().rules]
    assert positions == sorted(positions)


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
    assert _ru_count(number, "карта", "карты", "карт") == f"{number} {word}"


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


def test_a_russian_scale_has_a_decimal_comma(
    book: tuple[str, list[PageSketch], Path], flowed: str
) -> None:
    lang = book[0]
    found = re.findall(r"(?:масштаб|scale) 1:([0-9.,]+)\.", flowed)
    assert found
    for ratio in found:
        assert ("." not in ratio) if lang == "ru" else ("," not in ratio), ratio
