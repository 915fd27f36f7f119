"""The print-and-play kit: build time, cards per second, and a bare reportlab loop as the floor.

Run ``python benchmarks/pdf_bench.py`` (about 15 s) or ``--quick`` (under 10 s, for the CI
smoke test). Nothing here asserts on timings: the script prints figures for people to read,
each beside a reference measured in the same run.

What is measured
----------------
1. The whole kit, ``build_kit()`` on A4 in Russian into a temporary directory: layout (imposing
   every sheet, typesetting and fitting every text, solving the installations for the assembly
   guides), rendering one combined PDF and one PDF per section with embedded font subsets, and
   writing each file atomically. Reported as seconds and as cards and tokens per second
   (``KitResult.pieces``). The same build is then split into its stages, each timed on its own:
   ``plan_kit`` (layout and typesetting), ``render_pdf`` of every document, and the writes.

2. The raw-material cards alone (the catalog's raw deck, counted below), laid out, rendered and
   written by mhp-cards (``plan_kit(only=["raw"])`` + ``render_pdf`` + atomic write): fronts
   with the formula fitted and typeset with shifted subscripts, the name, the element tally and
   the wrapped Mars note, and their mirrored backs.

   * Reference, the floor: the same number of cards drawn by a bare reportlab loop: one Canvas
     (invariant, compressed, the same embedded PT Sans), 12 cards a page at the same slots, per
     card one rectangle and two ``drawString`` calls (the formula as plain text and the name),
     no fitting, no typesetting, no backs; ``canvas.save()`` and a plain write. The ratio says
     how much the kit's faces cost over the least a PDF of these cards can cost.

Timing: ``time.perf_counter``; best (the cost itself, least disturbed) and median (typical) of
the repeats, after one warm-up run that registers the fonts and fills the parse caches.
"""

from __future__ import annotations

import argparse
import io
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import fontpkg_pt_sans
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from mhp_cards import __version__
from mhp_cards.catalog import Catalog
from mhp_cards.fileio import write_bytes_atomic
from mhp_cards.pdf import build_kit, plan_kit
from mhp_cards.pdf.impose import impose
from mhp_cards.pdf.kit import _with_blank_backs
from mhp_cards.pdf.layout import load_profile, load_templates
from mhp_cards.pdf.render import render_pdf
from mhp_cards.pdf.sketch import PageSketch
from mhp_cards.validate import load_catalog

PT_PER_MM = 72 / 25.4


def timed(function: Callable[[], object], repeat: int) -> list[float]:
    """Wall-clock seconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def row(name: str, times: list[float], count: int | None = None, unit: str = "") -> str:
    best, median = min(times), statistics.median(times)
    rate = f"{count / best:10,.0f} {unit}/s" if count else ""
    return f"  {name:<44} {best * 1000:9.1f} {median * 1000:9.1f}  {rate}"


HEADER = f"  {'':<44} {'best ms':>9} {'median ms':>9}  rate"


# 1. The whole kit --------------------------------------------------------------------------------


def whole_kit(catalog: Catalog, out: Path, repeat: int) -> tuple[list[float], int]:
    pieces = 0

    def build() -> None:
        nonlocal pieces
        pieces = build_kit(catalog, out_dir=out).pieces

    return timed(build, repeat), pieces


def stages(catalog: Catalog, out: Path, repeat: int) -> dict[str, list[float]]:
    """The build split into layout, render and write (the same work as ``build_kit``)."""
    profile = load_profile("a4")
    templates = load_templates(profile)
    results: dict[str, list[float]] = {"plan_kit": [], "render_pdf": [], "write": []}
    for _ in range(repeat):
        start = time.perf_counter()
        sections = plan_kit(catalog, profile, templates)
        planned = time.perf_counter()
        combined = [page for section in sections for page in _with_blank_backs(section)]
        documents = [("kit", combined)] + [(s.name, s.pages) for s in sections]
        data = [(name, render_pdf(pages, name, "bench", "ru")) for name, pages in documents]
        rendered = time.perf_counter()
        for name, payload in data:
            write_bytes_atomic(out / f"mhp-{name}.pdf", payload)
        written = time.perf_counter()
        results["plan_kit"].append(planned - start)
        results["render_pdf"].append(rendered - planned)
        results["write"].append(written - rendered)
    return results


# 2. The raw cards: mhp-cards against a bare reportlab loop ---------------------------------------


def raw_section(catalog: Catalog, out: Path) -> tuple[Callable[[], object], ...]:
    """The raw section: all of it, its layout alone, its rendering alone."""
    profile = load_profile("a4")
    templates = load_templates(profile)

    def plan() -> list[PageSketch]:
        (section,) = plan_kit(catalog, profile, templates, only=["raw"])
        return section.pages

    pages = plan()

    def run() -> None:
        write_bytes_atomic(out / "raw.pdf", render_pdf(plan(), "raw", "bench", "ru"))

    return run, plan, lambda: render_pdf(pages, "raw", "bench", "ru")


def bare_reportlab(catalog: Catalog, out: Path) -> Callable[[], object]:
    files = Path(fontpkg_pt_sans.ROOT) / "files"
    for name, file in (
        ("Bench-Regular", "PT_Sans-Web-Regular.ttf"),
        ("Bench-Bold", "PT_Sans-Web-Bold.ttf"),
    ):
        pdfmetrics.registerFont(TTFont(name, str(files / file)))
    profile = load_profile("a4")
    imposition = impose(profile, "raw")
    height = profile.page.dimensions[1] * PT_PER_MM
    cards = [raw for raw in catalog.raw_materials for _ in range(raw.copies)]

    def run() -> None:
        buffer = io.BytesIO()
        canvas = Canvas(buffer, invariant=True, pageCompression=1)
        for index, raw in enumerate(cards):
            if index and index % imposition.per_page == 0:
                canvas.showPage()
            slot = imposition.fronts[index % imposition.per_page]
            x, top = slot.x * PT_PER_MM, height - slot.y * PT_PER_MM
            size = slot.width * PT_PER_MM
            canvas.rect(x, top - size, size, size)
            canvas.setFont("Bench-Bold", 24)
            canvas.drawString(x + 10, top - 60, raw.formula)
            canvas.setFont("Bench-Bold", 11)
            canvas.drawString(x + 10, top - 95, raw.name.get("ru"))
        canvas.showPage()
        canvas.save()
        (out / "bare.pdf").write_bytes(buffer.getvalue())

    return run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (CI smoke test)")
    args = parser.parse_args(argv)
    kit_repeat, stage_repeat, raw_repeat = (2, 1, 3) if args.quick else (5, 3, 15)

    print(
        f"mhp-cards {__version__}, Python {platform.python_version()}, "
        f"{platform.machine()}, {platform.system()}"
    )
    catalog = load_catalog()
    raw_cards = sum(raw.copies for raw in catalog.raw_materials)
    with tempfile.TemporaryDirectory() as directory:
        out = Path(directory)
        (ours, ours_plan, ours_render), floor = (
            raw_section(catalog, out),
            bare_reportlab(catalog, out),
        )
        ours(), floor()  # warm-up: fonts registered, formulas parsed and cached

        print("\n1. The whole kit (A4, Russian): layout + render + write")
        print(HEADER)
        times, pieces = whole_kit(catalog, out, kit_repeat)
        files = sorted(out.glob("mhp-*.pdf"))
        size = sum(f.stat().st_size for f in files)
        print(row(f"build_kit ({pieces} cards and tokens)", times, pieces, "pieces"))
        for name, stage in stages(catalog, out, stage_repeat).items():
            print(row(f"  {name}", stage))
        print(f"  wrote {len(files)} files, {size / 1e6:.2f} MB")

        print(f"\n2. The raw-material cards ({raw_cards} cards): mhp-cards against the floor")
        print(HEADER)
        mine, bare = timed(ours, raw_repeat), timed(floor, raw_repeat)
        print(row("mhp-cards: plan + render + write (and backs)", mine, raw_cards, "cards"))
        print(row("  of which plan_kit (layout, typesetting)", timed(ours_plan, raw_repeat)))
        print(row("  of which render_pdf", timed(ours_render, raw_repeat)))
        print(row("floor: bare reportlab loop (rect + 2 strings)", bare, raw_cards, "cards"))
        ratio_best = min(mine) / min(bare)
        ratio_median = statistics.median(mine) / statistics.median(bare)
        print(f"  ratio mhp-cards / floor: {ratio_best:.1f}× (best), {ratio_median:.1f}× (median)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
