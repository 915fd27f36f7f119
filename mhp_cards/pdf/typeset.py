"""Typesetting: formulas with true subscripts, reactions with drawn arrows, text that fits.

Subscripts and superscripts are ordinary digits set smaller and shifted (the font has no
subscript ₅–₉ or superscript signs), so every formula prints the same way. Text is fitted into
a template region: it starts at the region's size and shrinks in quarter points down to the
region's minimum; if it still does not fit, that is an error naming the card and the region —
never silent clipping. Every string is checked against the font's glyphs before it is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from mhp_cards.chem.formula import Formula, parse_formula
from mhp_cards.chem.reaction import Reaction
from mhp_cards.errors import TypesetError
from mhp_cards.pdf.fonts import MM_PER_POINT, fonts
from mhp_cards.pdf.layout import Region
from mhp_cards.pdf.sketch import Sketch

__all__ = [
    "Run",
    "TypesetError",
    "draw_runs",
    "fit_lines",
    "fit_runs",
    "formula_runs",
    "reaction_runs",
    "runs_width",
    "text_runs",
]

SUB_SCALE: Final = 0.66
SUB_RISE: Final = -0.2
SUP_RISE: Final = 0.42
LEADING: Final = 1.18
ARROW_EM: Final = 1.5
STEP: Final = 0.25
MINUS: Final = "−"


@dataclass(frozen=True, slots=True)
class Run:
    """A piece of a line: text (or a drawn arrow) with its weight, scale and baseline shift."""

    text: str
    bold: bool = False
    scale: float = 1.0
    #: Baseline shift in em (positive is up).
    rise: float = 0.0
    kind: Literal["text", "arrow"] = "text"
    colour: str | None = None


_GLUED: Final = frozenset({"мР", "мР.", "мР,", "мР;", "mR", "mR.", "mR,", "mR;", "мм", "mm"})
_SUBSCRIPT: Final = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋", "0123456789+−", strict=True))
_SUPERSCRIPT: Final = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+−", strict=True))


_NORMAL: Final = (1.0, 0.0)
#: Each subscript and superscript character: its plain form and its (scale, rise).
_SHIFTED: Final = {
    **{char: (plain, (SUB_SCALE, SUB_RISE)) for char, plain in _SUBSCRIPT.items()},
    **{char: (plain, (SUB_SCALE, SUP_RISE)) for char, plain in _SUPERSCRIPT.items()},
}


def text_runs(text: str, bold: bool = False, colour: str | None = None) -> list[Run]:
    """Text as runs; subscript and superscript characters (``Mg²⁺``) become shifted digits."""
    if not _SHIFTED.keys() & set(text):  # the common case: one plain run
        return [Run(text, bold, colour=colour)]
    runs: list[Run] = []
    pieces: list[str] = []
    shift = _NORMAL
    for char in text:
        plain, style = _SHIFTED.get(char, (char, _NORMAL))
        if pieces and style != shift:
            runs.append(Run("".join(pieces), bold, *shift, colour=colour))
            pieces = []
        pieces.append(plain)
        shift = style
    runs.append(Run("".join(pieces), bold, *shift, colour=colour))
    return runs


def formula_runs(formula: Formula | str, bold: bool = False) -> list[Run]:
    """A formula as runs: counts as subscripts, the charge as a superscript (``Fe³⁺``)."""
    parsed = parse_formula(formula) if isinstance(formula, str) else formula
    runs = []
    for segment in parsed.segments():
        if segment.style == "sub":
            runs.append(Run(segment.text, bold, SUB_SCALE, SUB_RISE))
        elif segment.style == "sup":
            runs.append(Run(segment.text.replace("-", MINUS), bold, SUB_SCALE, SUP_RISE))
        else:
            runs.append(Run(segment.text, bold))
    return runs


def reaction_runs(reaction: Reaction, bold: bool = False) -> list[Run]:
    """A reaction: coefficients, formulas, ``+`` and a drawn arrow."""
    runs: list[Run] = []

    def side(terms: Sequence[tuple[int, Formula]]) -> None:
        for index, (coefficient, formula) in enumerate(terms):
            if index:
                runs.append(Run(" + ", bold))
            if coefficient != 1:
                runs.append(Run(f"{coefficient}", bold))
            runs.extend(formula_runs(formula, bold))

    side(reaction.reactants)
    runs.append(Run("", bold, kind="arrow"))
    side(reaction.products)
    return runs


def _run_width(run: Run, size: float) -> float:
    if run.kind == "arrow":
        return ARROW_EM * size * MM_PER_POINT
    return _text_width(run.text, run.bold, size * run.scale)


@lru_cache(maxsize=1 << 16)
def _text_width(text: str, bold: bool, size: float) -> float:
    # Fitting measures the same words at the same quarter-point sizes again and again.
    return fonts().width(text, bold, size)


def runs_width(runs: Sequence[Run], size: float) -> float:
    """Width of a line of runs in mm at ``size`` points."""
    return sum(_run_width(run, size) for run in runs)


def check_glyphs(runs: Sequence[Run], card: str, region: str) -> None:
    """Raise TypesetError when the font cannot draw a character of the runs."""
    for run in runs:
        missing = fonts().missing(run.text, run.bold)
        if missing:
            shown = ", ".join(f"{char!r} (U+{ord(char):04X})" for char in missing)
            raise TypesetError(card, region, f"the font has no glyph for {shown} in {run.text!r}")


def draw_runs(
    sketch: Sketch, x: float, baseline: float, runs: Sequence[Run], size: float, colour: str
) -> float:
    """Draw runs from (x, baseline); return the x where the line ends."""
    for run in runs:
        width = _run_width(run, size)
        if run.kind == "arrow":
            _arrow(sketch, x, baseline, width, size, run.colour or colour)
        elif run.text:
            rise = run.rise * size * MM_PER_POINT
            sketch.text(
                x,
                baseline - rise,
                run.text,
                bold=run.bold,
                size=size * run.scale,
                colour=run.colour or colour,
            )
        x += width
    return x


def _arrow(
    sketch: Sketch, x: float, baseline: float, width: float, size: float, colour: str
) -> None:
    """A right arrow drawn as a line and a head, centred on the x-height."""
    em = size * MM_PER_POINT
    y = baseline - 0.3 * em
    left, right = x + 0.2 * em, x + width - 0.2 * em
    head = 0.28 * em
    sketch.line(left, y, right - head * 0.6, y, stroke=colour, line_width=max(0.15, 0.06 * em))
    sketch.polygon(
        [(right, y), (right - head, y - head * 0.5), (right - head, y + head * 0.5)], fill=colour
    )


def _sizes(region: Region) -> list[float]:
    """Text sizes to try, largest first: quarter points down to the minimum, always tried."""
    sizes = []
    size = region.size
    while size > region.min_size + 1e-9:
        sizes.append(size)
        size -= STEP
    sizes.append(region.min_size)
    return sizes


def _line_height(size: float) -> float:
    return size * MM_PER_POINT * LEADING


def fit_runs(runs: Sequence[Run], region: Region, card: str, name: str) -> float:
    """The largest size (≤ region.size, ≥ region.min_size) at which the runs fit on one line."""
    check_glyphs(runs, card, name)
    for size in _sizes(region):
        if (
            runs_width(runs, size) <= region.width + 1e-6
            and _line_height(size) <= region.height + 1e-6
        ):
            return size
    text = "".join(run.text for run in runs)
    needed = runs_width(runs, region.min_size)
    tall = _line_height(region.min_size)
    if needed > region.width + 1e-6:
        message = (
            f"'{text}' needs {needed:.1f} mm at the minimum size {region.min_size:g} pt but the "
            f"region is {region.width:g} mm wide; widen the region or lower min_size"
        )
    else:
        message = (
            f"one line at the minimum size {region.min_size:g} pt is {tall:.1f} mm tall but the "
            f"region is {region.height:g} mm tall; make the region taller or lower min_size"
        )
    raise TypesetError(card, name, message, where=region.source)


def place_line(
    sketch: Sketch,
    runs: Sequence[Run],
    region: Region,
    card: str,
    name: str,
    colour: str,
) -> float:
    """Fit runs into a region on one line and draw them, aligned as the region says."""
    size = fit_runs(runs, region, card, name)
    width = runs_width(runs, size)
    x = (
        region.x
        + {"left": 0.0, "center": (region.width - width) / 2, "right": region.width - width}[
            region.align
        ]
    )
    baseline = _baseline(region, size, 1)
    draw_runs(sketch, x, baseline, runs, size, region.colour or colour)
    return size


def _baseline(region: Region, size: float, lines: float) -> float:
    block = _line_height(size) * lines
    top = {
        "top": region.y,
        "middle": region.y + (region.height - block) / 2,
        "bottom": region.y + region.height - block,
    }[region.valign]
    ascent = fonts().cap_height * size * MM_PER_POINT
    return top + (_line_height(size) - ascent) / 2 + ascent


def wrap(paragraphs: Sequence[Sequence[Run]], width: float, size: float) -> list[list[Run]]:
    """Break paragraphs of runs into lines no wider than ``width`` (at word boundaries)."""
    lines: list[list[Run]] = []
    for paragraph in paragraphs:
        words: list[list[Run]] = []
        for run in paragraph:
            if run.kind != "text" or run.scale != 1.0 or " " not in run.text:
                if words and not _ends_with_space(words[-1]):
                    words[-1].append(run)
                else:
                    words.append([run])
                continue
            pieces = run.text.split(" ")
            for index, piece in enumerate(pieces):
                text = piece + (" " if index < len(pieces) - 1 else "")
                if not text:
                    continue
                part = Run(text, run.bold, run.scale, run.rise, run.kind, run.colour)
                glued = text.rstrip() in _GLUED and words
                if glued:
                    words[-1].append(part)  # a unit stays with its number: "4 мР"
                elif index == 0 and words and not _ends_with_space(words[-1]):
                    words[-1].append(part)
                else:
                    words.append([part])
        line: list[Run] = []
        for word in words:
            candidate = line + word
            if line and runs_width(_trim(candidate), size) > width:
                lines.append(_trim(line))
                line = list(word)
            else:
                line = candidate
        lines.append(_trim(line))
    return lines


def _ends_with_space(word: list[Run]) -> bool:
    return bool(word) and word[-1].kind == "text" and word[-1].text.endswith(" ")


def _trim(line: list[Run]) -> list[Run]:
    if line and line[-1].kind == "text" and line[-1].text.endswith(" "):
        last = line[-1]
        return [
            *line[:-1],
            Run(last.text.rstrip(" "), last.bold, last.scale, last.rise, last.kind, last.colour),
        ]
    return line


def fit_lines(
    sketch: Sketch,
    paragraphs: Sequence[Sequence[Run]],
    region: Region,
    card: str,
    name: str,
    colour: str,
) -> float:
    """Wrap paragraphs into a region, shrinking until they fit; draw them; return the size.

    Paragraphs are separated by ``region.paragraph_gap`` lines of extra space.
    """
    for paragraph in paragraphs:
        check_glyphs(paragraph, card, name)
    for size in _sizes(region):
        blocks = [wrap([paragraph], region.width, size) for paragraph in paragraphs]
        line_height = _line_height(size)
        count = sum(len(block) for block in blocks)
        total = line_height * (count + region.paragraph_gap * (len(blocks) - 1))
        fits_width = all(
            runs_width(line, size) <= region.width + 1e-6 for block in blocks for line in block
        )
        if fits_width and total <= region.height + 1e-6:
            baseline = _baseline(region, size, count + region.paragraph_gap * (len(blocks) - 1))
            for block in blocks:
                for line in block:
                    width = runs_width(line, size)
                    offset = {
                        "left": 0.0,
                        "center": (region.width - width) / 2,
                        "right": region.width - width,
                    }[region.align]
                    draw_runs(
                        sketch, region.x + offset, baseline, line, size, region.colour or colour
                    )
                    baseline += line_height
                baseline += line_height * region.paragraph_gap
            return size
    lines = wrap(paragraphs, region.width, region.min_size)
    widest = max(lines, key=lambda line: runs_width(line, region.min_size))
    needed = runs_width(widest, region.min_size)
    if needed > region.width + 1e-6:
        word = "".join(run.text for run in widest).strip()
        message = (
            f"'{word}' needs {needed:.1f} mm at the minimum size {region.min_size:g} pt and "
            f"cannot be broken, but the region is {region.width:g} mm wide; widen the region "
            "or lower min_size"
        )
    else:
        message = (
            f"the text needs {len(lines)} lines "
            f"({_line_height(region.min_size) * len(lines):.1f} mm) at the minimum size "
            f"{region.min_size:g} pt but the region is {region.height:g} mm tall; make the "
            "region taller, lower min_size or shorten the text"
        )
    raise TypesetError(card, name, message, where=region.source)
