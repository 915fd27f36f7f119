r"""Chemical formulas: a strict, exact, one-pass parser and the :class:`Formula` value.

Grammar
-------
::

    formula   = [ws] part { [ws] separator [ws] [coefficient] part } [charge] [ws]
    part      = unit { unit }
    unit      = element [count] | open part close [count]
    element   = one of the 118 symbols, case-sensitive: "Fe", "O", "Og"
    count     = positive integer, no leading zero, at most 1 000 000;
                ASCII digits "2" or subscript digits "₂"
    open      = "(" | "[" | "{"          close = the matching ")" | "]" | "}"
    separator = "·" | "•" | "⋅" | "∙" | "*" | "."
    charge    = "^" [digits] sign | "^" sign [digits]      e.g. ^2+  ^+  ^3-
              | [superscript digits] superscript sign       e.g. ²⁺  ⁻
              | sign [digits]                               e.g. +3  -2  -  +
    sign      = "+" | "-" | "−"

- Groups nest at most 32 deep; a formula is at most 1000 characters.
- ``.`` is a separator only where it cannot be a decimal point: between two digits
  (``CuSO4.5H2O``) it is refused as ambiguous; write ``CuSO4·5H2O``.
- Each part after a separator may start with an integer coefficient (``Mg(ClO4)2·6H2O``);
  the first part may not (``2H2O`` is an amount of water, not a substance).
- Whitespace is allowed at both ends and around separators, nowhere else.
- The charge comes last and applies to the whole formula. A bare sign means 1 and follows the
  last count: ``NH4+`` is NH₄ with charge +1. After a final ``]`` or ``}`` a count followed by a
  bare sign (``[Fe(CN)6]4-``) is refused as ambiguous: write ``[Fe(CN)6]^4-`` or
  ``[Fe(CN)6]-4`` for the charge 4−.
- Refused with a reason and a suggestion: fractions and decimals, isotope labels and
  abbreviations (``D``, ``[13C]``, ``Et``, ``Me``, ``Ph``), state suffixes (``(aq)``),
  solid-solution commas (``(Mg,Fe)2SiO4``), empty groups, zero counts, two charges, and
  control, zero-width, full-width and other-script characters (a Cyrillic or Greek letter
  that looks like a Latin one is named as such).

Formulas compare and hash by composition: two formulas are equal when they hold the same
element counts and the same charge; ``.text`` keeps what was written.

>>> gypsum = parse_formula("CaSO4·2H2O")
>>> dict(gypsum.elements)
{'Ca': 1, 'S': 1, 'O': 6, 'H': 4}
>>> gypsum.hill(), gypsum.unicode()
('CaH4O6S', 'CaSO₄·2H₂O')
>>> parse_formula("[Fe(CN)6]-4").unicode()
'[Fe(CN)₆]⁴⁻'
>>> round(parse_formula("Fe2O3").mass, 3)
159.687
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final, Literal

from mhp_cards.chem.elements import ELECTRON_MASS, ELEMENTS
from mhp_cards.chem.lookalikes import LATIN_OF, SCRIPT_OF
from mhp_cards.errors import FormulaError

__all__ = ["Formula", "FormulaPart", "Segment", "parse_formula"]

MAX_LENGTH: Final = 1000
MAX_DEPTH: Final = 32
MAX_COUNT: Final = 1_000_000

_SUBSCRIPTS: Final = "₀₁₂₃₄₅₆₇₈₉"
_SUPERSCRIPTS: Final = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_TO_SUB: Final = str.maketrans("0123456789", _SUBSCRIPTS)
_TO_SUP: Final = str.maketrans("0123456789+-", _SUPERSCRIPTS + "⁺⁻")
_FROM_SUB: Final = str.maketrans(_SUBSCRIPTS, "0123456789")
_FROM_SUP: Final = str.maketrans(_SUPERSCRIPTS + "⁺⁻", "0123456789+-")

_SEPARATORS: Final = "·•⋅∙*."
_OPENERS: Final = {"(": ")", "[": "]", "{": "}"}
_CLOSERS: Final = {")": "(", "]": "[", "}": "{"}

# One token per match; anything else is caught by "other" and explained.
_TOKEN: Final = re.compile(
    r"(?P<elem>[A-Z][a-z]*)(?P<ecount>[0-9]+|[₀-₉]+)?"
    r"|(?P<open>[(\[{])"
    r"|(?P<close>[)\]}])(?P<gcount>[0-9]+|[₀-₉]+)?"
    rf"|(?P<sep>\s*[{re.escape(_SEPARATORS)}]\s*)"
    r"|(?P<num>[0-9]+)"
    r"|(?P<charge>[\^+\-−⁺⁻⁰¹²³⁴⁵⁶⁷⁸⁹])"
    r"|(?P<other>.)",
    re.DOTALL,
)

_CHARGE: Final = re.compile(
    r"\^(?P<bsign>[+\-−])(?P<b>[0-9]+)"
    r"|\^(?P<a>[0-9]+)?(?P<asign>[+\-−])"
    r"|(?P<dsign>[⁺⁻])(?P<d>[⁰¹²³⁴⁵⁶⁷⁸⁹]+)"
    r"|(?P<c>[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?(?P<csign>[⁺⁻])"
    r"|(?P<esign>[+\-−])(?P<e>[0-9]+)?"
)


_ABBREVIATIONS: Final = {
    "D": ("deuterium, an isotope label", "H"),
    "T": ("tritium, an isotope label", "H"),
    "Et": ("ethyl, an abbreviation", "C2H5"),
    "Me": ("methyl, an abbreviation", "CH3"),
    "Ph": ("phenyl, an abbreviation", "C6H5"),
    "Bu": ("butyl, an abbreviation", "C4H9"),
    "Bn": ("benzyl, an abbreviation", "C7H7"),
    "Bz": ("benzoyl, an abbreviation", "C7H5O"),
    "Cy": ("cyclohexyl, an abbreviation", "C6H11"),
    "Tf": ("triflyl, an abbreviation", "CF3SO2"),
    "Ms": ("mesyl, an abbreviation", "CH3SO2"),
    "Ox": ("oxalate, an abbreviation", "C2O4"),
    "Py": ("pyridine, an abbreviation", "C5H5N"),
}
_STATES: Final = re.compile(r"\((?:s|l|g|aq|cr|am|sln|soln|liq|gas)\)\s*$")
_FRACTIONS: Final = frozenset("½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞⅐⅑⅒⁄/")

Style = Literal["normal", "sub", "sup"]


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of formula text in one typographic style, for typesetting."""

    text: str
    style: Style


@dataclass(frozen=True, slots=True, eq=False)
class FormulaPart:
    """One part of a formula: the main part, or an adduct after a separator (``5H2O``)."""

    coefficient: int
    text: str
    elements: Mapping[str, int]

    def __repr__(self) -> str:
        prefix = f"{self.coefficient}×" if self.coefficient != 1 else ""
        return f"<FormulaPart {prefix}{self.text}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FormulaPart):
            return NotImplemented
        return (self.coefficient, self.text, dict(self.elements)) == (
            other.coefficient,
            other.text,
            dict(other.elements),
        )

    def __hash__(self) -> int:
        return hash((self.coefficient, self.text))


@dataclass(frozen=True, slots=True, eq=False)
class Formula:
    """A parsed chemical formula: element counts, charge, and the text it was read from.

    Build one with :func:`parse_formula` or :meth:`from_elements`. Formulas are immutable and
    hashable; equality is by composition (element counts and charge).
    """

    text: str
    elements: Mapping[str, int]
    charge: int
    # The parts are built on first use when the fast path read the formula.
    _parts: tuple[FormulaPart, ...] | None = field(default=None, repr=False)
    # What equality and the hash compare, made on first use (formulas are compared often).
    _identity: tuple[frozenset[tuple[str, int]], int] | None = field(default=None, repr=False)
    # The hash of the identity, kept: a tuple's hash is worked out anew on every call.
    _hash: int | None = field(default=None, repr=False)

    @property
    def parts(self) -> tuple[FormulaPart, ...]:
        """The main part, then each adduct part with its coefficient (``CuSO4``, ``5×H2O``)."""
        if self._parts is None:
            object.__setattr__(self, "_parts", _Parser(self.text).parse()._parts)
        assert self._parts is not None
        return self._parts

    @classmethod
    def from_elements(cls, elements: Mapping[str, int], charge: int = 0) -> Formula:
        """The formula with these element counts and charge, written in Hill order.

        >>> Formula.from_elements({"O": 1, "H": 2})
        Formula('H2O')
        """
        counts = {symbol: count for symbol, count in elements.items() if count}
        for symbol, count in counts.items():
            if symbol not in ELEMENTS:
                raise ValueError(f"unknown element symbol {symbol!r}")
            if not isinstance(count, int) or count < 0:
                raise ValueError(f"count of {symbol} must be a positive integer, not {count!r}")
        if not counts:
            raise ValueError("a formula needs at least one element")
        text = _hill_text(counts, charge)
        frozen = MappingProxyType(counts)
        return cls(text, frozen, charge, (FormulaPart(1, _hill_text(counts, 0), frozen),))

    @classmethod
    def electron(cls, text: str = "e-") -> Formula:
        """The electron (``e-``, ``e⁻``): no elements, charge −1, a species of half-reactions."""
        return _ELECTRON if text == "e-" else cls(text, _ELECTRON.elements, -1, ())

    @property
    def is_electron(self) -> bool:
        """True for the electron ``e-``."""
        return not self.elements and self.charge == -1

    @property
    def mass(self) -> float:
        """Molar mass in g/mol from the standard atomic weights (electrons counted for ions)."""
        total = sum(ELEMENTS[symbol].atomic_weight * n for symbol, n in self.elements.items())
        return total - self.charge * ELECTRON_MASS

    @property
    def atoms(self) -> int:
        """The total number of atoms."""
        return sum(self.elements.values())

    def hill(self) -> str:
        """The formula in Hill order with its charge, PubChem style (``H4N+``, ``O4S-2``)."""
        if self.is_electron:
            return "e-"
        return _hill_text(self.elements, self.charge)

    def unicode(self) -> str:
        """The formula as written, with subscript counts and superscript charge: ``Fe₂O₃``."""
        out = []
        for segment in self.segments():
            if segment.style == "sub":
                out.append(segment.text.translate(_TO_SUB))
            elif segment.style == "sup":
                out.append(segment.text.translate(_TO_SUP))
            else:
                out.append(segment.text)
        return "".join(out)

    def segments(self) -> tuple[Segment, ...]:
        """The formula as runs of normal, subscript and superscript text, for typesetting.

        Counts are subscripts, the charge a superscript (magnitude before sign), separators
        become ``·`` and adduct coefficients stay normal text.

        >>> [(s.text, s.style) for s in parse_formula("SO4-2").segments()]
        [('SO', 'normal'), ('4', 'sub'), ('2-', 'sup')]
        """
        if self.is_electron:
            return (Segment("e", "normal"), Segment("-", "sup"))
        return tuple(_merge(_segments(self.text.strip())))

    def __add__(self, other: Formula) -> Formula:
        if not isinstance(other, Formula):
            return NotImplemented
        counts = dict(self.elements)
        for symbol, n in other.elements.items():
            counts[symbol] = counts.get(symbol, 0) + n
        return Formula.from_elements(counts, self.charge + other.charge)

    def __mul__(self, factor: int) -> Formula:
        if not isinstance(factor, int) or isinstance(factor, bool):
            return NotImplemented
        if factor < 1:
            raise ValueError(
                f"a formula can only be multiplied by a positive integer, not {factor}"
            )
        counts = {symbol: n * factor for symbol, n in self.elements.items()}
        return Formula.from_elements(counts, self.charge * factor)

    __rmul__ = __mul__

    @property
    def composition(self) -> tuple[frozenset[tuple[str, int]], int]:
        """What formulas are compared by: the element counts and the charge, as one value."""
        return self._key()

    def _key(self) -> tuple[frozenset[tuple[str, int]], int]:
        identity = self._identity
        if identity is None:
            identity = (frozenset(self.elements.items()), self.charge)
            object.__setattr__(self, "_identity", identity)
        return identity

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Formula):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        known = self._hash
        if known is None:
            known = hash(self._key())
            object.__setattr__(self, "_hash", known)
        return known

    def __str__(self) -> str:
        return self.text.strip()

    def __repr__(self) -> str:
        return f"Formula({self.text.strip()!r})"


_ELECTRON: Final = Formula("e-", MappingProxyType({}), -1, ())


def _hill_text(counts: Mapping[str, int], charge: int) -> str:
    if "C" in counts:
        order = ["C", *(["H"] if "H" in counts else []), *sorted(set(counts) - {"C", "H"})]
    else:
        order = sorted(counts)
    text = "".join(
        symbol + (str(counts[symbol]) if counts[symbol] != 1 else "") for symbol in order
    )
    if charge:
        text += ("+" if charge > 0 else "-") + (str(abs(charge)) if abs(charge) != 1 else "")
    return text


def parse_formula(text: str) -> Formula:
    """Read a chemical formula; raise :class:`FormulaError` with the position of the fault.

    See the module documentation for the grammar.

    >>> f = parse_formula("Mg(ClO4)2·6H2O")
    >>> f.elements["O"], f.parts[1].coefficient
    (14, 6)
    >>> parse_formula("CuSO4.5H2O")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mhp_cards.errors.FormulaError: '.' between two digits at 6 is ambiguous ...
      CuSO4.5H2O
           ^
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_formula() takes a str, not {type(text).__name__}")
    return _parse_plain(text) or _Parser(text).parse()


# The fast path: most formulas are plain ASCII symbols, counts, brackets and '·'. They are read
# with one findall; anything unusual (a charge, whitespace, a doubtful character, an error)
# returns None and goes to the full parser, which is the reference and explains refusals.
_PLAIN_TEXT: Final = re.compile(r"([A-Za-z0-9()\[\]{}·]+?)(?:([+-])([1-9][0-9]{0,5})?)?")
_PLAIN_TOKEN: Final = re.compile(
    r"([A-Z][a-z]?)([1-9][0-9]{0,5})?|([(\[{])|([)\]}])([1-9][0-9]{0,5})?|(·)([1-9][0-9]{0,5})?"
)


def _parse_plain(text: str) -> Formula | None:
    plain = _PLAIN_TEXT.fullmatch(text) if len(text) <= MAX_LENGTH else None
    if plain is None:
        return None
    body, sign, magnitude = plain.groups()
    if sign and not magnitude and body[-1].isdigit() and body.rstrip("0123456789")[-1:] in "]}":
        return None  # "[Fe(CN)6]4-" is ambiguous: the full parser explains why
    total: dict[str, int] = {}
    counts: dict[str, int] = {}
    stack: list[tuple[dict[str, int], str]] = []
    coefficient = 1
    covered = 0
    for symbol, count, opener, closer, group_count, _, dot_count in _PLAIN_TOKEN.findall(body):
        if symbol:
            if symbol not in ELEMENTS:
                return None
            counts[symbol] = counts.get(symbol, 0) + (int(count) if count else 1)
            covered += len(symbol) + len(count)
        elif opener:
            if len(stack) >= MAX_DEPTH:
                return None
            stack.append((counts, opener))
            counts = {}
            covered += 1
        elif closer:
            if not stack or not counts or _OPENERS[stack[-1][1]] != closer:
                return None
            outer = stack.pop()[0]
            m = int(group_count) if group_count else 1
            for key, n in counts.items():
                outer[key] = outer.get(key, 0) + n * m
            counts = outer
            covered += 1 + len(group_count)
        else:
            if stack or not counts:
                return None
            for key, n in counts.items():
                total[key] = total.get(key, 0) + n * coefficient
            counts = {}
            coefficient = int(dot_count) if dot_count else 1
            covered += 1 + len(dot_count)
    if covered != len(body) or stack or not counts:
        return None
    for key, n in counts.items():
        total[key] = total.get(key, 0) + n * coefficient
    charge = (int(magnitude) if magnitude else 1) * (-1 if sign == "-" else 1) if sign else 0
    return Formula(text, MappingProxyType(total), charge)


def parse_formula_span(text: str, start: int, end: int) -> Formula:
    """Read the formula ``text[start:end]``; errors give positions in the whole ``text``."""
    return _Parser(text, start, end).parse()


class _Parser:
    """One pass over the tokens of a formula, with an explicit stack of open groups."""

    __slots__ = ("end", "parts", "start", "text")

    def __init__(self, text: str, start: int = 0, end: int | None = None) -> None:
        # The formula is text[start:end]; positions in errors index the whole text, so that a
        # formula inside a reaction is reported where it stands in the reaction.
        self.text = text
        self.parts: list[FormulaPart] = []
        self.start = start
        self.end = len(text) if end is None else end

    def fail(self, message: str, position: int) -> FormulaError:
        return FormulaError(message, self.text, position)

    def parse(self) -> Formula:
        text = self.text
        start, end = self.start, self.end
        own_text = text if (start, end) == (0, len(text)) else text[start:end]
        if end - start > MAX_LENGTH:
            raise self.fail(
                f"the formula is too long at {MAX_LENGTH + 1}: at most {MAX_LENGTH} characters, "
                f"this one has {end - start}",
                start + MAX_LENGTH,
            )
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start == end:
            raise self.fail(f"empty formula at {start + 1}; write one such as H2O", start)
        self.start, self.end = start, end

        total: dict[str, int] = {}
        charge = 0
        stack: list[tuple[dict[str, int], str, int]] = []  # (outer counts, opener, position)
        counts: dict[str, int] = {}
        part_start = start
        coefficient = 1
        expect_unit = True  # at the start of a part or a group: a unit must come next
        last_close: str | None = None  # the bracket just closed, when it carried a count
        for match in _TOKEN.finditer(text, start, end):
            kind = match.lastgroup
            position = match.start()
            if kind in {"elem", "ecount"}:
                symbol = match.group("elem")
                if symbol not in ELEMENTS:
                    raise self.unknown_symbol(symbol, position)
                digits = match.group("ecount")
                n = self.count(digits, match.start("ecount")) if digits else 1
                counts[symbol] = counts.get(symbol, 0) + n
                expect_unit = False
                last_close = None
            elif kind == "open":
                if len(stack) >= MAX_DEPTH:
                    raise self.fail(
                        f"group at {position + 1} is nested deeper than {MAX_DEPTH} levels",
                        position,
                    )
                self.check_state_suffix(position)
                stack.append((counts, match.group(), position))
                counts = {}
                expect_unit = True
                last_close = None
            elif kind in {"close", "gcount"}:
                counts = self.close_group(match, stack, counts)
                expect_unit = False
                last_close = match.group("close") if match.group("gcount") else None
            elif kind == "sep":
                self.check_separator(match, stack, expect_unit)
                self.end_part(part_start, position, coefficient, counts, total)
                counts = {}
                coefficient = 1
                part_start = match.end()
                expect_unit = True
                last_close = None
            elif kind == "num":
                if not (self.parts and expect_unit and position == part_start):
                    raise self.misplaced_number(match, stack)
                coefficient = self.count(match.group(), position, what="coefficient")
                part_start = match.end()
                if part_start < end and text[part_start].isspace():
                    raise self.fail(
                        f"whitespace at {part_start + 1} between the coefficient "
                        f"{match.group()} and its part; write them together (5H2O)",
                        part_start,
                    )
                if part_start >= end or not (
                    text[part_start].isalpha() or text[part_start] in "([{"
                ):
                    raise self.fail(
                        f"coefficient {match.group()} at {position + 1} is not followed by a "
                        "formula part",
                        position,
                    )
            elif kind == "charge":
                self.check_complete(stack, expect_unit, position, "the charge")
                charge = self.charge(position, last_close)
                self.end_part(part_start, position, coefficient, counts, total)
                break
            else:
                raise self.bad_character(position, stack)
        else:
            self.check_complete(stack, expect_unit, end, "the end")
            self.end_part(part_start, end, coefficient, counts, total)
        return Formula(own_text, MappingProxyType(total), charge, tuple(self.parts))

    def close_group(
        self,
        match: re.Match[str],
        stack: list[tuple[dict[str, int], str, int]],
        counts: dict[str, int],
    ) -> dict[str, int]:
        closer = match.group("close")
        position = match.start()
        if not stack:
            raise self.fail(f"{closer!r} at {position + 1} closes no open group", position)
        outer, opener, open_position = stack.pop()
        if _OPENERS[opener] != closer:
            raise self.fail(
                f"{closer!r} at {position + 1} does not match {opener!r} at {open_position + 1}; "
                f"expected {_OPENERS[opener]!r}",
                position,
            )
        if not counts:
            raise self.fail(
                f"empty group {opener}{closer} at {open_position + 1}; remove it", open_position
            )
        digits = match.group("gcount")
        m = self.count(digits, match.start("gcount")) if digits else 1
        for symbol, n in counts.items():
            outer[symbol] = outer.get(symbol, 0) + n * m
        return outer

    def check_complete(
        self,
        stack: list[tuple[dict[str, int], str, int]],
        expect_unit: bool,
        position: int,
        what: str,
    ) -> None:
        if stack:
            _, opener, open_position = stack[-1]
            raise self.fail(
                f"{opener!r} at {open_position + 1} is not closed before {what}; add "
                f"{_OPENERS[opener]!r}",
                open_position,
            )
        if expect_unit:
            if what == "the end":
                raise self.fail("the formula ends after a separator; remove it", position)
            raise self.fail(f"a charge at {position + 1} must follow a formula", position)

    def end_part(
        self,
        start: int,
        stop: int,
        coefficient: int,
        counts: dict[str, int],
        total: dict[str, int],
    ) -> None:
        for symbol, n in counts.items():
            total[symbol] = total.get(symbol, 0) + n * coefficient
        part_text = self.text[start:stop]
        if coefficient != 1 or (part_text and part_text[0].isdigit()):
            part_text = part_text.lstrip("0123456789")
        self.parts.append(FormulaPart(coefficient, part_text, MappingProxyType(counts)))

    def count(self, digits: str, position: int, what: str = "count") -> int:
        after = position + len(digits)
        if after + 1 < self.end and self.text[after] == "." and self.text[after + 1].isdigit():
            self.ambiguous_dot(after)
        plain = digits.translate(_FROM_SUB)
        if plain[0] == "0":
            if plain.strip("0") == "":
                raise self.fail(
                    f"zero {what} at {position + 1}; leave the symbol out instead", position
                )
            raise self.fail(
                f"{what} {digits!r} at {position + 1} has a leading zero; "
                f"write {plain.lstrip('0')}",
                position,
            )
        if len(plain) > 7 or int(plain) > MAX_COUNT:
            raise self.fail(
                f"{what} {digits} at {position + 1} is too large; at most {MAX_COUNT}", position
            )
        return int(plain)

    def ambiguous_dot(self, position: int) -> None:
        """Refuse a '.' between two digits: a decimal count, or a hydrate written with '.'."""
        text = self.text
        number_start = len(text[:position].rstrip("0123456789"))
        number_end = position + 1
        while number_end < self.end and text[number_end].isdigit():
            number_end += 1
        number = text[number_start:number_end]
        followed_by_part = number_end < self.end and (
            text[number_end].isalpha() or text[number_end] in _OPENERS
        )
        if number.startswith("0") or not followed_by_part:
            raise self.fail(
                f"decimal number {number} at {number_start + 1}: fractional counts are not "
                "allowed; multiply the formula out, e.g. (CaSO4)2·H2O for CaSO4·0.5H2O",
                number_start,
            )
        suggestion = (text[:position] + "·" + text[position + 1 :]).strip()
        raise self.fail(
            f"'.' between two digits at {position + 1} is ambiguous (a decimal point or a "
            f"hydrate separator?); for a hydrate write {suggestion!r}",
            position,
        )

    def check_separator(
        self,
        match: re.Match[str],
        stack: list[tuple[dict[str, int], str, int]],
        expect_unit: bool,
    ) -> None:
        token = match.group()
        dot = match.start() + (len(token) - len(token.lstrip()))
        if stack:
            _, opener, open_position = stack[-1]
            raise self.fail(
                f"{opener!r} at {open_position + 1} is not closed before the separator at "
                f"{dot + 1}; separators join whole parts",
                open_position,
            )
        if expect_unit:
            if not self.parts:
                raise self.fail(
                    f"separator {token.strip()!r} at {dot + 1} starts the formula; remove it", dot
                )
            raise self.fail(f"two separators in a row at {dot + 1}", dot)
        if match.end() >= self.end:
            raise self.fail(
                f"the separator {token.strip()!r} at {dot + 1} is not followed by a formula part",
                dot,
            )

    def check_state_suffix(self, position: int) -> None:
        state = _STATES.match(self.text, position, self.end)
        if state:
            raise self.fail(
                f"state suffix {self.text[position : self.end]!r} at {position + 1} is not part "
                "of a formula; remove it",
                position,
            )

    def charge(self, position: int, last_close: str | None) -> int:
        text, end = self.text, self.end
        match = _CHARGE.match(text, position, end)
        if match is None:
            raise self.fail(
                f"malformed charge at {position + 1}; write it as ^2+, ²⁺, +2 or a bare + or -",
                position,
            )
        sign_text = next(
            match.group(g) for g in ("asign", "bsign", "csign", "dsign", "esign") if match.group(g)
        )
        digits = next((match.group(g) for g in "abcde" if match.group(g)), None)
        sign = -1 if sign_text in "-−⁻" else 1
        magnitude = 1
        if digits is not None:
            plain = digits.translate(_FROM_SUP)
            if plain[0] == "0":
                raise self.fail(
                    f"charge {digits!r} at {position + 1} is zero or has a leading zero", position
                )
            if len(plain) > 7 or int(plain) > MAX_COUNT:
                raise self.fail(f"charge {digits} at {position + 1} is too large", position)
            magnitude = int(plain)
        if match.group("esign") and digits is None and last_close in {"]", "}"}:
            count_start = position
            while text[count_start - 1].isdigit():
                count_start -= 1
            count = text[count_start:position]
            plain = count.translate(_FROM_SUB)  # a caret's charge is written in plain digits
            before = text[self.start : count_start]
            raise self.fail(
                f"{count}{sign_text} after {last_close!r} at {count_start + 1} is ambiguous: a "
                f"count {count} with charge {sign_text}1, or the charge {plain}{sign_text}? write "
                f"{before}^{plain}{sign_text} for the charge or {before}{count}^{sign_text} for "
                "the count",
                count_start,
            )
        rest = match.end()
        if rest < end:
            if text[rest] in "^+-−⁺⁻" or text[rest] in _SUPERSCRIPTS:
                raise self.fail(f"a second charge at {rest + 1}; a formula has one charge", rest)
            raise self.fail(
                f"{text[rest]!r} at {rest + 1} follows the charge; the charge comes last", rest
            )
        return sign * magnitude

    def unknown_symbol(self, symbol: str, position: int) -> FormulaError:
        if symbol in _ABBREVIATIONS:
            meaning, instead = _ABBREVIATIONS[symbol]
            return self.fail(
                f"{symbol!r} at {position + 1} is {meaning}, not an element; write {instead}",
                position,
            )
        hint = ""
        prev = self.text[position - 1] if position > self.start else ""
        joined = prev + symbol.lower()
        if prev.isupper() and joined in ELEMENTS:
            hint = f"; did you mean {joined!r}? symbols are case-sensitive"
        elif symbol.capitalize() != symbol and symbol.capitalize() in ELEMENTS:
            hint = f"; did you mean {symbol.capitalize()!r}?"
        return self.fail(f"unknown element symbol {symbol!r} at {position + 1}{hint}", position)

    def misplaced_number(
        self, match: re.Match[str], stack: list[tuple[dict[str, int], str, int]]
    ) -> FormulaError:
        position = match.start()
        digits = match.group()
        if position == self.start:
            rest = self.text[match.end() : self.end].lstrip(" " + _SEPARATORS)
            return self.fail(
                f"coefficient {digits} at {position + 1} in front of the whole formula is an "
                f"amount, not part of a substance; write {rest!r} (in a reaction: "
                f"{digits + ' ' + rest!r})",
                position,
            )
        if stack and stack[-1][1] == "[" and position == stack[-1][2] + 1:
            label_end = self.text.find("]", position)
            label = self.text[stack[-1][2] : label_end + 1] if label_end != -1 else digits
            return self.fail(
                f"isotope label {label!r} at {stack[-1][2] + 1} is not supported; write the "
                "element without its mass number",
                stack[-1][2],
            )
        return self.fail(
            f"number {digits} at {position + 1} does not follow an element or a group", position
        )

    def bad_character(
        self, position: int, stack: list[tuple[dict[str, int], str, int]]
    ) -> FormulaError:
        char = self.text[position]
        code = f"U+{ord(char):04X}"
        name = unicodedata.name(char, code)
        if char in SCRIPT_OF:
            latin = LATIN_OF[char]
            return self.fail(
                f"{SCRIPT_OF[char]} {char!r} at {position + 1}, did you mean Latin {latin!r}?",
                position,
            )
        if char in _FRACTIONS:
            return self.fail(
                f"fraction {char!r} at {position + 1}: fractional counts are not allowed; "
                "multiply the formula out, e.g. (CaSO4)2·H2O for CaSO4·½H2O",
                position,
            )
        if char == ",":
            if stack:
                _, opener, open_position = stack[-1]
                close = self.text.find(_OPENERS[opener], position)
                group = self.text[open_position : close + 1 if close != -1 else position + 1]
                first = self.text[open_position + 1 : position]
                return self.fail(
                    f"',' at {position + 1} makes {group!r} a solid solution, not one formula; "
                    f"write one end member (e.g. with {first} alone)",
                    position,
                )
            return self.fail(
                f"',' at {position + 1}: a formula is one substance; write one formula at a time",
                position,
            )
        if char.isspace():
            return self.fail(
                f"whitespace at {position + 1}; spaces are allowed only around a separator "
                "such as '·' and at both ends",
                position,
            )
        if 0xFF01 <= ord(char) <= 0xFF5E:
            ascii_char = chr(ord(char) - 0xFEE0)
            return self.fail(
                f"full-width {char!r} ({code}) at {position + 1}; write ASCII {ascii_char!r}",
                position,
            )
        category = unicodedata.category(char)
        if category in {"Cc", "Cf"}:
            kind = "zero-width" if category == "Cf" else "control"
            return self.fail(
                f"{kind} character {code} ({name}) at {position + 1}; remove it", position
            )
        if char.islower() and char.isascii():
            start = position
            word = re.match(r"[a-z]+", self.text[start:]).group()  # type: ignore[union-attr]
            if word == "e":
                return self.fail(
                    f"'e' at {position + 1}: the electron e- is a species of reactions, not a "
                    "formula",
                    position,
                )
            capital = word.capitalize()
            hint = f"; did you mean {capital!r}?" if capital in ELEMENTS else ""
            return self.fail(
                f"{word!r} at {position + 1}: element symbols start with a capital letter{hint}",
                position,
            )
        if char.isalpha() and not char.isascii():
            script = name.split()[0].capitalize() if name != code else "non-Latin"
            return self.fail(
                f"{script} letter {char!r} ({name}) at {position + 1} is not allowed; element "
                "symbols use Latin letters",
                position,
            )
        if char.isdigit():
            return self.fail(
                f"digit {char!r} ({name}) at {position + 1} is not allowed; use 0-9 or ₀-₉",
                position,
            )
        return self.fail(f"unexpected character {char!r} ({name}) at {position + 1}", position)


def _segments(text: str) -> Iterator[Segment]:
    """Split a valid formula text into typographic runs (see :meth:`Formula.segments`)."""
    position = 0
    end = len(text)
    while position < end:
        match = _TOKEN.match(text, position)
        assert match is not None
        kind = match.lastgroup
        if kind in {"elem", "ecount"}:
            yield Segment(match.group("elem"), "normal")
            if match.group("ecount"):
                yield Segment(match.group("ecount").translate(_FROM_SUB), "sub")
        elif kind in {"close", "gcount"}:
            yield Segment(match.group("close"), "normal")
            if match.group("gcount"):
                yield Segment(match.group("gcount").translate(_FROM_SUB), "sub")
        elif kind == "open":
            yield Segment(match.group(), "normal")
        elif kind == "sep":
            yield Segment("·", "normal")
        elif kind == "num":
            yield Segment(match.group(), "normal")
        elif kind == "charge":
            charge = _CHARGE.match(text, position)
            assert charge is not None
            plain = charge.group().lstrip("^").translate(_FROM_SUP).replace("−", "-")
            digits = plain.strip("+-")
            sign = "-" if "-" in plain else "+"
            yield Segment(("" if digits == "1" else digits) + sign, "sup")
            return
        position = match.end()


def _merge(segments: Iterator[Segment]) -> Iterator[Segment]:
    pending: Segment | None = None
    for segment in segments:
        if pending is not None and pending.style == segment.style:
            pending = Segment(pending.text + segment.text, segment.style)
            continue
        if pending is not None:
            yield pending
        pending = segment
    if pending is not None:
        yield pending
