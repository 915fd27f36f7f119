r"""Chemical equations: reading, checking and balancing them exactly.

Grammar
-------
::

    reaction = side arrow side
    side     = species { ws "+" ws species }       (whitespace on both sides of "+")
    species  = [coefficient [ws]] formula | [coefficient [ws]] electron
    arrow    = "->" | "→" | "⟶" | "=" | "⇌"
    electron = "e-" | "e⁻" | "e−"                  (charge −1, no elements)

Whitespace around ``+`` is required so that ``NH4+ + OH-`` reads as two ions. Coefficients are
positive integers; formulas follow :func:`mhp_cards.parse_formula`.

>>> r = parse_reaction("CO2 + H2 -> CH4 + H2O")
>>> r.is_balanced, r.imbalance
(False, {'O': -1, 'H': 4})
>>> str(r.balance())
'CO2 + 4 H2 -> CH4 + 2 H2O'
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from mhp_cards.chem.formula import Formula, parse_formula_span
from mhp_cards.chem.linalg import nullspace
from mhp_cards.errors import FormulaError, ReactionError

__all__ = ["Reaction", "Term", "parse_reaction"]

MAX_LENGTH: Final = 2000
ARROWS: Final = ("->", "→", "⟶", "⇌", "=")
# Longest first, so that "=>" is found as a (refused) arrow rather than "=" and a stray ">".
_ARROW: Final = re.compile(r"<=>|<->|-->|==>|=>|->|→|⟶|⇌|=|⇄|⇆|↔|<-|←")
_PLUS: Final = re.compile(r"\s+\+\s+")
_COEFFICIENT: Final = re.compile(r"([0-9]+(?:[./][0-9]+)?)\s*")
_ELECTRONS: Final = frozenset({"e-", "e⁻", "e−"})

#: A species with its coefficient, as written in an equation.
Term = tuple[int, Formula]


@dataclass(frozen=True, slots=True, eq=False)
class Reaction:
    """A chemical equation: reactants, products and the arrow between them.

    Equal reactions have the same terms in the same order (formulas compared by composition).
    """

    reactants: tuple[Term, ...]
    products: tuple[Term, ...]
    arrow: str = "->"
    #: Where each species starts in the text it was read from (reactants, then products).
    positions: tuple[int, ...] = ()
    text: str = ""

    @property
    def species(self) -> tuple[Formula, ...]:
        """Every species, reactants first, in the order written."""
        return tuple(f for _, f in self.reactants) + tuple(f for _, f in self.products)

    @property
    def imbalance(self) -> dict[str, int]:
        """Products minus reactants, per element and ``'charge'``; nonzero entries only."""
        tally: dict[str, int] = {}
        for sign, terms in ((-1, self.reactants), (1, self.products)):
            for coefficient, formula in terms:
                for symbol, n in formula.elements.items():
                    tally[symbol] = tally.get(symbol, 0) + sign * coefficient * n
                if formula.charge:
                    tally["charge"] = tally.get("charge", 0) + sign * coefficient * formula.charge
        return {key: value for key, value in tally.items() if value}

    @property
    def is_balanced(self) -> bool:
        """True when elements and charge are the same on both sides."""
        return not self.imbalance

    def tally(self) -> dict[str, tuple[int, int]]:
        """Per element (and ``'charge'``): the totals on the left and on the right."""
        left: dict[str, int] = {}
        right: dict[str, int] = {}
        for side, terms in ((left, self.reactants), (right, self.products)):
            for coefficient, formula in terms:
                for symbol, n in formula.elements.items():
                    side[symbol] = side.get(symbol, 0) + coefficient * n
                if formula.charge:
                    side["charge"] = side.get("charge", 0) + coefficient * formula.charge
        keys = list(dict.fromkeys([*left, *right]))
        return {key: (left.get(key, 0), right.get(key, 0)) for key in keys}

    def stoichiometry(self) -> dict[Formula, int]:
        """Net coefficient of each species: products positive, reactants negative."""
        net: dict[Formula, int] = {}
        for sign, terms in ((-1, self.reactants), (1, self.products)):
            for coefficient, formula in terms:
                net[formula] = net.get(formula, 0) + sign * coefficient
        return net

    def balance(self) -> Reaction:
        """The same species with the smallest positive integer coefficients that balance.

        Raises :class:`ReactionError` when no such coefficients exist, when they are not unique
        up to a factor (the equation mixes independent reactions), or when a species stands on
        both sides.
        """
        self._check_distinct_species()
        species = self.species
        keys = list(dict.fromkeys(key for f in species for key in (*f.elements, "charge")))
        n_left = len(self.reactants)
        rows = []
        for key in keys:
            row = []
            for index, formula in enumerate(species):
                amount = formula.charge if key == "charge" else formula.elements.get(key, 0)
                row.append(amount if index < n_left else -amount)
            rows.append(row)
        basis = nullspace(rows)
        if not basis:
            raise self._error(f"cannot be balanced: {self._why_unbalanceable()}", 0)
        if len(basis) > 1:
            raise self._error(
                f"cannot be balanced uniquely: {len(basis)} independent sets of coefficients "
                "balance it (the equation combines separate reactions); write them one by one",
                0,
            )
        vector = basis[0]
        if sum(value < 0 for value in vector) > sum(value > 0 for value in vector):
            vector = tuple(-value for value in vector)  # name the fewest species as misplaced
        for index, value in enumerate(vector):
            if value <= 0:
                formula = species[index]
                where = "does not take part" if value == 0 else "would have to change sides"
                raise self._error(
                    f"cannot be balanced with positive coefficients: {formula} {where}",
                    self._position(index),
                )
        terms = [(value, formula) for value, formula in zip(vector, species, strict=True)]
        return Reaction(
            tuple(terms[:n_left]), tuple(terms[n_left:]), self.arrow, self.positions, self.text
        )

    def _check_distinct_species(self) -> None:
        seen: dict[Formula, int] = {}
        for index, formula in enumerate(self.species):
            if formula in seen:
                first = seen[formula]
                same_side = (first < len(self.reactants)) == (index < len(self.reactants))
                where = "twice on the same side" if same_side else "on both sides"
                raise self._error(
                    f"{formula} appears {where}; a balanced equation names each species once",
                    self._position(index),
                )
            seen[formula] = index

    def _why_unbalanceable(self) -> str:
        left = {key for _, f in self.reactants for key in f.elements}
        right = {key for _, f in self.products for key in f.elements}
        only = sorted(left ^ right)
        if only:
            symbol = only[0]
            side = "left" if symbol in left else "right"
            return f"{symbol} appears only on the {side} side"
        return "no positive coefficients make every element and the charge agree"

    def _position(self, index: int) -> int:
        return self.positions[index] if index < len(self.positions) else 0

    def _error(self, message: str, position: int) -> ReactionError:
        return ReactionError(message, self.text or str(self), position)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Reaction):
            return NotImplemented
        return (self.reactants, self.products) == (other.reactants, other.products)

    def __hash__(self) -> int:
        return hash((self.reactants, self.products))

    def __str__(self) -> str:
        return f"{_side(self.reactants)} {self.arrow} {_side(self.products)}"

    def __repr__(self) -> str:
        return f"Reaction({str(self)!r})"


def _side(terms: Sequence[Term]) -> str:
    return " + ".join(
        (f"{coefficient} {formula}" if coefficient != 1 else str(formula))
        for coefficient, formula in terms
    )


def parse_reaction(text: str) -> Reaction:
    """Read a chemical equation; raise :class:`ReactionError` with the position of the fault.

    >>> parse_reaction("Fe+3 + e- -> Fe+2").is_balanced
    True
    >>> parse_reaction("NH4+ + OH- -> NH3 + H2O").reactants[0][1].charge
    1
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_reaction() takes a str, not {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ReactionError(
            f"a reaction is at most {MAX_LENGTH} characters; this one has {len(text)}",
            text,
            MAX_LENGTH,
        )
    arrows = list(_ARROW.finditer(text))
    if not arrows:
        raise ReactionError(
            "no arrow; write the reactants, then '->' (or →, ⟶, =, ⇌), then the products",
            text,
            len(text.rstrip()),
        )
    if len(arrows) > 1:
        second = arrows[1]
        raise ReactionError(
            f"a second arrow {second.group()!r} at {second.start() + 1}; an equation has one",
            text,
            second.start(),
        )
    arrow = arrows[0]
    if arrow.group() not in ARROWS:
        raise ReactionError(
            f"arrow {arrow.group()!r} at {arrow.start() + 1} is not one of -> → ⟶ = ⇌; write '->'",
            text,
            arrow.start(),
        )
    reactants, left_positions = _read_side(text, 0, arrow.start(), "reactants")
    products, right_positions = _read_side(text, arrow.end(), len(text), "products")
    return Reaction(
        tuple(reactants),
        tuple(products),
        arrow.group(),
        tuple(left_positions + right_positions),
        text,
    )


def _read_side(text: str, start: int, end: int, what: str) -> tuple[list[Term], list[int]]:
    terms: list[Term] = []
    positions: list[int] = []
    if not text[start:end].strip():
        raise ReactionError(f"no {what}; each side of the arrow needs a species", text, start)
    for piece_start, piece_end in _pieces(text, start, end):
        piece = text[piece_start:piece_end]
        if not piece:
            raise ReactionError(
                f"a '+' with no species next to it at {piece_start + 1}", text, piece_start
            )
        coefficient = 1
        formula_start = piece_start
        number = _COEFFICIENT.match(piece)
        if number:
            digits = number.group(1)
            if not digits.isdigit():
                raise ReactionError(
                    f"coefficient {digits} at {piece_start + 1} is not a whole number; multiply "
                    "the whole equation so that every coefficient is a whole number (by 2 for "
                    "halves)",
                    text,
                    piece_start,
                )
            if digits.startswith("0"):
                raise ReactionError(
                    f"coefficient {digits} at {piece_start + 1} is zero or has a leading zero",
                    text,
                    piece_start,
                )
            coefficient = int(digits)
            formula_start = piece_start + number.end()
        if text[formula_start:piece_end] in _ELECTRONS:
            formula = Formula.electron(text[formula_start:piece_end])
        else:
            formula = _read_formula(text, formula_start, piece_end)
        terms.append((coefficient, formula))
        positions.append(piece_start)
    return terms, positions


def _pieces(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """The spans of the species of one side, split at ``+`` with whitespace around it."""
    inner_start = start
    while inner_start < end and text[inner_start].isspace():
        inner_start += 1
    inner_end = end
    while inner_end > inner_start and text[inner_end - 1].isspace():
        inner_end -= 1
    if text.startswith("+", inner_start) and (
        inner_start + 1 >= inner_end or text[inner_start + 1].isspace()
    ):
        yield inner_start, inner_start
        return
    piece_start = inner_start
    for plus in _PLUS.finditer(text, inner_start, inner_end):
        yield piece_start, plus.start()
        piece_start = plus.end()
    if (
        text.endswith("+", inner_start, inner_end)
        and inner_end - 1 > piece_start
        and (text[inner_end - 2].isspace())
    ):
        yield piece_start, inner_end - 2
        yield inner_end - 1, inner_end - 1
        return
    yield piece_start, inner_end


def _read_formula(text: str, start: int, end: int) -> Formula:
    try:
        return parse_formula_span(text, start, end)
    except FormulaError as error:
        message = error.message
        if "charge" in message and re.search(r"[+\-−][A-Z(\[{]", text[start:end]):
            message += "; between species write ' + ' with spaces on both sides"
        raise ReactionError(message, text, error.position) from None
