"""The balance report as one self-contained HTML page: every figure against its bound.

``mhp balance --report FILE.html`` writes it: the verdict and the failing figures first, then
every figure grouped by what it measures (installation runs against their bound, level-1
solution counts, game length against its band, seats, missions, attacks and armour), the
skill duels and the policy matrix (each pair of policies head to head, with 95 % intervals).
Plain HTML with its style inline: no script, no plot library, nothing fetched.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

from mhp_cards.fileio import write_bytes_atomic
from mhp_cards.sim.verdicts import BalanceReport, Figure, Matchup

__all__ = ["FIGURE_TITLES", "balance_html", "write_balance_report"]

#: The sections of the report, in order, by figure name.
FIGURE_TITLES: Final = {
    "level1-solutions": "Level-1 solutions of each mission (from the cards)",
    "raw-kind-use": "Raw kinds in use (from the cards)",
    "installation-runs": "Installation runs a game",
    "rounds": "Game length (median rounds) against the catalog's band",
    "stalls": "Stalls and step caps",
    "mission-ends": "Level-1 games ended by a mission",
    "mission-share": "Each mission's share of the completions",
    "seat-wins": "Seat win rates (95 % interval inside the band)",
    "attacks": "Games with an attack",
    "armour": "Games with armour bought",
    "skill": "Skill: one policy against another",
}
_STYLE: Final = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1100px;
  padding: 0 1rem; color: #1d1d1d; }
h1 { margin-bottom: .2rem; } h2 { margin-top: 2rem; border-bottom: 2px solid #c1440e; }
table { border-collapse: collapse; width: 100%; margin: .6rem 0; }
.wide { overflow-x: auto; }
th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #ddd; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.fail td { background: #fde4df; } tr.undecided td { background: #fdf4d8; }
.verdict { font-size: 1.2rem; font-weight: 700; }
.pass { color: #1e6b2e; } .failed { color: #b3261e; }
.matrix td, .matrix th { text-align: center; } .matrix th:first-child { text-align: left; }
"""


def write_balance_report(report: BalanceReport, path: Path, catalog: str) -> None:
    """Write the report's page to ``path`` atomically."""
    write_bytes_atomic(path, balance_html(report, catalog))


def balance_html(report: BalanceReport, catalog: str) -> bytes:
    """The report as a self-contained HTML page (UTF-8)."""
    failures = report.failures
    verdict = (
        f'<p class="verdict {"pass" if report.passed else "failed"}">{_e(report.verdict_line)}</p>'
    )
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Balance of {_e(catalog)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>Balance of {_e(catalog)}</h1>",
        f"<p>{report.games} {_e(report.policy)} games a table, {report.robust_games} under "
        f"each robustness policy, seed {report.seed}.</p>",
        verdict,
    ]
    if failures:
        parts += ["<h2>What fails</h2>", _figure_table(failures)]
    if report.undecided:
        parts += [
            "<h2>What these games do not decide</h2>",
            "<p>The 95 % interval reaches across the bound. The games to decide it: how many "
            "games a table would decide it, were its rate to hold.</p>",
            _figure_table(report.undecided),
        ]
    for name, title in FIGURE_TITLES.items():
        group = [f for f in report.figures if f.figure == name]
        if group:
            parts += [f"<h2>{_e(title)}</h2>", _figure_table(group)]
    if report.matchups:
        parts += ["<h2>Skill duels</h2>", _duel_table(report.matchups)]
    if report.matrix:
        parts.append("<h2>Policy matrix</h2>")
        parts.append(
            "<p>Two players, seats swapped half the games: the row's policy wins the share "
            "shown against the column's (a tie shares the win), with its 95 % interval.</p>"
        )
        for level in dict.fromkeys(duel.level for duel in report.matrix):
            parts += [f"<h3>Level {_e(level)}</h3>", _matrix(report.matrix, level)]
    parts.append("</body></html>")
    return "\n".join(parts).encode()


def _figure_table(figures: Iterable[Figure]) -> str:
    """The figures as a table; a column of the games that would decide them where any is open."""
    figures = list(figures)
    deciding = any(figure.verdict == "undecided" for figure in figures)
    rows = [
        '<div class="wide"><table><tr><th>policy</th><th>level</th><th>players</th>'
        "<th>figure</th>"
        "<th>value</th><th>bound</th>"
        + ("<th>games to decide it</th>" if deciding else "")
        + "<th></th></tr>"
    ]
    for figure in figures:
        games = f'<td class="num">{_e(_to_decide(figure))}</td>' if deciding else ""
        rows.append(
            f'<tr class="{_ROW_CLASS[figure.verdict]}"><td>{_e(figure.policy)}</td>'
            f"<td>{_e(figure.level)}</td><td>{figure.players or ''}</td>"
            f'<td>{_e(figure.subject)}</td><td class="num">{_e(figure.shown)}</td>'
            f"<td>{_e(figure.bound)}</td>{games}<td>{figure.verdict_shown}</td></tr>"
        )
    rows.append("</table></div>")
    return "\n".join(rows)


#: The table row's class for each verdict.
_ROW_CLASS = {"pass": "ok", "undecided": "undecided", "fail": "fail"}


def _to_decide(figure: Figure) -> str:
    """For a figure the games played do not decide, the games a table that would decide it."""
    if figure.verdict != "undecided":
        return ""
    if figure.games_to_decide is None:
        return "none: on its bound"
    return f"~{figure.games_to_decide:,}"


def _duel_table(duels: Sequence[Matchup]) -> str:
    rows = [
        '<div class="wide"><table><tr><th>level</th><th>duel</th><th>share won</th>'
        "<th>games</th></tr>"
    ]
    for duel in duels:
        rows.append(
            f"<tr><td>{_e(duel.level)}</td><td>{_e(duel.policy)} against "
            f'{_e(duel.opponent)}</td><td class="num">{_share(duel)}</td>'
            f'<td class="num">{duel.games}</td></tr>'
        )
    rows.append("</table></div>")
    return "\n".join(rows)


def _matrix(duels: Sequence[Matchup], level: str) -> str:
    here = [duel for duel in duels if duel.level == level]
    names = list(dict.fromkeys([d.policy for d in here] + [d.opponent for d in here]))
    cells: dict[tuple[str, str], str] = {}
    for duel in here:
        cells[duel.policy, duel.opponent] = _share(duel)
        cells[duel.opponent, duel.policy] = (
            f"{1 - duel.share:.1%} [{1 - duel.high:.1%}, {1 - duel.low:.1%}]"
        )
    head = "".join(f"<th>{_e(name)}</th>" for name in names)
    rows = [f'<div class="wide"><table class="matrix"><tr><th>row beats column</th>{head}</tr>']
    for row in names:
        tds = "".join(f"<td>{cells.get((row, column), '—')}</td>" for column in names)
        rows.append(f"<tr><th>{_e(row)}</th>{tds}</tr>")
    rows.append("</table></div>")
    return "\n".join(rows)


def _share(duel: Matchup) -> str:
    return f"{duel.share:.1%} [{duel.low:.1%}, {duel.high:.1%}]"


def _e(text: str) -> str:
    return html.escape(text, quote=True)
