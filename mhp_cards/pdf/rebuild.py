"""Rebuilding the kit after an edit: what changed first; a broken catalog changes nothing.

:class:`KitRebuilder` keeps the pages of the last good build. On :meth:`KitRebuilder.rebuild`
it validates the catalog (or the deck pack) again; with errors it reports them, located, and
leaves every PDF as it was. Otherwise it lays the kit out again in two steps:

1. the card sections (everything but the rulebook and the cover, a few hundredths of a second
   each): only the sections whose pages differ from the last build are rendered and written;
2. the rulebook (its worked examples play seeded games: about two seconds), the cover, and
   the combined kit with its manifest, when anything changed.

Each step is one report, so a caller (``mhp build --watch``) shows the cards a designer edits
well within a second of the save, and the rest when it is ready.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from mhp_cards.decks import DECKS_FILE, is_deck_pack
from mhp_cards.decks.load import game_decks, validate_pack
from mhp_cards.errors import KitError, LayoutError
from mhp_cards.fileio import write_files_atomic
from mhp_cards.issues import Issue
from mhp_cards.pdf.ink import InkMode
from mhp_cards.pdf.kit import (
    SECTIONS,
    Section,
    kit_documents,
    plan_decks,
    plan_kit,
    with_back_offset,
)
from mhp_cards.pdf.layout import SheetProfile, load_profile, load_templates
from mhp_cards.pdf.pack_cards import PackSource
from mhp_cards.pdf.render import ColourMode
from mhp_cards.pdf.sketch import PageSketch
from mhp_cards.resources import default_catalog_dir
from mhp_cards.validate import validate_catalog

__all__ = ["SLOW_SECTIONS", "KitRebuilder", "Rebuild"]

#: The sections laid out in the second step: the rulebook plays games; the cover counts pages.
SLOW_SECTIONS: Final = ("cover", "rules")


@dataclass(frozen=True, slots=True)
class Rebuild:
    """One step of a rebuild: what it wrote, or why it wrote nothing."""

    step: str
    """``cards`` (the card sections) or ``kit`` (the rulebook, cover and combined kit)."""
    written: tuple[Path, ...] = ()
    sections: tuple[str, ...] = ()
    """The sections whose pages changed (and were written)."""
    issues: tuple[Issue, ...] = ()
    """The catalog's errors: nothing was written."""
    problems: str = ""
    """Why the kit could not be laid out (text that does not fit…): nothing was written."""
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        """True when the step wrote nothing because of the catalog or the layout."""
        return bool(self.issues or self.problems)


@dataclass
class KitRebuilder:
    """Builds the kit of a catalog directory (or a deck pack), then rebuilds what changed."""

    catalog_dir: Path | None
    layout: str = "a4"
    lang: str = "ru"
    out_dir: Path = Path("output")
    colour: ColourMode = "rgb"
    back_offset: tuple[float, float] | None = None
    ink: InkMode = "full"
    _pages: dict[str, list[PageSketch]] = field(default_factory=dict, init=False)
    #: A card section was written since the combined kit last was.
    _stale: bool = field(default=False, init=False)

    #: A card section was written since the combined kit last was.
    @property
    def watched(self) -> list[Path]:
        """The files and directories whose edits call for a rebuild."""
        paths = [self.catalog_dir or default_catalog_dir()]
        layout = Path(self.layout)
        if layout.suffix:
            paths.append(layout.parent)
        return paths

    def rebuild(self) -> Iterator[Rebuild]:
        """Validate, lay out and write what changed: one report per step (see the module)."""
        if is_deck_pack(self.catalog_dir):
            yield from self._rebuild_pack()
        else:
            yield from self._rebuild_game()

    def _rebuild_game(self) -> Iterator[Rebuild]:
        start = time.perf_counter()
        validation = validate_catalog(self.catalog_dir)
        catalog = validation.catalog
        if catalog is None:
            yield Rebuild("cards", issues=tuple(validation.errors), seconds=_since(start))
            return
        extra = None
        directory = self.catalog_dir or default_catalog_dir()
        if (directory / DECKS_FILE).is_file():
            decks = game_decks(directory, catalog.components.fate_cards.count, SECTIONS)
            if decks.pack is None:
                errors = tuple(issue for issue in decks.issues if issue.severity == "error")
                yield Rebuild("cards", issues=errors, seconds=_since(start))
                return
            extra = PackSource(decks.pack, directory)
        try:
            profile = with_back_offset(load_profile(self.layout), self.back_offset)
            layout = Path(self.layout)
            templates = load_templates(profile, layout.parent if layout.suffix else None)
            fast = [name for name in SECTIONS if name not in SLOW_SECTIONS]
            cards = plan_kit(
                catalog,
                profile,
                templates,
                self.lang,
                [*fast, *_decks(extra)],
                ink=self.ink,
                extra=extra,
            )
        except (KitError, LayoutError) as error:
            yield Rebuild("cards", problems=str(error), seconds=_since(start))
            return
        title, subject = "МАРСХИМПРОМ", _subject("МАРСХИМПРОМ", self.lang)
        yield self._write("cards", cards, cards, title, subject, start, profile)
        start = time.perf_counter()
        try:
            whole = plan_kit(
                catalog,
                profile,
                templates,
                self.lang,
                ink=self.ink,
                extra=extra,
                art_root=directory,
            )
        except (KitError, LayoutError) as error:
            yield Rebuild("kit", problems=str(error), seconds=_since(start))
            return
        slow = [section for section in whole if section.name in SLOW_SECTIONS]
        yield self._write("kit", slow, whole, title, subject, start, profile)

    def _rebuild_pack(self) -> Iterator[Rebuild]:
        start = time.perf_counter()
        assert self.catalog_dir is not None
        validation = validate_pack(self.catalog_dir)
        pack = validation.pack
        if pack is None:
            errors = tuple(issue for issue in validation.issues if issue.severity == "error")
            yield Rebuild("cards", issues=errors, seconds=_since(start))
            return
        try:
            profile = with_back_offset(load_profile(self.layout), self.back_offset)
            decks = plan_decks(pack, profile, self.lang, ink=self.ink, root=self.catalog_dir)
        except (KitError, LayoutError) as error:
            yield Rebuild("cards", problems=str(error), seconds=_since(start))
            return
        title = pack.title.get(self.lang)
        subject = _subject(title, self.lang)
        yield self._write("cards", decks, decks, title, subject, start, profile)
        yield self._write("kit", [], decks, title, subject, time.perf_counter(), profile)

    def _write(
        self,
        step: str,
        candidates: Sequence[Section],
        whole: Sequence[Section],
        title: str,
        subject: str,
        start: float,
        profile: SheetProfile,
    ) -> Rebuild:
        """Render and write the sections of ``candidates`` whose pages changed.

        The ``kit`` step also writes the combined kit and its manifest, when any section
        changed since they were last written.
        """
        changed = [s for s in candidates if self._pages.get(s.name) != s.pages]
        names = [section.name for section in changed]
        if step == "cards" and changed:
            self._stale = True
        if step == "kit" and (changed or self._stale):
            names.append("kit")
        if not names:
            return Rebuild(step, seconds=_since(start))
        _, rendered = kit_documents(
            whole, self.out_dir, title, subject, self.lang, self.colour, profile, names=names
        )
        write_files_atomic(rendered)
        for section in changed:
            self._pages[section.name] = section.pages
        if step == "kit":
            self._stale = False
        return Rebuild(
            step,
            written=tuple(rendered),
            sections=tuple(section.name for section in changed),
            seconds=_since(start),
        )


def _decks(extra: PackSource | None) -> list[str]:
    return [] if extra is None else [deck.id for deck in extra.pack.decks]


def _since(start: float) -> float:
    return time.perf_counter() - start


def _subject(title: str, lang: str) -> str:
    return f"{title} print-and-play kit" if lang == "en" else f"{title}: набор для печати"
