"""Where the default catalog and layouts are, installed or in a source checkout.

A wheel carries them inside the package (``mhp_cards/_data``); a source checkout or an
editable install finds them beside the package, at the top of the repository.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["default_catalog_dir", "default_layouts_dir"]

_PACKAGE = Path(__file__).resolve().parent


def _locate(name: str) -> Path:
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the default {name} is not installed with mhp_cards")


def default_catalog_dir() -> Path:
    """The directory of the default game catalog."""
    return _locate("catalog")


def default_layouts_dir() -> Path:
    """The directory of the default sheet profiles and card templates."""
    return _locate("layouts")
