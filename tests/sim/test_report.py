"""The balance report: HTML with embedded PNG plots, PDF pages with drawn plots, read back."""

from __future__ import annotations

import base64
import io
import sys
from html.parser import HTMLParser
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
from PIL import Image
from pypdf import PdfReader

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import SimulationError
from mhp_cards.sim import Summary, simulate
from mhp_cards.sim.report import INSTALL_HINT, ReportInfo, figures, write_report
from mhp_cards.sim.summary import dispersion, rate_interval
from mhp_cards.sim.sweep import grid, parse_vary, sweep

PLOTS = [
    "Seat win rates",
    "Game length",
    "How games ended",
    "Missions",
    "Installation usage",
    "Per-round curves",
]
SWEEP_PLOTS = ["Seat win rates by variant", "Ends and length by variant", "Missions by variant"]


@pytest.fixture(scope="module")
def summary(catalog: Catalog) -> Summary:
    return simulate(catalog, "2", 3, 12, seed=5, max_steps=600, workers=1)


@pytest.fixture(scope="module")
def swept(catalog: Catalog) -> list[Summary]:
    variants = grid([parse_vary("copies.water-ice=7,9")])
    return sweep(
        catalog, variants, lambda c: simulate(c, "1", 2, 6, seed=1, max_steps=300, workers=1)
    )


@pytest.fixture(scope="module")
def html_report(summary: Summary, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "balance.html"
    return write_report(path, [summary], ReportInfo(max_steps=600))


@pytest.fixture(scope="module")
def pdf_report(summary: Summary, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_report(tmp_path_factory.mktemp("report") / "balance.pdf", [summary])


class Page(HTMLParser):
    """The images, links, scripts and text of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.images: list[tuple[str, str]] = []
        self.external: list[str] = []
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        values = dict(attrs)
        if tag == "img":
            self.images.append((values.get("alt") or "", values.get("src") or ""))
        for name in ("src", "href"):
            value = values.get(name) or ""
            if value and not value.startswith("data:"):
                self.external.append(value)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _read_html(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _check_png(src: str) -> Image.Image:
    prefix = "data:image/png;base64,"
    assert src.startswith(prefix)
    image = Image.open(io.BytesIO(base64.b64decode(src[len(prefix) :], validate=True)))
    assert image.format == "PNG"
    image.load()
    assert image.width >= 600
    assert image.height >= 250
    colours = image.convert("RGB").getcolors(maxcolors=1_000_000)
    assert colours is not None
    assert len(colours) > 50
    background = max(colours)[0] / (image.width * image.height)
    assert background < 0.97  # something is drawn on the white
    return image


def test_the_html_report_is_self_contained_with_every_plot(
    summary: Summary, html_report: Path
) -> None:
    page = _read_html(html_report)
    assert [alt for alt, _ in page.images] == PLOTS
    for _, src in page.images:
        _check_png(src)
    assert page.external == []
    assert "script" not in page.tags
    assert "link" not in page.tags
    text = " ".join(page.text)
    for fact in ("level", "players", "policy", "seed", "games", "step cap", "600 actions"):
        assert fact in text
    assert "greedy, greedy, greedy" in text
    rate = summary.seat_win_rate[0]
    assert f"{rate.low:.1%} – {rate.high:.1%}" in text


def test_installation_names_label_the_usage_plot(catalog: Catalog, summary: Summary) -> None:
    names = {str(i.number): i.name.en for i in catalog.installations}
    plain = dict(figures(summary))["Installation usage"]
    named = dict(figures(summary, ReportInfo(installation_names=names)))["Installation usage"]
    labels = [tick.get_text() for tick in named.axes[0].get_xticklabels()]
    assert labels[0] == f"1 {catalog.installation(1).name.en}"
    assert next(tick.get_text() for tick in plain.axes[0].get_xticklabels()) == "1"


def test_the_pdf_report_has_a_title_page_and_a_page_per_plot(pdf_report: Path) -> None:
    path = pdf_report
    reader = PdfReader(path)
    assert len(reader.pages) == 1 + len(PLOTS)
    with pdfplumber.open(path) as pdf:
        title = pdf.pages[0].extract_text()
        assert "balance report" in title
        assert "level: 2" in title
        assert "games: 12" in title
        assert "seed: 5" in title
        texts = [page.extract_text() for page in pdf.pages[1:]]
    assert "Win rate by seat" in texts[0]
    assert "Game length" in texts[1]
    assert "How games ended" in texts[2]
    assert "Turn of first completion" in texts[3] or "No mission was completed" in texts[3]
    assert "reactions run per game" in texts[4]
    assert "Score by seat" in texts[5]
    document = pypdfium2.PdfDocument(str(path))
    for index in range(1, len(document)):
        image = document[index].render(scale=1).to_pil().convert("L")
        dark = sum(image.histogram()[:128])
        assert dark > 0.01 * image.width * image.height  # bars, lines and text are drawn


def test_the_pdf_is_the_same_for_the_same_run(
    summary: Summary, pdf_report: Path, tmp_path: Path
) -> None:
    again = write_report(tmp_path / "again.pdf", [summary]).read_bytes()
    assert again == pdf_report.read_bytes()


def test_a_sweep_report_compares_the_variants_then_shows_each(
    swept: list[Summary], tmp_path: Path
) -> None:
    page = _read_html(write_report(tmp_path / "sweep.html", swept))
    alts = [alt for alt, _ in page.images]
    assert alts == SWEEP_PLOTS + PLOTS + PLOTS
    for _, src in page.images:
        _check_png(src)
    assert page.tags.count("details") == 2
    text = " ".join(page.text)
    assert "copies.water-ice=7" in text
    assert "copies.water-ice=9" in text
    assert "6 per variant, 2 variants" in text
    pdf = PdfReader(write_report(tmp_path / "sweep.pdf", swept))
    assert len(pdf.pages) == 1 + len(SWEEP_PLOTS) + 2 * len(PLOTS)
    title = pdf.pages[0].extract_text()
    assert "variants:" in title
    assert "copies.water-ice=9" in title


def test_a_report_of_another_format_is_refused(summary: Summary, tmp_path: Path) -> None:
    with pytest.raises(SimulationError, match=r"\.html or \.pdf"):
        write_report(tmp_path / "balance.png", [summary])
    assert not (tmp_path / "balance.png").exists()


def test_without_matplotlib_the_report_says_what_to_install(
    summary: Summary, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(SimulationError) as caught:
        write_report(tmp_path / "balance.html", [summary])
    assert INSTALL_HINT in str(caught.value)
    assert not (tmp_path / "balance.html").exists()


def test_the_curves_stop_where_a_tenth_of_the_games_is_still_played() -> None:
    from mhp_cards.sim.report import _curve_end

    assert _curve_end([20, 20, 5, 1, 1], 20) == 3  # 1 of 20 is under a tenth
    assert _curve_end([10, 10, 5, 1, 1], 10) == 5  # 1 of 10 is a tenth: still shown
    assert _curve_end([10, 10, 10], 10) == 3
    assert _curve_end([1], 1) == 1


def test_the_usage_plot_draws_each_installation_s_interval(summary: Summary) -> None:
    from matplotlib.container import BarContainer

    plot = dict(figures(summary))["Installation usage"]
    [bars] = [c for c in plot.axes[0].containers if isinstance(c, BarContainer)]
    assert bars.errorbar is not None
    segments = bars.errorbar.lines[2][0].get_segments()
    assert len(segments) == len(summary.installations)
    for segment, (number, runs) in zip(segments, summary.installations.items(), strict=True):
        spread = summary.installation_runs_histogram[number]
        low, high = rate_interval(
            runs / summary.games,
            summary.games,
            dispersion({int(count): games for count, games in spread.items()}),
        )
        assert [y for _, y in segment] == pytest.approx([low, high])
    assert "95 % intervals" in plot.axes[0].get_title()
    # A summary written before the runs' spread was kept draws the bars alone.
    older = summary.model_copy(update={"installation_runs_histogram": {}})
    [bare] = dict(figures(older))["Installation usage"].axes[0].containers
    assert isinstance(bare, BarContainer)
    assert bare.errorbar is None
