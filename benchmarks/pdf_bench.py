"""The print-and-play kit: build time, cards per second, and bare reportlab as the floor.

Run ``python benchmarks/pdf_bench.py`` (a few minutes) or ``--quick`` (each piece timed once,
about 1 min, for the CI smoke test). Nothing here asserts on timings: the script prints figures
for people to read, each beside a reference measured in the same run.

What is measured
----------------
1. The whole kit, ``build_kit()`` on A4 in Russian into a temporary directory: layout (imposing
   every sheet, typesetting and fitting every text, solving the installations for the assembly
   guides), rendering one combined PDF and one PDF per section with embedded font subsets, and
   writing each file atomically. Reported as seconds and as cards and tokens per second
   (``KitResult.pieces``). The same build is then split into its stages, each timed on its own:
   ``plan_kit`` (layout and typesetting), ``render_pdf`` of every document, and the writes.

2. Each section against a fair floor, and the whole kit against the floor of all its files.

   * mhp-cards: ``plan_kit(only=[section])`` + ``render_pdf`` + atomic write of that section's
     PDF; for the whole kit, ``build_kit`` (the combined PDF and the ten section PDFs).
   * The floor: the very operations the kit emits for those pages — page sizes and boxes,
     rectangles, circles, lines, polygons, clips, text runs, with their colours, line widths
     and dashes — recorded once as bare reportlab canvas calls with their arguments already in
     points (colours already parsed), then replayed onto a new Canvas (invariant, compressed,
     the same fonts and metadata), ``canvas.save()`` and a plain write. No layout, no
     typesetting, no fitting, no conversion. The floor's PDF is compared with the kit's: the
     same bytes prove it drew the same things. The ratio says what the kit costs over the
     least these exact PDFs can cost with reportlab; for the whole kit the floor writes the
     same eleven files, so every page is drawn twice there too.

3. The raw-material cards alone against the old, loose floor (kept for comparison with earlier
   figures): 12 cards a page drawn by a bare reportlab loop, per card one rectangle and two
   ``drawString`` calls, no backs — about a tenth of the operations the kit draws for them.

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
import timing  # benchmarks/timing.py, beside this script
from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from mhp_cards import __version__
from mhp_cards.catalog import Catalog
from mhp_cards.fileio import write_bytes_atomic
from mhp_cards.pdf import SECTIONS, build_kit, plan_kit
from mhp_cards.pdf.fonts import FONT_NAMES, fonts
from mhp_cards.pdf.impose import impose
from mhp_cards.pdf.kit_sheets import with_blank_backs
from mhp_cards.pdf.layout import load_profile, load_templates
from mhp_cards.pdf.render import render_pdf
from mhp_cards.pdf.sketch import Circle, Clip, Line, PageSketch, Polygon, Rect, Text, Unclip
from mhp_cards.validate import load_catalog

PT_PER_MM = 72 / 25.4


def paired(
    first: Callable[[], object], second: Callable[[], object], repeat: int
) -> tuple[list[float], list[float]]:
    """Seconds of ``repeat`` calls of each, in turn (first, second, first, …)."""
    a: list[float] = []
    b: list[float] = []
    for _ in range(repeat):
        a += timing.times(first, 1)
        b += timing.times(second, 1)
    return a, b


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

    return timing.times(build, repeat), pieces


def stages(catalog: Catalog, out: Path, repeat: int) -> dict[str, list[float]]:
    """The build split into layout, render and write (the same work as ``build_kit``)."""
    profile = load_profile("a4")
    templates = load_templates(profile)
    results: dict[str, list[float]] = {"plan_kit": [], "render_pdf": [], "write": []}
    for _ in range(repeat):
        start = time.perf_counter()
        sections = plan_kit(catalog, profile, templates)
        planned = time.perf_counter()
        combined = [page for section in sections for page in with_blank_backs(section)]
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


# 2. Each section against the fair floor -----------------------------------------------------------

Call = tuple[Callable[..., object], tuple[object, ...]]


def _polygon(canvas: Canvas, points: list[tuple[float, float]], stroke: int, fill: int) -> None:
    path = canvas.beginPath()
    path.moveTo(*points[0])
    for x, y in points[1:]:
        path.lineTo(x, y)
    path.close()
    canvas.drawPath(path, stroke=stroke, fill=fill)


def _clip(canvas: Canvas, shape: str, args: tuple[float, ...]) -> None:
    canvas.saveState()
    path = canvas.beginPath()
    getattr(path, shape)(*args)
    canvas.clipPath(path, stroke=0, fill=0)


def record(pages: list[PageSketch]) -> list[Call]:
    """The kit's pages as bare canvas calls, every argument in points, colours parsed."""
    colours: dict[str, Color] = {}

    def colour(hex_text: str) -> Color:
        if hex_text not in colours:
            colours[hex_text] = HexColor(hex_text)
        return colours[hex_text]

    def pt(mm: float) -> float:
        return mm * PT_PER_MM

    calls: list[Call] = []

    def style(fill: str | None, stroke: str | None, width: float, dash: tuple[float, ...]) -> None:
        if fill:
            calls.append((Canvas.setFillColor, (colour(fill),)))
        if stroke:
            calls.append((Canvas.setStrokeColor, (colour(stroke),)))
        calls.append((Canvas.setLineWidth, (pt(width),)))
        calls.append((Canvas.setDash, ([pt(d) for d in dash], 0)))

    for page in pages:
        height = pt(page.height)
        calls.append((Canvas.setPageSize, ((pt(page.width), height),)))
        calls.append((Canvas.setTrimBox, (None,)))
        calls.append((Canvas.setBleedBox, (None,)))
        if page.trim is not None:
            x, y, w, h = page.trim
            bleed = page.bleed
            trim_box = (pt(x), height - pt(y + h), pt(x + w), height - pt(y))
            bleed_box = (
                pt(max(0.0, x - bleed)),
                height - pt(min(page.height, y + h + bleed)),
                pt(min(page.width, x + w + bleed)),
                height - pt(max(0.0, y - bleed)),
            )
            calls.append((Canvas.setTrimBox, (trim_box,)))
            calls.append((Canvas.setBleedBox, (bleed_box,)))
        for op in page.ops:
            if isinstance(op, Rect):
                style(op.fill, op.stroke, op.line_width, op.dash)
                box = (pt(op.x), height - pt(op.y + op.height), pt(op.width), pt(op.height))
                modes = (int(bool(op.stroke)), int(bool(op.fill)))
                if op.radius > 0:
                    calls.append((Canvas.roundRect, (*box, pt(op.radius), *modes)))
                else:
                    calls.append((Canvas.rect, (*box, *modes)))
            elif isinstance(op, Circle):
                style(op.fill, op.stroke, op.line_width, op.dash)
                modes = (int(bool(op.stroke)), int(bool(op.fill)))
                calls.append((Canvas.circle, (pt(op.cx), height - pt(op.cy), pt(op.r), *modes)))
            elif isinstance(op, Line):
                style(None, op.stroke, op.line_width, op.dash)
                ends = (pt(op.x1), height - pt(op.y1), pt(op.x2), height - pt(op.y2))
                calls.append((Canvas.line, ends))
            elif isinstance(op, Polygon):
                style(op.fill, op.stroke, op.line_width, ())
                points = [(pt(x), height - pt(y)) for x, y in op.points]
                modes = (int(bool(op.stroke)), int(bool(op.fill)))
                calls.append((_polygon, (points, *modes)))
            elif isinstance(op, Clip):
                x, y = pt(op.x), height - pt(op.y + op.height)
                w, h = pt(op.width), pt(op.height)
                if op.circle:
                    calls.append((_clip, ("circle", (x + w / 2, y + h / 2, w / 2))))
                elif op.radius > 0:
                    calls.append((_clip, ("roundRect", (x, y, w, h, pt(op.radius)))))
                else:
                    calls.append((_clip, ("rect", (x, y, w, h))))
            elif isinstance(op, Unclip):
                calls.append((Canvas.restoreState, ()))
            elif isinstance(op, Text):
                calls.append((Canvas.setFillColor, (colour(op.colour),)))
                calls.append((Canvas.setFont, (FONT_NAMES[op.bold], op.size)))
                calls.append((Canvas.drawString, (pt(op.x), height - pt(op.y), op.text)))
        calls.append((Canvas.showPage, ()))
    return calls


def replay(calls: list[Call], title: str, subject: str, lang: str) -> bytes:
    """The recorded calls onto a new canvas set up as the kit's: its PDF bytes."""
    buffer = io.BytesIO()
    canvas = Canvas(
        buffer,
        invariant=True,
        pageCompression=1,
        lang=lang,
        initialFontName=FONT_NAMES[False],  # type: ignore[arg-type]
    )
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setAuthor("mhp-cards")
    canvas.setCreator("mhp-cards")
    canvas.setKeywords("МАРСХИМПРОМ, print and play")
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("DisplayDocTitle", "true")
    for function, arguments in calls:
        function(canvas, *arguments)
    canvas.save()
    return buffer.getvalue()


SUBJECT = "МАРСХИМПРОМ: набор для печати"


def per_section(catalog: Catalog, out: Path, repeat: int) -> None:
    """Each section and the whole kit against the replay of their own operations."""
    profile = load_profile("a4")
    templates = load_templates(profile)
    fonts()
    print(HEADER.replace("rate", "floor best ms   ratio (best, median)   same bytes"))
    kit_rows: list[tuple[str, list[float], list[float], bool]] = []
    for name in SECTIONS:
        title = f"МАРСХИМПРОМ — {name}"

        def ours(name: str = name, title: str = title) -> bytes:
            (section,) = plan_kit(catalog, profile, templates, only=[name])
            data = render_pdf(section.pages, title, SUBJECT, "ru")
            write_bytes_atomic(out / f"ours-{name}.pdf", data)
            return data

        (section,) = plan_kit(catalog, profile, templates, only=[name])
        calls = record(section.pages)

        def floor(calls: list[Call] = calls, name: str = name, title: str = title) -> bytes:
            data = replay(calls, title, SUBJECT, "ru")
            (out / f"floor-{name}.pdf").write_bytes(data)
            return data

        same = ours() == floor()
        kit_rows.append((name, *paired(ours, floor, repeat), same))
    sections = plan_kit(catalog, profile, templates)
    combined = [page for section in sections for page in with_blank_backs(section)]
    documents = [("kit", combined)] + [(s.name, s.pages) for s in sections]
    recorded = [(name, record(pages)) for name, pages in documents]

    def whole_floor() -> None:
        for name, calls in recorded:
            data = replay(calls, f"МАРСХИМПРОМ — {name}", SUBJECT, "ru")
            (out / f"floor-mhp-{name}.pdf").write_bytes(data)

    def whole_ours() -> None:
        build_kit(catalog, out_dir=out)

    whole_floor()
    whole_ours()
    same_whole = all(
        (out / f"floor-mhp-{name}.pdf").read_bytes() == (out / f"mhp-{name}.pdf").read_bytes()
        for name, _ in documents
    )
    kit_rows.append(("whole kit (11 files)", *paired(whole_ours, whole_floor, repeat), same_whole))
    for name, mine, bare, same in kit_rows:
        best, median = min(mine) / min(bare), statistics.median(mine) / statistics.median(bare)
        print(
            f"  {name:<44} {min(mine) * 1000:9.1f} {statistics.median(mine) * 1000:9.1f}"
            f"  {min(bare) * 1000:13.1f}   {best:5.2f}× {median:5.2f}×"
            f"            {'yes' if same else 'NO'}"
        )
    print("  ratio = mhp-cards / floor, run in turn; the floor replays the kit's own operations")
    print("  (see the docstring); 'same bytes': the floor wrote the kit's PDF byte for byte")


# 3. The raw cards: mhp-cards against a bare reportlab loop ---------------------------------------


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
    parser.add_argument(
        "--quick", action="store_true", help="each piece timed once (CI smoke test)"
    )
    args = parser.parse_args(argv)
    kit_repeat, stage_repeat, raw_repeat = (1, 1, 3) if args.quick else (5, 5, 15)

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

        print("\n2. Each section and the whole kit against the fair floor (their own operations)")
        per_section(catalog, out, stage_repeat)

        print(f"\n3. The raw-material cards ({raw_cards} cards): against the old, loose floor")
        print(HEADER)
        mine, bare = timing.times(ours, raw_repeat), timing.times(floor, raw_repeat)
        print(row("mhp-cards: plan + render + write (and backs)", mine, raw_cards, "cards"))
        print(row("  of which plan_kit (layout, typesetting)", timing.times(ours_plan, raw_repeat)))
        print(row("  of which render_pdf", timing.times(ours_render, raw_repeat)))
        print(row("floor: bare reportlab loop (rect + 2 strings)", bare, raw_cards, "cards"))
        ratio_best = min(mine) / min(bare)
        ratio_median = statistics.median(mine) / statistics.median(bare)
        print(f"  ratio mhp-cards / floor: {ratio_best:.1f}× (best), {ratio_median:.1f}× (median)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
