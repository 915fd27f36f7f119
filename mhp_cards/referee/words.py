"""Russian as players say it: players' colours by case, counts with the right plural form.

The referee, the CLI and the table companion's page all write sentences about players and
counts; the rules of the language live here, once. A player is named by the colour of their
combine, an adjective used as a noun (Красный = the red player): it declines like one —
«ход Красного», «обмен с Красным», «напал на Синего». A count takes the form CLDR's plural
rules give Russian: one (1, 21, 101), few (2–4, 22–24) and many (5–20, 25, 11–14, 0).
The page receives the declined names with the catalog (``/api/catalog``) and applies the same
plural rule (tested against this one).

>>> declined("Красный", "ins"), declined("Синий", "acc"), declined("Жёлтый", "dat")
('Красным', 'Синего', 'Жёлтому')
>>> counted(1, ("фишка", "фишки", "фишек")), counted(3, ("фишка", "фишки", "фишек"))
('1 фишка', '3 фишки')
>>> counted(11, ("фишка", "фишки", "фишек")), counted(21, ("фишка", "фишки", "фишек"))
('11 фишек', '21 фишка')
"""

from __future__ import annotations

from typing import Final, Literal

__all__ = ["CASES", "Case", "counted", "declensions", "declined", "plural_form"]

Case = Literal["nom", "gen", "dat", "acc", "ins", "prep"]
#: The six cases, in the order grammars list them.
CASES: Final[tuple[Case, ...]] = ("nom", "gen", "dat", "acc", "ins", "prep")

# Masculine adjective endings (a player is «игрок», masculine and animate: acc = gen). Hard
# stems (-ый, -ой), soft (-ий after н: Синий), and -ий after a velar or hissing consonant
# (Жаркий, Свежий), which take the hard endings but keep -и- in the instrumental.
_HARD: Final = {"gen": "ого", "dat": "ому", "acc": "ого", "ins": "ым", "prep": "ом"}
_SOFT: Final = {"gen": "его", "dat": "ему", "acc": "его", "ins": "им", "prep": "ем"}
_VELAR: Final = {"gen": "ого", "dat": "ому", "acc": "ого", "ins": "им", "prep": "ом"}
_HISSING: Final = {"gen": "его", "dat": "ему", "acc": "его", "ins": "им", "prep": "ем"}


def declined(name: str, case: Case) -> str:
    """A player's Russian colour name (an adjective used as a noun) in ``case``.

    A name that is no masculine adjective (a designer's «Индиго») does not decline.
    """
    if case == "nom" or len(name) < 4:
        return name
    stem, ending = name[:-2], name[-2:]
    if ending in ("ый", "ой"):
        table = _HARD
    elif ending == "ий":
        last = stem[-1:].lower()
        table = _VELAR if last in "кгх" else _HISSING if last in "жшчщ" else _SOFT
    else:
        return name
    return stem + table[case]


def declensions(name: str) -> dict[Case, str]:
    """Every case of a player's colour name (what the page is given)."""
    return {case: declined(name, case) for case in CASES}


def plural_form(count: int) -> int:
    """Which of the three Russian forms a count takes: 0 one, 1 few, 2 many (CLDR, integers)."""
    n = abs(count)
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def counted(count: int, forms: tuple[str, str, str]) -> str:
    """``count`` and the noun in the form it takes: ``counted(2, ("фишка", "фишки", "фишек"))``."""
    return f"{count} {forms[plural_form(count)]}"
