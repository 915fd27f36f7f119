"""Decks from data: cards with fields, a face template in the layouts' region language, a back.

A deck pack is a catalog directory with a ``decks.yaml`` (and no game of its own): a title and
a list of decks. A deck declares its card size, the fields every card has (text, a number, or
one of fixed choices), a front and a back drawn from named regions — the same regions as
``layouts/templates.yaml`` (mm from the card's top-left corner, a text size that may shrink to
``min_size`` and no further) — each showing one field of the card, or a fixed text, optionally
as a badge (a filled disc or rounded box behind it). Cross-checks between decks are data too:
a field whose values must be those of another deck's field (``refers``), and a field naming
another card of the same deck that must name it back (``opposite``).

A card is written with its fields beside ``id`` and ``copies``, the way a spreadsheet row
holds them::

    - {id: pine, name: {ru: Сосна, en: Scots pine}, role: С, needs: Лс}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from mhp_cards.catalog.base import Names, Slug

__all__ = [
    "RESERVED",
    "Badge",
    "CardSize",
    "Check",
    "Colour",
    "Deck",
    "DeckCard",
    "DeckFace",
    "DeckPack",
    "DeckRegion",
    "FieldSpec",
    "FieldValue",
]

#: A colour as ``#RRGGBB``.
Colour = Annotated[str, Field(pattern=r"^#[0-9A-Fa-f]{6}$", examples=["#3F7D3A"])]
#: Keys of a card that are not its fields.
RESERVED = frozenset({"id", "copies"})
#: A field's value: a text, a number, or a text in both languages.
FieldValue = str | int | Names


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class FieldSpec(_Model):
    """A field every card of the deck has (or may have, when not ``required``)."""

    name: Slug
    type: Literal["text", "number", "choice", "names"] = "text"
    """``text`` one string; ``names`` a text in Russian and English; ``number`` a whole
    number; ``choice`` one of ``choices``."""
    choices: list[str] | None = None
    required: bool = True

    @model_validator(mode="after")
    def _choices_for_a_choice(self) -> FieldSpec:
        if (self.type == "choice") != bool(self.choices):
            raise ValueError(
                "a choice field lists its choices, and only a choice field does: give "
                "`choices: [...]` with type choice, or drop it"
            )
        return self


class Badge(_Model):
    """A shape filled behind a region's text: a disc or a rounded box."""

    shape: Literal["disc", "box"] = "disc"
    fill: Colour | None = None
    """The fill (default: the face's accent)."""


class DeckRegion(_Model):
    """A region of a deck face: where, how big the text, and what it shows."""

    x: float
    y: float
    width: Annotated[float, Field(gt=0)]
    height: Annotated[float, Field(gt=0)]
    size: Annotated[float, Field(gt=0)] = 9.0
    min_size: Annotated[float, Field(gt=0)] = 5.0
    bold: bool = False
    align: Literal["left", "center", "right"] = "center"
    valign: Literal["top", "middle", "bottom"] = "middle"
    colour: Colour | None = None
    field: str | None = None
    """The card field shown (``id`` shows the card's ID)."""
    text: Names | None = None
    """A fixed text, the same on every card."""
    image: str | None = None
    """The card field holding the path of its picture (PNG or JPEG, relative to the pack)."""
    fit: Literal["contain", "cover", "fill"] = "contain"
    """How a picture meets the region: whole inside it (``contain``), filling it and cut at
    its edges (``cover``), or stretched to it (``fill``)."""
    badge: Badge | None = None

    @model_validator(mode="after")
    def _shows_one_thing(self) -> DeckRegion:
        if sum(value is not None for value in (self.field, self.text, self.image)) != 1:
            raise ValueError(
                "a region shows one field (`field: name`), one fixed `text` or one picture "
                "(`image: field`)"
            )
        if self.min_size > self.size:
            raise ValueError(
                f"min_size {self.min_size:g} pt is larger than size {self.size:g} pt: make "
                f"min_size at most {self.size:g}"
            )
        return self


class DeckFace(_Model):
    """One side of the deck's cards: colours, a border, and regions drawn in order."""

    paper: Colour = "#FFFFFF"
    ink: Colour = "#231F20"
    accent: Colour = "#B5462E"
    border: bool = True
    """A thin border in the accent colour just inside the cut line."""
    regions: dict[str, DeckRegion] = {}


class CardSize(_Model):
    """The trimmed card size in mm (poker 63 × 88 by default)."""

    width: Annotated[float, Field(gt=0)] = 63.0
    height: Annotated[float, Field(gt=0)] = 88.0
    corner_radius: Annotated[float, Field(ge=0)] = 3.0


class DeckCard(BaseModel):
    """A card: its ID, how many copies are printed, and its fields (checked against the deck)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    id: Slug
    copies: Annotated[int, Field(ge=1)] = 1

    @property
    def fields(self) -> Mapping[str, Any]:
        """The card's field values as written, by field name."""
        return dict(self.__pydantic_extra__ or {})

    def shown(self, name: str, lang: str) -> str:
        """The text of field ``name`` in ``lang`` ('' when the card leaves it out)."""
        if name == "id":
            return self.id
        value = self.fields.get(name)
        if value is None:
            return ""
        if isinstance(value, Mapping):
            return str(value.get(lang) or value.get("ru") or "")
        return str(value)


class Deck(_Model):
    """A deck: its cards, their fields, a front and a back."""

    id: Slug
    name: Names
    size: CardSize = CardSize()
    fields: list[FieldSpec] = []
    front: DeckFace
    back: DeckFace
    cards: Annotated[list[DeckCard], Field(min_length=1)]

    def field(self, name: str) -> FieldSpec | None:
        """The field called ``name``, if the deck declares one."""
        return next((spec for spec in self.fields if spec.name == name), None)

    @property
    def printed(self) -> int:
        """How many cards the deck prints (copies counted)."""
        return sum(card.copies for card in self.cards)


class Check(_Model):
    """A cross-check between fields of the pack's decks.

    ``refers``: every value of ``deck``.``field`` is a value of ``to``'s field (written
    ``deck.field``; ``deck.id`` for the card IDs). ``opposite``: ``deck``.``field`` names
    another card of the same deck, whose ``field`` names this card back.
    """

    kind: Literal["refers", "opposite"]
    deck: Slug
    field: str
    to: str | None = None
    """``deck.field`` for ``refers``."""

    @model_validator(mode="after")
    def _target(self) -> Check:
        if self.kind == "refers" and (self.to is None or self.to.count(".") != 1):
            raise ValueError("a `refers` check names its target as `to: deck.field`")
        if self.kind == "opposite" and self.to is not None:
            raise ValueError("an `opposite` check has no `to`: it looks in its own deck")
        return self


class DeckPack(_Model):
    """A catalog of decks alone: a title, the decks and their cross-checks."""

    title: Names
    decks: Annotated[list[Deck], Field(min_length=1)]
    checks: list[Check] = []

    def deck(self, deck_id: str) -> Deck | None:
        """The deck called ``deck_id``, if any."""
        return next((deck for deck in self.decks if deck.id == deck_id), None)
