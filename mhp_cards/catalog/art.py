"""Pictures on cards: which files a catalog names, and whether each is a picture.

A picture is a PNG or JPEG file, or an SVG file read by svglib (the ``art`` extra), named by a
path relative to the catalog's directory: the ``art`` of a raw material, a substance (the
picture of the raw cards of its formula that have none of their own), a reactor card or a
mission, and an ``image`` field of a deck card (:mod:`mhp_cards.decks`). Whether the files are
there is checked apart from the catalog's cached validation: a picture saved again, or one
added, is seen at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.issues import Issue
from mhp_cards.issues import Path as DataPath

if TYPE_CHECKING:  # YAML is read only to locate a problem
    from mhp_cards.yamldoc import YamlDocument

__all__ = [
    "ART_FORMATS",
    "SVG_NEEDS_SVGLIB",
    "art_issues",
    "art_path",
    "art_references",
    "picture_format",
    "picture_problem",
    "svg_size",
]

#: The picture formats a card's art may be in.
ART_FORMATS: Final = ("PNG", "JPEG", "SVG")
#: What :func:`picture_format` says of an SVG file when svglib is missing.
SVG_NEEDS_SVGLIB: Final = "SVG needs svglib"


def art_path(root: Path, value: str) -> Path:
    """Where a picture named ``value`` is: relative to the catalog's directory ``root``."""
    return root / value


def svg_size(path: Path) -> tuple[float, float] | None:
    """The width and height of an SVG picture (svglib reads it), None when it is none.

    ImportError when svglib (the ``art`` extra) is missing.
    """
    from svglib.svglib import svg2rlg  # noqa: PLC0415 (the art extra)

    try:
        drawing = svg2rlg(str(path))
    except Exception:
        return None
    if drawing is None or not drawing.width or not drawing.height:
        return None
    return float(drawing.width), float(drawing.height)


def picture_format(path: Path) -> str | None:
    """The picture format of a file (``PNG``, ``JPEG``, ``SVG``), None when it is no picture."""
    if path.suffix.lower() == ".svg":
        try:
            return "SVG" if svg_size(path) is not None else None
        except ImportError:
            return SVG_NEEDS_SVGLIB
    # Pillow (reportlab's own dependency) is loaded only for a catalog with pictures.
    from PIL import Image, UnidentifiedImageError  # noqa: PLC0415

    try:
        with Image.open(path) as picture:
            return str(picture.format)
    except (UnidentifiedImageError, OSError):
        return None


def picture_problem(root: Path, value: str) -> tuple[str, str, str, str] | None:
    """What is wrong with the picture ``value`` names: (check, message, hint, severity).

    ``art-missing`` (a warning: a placeholder is printed) for a file that is not there; ``art``
    (an error) for an absolute path or a file that is no picture; None when it is fine.
    """
    target = art_path(root, value)
    if Path(value).is_absolute():
        hint = "give it relative to the catalog's directory (art/wolf.png)"
        return ("art", f"picture {value!r} is an absolute path", hint, "error")
    if not target.is_file():
        hint = f"put the file at {target}, or fix the path"
        return (
            "art-missing",
            f"no picture at {value!r}; a placeholder is printed",
            hint,
            "warning",
        )
    kind = picture_format(target)
    if kind == SVG_NEEDS_SVGLIB:
        hint = "pip install 'mhp-cards[art]', or save it as PNG"
        return ("art", f"{value!r} is an SVG picture, which needs svglib", hint, "error")
    if kind not in ART_FORMATS:
        hint = "save the picture as PNG, JPEG or SVG"
        return ("art", f"{value!r} is not a PNG, JPEG or SVG picture", hint, "error")
    return None


def art_references(catalog: Catalog) -> Iterator[tuple[str, DataPath, str, str]]:
    """Every picture the game catalog names: (file, path in it, what has it, the value)."""
    for index, raw in enumerate(catalog.raw_materials):
        if raw.art:
            where: DataPath = ("raw_materials", index, "art")
            yield "raw_materials.yaml", where, f"raw {raw.id}", raw.art
    for index, substance in enumerate(catalog.substances):
        if substance.art:
            where = ("substances", index, "art")
            yield "substances.yaml", where, f"substance {substance.formula}", substance.art
    for i, installation in enumerate(catalog.installations):
        for j, card in enumerate(installation.cards):
            if card.art:
                where = ("installations", i, "cards", j, "art")
                yield "installations.yaml", where, f"card {card.id}", card.art
    for k, card in enumerate(catalog.electrolysers):
        if card.art:
            yield "installations.yaml", ("electrolysers", k, "art"), f"card {card.id}", card.art
    for index, mission in enumerate(catalog.missions):
        if mission.art:
            where = ("mission_card", "missions", index, "art")
            yield "missions.yaml", where, f"mission {mission.id}", mission.art


def art_issues(root: Path, catalog: Catalog) -> list[Issue]:
    """A located issue for each picture of the catalog that is missing or no picture."""
    issues: list[Issue] = []
    documents: dict[str, YamlDocument | None] = {}
    for file, path, owner, value in art_references(catalog):
        problem = picture_problem(root, value)
        if problem is None:
            continue
        check, message, hint, severity = problem
        if file not in documents:
            # YAML is read only to locate a problem: a cached validation reads none.
            from mhp_cards.yamldoc import read_yaml_file  # noqa: PLC0415

            documents[file] = read_yaml_file(root / file, file)[0]
        document = documents[file]
        line = column = None
        if document is not None:
            line, column = document.locate(path)
        issues.append(
            Issue(
                check,
                f"{owner}: {message}",
                file=file,
                path=path,
                line=line,
                column=column,
                hint=hint,
                severity="warning" if severity == "warning" else "error",
            )
        )
    return issues
