"""Which directory is a deck pack: a check that reads no YAML (``mhp validate`` starts fast)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

__all__ = ["DECKS_FILE", "is_deck_pack"]

#: The file of a deck pack.
DECKS_FILE: Final = "decks.yaml"
#: A file only a game catalog has: a directory with it is not a deck pack.
_GAME_FILE: Final = "raw_materials.yaml"


def is_deck_pack(directory: Path | str | None) -> bool:
    """Whether ``directory`` holds a deck pack (``decks.yaml`` and no game of its own)."""
    if directory is None:
        return False
    root = Path(directory)
    return (root / DECKS_FILE).is_file() and not (root / _GAME_FILE).exists()
