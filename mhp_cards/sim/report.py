"""The balance report of a simulation: plots a designer reads at a glance, in HTML or PDF.

``balance.html`` is one self-contained file (every plot a PNG embedded as a ``data:`` URI, the
style inline, no script, nothing fetched from the network); ``balance.pdf`` holds the same
plots, a page each, after a title page. The plots: seat win rates with their 95 % Wilson
intervals against the fair share, the game-length histogram, end reasons, mission completions
and the turn of each mission's first completion, installation usage, and the per-round curves
(each seat's score, missions completed). A sweep adds a section comparing the variants side by
side before each variant's own plots.

matplotlib draws them (the ``[report]`` extra): the plotting library designers know, with
error bars, bands and histograms built in. It is imported only when a report is written, with
the Agg renderer and no pyplot (no display, no global state).
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from mhp_cards.errors import SimulationError
from mhp_cards.fileio import write_bytes_atomic
from mhp_cards.sim.summary import Distribution, Summary

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "INSTALL_HINT",
    "REPORT_SUFFIXES",
    "ReportInfo",
    "figures",
    "require_matplotlib",
    "sweep_figures",
    "write_report",
]

#: How to get matplotlib, for the message when it is missing.
INSTALL_HINT: Final = "pip install 'mhp-cards[report]'"
#: The report formats, by file suffix.
REPORT_SUFFIXES: Final = (".html", ".pdf")
#: The per-round curves stop where fewer than this share of the games is still being played.
CURVE_MIN_SHARE: Final = 0.1
_DPI: Final = 110
_SEAT_COLOURS: Final = ("#1f5fad", "#d62828", "#2e8b3e", "#c98a00", "#6b3fa0")
_GREY: Final = "#555555"


@dataclass(frozen=True, slots=True)
class ReportInfo:
    """What the header says beside the summary's own figures."""

    catalog: str = "the default game"
    max_steps: int | None = None
    house_rules: tuple[str, ...] = ()
    installation_names: Mapping[str, str] | None = None
    """Installation number → name, for the usage plot's labels."""


def write_report(
    path: Path | str, summaries: Sequence[Summary], info: ReportInfo | None = None
) -> Path:
    """Write the report of ``summaries`` (one run, or the variants of a sweep) to ``path``.

    The format follows the suffix: ``.html`` or ``.pdf``. Written atomically. Raises
    :class:`~mhp_cards.errors.SimulationError` for another suffix or when matplotlib is missing.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in REPORT_SUFFIXES:
        raise SimulationError(
            f"--report {target}: the report is .html or .pdf, not {suffix or 'no suffix'!r}"
        )
    if not summaries:
        raise ValueError("a report needs at least one summary")
    info = info or ReportInfo()
    data = _html(summaries, info) if suffix == ".html" else _pdf(summaries, info)
    write_bytes_atomic(target, data)
    return target


def require_matplotlib() -> None:
    """Raise :class:`~mhp_cards.errors.SimulationError` when matplotlib is missing.

    The message says what to install; a command checks before its games, not after them.
    """
    _matplotlib()


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise SimulationError(
            f"--report needs matplotlib, which is not installed: {INSTALL_HINT}"
        ) from None
    return matplotlib


# --- the plots ---------------------------------------------------------------------------


def figures(summary: Summary, info: ReportInfo | None = None) -> list[tuple[str, Figure]]:
    """The plots of one run: (title, figure) in the report's order."""
    _matplotlib()
    info = info or ReportInfo()
    plots = [
        ("Seat win rates", _win_rates(summary)),
        ("Game length", _lengths(summary)),
        ("How games ended", _ends(summary)),
        ("Missions", _missions(summary)),
        ("Installation usage", _installations(summary, info)),
    ]
    if summary.curves is not None:
        plots.append(("Per-round curves", _curves(summary)))
    return plots


def _figure(width: float = 8.0, height: float = 3.6, columns: int = 1) -> tuple[Figure, Any]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=_DPI, layout="constrained")
    axes = figure.subplots(1, columns, squeeze=False)[0]
    for ax in axes:
        ax.grid(axis="y", color="#dddddd", linewidth=0.8)
        ax.set_axisbelow(True)
        ax.spines[["top", "right"]].set_visible(False)
    return figure, axes


def _win_rates(summary: Summary) -> Figure:
    figure, (ax,) = _figure()
    seats = [f"seat {r.seat + 1}\n{summary.policy[r.seat]}" for r in summary.seat_win_rate]
    rates = [r.rate * 100 for r in summary.seat_win_rate]
    below = [(r.rate - r.low) * 100 for r in summary.seat_win_rate]
    above = [(r.high - r.rate) * 100 for r in summary.seat_win_rate]
    colours = [_SEAT_COLOURS[i % len(_SEAT_COLOURS)] for i in range(len(seats))]
    ax.bar(seats, rates, color=colours, alpha=0.85, width=0.6)
    ax.errorbar(seats, rates, yerr=[below, above], fmt="none", ecolor="black", capsize=6, lw=1.2)
    fair = 100 / summary.players
    ax.axhline(fair, color=_GREY, linestyle="--", linewidth=1, label=f"fair share {fair:.0f} %")
    ax.legend(frameon=False, fontsize=9, loc="upper left")
    for x, (rate, top) in enumerate(zip(rates, above, strict=True)):
        ax.annotate(
            f"{rate:.1f} %",
            (x, rate + top),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            fontsize=9,
        )
    ax.set_ylabel("wins (%), 95 % interval")
    ax.set_ylim(0, min(100, max(r.high for r in summary.seat_win_rate) * 100 + 12))
    ax.set_title(f"Win rate by seat over {summary.games} games (a tie shares the win)")
    return figure


def _lengths(summary: Summary) -> Figure:
    figure, (ax,) = _figure()
    histogram = {int(k): v for k, v in summary.rounds_histogram.items()}
    if histogram:
        span = max(histogram) - min(histogram) + 1
        # One bar per round count while they fit; beyond that, about 40 bins.
        bins = span if span <= 40 else 40
        ax.hist(
            list(histogram),
            weights=list(histogram.values()),
            bins=bins,
            range=(min(histogram) - 0.5, max(histogram) + 0.5),
            color="#1f5fad",
            rwidth=0.9,
        )
    rounds = summary.rounds
    for value, label, style in (
        (rounds.p10, "p10", ":"),
        (rounds.median, "median", "-"),
        (rounds.p90, "p90", "--"),
    ):
        ax.axvline(
            value, color="#d62828", linestyle=style, linewidth=1.2, label=f"{label} {value:g}"
        )
    ax.legend(frameon=False, fontsize=9, loc="upper right")
    ax.set_xlabel("rounds played")
    ax.set_ylabel("games")
    ax.set_title(
        f"Game length: median {rounds.median:g} rounds, {summary.steps.median:g} actions "
        f"(longest {rounds.max} rounds)"
    )
    _integer_axis(ax.xaxis)
    _integer_axis(ax.yaxis)
    return figure


def _ends(summary: Summary) -> Figure:
    figure, (ax,) = _figure(height=2.8)
    codes = list(summary.ended)
    counts = [summary.ended[c] for c in codes]
    colours = ["#d62828" if c in ("step-cap", "stuck") else "#1f5fad" for c in codes]
    ax.barh(codes, counts, color=colours)
    ax.invert_yaxis()
    for y, count in enumerate(counts):
        ax.annotate(
            f"{count} ({count / summary.games:.0%})",
            (count, y),
            xytext=(3, 0),
            textcoords="offset points",
            va="center",
            fontsize=9,
        )
    ax.set_xlim(0, max(max(counts) * 1.2, 1))
    ax.grid(axis="y", visible=False)
    ax.grid(axis="x", color="#dddddd", linewidth=0.8)
    ax.set_xlabel("games")
    ax.set_title("How games ended (red: stopped by the step cap)")
    _integer_axis(ax.xaxis)
    return figure


def _missions(summary: Summary) -> Figure:
    figure, (left, right) = _figure(height=3.4, columns=2)
    ids = list(summary.missions)
    counts = [summary.missions[m] for m in ids]
    left.bar(ids, counts, color="#2e8b3e", width=0.6)
    for x, count in enumerate(counts):
        left.annotate(
            str(count), (x, count), xytext=(0, 3), textcoords="offset points", ha="center"
        )
    left.set_ylabel("games")
    left.set_ylim(0, max(max(counts) * 1.2, 1))
    left.set_title("Games won by each mission", fontsize=11)
    _integer_axis(left.yaxis)
    firsts: dict[str, Distribution | None] = summary.mission_first_turn or dict.fromkeys(ids)
    shown = [m for m in ids if firsts.get(m) is not None]
    for x, mission in enumerate(ids):
        first = firsts.get(mission)
        if first is None:
            right.annotate("never", (x, 0), ha="center", va="bottom", color=_GREY, fontsize=9)
            continue
        right.vlines(x, first.p10, first.p90, color="#2e8b3e", linewidth=6, alpha=0.4)
        right.plot([x], [first.median], marker="o", color="#2e8b3e")
        right.annotate(
            f"{first.median:g}",
            (x, first.median),
            xytext=(8, 0),
            textcoords="offset points",
            va="center",
            fontsize=9,
        )
    right.set_xticks(range(len(ids)), ids)
    right.set_xlim(-0.6, len(ids) - 0.4)
    right.set_ylim(bottom=0)
    right.set_ylabel("turn")
    right.set_title(
        "Turn of first completion (median, p10–p90)" if shown else "No mission was completed",
        fontsize=11,
    )
    return figure


def _installations(summary: Summary, info: ReportInfo) -> Figure:
    figure, (ax,) = _figure()
    numbers = list(summary.installations)
    names = info.installation_names or {}
    labels = [f"{n} {names[n]}" if n in names else n for n in numbers]
    per_game = [summary.installations[n] / summary.games for n in numbers]
    # The 95 % interval of each mean, as mhp balance judges it; a summary written before the
    # runs' spread was kept draws the bars alone.
    spreads = bool(summary.installation_runs_histogram)
    intervals = [
        summary.runs_interval(n)[:2] if spreads else (value, value)
        for n, value in zip(numbers, per_game, strict=True)
    ]
    errors = [
        [value - low for value, (low, _) in zip(per_game, intervals, strict=True)],
        [high - value for value, (_, high) in zip(per_game, intervals, strict=True)],
    ]
    ax.bar(
        range(len(numbers)),
        per_game,
        color="#c98a00",
        width=0.6,
        yerr=errors if spreads else None,
        capsize=3,
        error_kw={"ecolor": "#5a3d00", "elinewidth": 1},
    )
    ax.set_xticks(
        range(len(numbers)), labels, rotation=30 if names else 0, ha="right" if names else "center"
    )
    for x, (value, (_, high)) in enumerate(zip(per_game, intervals, strict=True)):
        ax.annotate(
            f"{value:.2f}",
            (x, high),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            fontsize=9,
        )
    ax.set_ylim(0, max(max(high for _, high in intervals) * 1.2, 1))
    ax.set_ylabel("reactions per game")
    ax.set_title(
        "Installation usage: reactions run per game"
        + (" (95 % intervals)" if spreads else "")
        + ("" if any(per_game) else " (none: no installation ran)")
    )
    return figure


def _curves(summary: Summary) -> Figure:
    curves = summary.curves
    assert curves is not None
    figure, (left, right) = _figure(height=3.8, columns=2)
    cut = _curve_end(curves.playing, summary.games)
    rounds = curves.rounds[:cut]
    for seat, band in enumerate(curves.score):
        colour = _SEAT_COLOURS[seat % len(_SEAT_COLOURS)]
        left.fill_between(rounds, band.p10[:cut], band.p90[:cut], color=colour, alpha=0.15)
        left.plot(rounds, band.median[:cut], color=colour, label=f"seat {seat + 1}")
    left.set_xlabel("round")
    left.set_ylabel("score (median, p10–p90)")
    left.set_title("Score by seat, games still being played")
    left.legend(frameon=False, fontsize=9)
    _integer_axis(left.xaxis)
    right.plot(
        rounds,
        [v * 100 for v in curves.with_mission[:cut]],
        color="#2e8b3e",
        label="a mission completed by then",
    )
    playing = [p * 100 / summary.games for p in curves.playing[:cut]]
    right.plot(rounds, playing, color=_GREY, linestyle="--", label="still being played")
    right.set_ylim(0, 105)
    right.set_ylabel("% of games")
    right.legend(frameon=False, fontsize=9, loc="best")
    right.set_xlabel("round")
    right.set_title("Missions and game ends by round")
    _integer_axis(right.xaxis)
    if cut < len(curves.rounds):
        figure.supxlabel(
            f"(cut at round {rounds[-1]}: later, fewer than {CURVE_MIN_SHARE:.0%} of the games "
            "were still being played)",
            fontsize=9,
            color=_GREY,
        )
    return figure


def _curve_end(playing: Sequence[int], games: int) -> int:
    """How many rounds the curves show: while at least a tenth of the games is being played."""
    keep = [n for n, count in enumerate(playing) if count >= max(1, CURVE_MIN_SHARE * games)]
    return (keep[-1] + 1) if keep else len(playing)


def _integer_axis(axis: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


# --- sweeps ------------------------------------------------------------------------------


def sweep_figures(summaries: Sequence[Summary]) -> list[tuple[str, Figure]]:
    """The side-by-side plots of a sweep's variants."""
    _matplotlib()
    labels = [_variant_label(s) for s in summaries]
    positions = list(range(len(summaries)))
    rotation = 30 if max(len(label) for label in labels) > 12 else 0
    figure, (ax,) = _figure(height=3.8)
    players = summaries[0].players
    width = 0.8 / players
    for seat in range(players):
        colour = _SEAT_COLOURS[seat % len(_SEAT_COLOURS)]
        xs = [x - 0.4 + width * (seat + 0.5) for x in positions]
        rates = [s.seat_win_rate[seat].rate * 100 for s in summaries]
        below = [(s.seat_win_rate[seat].rate - s.seat_win_rate[seat].low) * 100 for s in summaries]
        above = [(s.seat_win_rate[seat].high - s.seat_win_rate[seat].rate) * 100 for s in summaries]
        ax.bar(xs, rates, width=width * 0.9, color=colour, alpha=0.85, label=f"seat {seat + 1}")
        ax.errorbar(xs, rates, yerr=[below, above], fmt="none", ecolor="black", capsize=3, lw=1)
    ax.axhline(100 / players, color=_GREY, linestyle="--", linewidth=1)
    top = max(r.high for s in summaries for r in s.seat_win_rate) * 100
    ax.set_ylim(0, min(100, top) + 15)  # room for the legend above the bars
    ax.set_xticks(positions, labels, rotation=rotation, ha="right" if rotation else "center")
    ax.set_ylabel("wins (%), 95 % interval")
    ax.set_title("Win rate by seat in each variant (dashed: the fair share)")
    ax.legend(frameon=False, fontsize=9, ncols=players)
    plots = [("Seat win rates by variant", figure)]

    figure, (left, right) = _figure(height=3.8, columns=2)
    codes = [c for c in summaries[0].ended if any(s.ended.get(c, 0) for s in summaries)]
    bottom = [0.0] * len(summaries)
    palette = ("#1f5fad", "#2e8b3e", "#c98a00", "#6b3fa0", _GREY, "#d62828")
    for n, code in enumerate(codes):
        share = [s.ended.get(code, 0) * 100 / s.games for s in summaries]
        colour = "#d62828" if code in ("step-cap", "stuck") else palette[n % (len(palette) - 1)]
        left.bar(positions, share, bottom=bottom, color=colour, label=code, width=0.6)
        bottom = [b + v for b, v in zip(bottom, share, strict=True)]
    left.set_xticks(positions, labels, rotation=rotation, ha="right" if rotation else "center")
    left.set_ylabel("% of games")
    left.set_ylim(0, 100)
    left.set_title("How games ended")
    left.legend(frameon=False, fontsize=8, loc="lower left")
    medians = [s.rounds.median for s in summaries]
    low = [s.rounds.median - s.rounds.p10 for s in summaries]
    high = [s.rounds.p90 - s.rounds.median for s in summaries]
    right.errorbar(positions, medians, yerr=[low, high], fmt="o", color="#1f5fad", capsize=5)
    right.set_xticks(positions, labels, rotation=rotation, ha="right" if rotation else "center")
    right.set_ylabel("rounds (median, p10–p90)")
    right.set_ylim(bottom=0)
    right.set_title("Game length")
    plots.append(("Ends and length by variant", figure))

    figure, (ax,) = _figure(height=3.6)
    missions = list(summaries[0].missions)
    width = 0.8 / max(1, len(missions))
    for n, mission in enumerate(missions):
        xs = [x - 0.4 + width * (n + 0.5) for x in positions]
        share = [s.missions.get(mission, 0) * 100 / s.games for s in summaries]
        ax.bar(xs, share, width=width * 0.9, label=mission)
    ax.set_xticks(positions, labels, rotation=rotation, ha="right" if rotation else "center")
    ax.set_ylabel("% of games")
    ax.set_title("Missions completed in each variant")
    ax.legend(frameon=False, fontsize=9, ncols=len(missions))
    plots.append(("Missions by variant", figure))
    return plots


def _variant_label(summary: Summary) -> str:
    if not summary.variant:
        return "as printed"
    return ", ".join(f"{path}={value}" for path, value in summary.variant.items())


# --- the documents -----------------------------------------------------------------------


def _header(summary: Summary, info: ReportInfo, games: str | None = None) -> list[tuple[str, str]]:
    rows = [
        ("catalog", info.catalog),
        ("level", summary.level),
        ("players", str(summary.players)),
        ("policy", ", ".join(summary.policy)),
        ("seed", str(summary.seed)),
        ("games", games or str(summary.games)),
    ]
    if info.max_steps is not None:
        rows.append(("step cap", f"{info.max_steps} actions"))
    rows.append(("house rules", ", ".join(info.house_rules) or "none"))
    return rows


def _key_figures(summary: Summary) -> list[tuple[str, str]]:
    ends = ", ".join(
        f"{code} {count / summary.games:.0%}" for code, count in summary.ended.items() if count
    )
    seats = ", ".join(
        f"{r.seat + 1}: {r.rate:.0%} [{r.low:.0%}, {r.high:.0%}]" for r in summary.seat_win_rate
    )
    return [
        ("ended by", ends),
        (
            "rounds",
            f"median {summary.rounds.median:g}, p10 {summary.rounds.p10:g}, "
            f"p90 {summary.rounds.p90:g}, max {summary.rounds.max}",
        ),
        ("seat win rates", seats),
    ]


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=_DPI, metadata={"Software": None})
    return buffer.getvalue()


_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222;
       max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.4; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.25rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
td, th { padding: .15rem .8rem .15rem 0; text-align: left; vertical-align: top; }
th { color: #555; font-weight: normal; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: 1rem 0 2rem; } figure img { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: .9rem; }
details { margin: 1rem 0; } summary { cursor: pointer; font-weight: 600; }
"""


def _html(summaries: Sequence[Summary], info: ReportInfo) -> bytes:
    first = summaries[0]
    sweep = len(summaries) > 1 or first.variant is not None
    games = f"{first.games} per variant, {len(summaries)} variants" if sweep else None
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>МХП balance report</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>МХП balance report</h1>",
        "<table>",
        *(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in _header(first, info, games)),
        *(
            f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>"
            for k, v in ([] if sweep else _key_figures(first))
        ),
        "</table>",
    ]
    if sweep:
        parts.append("<h2>Variants side by side</h2>")
        parts.append(_sweep_table(summaries))
        parts.extend(_img(title, figure) for title, figure in sweep_figures(summaries))
        for summary in summaries:
            parts.append(f"<details><summary>{_e(_variant_label(summary))}</summary>")
            parts.extend(_run_html(summary, info))
            parts.append("</details>")
    else:
        parts.extend(_run_html(first, info))
    parts.append("</body></html>")
    return ("\n".join(parts) + "\n").encode("utf-8")


def _run_html(summary: Summary, info: ReportInfo) -> list[str]:
    rows = "".join(
        f"<tr><td>seat {r.seat + 1}</td><td>{_e(summary.policy[r.seat])}</td>"
        f'<td class="n">{w:g}</td><td class="n">{r.rate:.1%}</td>'
        f'<td class="n">{r.low:.1%} – {r.high:.1%}</td></tr>'
        for r, w in zip(summary.seat_win_rate, summary.wins_by_seat, strict=True)
    )
    parts = [
        "<h2>Seats</h2>",
        "<table><tr><th>seat</th><th>policy</th><th>wins</th><th>rate</th>"
        f"<th>95 % interval</th></tr>{rows}</table>",
    ]
    for title, figure in figures(summary, info):
        parts.append(_img(title, figure))
    return parts


def _sweep_table(summaries: Sequence[Summary]) -> str:
    head = "".join(f"<th>{_e(label)}</th>" for label, _ in _sweep_rows(summaries[0]))
    body = "".join(
        "<tr><td>"
        + _e(_variant_label(s))
        + "</td>"
        + "".join(f'<td class="n">{_e(v)}</td>' for _, v in _sweep_rows(s))
        + "</tr>"
        for s in summaries
    )
    return f"<table><tr><th>variant</th>{head}</tr>{body}</table>"


def _sweep_rows(summary: Summary) -> list[tuple[str, str]]:
    rows = [(f"seat {r.seat + 1}", f"{r.rate:.1%}") for r in summary.seat_win_rate]
    rows.append(("by mission", f"{summary.ended.get('mission', 0) / summary.games:.0%}"))
    rows.append(("step-cap", f"{summary.ended.get('step-cap', 0) / summary.games:.0%}"))
    rows.append(("rounds", f"{summary.rounds.median:g}"))
    return rows


def _img(title: str, figure: Figure) -> str:
    data = base64.b64encode(_png(figure)).decode("ascii")
    return (
        f'<figure><img alt="{_e(title)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{_e(title)}</figcaption></figure>"
    )


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _pdf(summaries: Sequence[Summary], info: ReportInfo) -> bytes:
    from matplotlib.backends.backend_pdf import PdfPages

    first = summaries[0]
    sweep = len(summaries) > 1 or first.variant is not None
    games = f"{first.games} per variant, {len(summaries)} variants" if sweep else None
    buffer = io.BytesIO()
    # No dates in the file: the same run gives the same bytes.
    with PdfPages(buffer, metadata={"Title": "МХП balance report", "CreationDate": None}) as pdf:
        title, _ = _figure(height=5.0)
        title.clear()
        lines = [f"{k}: {v}" for k, v in _header(first, info, games)]
        if not sweep:
            lines += ["", *(f"{k}: {v}" for k, v in _key_figures(first))]
        else:
            lines += ["", "variants:", *(f"  {_variant_label(v)}" for v in summaries[:12])]
            if len(summaries) > 12:
                lines.append(f"  … and {len(summaries) - 12} more")
        title.text(0.06, 0.9, "МХП balance report", fontsize=20, weight="bold", va="top")
        title.text(0.06, 0.78, "\n".join(lines), fontsize=11, va="top", linespacing=1.7)
        pdf.savefig(title)
        pages: list[Figure] = []
        if sweep:
            pages.extend(figure for _, figure in sweep_figures(summaries))
        for summary in summaries:
            for _, figure in figures(summary, info):
                if sweep:
                    figure.suptitle(_variant_label(summary), fontsize=10, color=_GREY)
                pages.append(figure)
        for page in pages:
            pdf.savefig(page)
    return buffer.getvalue()
