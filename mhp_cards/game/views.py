"""Human renderings of a game state: a text map of the field and a summary per player."""

from __future__ import annotations

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState

__all__ = ["field_map", "summary"]


def field_map(state: GameState) -> str:
    """The field as text, one character a cell.

    ``#`` a raw card, ``·`` an emptied cell, ``B`` the Base, and the players' numbers (1–5, in
    turn order) where their combines stand.
    """
    field = state.field
    if field is None:
        return "(no field at this level)"
    grid: dict[tuple[int, int], str] = {
        cell.position: "#" if cell.raw else "·" for cell in field.cells
    }
    grid[field.base] = "B"
    on_base = []
    for number, player in enumerate(state.players, start=1):
        if player.combine is None:
            continue
        if player.combine.position == field.base:
            on_base.append(str(number))
        else:
            grid[player.combine.position] = str(number)
    width = max(x for x, _ in grid) + 1
    height = max(y for _, y in grid) + 1
    rows = [" ".join(grid.get((x, y), " ") for x in range(width)).rstrip() for y in range(height)]
    players = "  ".join(f"{n} {p.id}" for n, p in enumerate(state.players, start=1))
    legend = f"# raw card  · collected  B Base  {players}"
    if on_base:
        legend += f"  (on the Base: {', '.join(on_base)})"
    return "\n".join([*rows, "", legend])


def summary(state: GameState, catalog: Catalog) -> str:
    """A line per player and the shared pieces: money, cards, tokens, installations."""
    lines = [
        f"level {state.level}, {len(state.players)} players, seed {state.seed}, round {state.round}"
        + (f", house rules: {', '.join(state.house_rules.names())}" if state.house_rules else ""),
        f"Bank {state.bank} мР"
        + (f", {state.box_coins} coins in the box" if state.box_coins else ""),
    ]
    if state.field is not None:
        lines.append(
            f"field: {len(state.field.cells)} cells ({state.field.shape}), "
            f"{sum(1 for c in state.field.cells if c.raw)} raw cards on it; Warehouse "
            f"{len(state.warehouse)}; {len(state.removed_fate)} Fate cards set aside"
        )
    if state.piles:
        lines.append("piles: " + ", ".join(str(len(pile)) for pile in state.piles))
    for index, player in enumerate(state.players):
        mark = "▶" if index == state.turn else " "
        owned = [str(i.number) for i in state.installations if i.owner == player.id]
        parts = [f"{player.money} мР", f"{len(player.raw_cards)} raw cards"]
        if player.tokens:
            parts.append(f"{state.free_tokens(player.id)}/{player.tokens} tokens free")
        if owned:
            names = ", ".join(f"{n}. {catalog.installation(int(n)).name.en}" for n in owned)
            # Head to head a player holds those dealt until they keep one (V1.2-choose).
            kind = "installation" if len(owned) == 1 else "installations to keep one of"
            parts.append(f"{kind} {names}")
        if player.combine is not None:
            upgrades = [
                u
                for u, on in (
                    ("solar battery", player.combine.solar_battery),
                    ("armour", player.combine.armour),
                )
                if on
            ]
            parts.append(
                f"combine at {player.combine.position}"
                + (f" with {', '.join(upgrades)}" if upgrades else "")
            )
        lines.append(f"{mark} {player.id:<7} " + "; ".join(parts))
    shared = [str(i.number) for i in state.installations if i.owner is None]
    if shared:
        lines.append("shared installations: " + ", ".join(shared))
    if state.unused_installations:
        lines.append("left in the box: " + ", ".join(map(str, state.unused_installations)))
    return "\n".join(lines)
