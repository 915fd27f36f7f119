"""The kit's fonts: PT Sans (ParaType, made for Russian) from the fontpkg-pt-sans package.

Nothing is taken from the system. PT Sans lacks some characters the kit needs — subscript
digits ₀ ₅–₉, superscripts, arrows, geometric marks — so formulas are typeset with ordinary
digits made smaller and shifted (see :mod:`mhp_cards.pdf.typeset`) and arrows and marks are
drawn as shapes. :meth:`Fonts.missing` is the glyph check every string goes through.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Final

import fontpkg_pt_sans
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

__all__ = ["FONT_NAMES", "Fonts", "fonts"]

MM_PER_POINT: Final = 25.4 / 72
FONT_NAMES: Final = {False: "PTSans-Regular", True: "PTSans-Bold"}
_FILES: Final = {False: "PT_Sans-Web-Regular.ttf", True: "PT_Sans-Web-Bold.ttf"}


class Fonts:
    """Registered fonts, their metrics and their character sets."""

    def __init__(self, directory: Path) -> None:
        self.paths = {bold: directory / name for bold, name in _FILES.items()}
        self._cmaps: dict[bool, frozenset[int]] = {}
        for bold, path in self.paths.items():
            font = TTFont(FONT_NAMES[bold], str(path))
            pdfmetrics.registerFont(font)
            self._cmaps[bold] = frozenset(font.face.charToGlyph)
            if not bold:
                self.ascent = font.face.ascent / 1000
                self.descent = -font.face.descent / 1000
                self.cap_height = getattr(font.face, "capHeight", 700) / 1000

    def width(self, text: str, bold: bool, size: float) -> float:
        """Width of ``text`` in mm at ``size`` points."""
        return pdfmetrics.stringWidth(text, FONT_NAMES[bold], size) * MM_PER_POINT

    def missing(self, text: str, bold: bool = False) -> list[str]:
        """The characters of ``text`` the font cannot draw (in order, without repeats)."""
        cmap = self._cmaps[bold]
        return list(dict.fromkeys(char for char in text if ord(char) not in cmap and char != " "))


@cache
def fonts() -> Fonts:
    """The kit's fonts, registered once per process."""
    return Fonts(Path(fontpkg_pt_sans.ROOT) / "files")
