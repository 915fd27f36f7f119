"""The print-and-play kit as PDF: the only package that imports reportlab.

>>> from mhp_cards.pdf import SECTIONS
>>> SECTIONS[:3]
('cover', 'rules', 'calibration')
"""

from mhp_cards.pdf.kit import SECTIONS, KitError, KitFile, KitResult, build_kit, plan_kit
from mhp_cards.pdf.typeset import TypesetError

__all__ = ["SECTIONS", "KitError", "KitFile", "KitResult", "TypesetError", "build_kit", "plan_kit"]
