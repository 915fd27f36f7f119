"""The catalog files a check can read, and their names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mhp_cards.catalog.models import (
    Catalog,
    Components,
    DesignRules,
    Installation,
    Mission,
    RawMaterial,
    ReactorCard,
    Substance,
    ValueRules,
)

__all__ = ["COMPONENTS", "INSTALLATIONS", "MISSIONS", "RAW", "SUBSTANCES", "Parts"]

SUBSTANCES: Final = "substances.yaml"
RAW: Final = "raw_materials.yaml"
INSTALLATIONS: Final = "installations.yaml"
MISSIONS: Final = "missions.yaml"
COMPONENTS: Final = "components.yaml"


@dataclass(frozen=True, slots=True)
class Parts:
    """The catalog files that could be read (None for a file with structural errors)."""

    substances: tuple[Substance, ...] | None = None
    raw_materials: tuple[RawMaterial, ...] | None = None
    installations: tuple[Installation, ...] | None = None
    electrolysers: tuple[ReactorCard, ...] | None = None
    missions: tuple[Mission, ...] | None = None
    components: Components | None = None
    value_rules: ValueRules | None = None
    design: DesignRules | None = None

    def box(self) -> Catalog:
        """The parts play needs, as a catalog value, whatever else is missing.

        Raw cards, installations, electrolysers and prices: what
        :mod:`mhp_cards.assembly.played` lays out. Built without validation (the parts are
        validated already); missions and components are left out.
        """
        return Catalog.model_construct(
            schema_version=1,
            substances=self.substances or (),
            raw_materials=self.raw_materials or (),
            installations=self.installations or (),
            electrolysers=self.electrolysers or (),
            missions=(),
            components=self.components,  # type: ignore[arg-type]  # None is not read
        )

    def catalog(self) -> Catalog | None:
        """The whole catalog, when every part is there."""
        if (
            self.substances is None
            or self.raw_materials is None
            or self.installations is None
            or self.electrolysers is None
            or self.missions is None
            or self.components is None
        ):
            return None
        return Catalog(
            substances=self.substances,
            raw_materials=self.raw_materials,
            installations=self.installations,
            electrolysers=self.electrolysers,
            missions=self.missions,
            components=self.components,
            design=self.design,
        )
