"""The exports: every card face as PNG, and the Tabletop Simulator decks, against PDFium alone.

Run ``python benchmarks/export_bench.py`` (about 40 s) or ``--quick`` (a few seconds, for the
CI smoke test). Nothing here asserts on timings: the script prints figures for people to read,
each beside a reference measured in the same run.

What is measured
----------------
1. ``export_png()`` of the default game at 300 dpi (``--quick``: 100 dpi) into a temporary
   directory: every distinct face drawn by the kit's face functions, written as one PDF,
   rasterised page by page by PDFium, encoded as PNG and written atomically, and cards.json.

   * Reference, the floor: the same PDF of faces (made once, outside the timing) rasterised
     by PDFium at the same dpi and encoded as PNG by Pillow with the same settings, into
     memory: no drawing, no typesetting, no PDF writing, no files. The ratio says what the
     drawing and the PDF cost over the least any PDFium-based export of these faces costs.

2. ``export_tts()`` at its default 200 dpi (``--quick``: 60 dpi): deck sheets of every deck,
   backs, the saved object. Its reference is the same rasterising-and-encoding floor for the
   sheets' PDF pages.

Timing: ``time.perf_counter``; best and median of the repeats, after one warm-up run.
"""

from __future__ import annotations

import argparse
import io
import platform
import statistics
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
import timing  # benchmarks/timing.py, beside this script

from mhp_cards import __version__
from mhp_cards.pdf.cards import card_designs
from mhp_cards.pdf.export_png import export_png
from mhp_cards.pdf.export_tts import export_tts
from mhp_cards.pdf.layout import load_profile, load_templates
from mhp_cards.pdf.raster import FaceJob, sketch_faces
from mhp_cards.pdf.render import render_pdf
from mhp_cards.validate import load_catalog


def row(name: str, times: list[float], count: int) -> str:
    best, median = min(times), statistics.median(times)
    return f"  {name:<46} {best * 1000:9.1f} {median * 1000:9.1f}  {count / best:8,.1f} images/s"


def floor(pdf: bytes, dpi: float) -> int:
    """PDFium + Pillow alone: every page of ``pdf`` rasterised and encoded, in memory."""
    document = pdfium.PdfDocument(pdf)
    count = 0
    for page in document:
        image = page.render(scale=dpi / 72, fill_color=(255, 255, 255, 0)).to_pil()
        image.save(io.BytesIO(), "PNG", compress_level=6)
        count += 1
    document.close()
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run for CI")
    args = parser.parse_args()
    png_dpi, tts_dpi, repeat = (100, 60, 1) if args.quick else (300, 200, 3)
    catalog = load_catalog()
    profile = load_profile("a4")
    templates = load_templates(profile)
    designs = card_designs(catalog)
    jobs = {}
    for design in designs:
        size = profile.card_sizes[design.kind]  # a face shared at one size is one image
        jobs.setdefault(("front", design.front.name, size), FaceJob(design.front, design.kind))
        if design.back is not design.front:  # a token's back is its front
            jobs.setdefault(("back", design.back.name, size), FaceJob(design.back, design.kind))
    faces_pdf = render_pdf(
        sketch_faces(list(jobs.values()), profile, templates, "ru"), "", "", "ru"
    )
    print(f"mhp-cards {__version__}, Python {platform.python_version()}, {platform.machine()}")
    print(f"{len(designs)} card designs, {len(jobs)} distinct faces\n")
    print(f"  {'':<46} {'best ms':>9} {'median ms':>9}  rate")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        export_png(catalog, out / "warm", dpi=png_dpi)
        mine = timing.times(lambda: export_png(catalog, out / "png", dpi=png_dpi), repeat)
        count = len(list((out / "png").glob("*.png")))
        reference = timing.times(lambda: floor(faces_pdf, png_dpi), repeat)
        print(row(f"export_png, {png_dpi:g} dpi", mine, count))
        print(row("reference: PDFium + Pillow on the faces' PDF", reference, len(jobs)))
        print(f"  ratio (best): {min(mine) / min(reference):.2f}× the floor\n")
        export_tts(catalog, out / "warm-tts", dpi=tts_dpi)
        mine = timing.times(lambda: export_tts(catalog, out / "tts", dpi=tts_dpi), repeat)
        sheets = len(list((out / "tts").glob("*.png")))
        print(row(f"export_tts, {tts_dpi:g} dpi (sheets, backs)", mine, sheets))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
