"""Letters of other scripts that are drawn like Latin ones: what a mixed-up keyboard types.

One table serves the formula parser (``Н2О`` typed for ``H2O``), the names of raw cards at the
table, and reactor card IDs, whose letters go the other way (a Latin ``A`` typed for ``А``).

>>> "Н2О".translate(TO_LATIN)
'H2O'
>>> CYRILLIC_OF["A"]
'А'
"""

from __future__ import annotations

from typing import Final

__all__ = ["CYRILLIC_OF", "LATIN_OF", "SCRIPT_OF", "TO_LATIN"]

_CYRILLIC: Final = "АВЕКМНОРСТХУаеорсху"
_CYRILLIC_AS_LATIN: Final = "ABEKMHOPCTXYaeopcxy"
_GREEK: Final = "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧον"
_GREEK_AS_LATIN: Final = "ABEZHIKMNOPTYXov"

#: The Latin letter each look-alike stands for.
LATIN_OF: Final[dict[str, str]] = {
    **dict(zip(_CYRILLIC, _CYRILLIC_AS_LATIN, strict=True)),
    **dict(zip(_GREEK, _GREEK_AS_LATIN, strict=True)),
}
#: The script each look-alike belongs to (``"Cyrillic"``, ``"Greek"``).
SCRIPT_OF: Final[dict[str, str]] = {
    **dict.fromkeys(_CYRILLIC, "Cyrillic"),
    **dict.fromkeys(_GREEK, "Greek"),
}
#: ``str.translate`` table from Cyrillic look-alikes to Latin letters.
TO_LATIN: Final = str.maketrans(_CYRILLIC, _CYRILLIC_AS_LATIN)
#: The capital Cyrillic letter each Latin capital look-alike stands for (card IDs).
CYRILLIC_OF: Final[dict[str, str]] = {
    latin: cyrillic
    for cyrillic, latin in zip(_CYRILLIC, _CYRILLIC_AS_LATIN, strict=True)
    if cyrillic.isupper()
}
