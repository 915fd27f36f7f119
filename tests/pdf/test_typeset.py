"""Typesetting: formulas as runs, shifted sub- and superscripts, fitting, wrapping, glyphs."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mhp_cards.pdf.faces import TEXT
from mhp_cards.pdf.fonts import MM_PER_POINT, fonts
from mhp_cards.pdf.layout import Region
from mhp_cards.pdf.sketch import Sketch, Text
from mhp_cards.pdf.typeset import (
    LEADING,
    STEP,
    SUB_RISE,
    SUB_SCALE,
    SUP_RISE,
    Run,
    TypesetError,
    check_glyphs,
    fit_lines,
    fit_runs,
    formula_runs,
    place_line,
    runs_width,
    text_runs,
)

N, SUB, SUP = (1.0, 0.0), (SUB_SCALE, SUB_RISE), (SUB_SCALE, SUP_RISE)


def _shape(runs: list[Run]) -> list[tuple[str, tuple[float, float]]]:
    return [(run.text, (run.scale, run.rise)) for run in runs]


def _region(**changes: object) -> Region:
    fields: dict[str, object] = {"x": 0, "y": 0, "width": 50, "height": 10, "size": 12}
    fields["min_size"] = 6
    fields.update(changes)
    return Region.model_validate(fields)


def _sketch() -> Sketch:
    sketch = Sketch()
    sketch.new_page(100, 100, "test")
    return sketch


# Formulas ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("Fe2O3", [("Fe", N), ("2", SUB), ("O", N), ("3", SUB)]),
        ("CaSO4·2H2O", [("CaSO", N), ("4", SUB), ("·2H", N), ("2", SUB), ("O", N)]),
        ("[Fe(CN)6]-4", [("[Fe(CN)", N), ("6", SUB), ("]", N), ("4−", SUP)]),
        ("NH4+", [("NH", N), ("4", SUB), ("+", SUP)]),
        ("SO4-2", [("SO", N), ("4", SUB), ("2−", SUP)]),
        ("Fe+3", [("Fe", N), ("3+", SUP)]),
        ("NaCl", [("NaCl", N)]),
    ],
)
def test_formula_runs(formula: str, expected: list[tuple[str, tuple[float, float]]]) -> None:
    runs = formula_runs(formula)
    assert _shape(runs) == expected
    assert all(run.kind == "text" and not run.bold for run in runs)


def test_formula_runs_scales_and_rises() -> None:
    assert 0.5 < SUB_SCALE < 0.8
    assert SUB_RISE < 0 < SUP_RISE  # subscripts go down, superscripts up
    assert all(run.bold for run in formula_runs("Fe2O3", bold=True))


def test_charge_uses_a_true_minus_sign() -> None:
    charge = formula_runs("[Fe(CN)6]-4")[-1]
    assert "-" not in charge.text
    assert "−" in charge.text
    assert not fonts().missing(charge.text)
    assert not fonts().missing(charge.text, bold=True)


def test_formula_is_drawn_with_shifted_smaller_digits() -> None:
    sketch = _sketch()
    region = _region(width=60, height=20, size=20, min_size=10)
    size = place_line(sketch, formula_runs("Fe2O3"), region, "card", "formula", "#000000")
    texts = [op for op in sketch.page.ops if isinstance(op, Text)]
    assert [t.text for t in texts] == ["Fe", "2", "O", "3"]
    fe, two, o, three = texts
    assert fe.size == o.size == size
    assert two.size == three.size == pytest.approx(size * SUB_SCALE)
    # subscripts sit below the baseline by SUB_RISE em; x advances run by run
    assert two.y - fe.y == pytest.approx(-SUB_RISE * size * MM_PER_POINT)
    assert fe.y == o.y
    assert fe.x < two.x < o.x < three.x
    assert two.x == pytest.approx(fe.x + fonts().width("Fe", False, size))


# Text with sub/superscript characters ------------------------------------------------------------


def test_text_runs_turn_superscripts_into_shifted_runs() -> None:
    assert _shape(text_runs("Mg²⁺ и Na⁺")) == [
        ("Mg", N),
        ("2+", SUP),
        (" и Na", N),
        ("+", SUP),
    ]
    assert _shape(text_runs("SO₄²⁻")) == [("SO", N), ("4", SUB), ("2−", SUP)]
    assert _shape(text_runs("H₂O")) == [("H", N), ("2", SUB), ("O", N)]


def test_text_runs_keep_weight_and_colour() -> None:
    runs = text_runs("Fe³⁺", bold=True, colour="#123456")
    assert all(run.bold and run.colour == "#123456" for run in runs)
    assert text_runs("") == [Run("", False)]


# Fitting one line --------------------------------------------------------------------------------


def test_fit_runs_keeps_the_size_when_it_fits() -> None:
    assert fit_runs(text_runs("Fe"), _region(), "card", "name") == 12


def test_fit_runs_shrinks_to_the_largest_size_that_fits() -> None:
    runs = formula_runs("Mg(ClO4)2·6H2O", bold=True)
    natural = runs_width(runs, 24)
    region = _region(width=natural * 0.7, height=20, size=24, min_size=8)
    size = fit_runs(runs, region, "card", "formula")
    assert 8 <= size < 24
    assert runs_width(runs, size) <= region.width
    assert runs_width(runs, size + STEP) > region.width  # the largest that fits
    assert ((24 - size) / STEP).is_integer()


def test_fit_runs_respects_the_height() -> None:
    region = _region(width=500, height=12 * MM_PER_POINT * LEADING - 0.1, size=12, min_size=6)
    size = fit_runs(text_runs("x"), region, "card", "name")
    assert size == 12 - STEP


def test_fit_runs_fails_naming_card_and_region() -> None:
    runs = text_runs("Гексагидрат перхлората магния", bold=True)
    with pytest.raises(TypesetError) as caught:
        fit_runs(runs, _region(width=10, min_size=6.5), "raw card perchlorate #1", "name")
    error = caught.value
    assert (error.card, error.region) == ("raw card perchlorate #1", "name")
    message = str(error)
    assert message.startswith("raw card perchlorate #1, region 'name':")
    assert "Гексагидрат перхлората магния" in message
    assert "6.5 pt" in message
    assert "10 mm wide" in message


def test_fit_runs_blames_the_height_when_the_width_is_not_the_cause() -> None:
    """A region wide enough but lower than one line: the message says tall, not wide."""
    region = _region(width=500, height=1.0, size=12, min_size=6)
    with pytest.raises(TypesetError) as caught:
        fit_runs(text_runs("CO2"), region, "card", "name")
    message = str(caught.value)
    assert "1 mm tall" in message
    assert "wide" not in message


def test_fit_lines_blames_a_word_too_wide_not_the_height() -> None:
    region = _region(width=8, height=500, size=9, min_size=6)
    with pytest.raises(TypesetError) as caught:
        fit_lines(Sketch(), [text_runs("Электролизёр")], region, "card", "name", "#000000")
    message = str(caught.value)
    assert "'Электролизёр' needs" in message
    assert "8 mm wide" in message
    assert "tall" not in message


@settings(max_examples=100, deadline=None)
@given(
    st.text(alphabet="Fe2O3 Ca(OH)·абвгдеж", min_size=1, max_size=30),
    st.floats(min_value=2, max_value=120),
    st.floats(min_value=4, max_value=30),
)
def test_fit_runs_fits_or_fails(text: str, width: float, size: float) -> None:
    runs = text_runs(text)
    region = _region(width=width, height=40, size=size, min_size=min(4.0, size))
    try:
        fitted = fit_runs(runs, region, "card", "r")
    except TypesetError:
        assert runs_width(runs, region.min_size) > width - 1e-6
    else:
        assert region.min_size - 1e-9 <= fitted <= size
        assert runs_width(runs, fitted) <= width + 1e-6


# Wrapping ----------------------------------------------------------------------------------------

LONG = (
    "Посадочный модуль Phoenix (2008) вскрыл водяной лёд в траншеях на северных равнинах; "
    "главные катионы раствора — Mg²⁺ и Na⁺."
)


def _lines(sketch: Sketch) -> list[list[Text]]:
    """Text ops grouped into lines by baseline (sub/superscripts join their line)."""
    lines: list[list[Text]] = []
    for op in sketch.page.ops:
        if not isinstance(op, Text):
            continue
        if lines and abs(op.y - lines[-1][0].y) < op.size * MM_PER_POINT:
            lines[-1].append(op)
        else:
            lines.append([op])
    return lines


def test_fit_lines_wraps_inside_the_region() -> None:
    sketch = _sketch()
    region = _region(x=5, y=5, width=40, height=30, size=9, min_size=5, align="left")
    size = fit_lines(sketch, [text_runs(LONG)], region, "card", "mars", "#000000")
    lines = _lines(sketch)
    assert len(lines) >= 3
    assert 5 <= size <= 9
    for line in lines:
        first, last = line[0], line[-1]
        assert first.x == pytest.approx(region.x)  # aligned left
        end = last.x + fonts().width(last.text, last.bold, last.size)
        assert end <= region.x + region.width + 1e-6
    baselines = [line[0].y for line in lines]
    assert baselines == sorted(baselines)
    assert all(
        b - a == pytest.approx(size * MM_PER_POINT * LEADING)
        for a, b in itertools.pairwise(baselines)
    )
    assert baselines[0] > region.y
    assert baselines[-1] < region.y + region.height
    # no word is lost or split: the text reads the same with the line breaks as spaces
    text = " ".join("".join(op.text for op in line) for line in lines)
    assert re.sub(r"\s+", " ", text) == LONG.replace("²⁺", "2+").replace("⁺", "+")


def test_fit_lines_separates_paragraphs() -> None:
    sketch = _sketch()
    region = _region(width=60, height=40, size=8, min_size=5, paragraph_gap=0.5, valign="top")
    size = fit_lines(sketch, [text_runs("one"), text_runs("two")], region, "c", "r", "#000000")
    one, two = (line[0] for line in _lines(sketch))
    assert two.y - one.y == pytest.approx(size * MM_PER_POINT * LEADING * 1.5)


def test_fit_lines_shrinks_then_fails_naming_card_and_region() -> None:
    region = _region(width=30, height=8, size=9, min_size=5)
    with pytest.raises(TypesetError) as caught:
        fit_lines(_sketch(), [text_runs(LONG)], region, "raw card water-ice #1", "mars", "#000")
    assert (caught.value.card, caught.value.region) == ("raw card water-ice #1", "mars")
    assert "8 mm tall" in str(caught.value)
    # a little more room and it fits, smaller than it started
    roomy = _region(width=30, height=18, size=9, min_size=5)
    assert 5 <= fit_lines(_sketch(), [text_runs(LONG)], roomy, "c", "r", "#000") < 9


# Glyphs ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("char", "code"), [("→", "U+2192"), ("⇌", "U+21CC")])
@pytest.mark.parametrize("bold", [False, True])
def test_check_glyphs_refuses_a_missing_character(char: str, code: str, bold: bool) -> None:
    runs = text_runs(f"CaCO3 {char} CaO + CO2", bold=bold)
    with pytest.raises(TypesetError) as caught:
        check_glyphs(runs, "reactor card 1А", "reaction")
    message = str(caught.value)
    assert message.startswith("reactor card 1А, region 'reaction':")
    assert repr(char) in message
    assert code in message
    # and fitting the same text refuses it before measuring
    with pytest.raises(TypesetError, match=re.escape(code)):
        fit_runs(runs, _region(width=500), "reactor card 1А", "reaction")
    with pytest.raises(TypesetError, match=re.escape(code)):
        fit_lines(_sketch(), [runs], _region(width=500), "reactor card 1А", "reaction", "#000")


def test_the_font_has_cyrillic_and_the_kit_typography() -> None:
    for bold in (False, True):
        assert (
            fonts().missing(
                "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя", bold
            )
            == []
        )
        assert fonts().missing("−·—–«»“”№×%", bold) == []


@pytest.mark.parametrize(("key", "lang"), [(key, lang) for key in TEXT for lang in ("ru", "en")])
def test_every_fixed_text_has_its_glyphs(key: str, lang: str) -> None:
    text = TEXT[key][lang]
    assert text.strip()
    for bold in (False, True):
        check_glyphs(text_runs(text, bold=bold), f"TEXT[{key!r}]", lang)
