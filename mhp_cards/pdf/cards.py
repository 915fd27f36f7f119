"""Every distinct card design of the game, with its ID, its deck, its copies and both its faces.

The kit prints cards copy by copy; the exports (one PNG per face, Tabletop Simulator decks) and
``mhp build --cards`` need each design once, with a name to find it by. :func:`card_designs`
lists them in the kit's order, drawing with the same functions of :mod:`mhp_cards.pdf.faces`
and the same templates as the kit, so an exported face is the printed face.
:func:`select_cards` reads a list of card IDs as a user types it.

>>> from mhp_cards.validate import load_catalog
>>> designs = card_designs(load_catalog())
>>> [(d.id, d.deck, d.copies) for d in designs[:2]]
[('water-ice', 'raw', 9), ('water-vapour', 'raw', 2)]
>>> [(d.design.id, d.copies) for d in select_cards(designs, "water-ice*2,4A")]
[('water-ice', 2), ('4А', 1)]
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Final, Literal

from mhp_cards.catalog.cardid import ELECTROLYSER, printed_card_id, read_card_id
from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import CardIdError, CardSelectionError
from mhp_cards.pdf import faces, mission_face, raw_face, reactor_face, token_faces
from mhp_cards.pdf.aids import AID_SIDES, aid_side, side_groups
from mhp_cards.pdf.faces import Face
from mhp_cards.pdf.style import t

__all__ = ["DECKS", "CardDesign", "Draw", "Selected", "Side", "card_designs", "select_cards"]

Draw = Callable[[Face], None]

#: The decks of the game, in the kit's order: the cards of one deck share a size and a back.
DECKS: Final = (
    "raw",
    "fate",
    "field",
    "reactors",
    "mission",
    "aids",
    "coins",
    "chemists",
    "combines",
    "upgrades",
)

#: ASCII spellings of the Cyrillic letters of card IDs, for file names.
_ASCII: Final = str.maketrans(
    {"А": "a", "Б": "b", "В": "v", "Г": "g", "Д": "d", "Е": "e", "Ж": "zh", "З": "z", "И": "i"}
)


@dataclass(frozen=True, slots=True)
class Side:
    """One face of a card: its template, its drawing, and a name shared by identical faces."""

    template: str
    draw: Draw
    name: str
    """``raw-water-ice`` for a front, ``raw`` for the back every raw card shares."""


@dataclass(frozen=True, slots=True)
class CardDesign:
    """One distinct card (or token) of the game."""

    id: str
    """What ``mhp build --cards`` accepts: ``water-ice``, ``4А``, ``fate-12``, ``coin``."""
    deck: str
    kind: str
    """The card size of the sheet profile it is printed at (``raw``, ``reactor``, ``coin``)."""
    name: str
    """What a player calls it, in the kit's language."""
    copies: int
    front: Side
    back: Side
    """The back; the front itself for tokens, which show their design on both sides."""


@dataclass(frozen=True, slots=True)
class Selected:
    """A design chosen by :func:`select_cards` and how many copies of it to print."""

    design: CardDesign
    copies: int


def _raw(catalog: Catalog, lang: str, root: Path | None) -> list[CardDesign]:
    back = Side("raw-back", raw_face.raw_back, "raw")
    return [
        CardDesign(
            raw.id,
            "raw",
            "raw",
            raw.name.get(lang),
            raw.copies,
            Side(
                "raw",
                partial(raw_face.raw_front, raw=raw, copy=1, catalog=catalog, root=root),
                f"raw-{raw.id}",
            ),
            back,
        )
        for raw in catalog.raw_materials
    ]


def _fate_and_field(catalog: Catalog, lang: str) -> list[CardDesign]:
    surface = Side("fate-back", faces.mars_surface, "fate")
    designs = [
        CardDesign(
            f"fate-{n}",
            "fate",
            "fate",
            f"{t('fate', lang)} № {n}",
            1,
            surface,  # a field tile: the Mars surface on both faces, no placeholder front
            surface,
        )
        for n in range(1, catalog.components.fate_cards.count + 1)
    ]
    designs.append(
        CardDesign(
            "base",
            "field",
            "base",
            t("base", lang),
            1,
            Side("base", faces.base_card, "base"),
            surface,
        )
    )
    warehouse = partial(faces.base_card, warehouse=True)
    designs.append(
        CardDesign(
            "warehouse",
            "field",
            "warehouse",
            t("warehouse", lang),
            1,
            Side("warehouse", warehouse, "warehouse"),
            surface,
        )
    )
    return designs


def _reactors(catalog: Catalog, lang: str, root: Path | None) -> list[CardDesign]:
    back = Side("reactor-back", reactor_face.reactor_back, "reactor")
    designs = []
    for card in [c for i in catalog.installations for c in i.cards] + list(catalog.electrolysers):
        if card.group == "electrolyser":
            stem = "electrolyser-" + card.id.removeprefix(ELECTROLYSER)
            name = f"{printed_card_id(card.id, lang)} {t('electrolyser', lang)}"
        else:
            stem = "reactor-" + card.id.translate(_ASCII).lower()
            shown = printed_card_id(card.id, lang)
            name = f"{shown} {card.name.get(lang)}" if card.name else shown
        draw = partial(reactor_face.reactor_front, catalog=catalog, card=card, root=root)
        designs.append(
            CardDesign(card.id, "reactors", "reactor", name, 1, Side("reactor", draw, stem), back)
        )
    return designs


def _mission(catalog: Catalog, lang: str, root: Path | None) -> list[CardDesign]:
    back = partial(faces.plain_back, key="missions", card="Mission card back")
    front = partial(mission_face.mission_front, missions=catalog.missions, root=root)
    return [
        CardDesign(
            "mission",
            "mission",
            "mission",
            t("missions", lang),
            1,
            Side("mission", front, "mission"),
            Side("mission-back", back, "mission"),
        )
    ]


def _aids(catalog: Catalog, lang: str) -> list[CardDesign]:
    language: Literal["ru", "en"] = "en" if lang == "en" else "ru"
    front, back = (side_groups(catalog, levels, language) for levels in AID_SIDES)
    title = t("aid_back", language)
    return [
        CardDesign(
            "aid",
            "aids",
            "aid",
            t("aid_item", language),
            len(catalog.components.colours),
            Side(
                "aid", partial(aid_side, title=title, groups=front, card="player aid front"), "aid"
            ),
            Side(
                "aid",
                partial(aid_side, title=title, groups=back, card="player aid back"),
                "aid",
            ),
        )
    ]


def _tokens(catalog: Catalog, lang: str) -> list[CardDesign]:
    components = catalog.components

    def token(
        design_id: str, deck: str, kind: str, name: str, copies: int, draw: Draw, stem: str
    ) -> CardDesign:
        side = Side(kind, draw, stem)
        return CardDesign(design_id, deck, kind, name, copies, side, side)

    designs = [
        token(
            "coin",
            "coins",
            "coin",
            t("coin", lang),
            components.coins.count,
            token_faces.coin,
            "coin",
        )
    ]
    for colour in components.colours:
        designs.append(
            token(
                f"chemist-{colour.id}",
                "chemists",
                "chemist",
                f"{t('chemist', lang)} ({colour.name.get(lang)})",
                components.chemist_tokens.per_player,
                partial(token_faces.chemist, colour=colour),
                f"chemist-{colour.id}",
            )
        )
    for colour in components.colours[: components.combines.count]:
        designs.append(
            token(
                f"combine-{colour.id}",
                "combines",
                "combine",
                f"{t('combines', lang)} ({colour.name.get(lang)})",
                1,
                partial(token_faces.combine, colour=colour),
                f"combine-{colour.id}",
            )
        )
    for upgrade in components.upgrades:
        draw = partial(
            token_faces.upgrade,
            upgrade_id=upgrade.id,
            name=upgrade.name.get(lang),
            price=upgrade.price,
        )
        designs.append(
            token(
                upgrade.id,
                "upgrades",
                "upgrade",
                upgrade.name.get(lang),
                upgrade.count,
                draw,
                f"upgrade-{upgrade.id}",
            )
        )
    return [design for design in designs if design.copies > 0]


def card_designs(
    catalog: Catalog, lang: str = "ru", root: Path | None = None
) -> tuple[CardDesign, ...]:
    """Every distinct card and token of the game, deck by deck in the kit's order.

    ``root``: the catalog's directory, which its cards' pictures are relative to.
    """
    return (
        *_raw(catalog, lang, root),
        *_fate_and_field(catalog, lang),
        *_reactors(catalog, lang, root),
        *_mission(catalog, lang, root),
        *_aids(catalog, lang),
        *_tokens(catalog, lang),
    )


_ITEM: Final = re.compile(r"\s*(?P<id>[^,*]*?)\s*(?:\*\s*(?P<count>[^,]*?)\s*)?(?:,|$)")


def _find(designs: Sequence[CardDesign], text: str) -> CardDesign | None:
    by_id = {design.id.casefold(): design for design in designs}
    if text.casefold() in by_id:
        return by_id[text.casefold()]
    if text.casefold() in ("electrolyser", "electrolyzer", ELECTROLYSER.casefold()):
        return next((d for d in designs if d.id.startswith(ELECTROLYSER)), None)
    try:
        card_id = read_card_id(text)
    except CardIdError:
        return None
    return by_id.get(card_id.text.casefold())


def _families(designs: Sequence[CardDesign]) -> str:
    """The card IDs deck by deck, in short: ``water-ice…ilmenite``."""
    parts = []
    for deck in DECKS:
        ids = [design.id for design in designs if design.deck == deck]
        if ids:
            parts.append(", ".join(ids) if len(ids) <= 3 else f"{ids[0]}…{ids[-1]}")
    return "; ".join(parts)


def select_cards(designs: Sequence[CardDesign], text: str) -> tuple[Selected, ...]:
    """Read ``ID[*N],ID[*N]…``: each named card once, or N times with ``*N``.

    IDs are those of :attr:`CardDesign.id`; a reactor card may be typed with the Latin
    look-alike of its letter (``4A``), and ``electrolyser`` names the first electrolyser.
    A CardSelectionError points at the first ID the catalog does not have and suggests
    the closest ones.
    """
    chosen: list[Selected] = []
    position = 0
    while position < len(text):
        match = _ITEM.match(text, position)
        assert match is not None  # the pattern matches the empty string
        name, count = match.group("id"), match.group("count")
        start = match.start("id")
        if not name:
            raise CardSelectionError(
                "an empty card ID; separate IDs with single commas", text, start
            )
        design = _find(designs, name)
        if design is None:
            close = difflib.get_close_matches(name, [d.id for d in designs], n=3, cutoff=0.6)
            hint = f"did you mean {', '.join(close)}? " if close else ""
            raise CardSelectionError(
                f"no card {name!r} in the catalog; {hint}the IDs are {_families(designs)}",
                text,
                start,
            )
        copies = 1
        if count is not None:
            if not count.isdigit() or int(count) < 1:
                raise CardSelectionError(
                    f"{count!r} is not a number of copies; write {name}*2",
                    text,
                    match.start("count"),
                )
            copies = int(count)
        chosen.append(Selected(design, copies))
        position = match.end()
        if match.group(0).endswith(",") and position == len(text):
            raise CardSelectionError("a comma with no card ID after it", text, position - 1)
    if not chosen:
        raise CardSelectionError("no card IDs given", text, 0)
    return tuple(chosen)
