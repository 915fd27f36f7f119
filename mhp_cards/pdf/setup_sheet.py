"""A one-page setup sheet for a dealt game: the field drawn to a grid, and who gets what.

The organiser prints it and lays the table out from it: every cell of the field with the Base
and the combines, the Warehouse and the piles, each player's colour, money, tokens and
installation, and the shared installations.
"""

from __future__ import annotations

from pathlib import Path

from mhp_cards.catalog.models import Catalog
from mhp_cards.fileio import write_bytes_atomic
from mhp_cards.game.state import GameState
from mhp_cards.pdf.layout import Region, load_profile
from mhp_cards.pdf.render import render_pdf
from mhp_cards.pdf.sketch import PageSketch, Sketch
from mhp_cards.pdf.style import BASE, EMPTY, INK, LEVEL_TITLES, SAND
from mhp_cards.pdf.typeset import fit_lines, place_line, text_runs

__all__ = ["setup_sheet", "write_setup_sheet"]


def _region(x: float, y: float, width: float, height: float, size: float) -> Region:
    return Region.text_block(x, y, width, height, size, min_size=5.0)


def setup_sheet(
    state: GameState, catalog: Catalog, layout: str = "a4", lang: str = "ru"
) -> PageSketch:
    """The setup sheet of ``state`` as one page."""
    profile = load_profile(layout)
    width, height = profile.page.dimensions
    m = profile.margins
    usable = width - m.left - m.right
    sketch = Sketch()
    page = sketch.new_page(width, height, "setup")
    title = f"{LEVEL_TITLES[state.level][lang]} — {len(state.players)} " + (
        "игрока"
        if lang == "ru" and len(state.players) < 5
        else ("игроков" if lang == "ru" else "players")
    )
    place_line(
        sketch,
        text_runs(title, bold=True),
        _region(m.left, m.top, usable, 9, 15),
        "setup sheet",
        "title",
        INK,
    )
    seed = (
        (
            f"Раздача: seed {state.seed}, поле «{state.field.shape}»"
            if lang == "ru"
            else f"Deal: seed {state.seed}, field “{state.field.shape}”"
        )
        if state.field
        else (f"seed {state.seed}")
    )
    place_line(
        sketch,
        text_runs(seed),
        _region(m.left, m.top + 10, usable, 6, 9),
        "setup sheet",
        "seed",
        INK,
    )
    top = m.top + 19
    if state.field is not None:
        positions = [cell.position for cell in state.field.cells] + [state.field.base]
        columns = max(x for x, _ in positions) + 1
        rows = max(y for _, y in positions) + 1
        cell = min(usable / columns, (height * 0.55) / rows, 12.0)
        left = m.left + (usable - columns * cell) / 2
        for field_cell in state.field.cells:
            x, y = field_cell.position
            sketch.rect(
                left + x * cell + 0.3,
                top + y * cell + 0.3,
                cell - 0.6,
                cell - 0.6,
                fill=SAND if field_cell.raw else EMPTY,
                stroke="#B08A5A",
                line_width=0.2,
            )
        bx, by = state.field.base
        sketch.rect(
            left + bx * cell + 0.3, top + by * cell + 0.3, cell - 0.6, cell - 0.6, fill=BASE
        )
        colours = {colour.id: colour.rgb for colour in catalog.components.colours}
        at: dict[tuple[int, int], list[str]] = {}
        for player in state.players:
            if player.combine is not None:
                at.setdefault(player.combine.position, []).append(player.id)
        for (x, y), ids in at.items():
            for k, player_id in enumerate(ids):
                r = cell / 6
                cx = left + x * cell + r * 1.3 + (k % 3) * r * 2.2
                cy = top + y * cell + r * 1.3 + (k // 3) * r * 2.2
                sketch.circle(
                    cx, cy, r, fill=colours.get(player_id, INK), stroke="#FFFFFF", line_width=0.3
                )
        top += rows * cell + 6
    lines = _summary_lines(state, catalog, lang)
    fit_lines(
        sketch,
        [text_runs(line) for line in lines],
        _region(m.left, top, usable, height - m.bottom - top, 10),
        "setup sheet",
        "summary",
        INK,
    )
    return page


def _summary_lines(state: GameState, catalog: Catalog, lang: str) -> list[str]:
    ru = lang == "ru"
    lines = []
    if state.field is not None:
        lines.append(
            (
                f"Поле: {len(state.field.cells)} карт Судьбы (отложено {len(state.removed_fate)}), "
                f"на каждой карточка сырья; Склад: {len(state.warehouse)} карточек."
            )
            if ru
            else (
                f"Field: {len(state.field.cells)} Fate cards ({len(state.removed_fate)} set "
                f"aside), a raw card on each; Warehouse: {len(state.warehouse)} cards."
            )
        )
    if state.piles:
        sizes = ", ".join(str(len(pile)) for pile in state.piles)
        lines.append(f"Три стопки сырья: {sizes}." if ru else f"Three raw piles: {sizes}.")
    bank = f"Банк: {state.bank} мР" if ru else f"Bank: {state.bank} mR"
    if state.box_coins:
        bank += (
            f"; в коробке остаются {state.box_coins} монет"
            if ru
            else f"; {state.box_coins} coins stay in the box"
        )
    lines.append(bank + ".")
    names = {colour.id: colour.name.get(lang) for colour in catalog.components.colours}
    for number, player in enumerate(state.players, start=1):
        parts = [
            f"{number}. {names.get(player.id, player.id)}: {player.money} " + ("мР" if ru else "mR")
        ]
        if player.tokens:
            parts.append(f"{player.tokens} " + ("фишек химиков" if ru else "chemist tokens"))
        for installation in state.installations:
            if installation.owner == player.id:
                name = catalog.installation(installation.number).name.get(lang)
                parts.append(
                    f"{'установка' if ru else 'installation'} {installation.number} "
                    f"«{name}» ({installation.arrangement})"
                )
        lines.append("; ".join(parts) + ".")
    shared = [i for i in state.installations if i.owner is None]
    if shared:
        listed = ", ".join(f"{i.number} ({i.arrangement})" for i in shared)
        where = (
            (" — стоят на базе" if ru else " — they stand at the Base")
            if (state.level == "3")
            else ""
        )
        lines.append(
            f"Общие установки: {listed}{where}."
            if ru
            else f"Shared installations: {listed}{where}."
        )
    if state.unused_installations:
        unused = ", ".join(map(str, state.unused_installations))
        lines.append(f"В коробке: установки {unused}." if ru else f"Left in the box: {unused}.")
    return lines


def write_setup_sheet(
    state: GameState, catalog: Catalog, path: Path, layout: str = "a4", lang: str = "ru"
) -> None:
    """Render the setup sheet to ``path`` (atomically)."""
    page = setup_sheet(state, catalog, layout, lang)
    data = render_pdf([page], f"МАРСХИМПРОМ — setup, seed {state.seed}", "setup sheet", lang)
    write_bytes_atomic(path, data)
