"""Drawing operations as values: what a page shows, before any PDF exists.

Card faces are drawn onto a :class:`Sketch`, which records operations in millimetres with the
origin at the page's top-left corner. The same record is replayed onto a PDF canvas by
:mod:`mhp_cards.pdf.render` and written as a plain-text log for golden tests, so a change to a
card face shows up as a readable diff.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "Circle",
    "Clip",
    "Image",
    "Line",
    "Mark",
    "Op",
    "PageSketch",
    "Polygon",
    "Rect",
    "Sketch",
    "Text",
    "Unclip",
]

Colour = str  # "#RRGGBB"


def _n(value: float) -> str:
    """A number for the log: two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle (rounded when ``radius`` > 0)."""

    x: float
    y: float
    width: float
    height: float
    fill: Colour | None = None
    stroke: Colour | None = None
    line_width: float = 0.25
    radius: float = 0.0
    dash: tuple[float, ...] = ()

    def log(self) -> str:
        """One line of the golden log."""
        return (
            f"rect {_n(self.x)} {_n(self.y)} {_n(self.width)} {_n(self.height)} r={_n(self.radius)}"
            f" fill={self.fill} stroke={self.stroke} lw={_n(self.line_width)}"
            + (f" dash={','.join(_n(d) for d in self.dash)}" if self.dash else "")
        )


@dataclass(frozen=True, slots=True)
class Circle:
    """A circle."""

    cx: float
    cy: float
    r: float
    fill: Colour | None = None
    stroke: Colour | None = None
    line_width: float = 0.25
    dash: tuple[float, ...] = ()

    def log(self) -> str:
        """One line of the golden log."""
        return (
            f"circle {_n(self.cx)} {_n(self.cy)} {_n(self.r)} fill={self.fill} "
            f"stroke={self.stroke} lw={_n(self.line_width)}"
            + (f" dash={','.join(_n(d) for d in self.dash)}" if self.dash else "")
        )


@dataclass(frozen=True, slots=True)
class Line:
    """A straight line."""

    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Colour = "#000000"
    line_width: float = 0.25
    dash: tuple[float, ...] = ()

    def log(self) -> str:
        """One line of the golden log."""
        return (
            f"line {_n(self.x1)} {_n(self.y1)} {_n(self.x2)} {_n(self.y2)} stroke={self.stroke} "
            f"lw={_n(self.line_width)}"
            + (f" dash={','.join(_n(d) for d in self.dash)}" if self.dash else "")
        )


@dataclass(frozen=True, slots=True)
class Polygon:
    """A closed polygon."""

    points: tuple[tuple[float, float], ...]
    fill: Colour | None = None
    stroke: Colour | None = None
    line_width: float = 0.25

    def log(self) -> str:
        """One line of the golden log."""
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in self.points)
        return f"polygon {points} fill={self.fill} stroke={self.stroke} lw={_n(self.line_width)}"


@dataclass(frozen=True, slots=True)
class Text:
    """A run of text in one font and size, its baseline starting at (x, y)."""

    x: float
    y: float
    text: str
    bold: bool
    size: float
    colour: Colour

    def log(self) -> str:
        """One line of the golden log."""
        weight = "bold" if self.bold else "regular"
        return (
            f"text {_n(self.x)} {_n(self.y)} {weight} {_n(self.size)}pt {self.colour} {self.text!r}"
        )


@dataclass(frozen=True, slots=True)
class Clip:
    """Start clipping to a (rounded) rectangle or a circle; ``Unclip`` ends it."""

    x: float
    y: float
    width: float
    height: float
    radius: float = 0.0
    circle: bool = False

    def log(self) -> str:
        """One line of the golden log."""
        shape = "circle" if self.circle else f"r={_n(self.radius)}"
        return f"clip {_n(self.x)} {_n(self.y)} {_n(self.width)} {_n(self.height)} {shape}"


@dataclass(frozen=True, slots=True)
class Unclip:
    """End the innermost clip."""

    def log(self) -> str:
        """One line of the golden log."""
        return "unclip"


@dataclass(frozen=True, slots=True)
class Mark:
    """A note on the page that draws nothing: where a piece or a place is, for the kit's manifest.

    ``kind`` names what is marked (``"place"``, ``"piece"``, …); ``box`` is (x, y, width, height)
    in page millimetres from the top-left corner, like every other operation; ``data`` holds the
    mark's facts as sorted (key, value) pairs so that the value stays hashable and its log stable.
    """

    kind: str
    box: tuple[float, float, float, float]
    data: tuple[tuple[str, str], ...] = ()

    def log(self) -> str:
        """One line of the golden log."""
        facts = "".join(f" {key}={value}" for key, value in self.data)
        return f"mark {self.kind} " + " ".join(_n(v) for v in self.box) + facts


@dataclass(frozen=True, slots=True)
class Image:
    """A picture file (PNG or JPEG) drawn into a box, stretched to it.

    ``digest`` names the file's content in the log, so a golden log changes when the picture
    does; a PDF stores each picture once however many times it is drawn.
    """

    x: float
    y: float
    width: float
    height: float
    path: str
    digest: str

    def log(self) -> str:
        """One line of the golden log."""
        return (
            f"image {_n(self.x)} {_n(self.y)} {_n(self.width)} {_n(self.height)} "
            f"{self.digest} {self.path.rsplit('/', 1)[-1]}"
        )


Op = Rect | Circle | Line | Polygon | Text | Clip | Unclip | Mark | Image


@dataclass(slots=True)
class PageSketch:
    """One page: its size, what is on it, and its boxes."""

    width: float
    height: float
    label: str
    side: Literal["front", "back", "single"] = "single"
    ops: list[Op] = field(default_factory=list)
    #: (x, y, width, height) of the area of cut cards, for the PDF TrimBox; None: whole page.
    trim: tuple[float, float, float, float] | None = None
    bleed: float = 0.0

    def log(self) -> str:
        """The page as a plain-text log of drawing operations."""
        head = f"page {self.label} {self.side} {_n(self.width)}x{_n(self.height)}"
        if self.trim:
            head += " trim=" + ",".join(_n(v) for v in self.trim) + f" bleed={_n(self.bleed)}"
        return "\n".join([head, *(f"  {op.log()}" for op in self.ops)])


class Sketch:
    """Records drawing operations on the current page, with a movable, scalable origin.

    ``with sketch.at(x, y):`` draws a card in its own coordinates (mm from its top-left);
    ``with sketch.at(x, y, scale=0.5):`` draws it at half size (an assembly guide).
    """

    def __init__(self) -> None:
        self.pages: list[PageSketch] = []
        self._origin = (0.0, 0.0)
        self._scale = 1.0

    @property
    def page(self) -> PageSketch:
        """The page being drawn."""
        return self.pages[-1]

    def new_page(
        self,
        width: float,
        height: float,
        label: str,
        side: Literal["front", "back", "single"] = "single",
    ) -> PageSketch:
        """Start a page."""
        self.pages.append(PageSketch(width, height, label, side))
        self._origin = (0.0, 0.0)
        self._scale = 1.0
        return self.page

    def at(self, x: float, y: float, scale: float = 1.0) -> _Origin:
        """Move the origin to (x, y) (and scale what is drawn) for a ``with`` block."""
        return _Origin(self, x, y, scale)

    def _xy(self, x: float, y: float) -> tuple[float, float]:
        return self._origin[0] + x * self._scale, self._origin[1] + y * self._scale

    def _len(self, value: float) -> float:
        return value * self._scale

    def _dash(self, dash: Sequence[float]) -> tuple[float, ...]:
        return tuple(self._len(d) for d in dash)

    def rect(
        self,
        x: float,
        y: float,
        width: float,
        height: float,
        *,
        fill: Colour | None = None,
        stroke: Colour | None = None,
        line_width: float = 0.25,
        radius: float = 0.0,
        dash: Sequence[float] = (),
    ) -> None:
        """Draw a rectangle."""
        x, y = self._xy(x, y)
        self.page.ops.append(
            Rect(
                x,
                y,
                self._len(width),
                self._len(height),
                fill,
                stroke,
                self._len(line_width),
                self._len(radius),
                self._dash(dash),
            )
        )

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        *,
        fill: Colour | None = None,
        stroke: Colour | None = None,
        line_width: float = 0.25,
        dash: Sequence[float] = (),
    ) -> None:
        """Draw a circle."""
        cx, cy = self._xy(cx, cy)
        self.page.ops.append(
            Circle(cx, cy, self._len(r), fill, stroke, self._len(line_width), self._dash(dash))
        )

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        stroke: Colour = "#000000",
        line_width: float = 0.25,
        dash: Sequence[float] = (),
    ) -> None:
        """Draw a line."""
        x1, y1 = self._xy(x1, y1)
        x2, y2 = self._xy(x2, y2)
        self.page.ops.append(Line(x1, y1, x2, y2, stroke, self._len(line_width), self._dash(dash)))

    def polygon(
        self,
        points: Sequence[tuple[float, float]],
        *,
        fill: Colour | None = None,
        stroke: Colour | None = None,
        line_width: float = 0.25,
    ) -> None:
        """Draw a closed polygon."""
        moved = tuple(self._xy(x, y) for x, y in points)
        self.page.ops.append(Polygon(moved, fill, stroke, self._len(line_width)))

    def clip(
        self,
        x: float,
        y: float,
        width: float,
        height: float,
        *,
        radius: float = 0.0,
        circle: bool = False,
    ) -> _Clipped:
        """Clip what is drawn in a ``with`` block to a rectangle (or the circle inside it)."""
        x, y = self._xy(x, y)
        return _Clipped(
            self, Clip(x, y, self._len(width), self._len(height), self._len(radius), circle)
        )

    def text(
        self, x: float, y: float, text: str, *, bold: bool, size: float, colour: Colour
    ) -> None:
        """Draw one run of text with its baseline starting at (x, y); size in points."""
        x, y = self._xy(x, y)
        self.page.ops.append(Text(x, y, text, bold, self._len(size), colour))

    def image(
        self, x: float, y: float, width: float, height: float, path: str, digest: str
    ) -> None:
        """Draw the picture file ``path`` stretched to the box."""
        x, y = self._xy(x, y)
        self.page.ops.append(Image(x, y, self._len(width), self._len(height), path, digest))

    def mark(self, kind: str, x: float, y: float, width: float, height: float, **data: str) -> None:
        """Note where something is (in the current origin's coordinates), drawing nothing."""
        x, y = self._xy(x, y)
        box = (x, y, self._len(width), self._len(height))
        self.page.ops.append(Mark(kind, box, tuple(sorted(data.items()))))


class _Origin:
    def __init__(self, sketch: Sketch, x: float, y: float, scale: float) -> None:
        self.sketch = sketch
        self.offset = (x, y)
        self.scale = scale
        self.saved: tuple[tuple[float, float], float] = ((0.0, 0.0), 1.0)

    def __enter__(self) -> Sketch:
        sketch = self.sketch
        self.saved = (sketch._origin, sketch._scale)
        sketch._origin = sketch._xy(*self.offset)
        sketch._scale = sketch._scale * self.scale
        return sketch

    def __exit__(self, *exc: object) -> None:
        self.sketch._origin, self.sketch._scale = self.saved


class _Clipped:
    def __init__(self, sketch: Sketch, clip: Clip) -> None:
        self.sketch = sketch
        self.clip = clip

    def __enter__(self) -> Sketch:
        self.sketch.page.ops.append(self.clip)
        return self.sketch

    def __exit__(self, *exc: object) -> None:
        self.sketch.page.ops.append(Unclip())
