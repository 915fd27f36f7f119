"""Layouts as data: sheet profiles and card face templates, read and checked with located errors.

A *sheet profile* (``layouts/sheets/*.yaml``) says how cards are imposed on paper: page size
and orientation, margins, gutter, bleed, crop marks and cut lines, duplex flip and the
printer's front/back offset, and the size of each kind of card. A profile may ``extends:``
another and change only what differs.

A *template* (``layouts/templates.yaml``) names the regions of each card face in millimetres
from the card's top-left corner, with the text size each region starts at and the smallest it
may shrink to. Templates may ``extends:`` one another too. The designer moves the formula of a
raw card by editing a number here, not Python.

Everything is in millimetres, y downwards from the top-left corner of the page or card; only the
PDF renderer converts to points.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import jsonschema
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    model_validator,
)

from mhp_cards.catalog.schema import document_fields, schema_for
from mhp_cards.errors import LayoutError
from mhp_cards.issues import Issue
from mhp_cards.pdf.manifest import MANIFEST_SCHEMA, Manifest
from mhp_cards.resources import default_layouts_dir
from mhp_cards.validate.schema_issues import model_issues, schema_issues
from mhp_cards.yamldoc import YamlDocument, read_yaml_file

__all__ = [
    "CARD_SIZE_KINDS",
    "PAGE_SIZES",
    "CardSize",
    "LayoutError",
    "Region",
    "SheetProfile",
    "Template",
    "Templates",
    "layout_schemas",
    "load_profile",
    "load_templates",
]

#: Built-in page sizes in mm (width, height), portrait.
PAGE_SIZES: Final = {"A4": (210.0, 297.0), "A3": (297.0, 420.0), "Letter": (215.9, 279.4)}
Mm = Annotated[float, Field(ge=0)]

#: Every kind of card and token the kit prints: a sheet profile gives a size for each.
CARD_SIZE_KINDS: Final = (
    "raw",
    "fate",
    "base",
    "warehouse",
    "reactor",
    "mission",
    "aid",
    "coin",
    "chemist",
    "combine",
    "upgrade",
    "die",
)

_HEX_COLOUR: Final = re.compile(r"#[0-9A-Fa-f]{6}")


def _hex_colour(text: str) -> str:
    """``text`` if it is ``#RRGGBB``, else a ValueError saying what is wrong and what is right."""
    if _HEX_COLOUR.fullmatch(text):
        return text
    body = text[1:] if text.startswith("#") else text
    if not text.startswith("#"):
        wrong = "does not start with #"
    elif len(body) != 6:
        wrong = f"has {len(body)} hex digit{'s' if len(body) != 1 else ''} after #, not 6"
    else:
        bad = next(char for char in body if char not in "0123456789ABCDEFabcdef")
        wrong = f"has {bad!r}, which is not a hex digit (0-9, A-F)"
    raise ValueError(f"{text!r} is not a colour: it {wrong}; write #RRGGBB, e.g. #2E5E8C")


#: A colour as ``#RRGGBB`` (six hex digits), read strictly: ``#F3F5F`` is an error, not a guess.
Colour = Annotated[
    str,
    AfterValidator(_hex_colour),
    Field(json_schema_extra={"pattern": "^#[0-9A-Fa-f]{6}$"}),
]


class Model(BaseModel):
    """Base of the layout models: immutable, no unknown keys."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __eq__(self, other: object) -> bool:
        # Equal by their fields: where a value was written (a private source) is no part of it.
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash((type(self), *map(_hashable, self.__dict__.values())))


def _hashable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((key, _hashable(item)) for key, item in value.items()))
    if isinstance(value, list):
        return tuple(_hashable(item) for item in value)
    return value


class CardSize(Model):
    """Trimmed size of a card (or token) in mm."""

    width: Annotated[float, Field(gt=0)]
    height: Annotated[float, Field(gt=0)]
    shape: Literal["rectangle", "circle"] = "rectangle"
    corner_radius: Mm = 0.0


class Margins(Model):
    """Page margins in mm; keep them at least as wide as the printer's hard margins."""

    top: Mm
    right: Mm
    bottom: Mm
    left: Mm


class Page(Model):
    """The paper: a named size or a custom one, and its orientation."""

    size: Literal["A4", "A3", "Letter", "custom"] = "A4"
    width: Annotated[float | None, Field(gt=0)] = None
    height: Annotated[float | None, Field(gt=0)] = None
    orientation: Literal["portrait", "landscape"] = "portrait"

    @property
    def dimensions(self) -> tuple[float, float]:
        """(width, height) in mm after orientation."""
        if self.size == "custom":
            if self.width is None or self.height is None:
                raise ValueError("a custom page needs width and height")
            width, height = self.width, self.height
        else:
            width, height = PAGE_SIZES[self.size]
        if self.orientation == "landscape":
            width, height = max(width, height), min(width, height)
        else:
            width, height = min(width, height), max(width, height)
        return width, height


class Offset(Model):
    """A shift in mm (x to the right, y downwards)."""

    x: float = 0.0
    y: float = 0.0


class Duplex(Model):
    """How the paper turns between front and back, and the printer's measured offset."""

    mode: Literal["long-edge", "short-edge", "none"] = "long-edge"
    back_offset: Offset = Offset()
    """Shift applied to every back, from the calibration page."""


class CropMarks(Model):
    """Marks in the margins that show where to cut, aligned with the card edges."""

    enabled: bool = True
    length: Annotated[float, Field(gt=0)] = 5.0
    gap: Mm = 1.0
    """Distance between the outermost cards and the start of a mark."""


class SheetProfile(Model):
    """How cards are imposed on sheets of paper."""

    name: str
    description: str = ""
    page: Page = Page()
    margins: Margins
    printer_margin: Mm = 4.0
    """Hard margin the printer cannot print in; margins narrower than this are an error."""
    gutter: Mm = 3.0
    """Space between the cut lines of neighbouring cards. It holds both cards' bleeds, so it is at
    least twice the bleed; exactly twice, the bleeds meet and each card is cut on its own lines."""
    bleed: Mm = 0.0
    """Printed area beyond the cut line on every side of a card."""
    spill: Mm = 0.0
    """On a profile without bleed (home printing): how far backs and full-bleed faces run past
    the cut line into the gutter, so that a duplex offset or a cut off the line shows no white
    edge. Unlike a bleed it does not widen the gutter: neighbouring spills may overlap."""
    crop_marks: CropMarks = CropMarks()
    cut_lines: bool = True
    """Draw a hairline on the cut line of every card."""
    duplex: Duplex = Duplex()
    card_sizes: Mapping[str, CardSize]
    templates: str = "templates.yaml"
    """The card face templates to use, relative to the profile's directory."""

    @property
    def reach(self) -> float:
        """How far a card's art runs past its cut line: the bleed, else the spill."""
        return self.bleed if self.bleed > 0 else self.spill

    _written: tuple[tuple[str, YamlDocument], ...] = PrivateAttr(default=())

    def where(self, *path: str) -> str:
        """``file:line:column`` of the profile file that wrote ``path`` (or its nearest parent).

        Build messages name it, so that a designer finds the number at fault: the file that
        extends another wins, as in the merged profile. Empty for a profile not read from files.
        """
        for file, document in self._written:
            if path in document.keys or path[:1] in document.keys:
                line, column = document.locate(path, at_key=True)
                return f"{file}:{line}:{column}"
        return ""


class Region(Model):
    """A named area of a card face, in mm from the card's top-left corner, with its text style."""

    x: float
    y: float
    width: Annotated[float, Field(gt=0)]
    height: Annotated[float, Field(gt=0)]
    size: Annotated[float, Field(gt=0)] = 9.0
    """Text size in points to start with."""
    min_size: Annotated[float, Field(gt=0)] = 5.0
    """Smallest text size before the text counts as not fitting."""
    bold: bool = False
    align: Literal["left", "center", "right"] = "center"
    valign: Literal["top", "middle", "bottom"] = "middle"
    colour: Colour | None = None
    """Text colour as #RRGGBB (default: the template's ink)."""
    paragraph_gap: Annotated[float, Field(ge=0)] = 0.0
    """Extra space between paragraphs, in lines."""
    fit: Literal["contain", "cover", "fill"] = "contain"
    """How a picture drawn in the region meets it (an ``art`` region): whole inside it,
    filling it and cut at its edges, or stretched to it."""
    _source: str = PrivateAttr(default="")

    @property
    def source(self) -> str:
        """``file:line:column`` of the templates file that wrote this region ('' if unknown)."""
        return self._source

    @model_validator(mode="after")
    def _shrinks_below_its_size(self) -> Region:
        if self.min_size > self.size:
            raise ValueError(
                f"min_size {self.min_size:g} pt is larger than size {self.size:g} pt; text starts "
                f"at size and may only shrink: make min_size at most {self.size:g}"
            )
        return self

    @classmethod
    def text_block(
        cls,
        x: float,
        y: float,
        width: float,
        height: float,
        size: float,
        *,
        min_size: float,
        align: Literal["left", "center", "right"] = "left",
    ) -> Region:
        """A block of text on a page (not a card face): set from its top, left-aligned."""
        return cls(
            x=x,
            y=y,
            width=width,
            height=height,
            size=size,
            min_size=min_size,
            align=align,
            valign="top",
        )


class Template(Model):
    """The regions and colours of one card face."""

    regions: Mapping[str, Region] = {}
    ink: Colour = "#231F20"
    paper: Colour = "#FFFFFF"
    accent: Colour = "#B5462E"


class Templates(Model):
    """Every card face template by name."""

    templates: Mapping[str, Template]

    def __getitem__(self, name: str) -> Template:
        return self.templates[name]


# Loading with extends, located errors ------------------------------------------------------------


class _PartialProfile(Model):
    """A profile file as written: everything optional, ``extends`` allowed."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    extends: str | None = None
    name: str | None = None
    description: str | None = None
    page: dict[str, Any] | None = None
    margins: dict[str, Any] | None = None
    printer_margin: float | None = None
    gutter: float | None = None
    bleed: float | None = None
    spill: float | None = None
    crop_marks: dict[str, Any] | None = None
    cut_lines: bool | None = None
    duplex: dict[str, Any] | None = None
    card_sizes: dict[str, Any] | None = None
    templates: str | None = None


def _merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _find(name_or_path: str, near: Path | None, kind: str) -> Path:
    candidate = Path(name_or_path)
    if candidate.suffix in (".yaml", ".yml"):
        for base in (near, Path.cwd()):
            if base is not None and (base / candidate).is_file():
                return base / candidate
        if candidate.is_file():
            return candidate
    else:
        for base in (near, default_layouts_dir() / "sheets"):
            if base is not None and (base / f"{name_or_path}.yaml").is_file():
                return base / f"{name_or_path}.yaml"
    known = sorted(p.stem for p in (default_layouts_dir() / "sheets").glob("*.yaml"))
    raise LayoutError(
        (
            Issue(
                "layout",
                f"no {kind} {name_or_path!r}",
                file=name_or_path,
                hint=f"give a file path or one of: {', '.join(known)}",
            ),
        )
    )


@dataclass(frozen=True, slots=True)
class _Source:
    path: Path
    document: YamlDocument


def _read(path: Path) -> _Source:
    document, issues = read_yaml_file(path)
    if document is None or issues:
        raise LayoutError(tuple(issues))
    if not isinstance(document.data, dict):
        raise LayoutError(
            (Issue("layout", "expected a mapping of settings", file=str(path), line=1, column=1),)
        )
    return _Source(path, document)


@cache
def _validator(model: type[BaseModel]) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(model.model_json_schema())


def _schema_issues(source: _Source, model: type[BaseModel]) -> list[Issue]:
    return schema_issues(_validator(model), source.document.data, [source.document], "layout")


def load_profile(name_or_path: str = "a4") -> SheetProfile:
    """A sheet profile by name (``a4``, ``letter``…) or file path, with ``extends`` resolved.

    Raises :class:`LayoutError` with located issues when a file is not a valid profile.
    """
    chain: list[_Source] = []
    seen: set[Path] = set()
    near: Path | None = None
    current: str | None = name_or_path
    while current is not None:
        referrer = chain[-1] if chain else None
        try:
            path = _find(current, near, "sheet profile").resolve()
        except LayoutError as error:
            if referrer is None:
                raise
            line, column = referrer.document.locate(("extends",))
            raise LayoutError(
                (
                    Issue(
                        "layout",
                        f"no sheet profile {current!r} (named by 'extends')",
                        file=str(referrer.path),
                        path=("extends",),
                        line=line,
                        column=column,
                        hint=error.issues[0].hint,
                    ),
                )
            ) from None
        if path in seen:
            assert referrer is not None
            line, column = referrer.document.locate(("extends",))
            raise LayoutError(
                (
                    Issue(
                        "layout",
                        f"'extends: {current}' loops back to {path.name}",
                        file=str(referrer.path),
                        path=("extends",),
                        line=line,
                        column=column,
                        hint="a profile may not extend itself, directly or through others",
                    ),
                )
            )
        seen.add(path)
        source = _read(path)
        issues = _schema_issues(source, _PartialProfile)
        if issues:
            raise LayoutError(tuple(issues))
        chain.append(source)
        near = path.parent
        current = source.document.data.get("extends")
    merged: dict[str, Any] = {}
    for source in reversed(chain):
        merged = _merge(merged, {k: v for k, v in source.document.data.items() if k != "extends"})
    documents = [source.document for source in chain]
    # Each file was checked on its own at the top level; keys nested in its mappings are only
    # known once merged. Wrong values are left to the model, which reads them as merged.
    unknown = schema_issues(
        _validator(SheetProfile), merged, documents, "layout", only=("additionalProperties",)
    )
    if unknown:
        raise LayoutError(tuple(unknown))
    try:
        profile = SheetProfile.model_validate(merged)
    except ValidationError as error:
        raise LayoutError(tuple(model_issues(error, documents, "layout"))) from None
    problems = _profile_problems(profile, chain[0])
    if problems:
        raise LayoutError(tuple(problems))
    profile._written = tuple((str(source.path), source.document) for source in chain)
    return profile


def _profile_problems(profile: SheetProfile, source: _Source) -> list[Issue]:
    issues = []
    missing = [kind for kind in CARD_SIZE_KINDS if kind not in profile.card_sizes]
    if missing:
        line, column = source.document.locate(("card_sizes",), at_key=True)
        issues.append(
            Issue(
                "layout",
                f"no size for {', '.join(missing)}: the kit prints every kind "
                f"of card and token ({', '.join(CARD_SIZE_KINDS)})",
                file=str(source.path),
                path=("card_sizes",),
                line=line,
                column=column,
                hint=f"add e.g. '{missing[0]}: {{width: 10, height: 10}}' under card_sizes, or "
                "start the profile with 'extends: a4' to take the sizes of the home profile",
            )
        )
    for side in ("top", "right", "bottom", "left"):
        margin = getattr(profile.margins, side)
        if margin < profile.printer_margin:
            line, column = source.document.locate(("margins", side))
            issues.append(
                Issue(
                    "layout",
                    f"the {side} margin is {margin} mm, inside the printer's hard margin of "
                    f"{profile.printer_margin} mm",
                    file=str(source.path),
                    path=("margins", side),
                    line=line,
                    column=column,
                    hint=f"use at least {profile.printer_margin} mm",
                )
            )
    if profile.gutter < 2 * profile.bleed and profile.bleed > 0:
        line, column = source.document.locate(("gutter",))
        issues.append(
            Issue(
                "layout",
                f"a gutter of {profile.gutter} mm cannot hold two bleeds of {profile.bleed} mm",
                file=str(source.path),
                path=("gutter",),
                line=line,
                column=column,
                hint=f"gutter at least {2 * profile.bleed} mm",
            )
        )
    width, height = profile.page.dimensions
    for kind, size in profile.card_sizes.items():
        usable_w = width - profile.margins.left - profile.margins.right
        usable_h = height - profile.margins.top - profile.margins.bottom
        if size.width + 2 * profile.bleed > usable_w or size.height + 2 * profile.bleed > usable_h:
            line, column = source.document.locate(("card_sizes", kind))
            issues.append(
                Issue(
                    "layout",
                    f"a {kind} card of {size.width}×{size.height} mm does not fit inside the "
                    f"margins of a {width}×{height} mm page",
                    file=str(source.path),
                    path=("card_sizes", kind),
                    line=line,
                    column=column,
                )
            )
    return issues


@cache
def _templates_at(path: Path) -> Templates:
    source = _read(path)
    data = source.document.data
    raw = data.get("templates") if isinstance(data, dict) else None
    if not isinstance(raw, dict):
        raise LayoutError(
            (
                Issue(
                    "layout",
                    "expected 'templates:' with one entry per card face",
                    file=str(path),
                    line=1,
                    column=1,
                ),
            )
        )
    resolved: dict[str, dict[str, Any]] = {}

    def resolve(name: str, trail: tuple[str, ...]) -> dict[str, Any]:
        if name in resolved:
            return resolved[name]
        if name in trail:
            raise LayoutError(
                (
                    Issue(
                        "layout",
                        f"template {name!r} extends itself through {' -> '.join(trail)}",
                        file=str(path),
                        path=("templates", name),
                    ),
                )
            )
        entry = raw.get(name)
        if not isinstance(entry, dict):
            raise LayoutError(
                (
                    Issue(
                        "layout",
                        f"no template {name!r}",
                        file=str(path),
                        path=("templates", trail[-1] if trail else name, "extends"),
                        hint=f"known: {', '.join(sorted(raw))}",
                    ),
                )
            )
        parent = entry.get("extends")
        if parent is not None and not isinstance(parent, str):
            line, column = source.document.locate(("templates", name, "extends"))
            raise LayoutError(
                (
                    Issue(
                        "layout",
                        f"'extends' of template {name!r} must be a template name",
                        file=str(path),
                        path=("templates", name, "extends"),
                        line=line,
                        column=column,
                        hint=f"known: {', '.join(sorted(map(str, raw)))}",
                    ),
                )
            )
        own = {k: v for k, v in entry.items() if k != "extends"}
        merged = _merge(resolve(parent, (*trail, name)), own) if parent else own
        resolved[name] = merged
        return merged

    for name in raw:
        resolve(name, ())
    try:
        templates = Templates.model_validate({"templates": resolved})
    except ValidationError as error:
        raise LayoutError(tuple(model_issues(error, [source.document], "layout"))) from None
    for name, template in templates.templates.items():
        for region_name, region in template.regions.items():
            writer = _region_writer(raw, name, region_name)
            line, column = source.document.locate(
                ("templates", writer, "regions", region_name), at_key=True
            )
            region._source = f"{path}:{line}:{column}"
    return templates


def _region_writer(raw: Mapping[str, Any], name: str, region: str) -> str:
    """The template, along its ``extends`` chain, whose own entry writes ``region``."""
    current: Any = name
    seen: set[str] = set()
    while isinstance(current, str) and current not in seen:
        seen.add(current)
        entry = raw.get(current)
        if not isinstance(entry, dict):
            break
        regions = entry.get("regions")
        if isinstance(regions, dict) and region in regions:
            return current
        current = entry.get("extends")
    return name


def load_templates(profile: SheetProfile, near: Path | None = None) -> Templates:
    """The card face templates a profile names, checked against the profile's card sizes.

    Looked up beside the profile, then in the folder above it (a copied ``layouts/`` keeps its
    profiles in ``sheets/``), then in the defaults. Every template and region of the default
    templates must be there (the faces draw into them), and every region must lie inside its
    card as the profile sizes it; :class:`LayoutError` lists every problem, located.
    """
    for base in (near, near.parent if near is not None else None, default_layouts_dir()):
        if base is not None and (base / profile.templates).is_file():
            path = (base / profile.templates).resolve()
            templates = _templates_at(path)
            problems = _template_problems(templates, profile, path)
            if problems:
                raise LayoutError(tuple(problems))
            return templates
    raise LayoutError(
        (
            Issue(
                "layout",
                f"no templates file {profile.templates!r}",
                file=profile.templates,
                hint=f"sheet profile {profile.name!r} names it in 'templates:'; looked beside "
                "the profile, in the folder above it and among the default layouts",
            ),
        )
    )


#: How far a region may run past its card's edge (mm) before it counts as outside: rounding.
_EDGE_TOLERANCE: Final = 1e-6


def _template_problems(templates: Templates, profile: SheetProfile, path: Path) -> list[Issue]:
    """What is missing from the templates, and regions that do not lie inside their card."""
    document = _read(path).document
    default_path = (default_layouts_dir() / "templates.yaml").resolve()
    default = templates if path == default_path else _templates_at(default_path)
    issues: list[Issue] = []

    def issue(message: str, where: tuple[str | int, ...], hint: str, key: bool = False) -> None:
        line, column = document.locate(where, at_key=key)
        issues.append(
            Issue(
                "layout", message, file=str(path), path=where, line=line, column=column, hint=hint
            )
        )

    for name, template in default.templates.items():
        own = templates.templates.get(name)
        if own is None:
            issue(
                f"no template {name!r}: the kit draws its faces with it",
                ("templates",),
                f"add '{name}:' under templates; it may 'extends:' another one",
                key=True,
            )
            continue
        lacking = [region for region in template.regions if region not in own.regions]
        if lacking:
            issue(
                f"template {name!r} has no region {', '.join(lacking)}: the faces draw into "
                f"{'it' if len(lacking) == 1 else 'them'}",
                ("templates", name),
                f"add '{lacking[0]}: {{x: …, y: …, width: …, height: …}}' under its regions",
                key=True,
            )
    for name, template in templates.templates.items():
        size = profile.card_sizes.get(name.removesuffix("-back"))
        if size is None:
            continue
        for region_name, region in template.regions.items():
            right, bottom = region.x + region.width, region.y + region.height
            inside = (
                region.x >= -_EDGE_TOLERANCE
                and region.y >= -_EDGE_TOLERANCE
                and right <= size.width + _EDGE_TOLERANCE
                and bottom <= size.height + _EDGE_TOLERANCE
            )
            if not inside:
                issue(
                    f"region {region_name!r} of template {name!r} runs from "
                    f"({region.x:g}, {region.y:g}) to ({right:g}, {bottom:g}) mm, outside its "
                    f"{size.width:g}×{size.height:g} mm card (sheet profile {profile.name!r})",
                    ("templates", name, "regions", region_name),
                    f"keep x from 0 to {size.width:g} − width and y from 0 to "
                    f"{size.height:g} − height",
                )
    return issues


# JSON Schema of the layout files, for editors ---------------------------------------------------


def _optional_everywhere(schema: Any) -> Any:
    """The schema with every ``required`` list removed: a file may set only what it changes."""
    if isinstance(schema, dict):
        return {k: _optional_everywhere(v) for k, v in schema.items() if k != "required"}
    if isinstance(schema, list):
        return [_optional_everywhere(item) for item in schema]
    return schema


def layout_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of a sheet profile file, of the templates file and of the kit's manifest.

    The first two allow ``extends`` and leave every field optional, because a file states only
    what it adds to the profile or template it extends; the loader checks the merged result.
    The manifest (``mhp-kit.manifest.json``, written beside the kit) is what the build writes.
    """
    base = "https://mhp-cards.example/schema/"
    document_fields(SheetProfile)
    document_fields(Template)
    sheet = _optional_everywhere(SheetProfile.model_json_schema())
    sheet["properties"]["extends"] = {
        "type": "string",
        "description": "A profile to start from: a name (a4) or a file.",
    }
    template = _optional_everywhere(Template.model_json_schema())
    template["properties"]["extends"] = {
        "type": "string",
        "description": "A template to start from.",
    }
    defs = template.pop("$defs", {})
    templates = {
        "$defs": {**defs, "Template": template},
        "additionalProperties": False,
        "properties": {
            "templates": {"additionalProperties": {"$ref": "#/$defs/Template"}, "type": "object"}
        },
        "title": "Templates",
        "type": "object",
    }
    draft = "https://json-schema.org/draft/2020-12/schema"
    return {
        "sheet.schema.json": {"$schema": draft, "$id": base + "sheet.schema.json", **sheet},
        "templates.schema.json": {
            "$schema": draft,
            "$id": base + "templates.schema.json",
            **templates,
        },
        MANIFEST_SCHEMA: schema_for(Manifest, MANIFEST_SCHEMA),
    }
