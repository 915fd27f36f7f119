"""The designer's preview: the card being edited as a PNG, drawn again at every save.

:class:`CardPreview` follows one catalog directory — the game's catalog or a deck pack. It keeps
the last valid version (its cards, and the PNGs drawn from it); :meth:`CardPreview.refresh`
reads the directory again and, when it is invalid, keeps the last good version and holds the
located errors, which the page shows above the picture. :meth:`CardPreview.changes` is the
event stream's source: an async iterator that waits for the operating system's file events
(watchfiles) and yields the new state after each save.

The PNG of a face is drawn as the PNG export draws it (the kit's face functions, rasterised
by pdfium: the ``export`` extra).
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.decks import is_deck_pack
from mhp_cards.errors import ApiError
from mhp_cards.pdf.cards import CardDesign, card_designs
from mhp_cards.pdf.layout import SheetProfile, Templates, load_profile, load_templates
from mhp_cards.pdf.pack_cards import PackSource, pack_designs, pack_sheets
from mhp_cards.resources import default_catalog_dir

__all__ = ["DPI", "CardPreview"]

#: The resolution of the preview's pictures: sharp on a laptop, quick to draw.
DPI: Final = 150
_SIDES: Final = ("front", "back")


@dataclass(frozen=True, slots=True)
class _Version:
    number: int
    source: Catalog | PackSource
    errors: tuple[str, ...] = ()


class CardPreview:
    """One catalog directory followed for the preview page (see the module)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or default_catalog_dir()
        self._lock = threading.Lock()
        self._good: _Version | None = None
        self._errors: tuple[str, ...] = ()
        self._number = 0
        self._pictures: dict[tuple[int, str, str, str], bytes] = {}
        self._layouts: dict[int, tuple[SheetProfile, Templates]] = {}
        self.refresh()

    def refresh(self) -> dict[str, Any]:
        """Read the directory again; the state the page shows (see :meth:`state`)."""
        source, errors = self._read()
        with self._lock:
            self._number += 1
            if source is not None:
                self._good = _Version(self._number, source)
                self._pictures.clear()
            self._errors = errors
        return self.state()

    def _read(self) -> tuple[Catalog | PackSource | None, tuple[str, ...]]:
        if is_deck_pack(self.directory):
            from mhp_cards.decks.load import validate_pack  # noqa: PLC0415 (a pack only)

            checked = validate_pack(self.directory)
            if checked.pack is None:
                return None, tuple(str(issue) for issue in checked.issues)
            return PackSource(checked.pack, self.directory), ()
        from mhp_cards.validate import validate_catalog  # noqa: PLC0415 (the game only)

        validation = validate_catalog(self.directory, cached=False)
        if validation.catalog is None:
            return None, tuple(str(issue) for issue in validation.errors)
        return validation.catalog, ()

    def state(self) -> dict[str, Any]:
        """``{version, directory, valid, errors, cards: [{id, deck, name}]}`` for the page.

        ``version`` counts the readings; ``cards`` are those of the last valid one (none when
        the directory never was valid), ``errors`` the located problems of the last reading.
        """
        with self._lock:
            good, errors, number = self._good, self._errors, self._number
        cards = [] if good is None else self._designs(good, "ru")
        return {
            "version": number,
            "directory": str(self.directory),
            "valid": not errors,
            "errors": list(errors),
            "cards": [{"id": d.id, "deck": d.deck, "name": d.name} for d in cards],
        }

    def picture(self, card: str, side: str = "front", lang: str = "ru") -> bytes:
        """The PNG of one face of ``card`` in the last valid version (ApiError 404/400)."""
        if side not in _SIDES:
            raise ApiError(400, "bad-request", f"side is front or back, not {side!r}")
        if lang not in ("ru", "en"):
            raise ApiError(400, "bad-request", f"lang is ru or en, not {lang!r}")
        with self._lock:
            good = self._good
        if good is None:
            raise ApiError(404, "no-catalog", "the catalog has never been valid: see its errors")
        key = (good.number, card, side, lang)
        cached = self._pictures.get(key)
        if cached is not None:
            return cached
        design = next((d for d in self._designs(good, lang) if d.id == card), None)
        if design is None:
            raise ApiError(404, "not-found", f"no card {card!r} in the catalog")
        data = self._draw(good, design, side, lang)
        with self._lock:
            if self._good is good:
                self._pictures[key] = data
        return data

    def _designs(self, version: _Version, lang: str) -> tuple[CardDesign, ...]:
        if isinstance(version.source, PackSource):
            return pack_designs(version.source, lang)
        return card_designs(version.source, lang, self.directory)

    def _sheets(self, version: _Version) -> tuple[SheetProfile, Templates]:
        """The sheet profile and templates of a version, read once for all its pictures."""
        with self._lock:
            cached = self._layouts.get(version.number)
        if cached is not None:
            return cached
        profile = load_profile("a4")
        if isinstance(version.source, PackSource):
            sheets = pack_sheets(version.source.pack.decks, profile)
        else:
            sheets = (profile, load_templates(profile))
        with self._lock:
            self._layouts = {version.number: sheets}  # only the current version's
        return sheets

    def _draw(self, version: _Version, design: CardDesign, side: str, lang: str) -> bytes:
        try:
            from mhp_cards.pdf.raster import (  # noqa: PLC0415 (pdfium: the export extra)
                MM_PER_INCH,
                FaceJob,
                png_bytes,
                rasterise,
                sketch_faces,
            )

            profile, templates = self._sheets(version)
            face = design.front if side == "front" else design.back
            pages = sketch_faces([FaceJob(face, design.kind)], profile, templates, lang)
            [image] = rasterise(pages, [DPI / MM_PER_INCH])
        except ImportError:
            raise ApiError(
                501,
                "not-installed",
                "the preview draws with pdfium: pip install 'mhp-cards[export]'",
            ) from None
        return png_bytes(image, DPI)

    async def changes(self) -> AsyncIterator[dict[str, Any]]:
        """The state after each save in the directory, for as long as the caller listens."""
        from starlette.concurrency import run_in_threadpool  # noqa: PLC0415

        try:
            from watchfiles import awatch  # noqa: PLC0415 (the watch extra)
        except ImportError:
            raise ApiError(
                501,
                "not-installed",
                "the preview follows saves with: pip install 'mhp-cards[watch]'",
            ) from None
        async for _ in awatch(self.directory, debounce=50, step=20):
            yield await run_in_threadpool(self.refresh)
