"""Draws the five landscape pictures of the nature cards (run once; the PNGs are committed).

Flat shapes on a sky gradient, 600 × 300 pixels: python examples/terra-former/art/draw.py
"""

from __future__ import annotations

import random
from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
SIZE = (600, 300)


def _sky(
    draw: ImageDraw.ImageDraw, top: tuple[int, int, int], bottom: tuple[int, int, int]
) -> None:
    for y in range(SIZE[1]):
        share = y / SIZE[1]
        colour = tuple(round(a + (b - a) * share) for a, b in zip(top, bottom, strict=True))
        draw.line([(0, y), (SIZE[0], y)], fill=colour)


def forest(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """Conifers on a green floor."""
    _sky(draw, (150, 196, 230), (214, 232, 240))
    draw.rectangle([0, 220, 600, 300], fill=(74, 110, 52))
    for _ in range(26):
        x, height = rng.randrange(-20, 620), rng.randrange(90, 170)
        draw.rectangle([x - 4, 260 - 20, x + 4, 262], fill=(92, 64, 40))
        draw.polygon([(x, 260 - height), (x - 28, 245), (x + 28, 245)], fill=(36, 92, 52))


def steppe(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """Dry grass under the sun."""
    _sky(draw, (120, 180, 235), (240, 226, 180))
    draw.ellipse([470, 30, 540, 100], fill=(250, 214, 92))
    draw.rectangle([0, 200, 600, 300], fill=(206, 178, 104))
    for _ in range(260):
        x, y = rng.randrange(0, 600), rng.randrange(205, 300)
        draw.line(
            [(x, y), (x + rng.randrange(-6, 7), y - rng.randrange(8, 22))],
            fill=(170, 150, 80),
            width=2,
        )


def lake(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """Still water in a green hollow."""
    _sky(draw, (140, 190, 230), (220, 236, 244))
    draw.rectangle([0, 170, 600, 300], fill=(84, 128, 70))
    draw.ellipse([60, 190, 560, 300], fill=(62, 118, 170))
    for _ in range(12):
        x, y = rng.randrange(120, 500), rng.randrange(215, 285)
        draw.line([(x, y), (x + 40, y)], fill=(140, 184, 220), width=2)


def marsh(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """Reeds and pools."""
    _sky(draw, (170, 190, 200), (226, 230, 222))
    draw.rectangle([0, 210, 600, 300], fill=(96, 112, 64))
    for _ in range(9):
        x, y = rng.randrange(0, 560), rng.randrange(225, 285)
        draw.ellipse([x, y, x + 70, y + 16], fill=(80, 104, 110))
    for _ in range(60):
        x = rng.randrange(0, 600)
        top = rng.randrange(130, 200)
        draw.line([(x, 260), (x, top)], fill=(70, 90, 40), width=3)
        draw.ellipse([x - 4, top - 14, x + 4, top + 8], fill=(110, 72, 40))


def tundra(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """Bare hills over a snowy plain."""
    _sky(draw, (176, 200, 224), (236, 240, 246))
    draw.polygon(
        [(0, 200), (140, 150), (300, 190), (460, 140), (600, 185), (600, 300), (0, 300)],
        fill=(150, 150, 120),
    )
    draw.polygon(
        [(0, 240), (200, 215), (420, 238), (600, 220), (600, 300), (0, 300)], fill=(226, 232, 236)
    )
    for _ in range(40):
        x, y = rng.randrange(0, 600), rng.randrange(245, 300)
        draw.ellipse([x, y, x + 14, y + 6], fill=(196, 176, 120))


def main() -> None:
    """Draw the five pictures beside this file."""
    for number, draw_it in enumerate((forest, steppe, lake, marsh, tundra), start=1):
        picture = Image.new("RGB", SIZE)
        draw_it(ImageDraw.Draw(picture), random.Random(number))
        picture.save(HERE / f"{draw_it.__name__}.png", optimize=True)


if __name__ == "__main__":
    main()
