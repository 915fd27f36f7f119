"""The base of the catalog's models: frozen, no unknown fields, and the field types they share.

Every record of the catalog (:mod:`mhp_cards.catalog.models`, the box's components in
:mod:`mhp_cards.catalog.box`, the design's bands in :mod:`mhp_cards.catalog.design`) is a
:class:`Model`; names come in Russian and English (:class:`Names`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Self

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Count", "FormulaText", "Model", "Names", "Positive", "ReactionText", "Slug"]


class Model(BaseModel):
    """Base of the catalog models: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy with ``update`` applied; lookups cached on this model are not carried over."""
        copy = super().model_copy(update=update, deep=deep)
        fields = type(self).model_fields
        for name in [name for name in copy.__dict__ if name not in fields]:
            del copy.__dict__[name]  # a cached_property value computed from the old fields
        return copy


FormulaText = Annotated[
    str,
    Field(
        min_length=1,
        description="A chemical formula (grammar of mhp_cards.parse_formula), e.g. CaSO4·2H2O.",
        examples=["Fe2O3", "CaSO4·2H2O", "KFe3(SO4)2(OH)6"],
    ),
]


ReactionText = Annotated[
    str,
    Field(
        min_length=1,
        description="A balanced equation (grammar of mhp_cards.parse_reaction).",
        examples=["CO2 + 4 H2 -> CH4 + 2 H2O"],
    ),
]


Slug = Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*$", examples=["hematite"])]


Count = Annotated[int, Field(ge=0)]


Positive = Annotated[int, Field(ge=1)]


class Names(Model):
    """A name in Russian (the game's language) and in English."""

    ru: Annotated[str, Field(min_length=1)]
    en: Annotated[str, Field(min_length=1)]

    def get(self, lang: str) -> str:
        """The name in ``lang`` (``ru`` or ``en``)."""
        return self.en if lang == "en" else self.ru
