"""What the box must hold for each level's setup, rule by rule (RULES.md L1.S*, L2.S*, V1.*, L3.S*).

The arithmetic of the field: remove 8..12 Fate cards (L1.S1), at least 60 must remain; one raw
card goes on every remaining Fate card and the rest form the Warehouse, which must hold 4..8
cards at level 1 (L1.S3) and 8..12 at level 3 (L3.S2). For a given catalog only some removal
counts satisfy all of that; :func:`removal_options` finds them (Ruling L1.S3-count).

>>> removal_options(fate_cards=72, raw_cards=70, warehouse=(4, 8))
[8, 9, 10]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.rules.numbers import (
    BANK_START_L2,
    COINS,
    COINS_PER_PLAYER_L2,
    ELECTROLYSERS,
    FATE_REMOVED,
    HEAD_TO_HEAD_PLAYERS,
    MIN_FIELD,
    PILES_L2,
    PLAYERS,
    WAREHOUSE_SIZE,
    Level,
    chemist_tokens,
    chemist_tokens_rule,
)

__all__ = [
    "PLAYERS_TEXT",
    "SetupCheck",
    "SetupItem",
    "check_setup",
    "fate_card_range",
    "removal_options",
]

#: "2 to 5", as the checklists write the number of players.
PLAYERS_TEXT: Final = f"{PLAYERS.start} to {PLAYERS.stop - 1}"


def removal_options(fate_cards: int, raw_cards: int, warehouse: tuple[int, int]) -> list[int]:
    """Fate-card removal counts (8..12) that leave ≥ 60 cards and a Warehouse of the given size."""
    options = []
    for removed in range(FATE_REMOVED[0], FATE_REMOVED[1] + 1):
        field = fate_cards - removed
        if field >= MIN_FIELD and warehouse[0] <= raw_cards - field <= warehouse[1]:
            options.append(removed)
    return options


@dataclass(frozen=True, slots=True)
class SetupItem:
    """One line of a setup checklist: the rule, whether the box satisfies it, and the facts."""

    rule: str
    ok: bool
    text: str
    #: What would satisfy the rule, when it is not satisfied.
    hint: str = ""
    #: Where the counted thing is in the catalog (a path from the top of its file).
    subject: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SetupCheck:
    """The checklist of one level for a number of players."""

    level: Level
    players: int
    items: tuple[SetupItem, ...]

    def is_valid(self) -> bool:
        """True when every item holds."""
        return all(item.ok for item in self.items)

    @property
    def failures(self) -> tuple[SetupItem, ...]:
        """The items that do not hold."""
        return tuple(item for item in self.items if not item.ok)

    def to_json(self) -> dict[str, object]:
        """The checklist as a JSON-ready mapping: level, players, valid, items."""
        return {
            "level": self.level,
            "players": self.players,
            "valid": self.is_valid(),
            "items": [
                {"rule": item.rule, "ok": item.ok, "text": item.text, "hint": item.hint}
                for item in self.items
            ],
        }


def raw_deck_range(fate_cards: int, warehouse: tuple[int, int]) -> tuple[int, int] | None:
    """The smallest and largest raw decks that some Fate-card removal makes work, if any."""
    sizes = [
        raw
        for raw in range(fate_cards + warehouse[1] + 1)
        if removal_options(fate_cards, raw, warehouse)
    ]
    return (min(sizes), max(sizes)) if sizes else None


def fate_card_range(raw_cards: int, warehouse: tuple[int, int]) -> tuple[int, int] | None:
    """The fewest and most Fate cards that some removal makes work with this raw deck, if any."""
    counts = [
        fate
        for fate in range(raw_cards + FATE_REMOVED[1] + 1)
        if removal_options(fate, raw_cards, warehouse)
    ]
    return (min(counts), max(counts)) if counts else None


def _field_items(catalog: Catalog, level: Level) -> list[SetupItem]:
    fate = catalog.components.fate_cards.count
    raw = catalog.raw_deck_size
    low, high = WAREHOUSE_SIZE[level]
    low_cut, high_cut = FATE_REMOVED
    options = removal_options(fate, raw, (low, high))
    s1 = "L1.S1" if level == "1" else "L3.S1"
    s3 = "L1.S3" if level == "1" else "L3.S2"
    items = [
        SetupItem(
            s1,
            fate - FATE_REMOVED[0] >= MIN_FIELD,
            f"{fate} Fate cards: removing {low_cut}..{high_cut} must leave at least {MIN_FIELD}",
            f"at least {MIN_FIELD + FATE_REMOVED[0]} Fate cards",
            ("components", "fate_cards", "count"),
        )
    ]
    if options:
        fields = ", ".join(
            f"remove {r} → field {fate - r}, Warehouse {raw - fate + r}" for r in options
        )
        items.append(SetupItem(s3, True, f"{raw} raw cards: {fields}"))
        return items
    fates = fate_card_range(raw, (low, high))
    workable = raw_deck_range(fate, (low, high))
    if fates:
        hint = f"with {raw} raw cards give the box {fates[0]}–{fates[1]} Fate cards"
        if workable:
            hint += f"; or keep {fate} and make the raw deck {workable[0]}–{workable[1]} cards"
    elif workable:
        hint = f"with {fate} Fate cards the raw deck needs {workable[0]}–{workable[1]} cards"
    else:
        hint = f"first give the box at least {MIN_FIELD + FATE_REMOVED[0]} Fate cards"
    items.append(
        SetupItem(
            s3,
            False,
            f"{raw} raw cards and {fate} Fate cards: no removal of {low_cut}..{high_cut} "
            f"leaves a field of ≥ {MIN_FIELD} and a Warehouse of {low}..{high}",
            hint,
            # Blame the count a fix can change: the Fate count if some count works with this
            # raw deck, else the raw deck.
            ("components", "fate_cards", "count") if fates else ("raw_materials",),
        )
    )
    return items


def _combine_items(catalog: Catalog, players: int, rule: str) -> list[SetupItem]:
    components = catalog.components
    colours = len(components.colours)
    return [
        SetupItem(
            rule,
            components.combines.count >= players and colours >= players,
            f"{components.combines.count} combines in {colours} colours for {players} players",
            f"one combine per player, each in a colour of its own: at least {players}",
            ("components", "combines", "count"),
        )
    ]


def _installation_items(catalog: Catalog, players: int, level: Level) -> list[SetupItem]:
    mains = len(catalog.main_cards)
    electrolysers = len(catalog.electrolysers)
    identical = all(card.same_design(catalog.electrolysers[0]) for card in catalog.electrolysers)
    deal = "V1.2" if level == "1v1" else "L2.S2"
    shared = mains - players
    items = [
        SetupItem(
            "L2.S1",
            electrolysers == ELECTROLYSERS and identical,
            f"{electrolysers} electrolyser cards, "
            + ("identical" if identical else "not all identical")
            + f" (the rules need {ELECTROLYSERS} identical ones)",
            f"{ELECTROLYSERS} identical electrolyser cards",
            ("electrolysers",),
        ),
        SetupItem(
            deal,
            mains >= players,
            f"{mains} main-part cards for {players} players"
            + (f"; {shared} installation(s) shared" if shared > 0 and level != "1v1" else ""),
            f"one main card (installation) per player: at least {players}",
            ("installations",),
        ),
    ]
    if level == "1v1":
        alone = catalog.installations_running_alone
        numbers = ", ".join(str(installation.number) for installation in alone) or "none"
        items.append(
            SetupItem(
                "V1.2-runnable",
                len(alone) >= players,
                f"{len(alone)} installation(s) run from raw cards alone: {numbers}",
                f"at least {players} installations whose raw inputs are all raw cards",
                ("installations",),
            )
        )
    return items


def _token_items(catalog: Catalog, players: int, level: Level) -> list[SetupItem]:
    tokens = catalog.components.chemist_tokens.per_player
    colours = len(catalog.components.colours)
    needed = chemist_tokens(level, players)
    rule = chemist_tokens_rule(level, players)
    each = f"{needed} tokens per player" + (" with two players" if rule == "L2.S7-two" else "")
    return [
        SetupItem(
            rule,
            tokens >= needed and colours >= players,
            f"{tokens} chemist tokens of each of {colours} colours for {players} players",
            f"{each}, a colour per player",
            ("components", "chemist_tokens", "per_player"),
        )
    ]


def check_setup(catalog: Catalog, level: Level, players: int) -> SetupCheck:
    """The checklist for ``level`` with ``players`` players, each line citing its rule."""
    coins = catalog.components.coins.count
    items: list[SetupItem] = []
    if level == "1v1" and players != HEAD_TO_HEAD_PLAYERS:
        items.append(
            SetupItem(
                "V1.1",
                False,
                f"head to head is for {HEAD_TO_HEAD_PLAYERS} players, not {players}",
            )
        )
    elif players not in PLAYERS:
        rule = "L2.S7" if level == "2" else "L1.S4"  # a coin pile or a combine per player
        items.append(
            SetupItem(
                rule,
                False,
                f"the game is for {PLAYERS_TEXT} players, not {players}",
                f"{PLAYERS_TEXT} players",
            )
        )
    if level in ("1", "3"):
        items += _field_items(catalog, level)
        items += _combine_items(catalog, players, "L1.S4" if level == "1" else "L3.S3")
        items.append(
            SetupItem(
                "L1.S5" if level == "1" else "L3.S4",
                coins == COINS,
                f"{coins} coins form the Bank (the rules count {COINS})",
                f"{COINS} coins",
                ("components", "coins", "count"),
            )
        )
    if level in ("2", "1v1", "3"):
        items += _installation_items(catalog, players, level)
        items += _token_items(catalog, players, level)
    if level in ("2", "1v1"):
        needed = COINS_PER_PLAYER_L2 * players + BANK_START_L2
        items.append(
            SetupItem(
                "L2.S7",
                coins >= needed,
                f"{coins} coins: {COINS_PER_PLAYER_L2} × {players} players + {BANK_START_L2} for "
                f"the Bank = {needed}",
                f"at least {needed} coins",
                ("components", "coins", "count"),
            )
        )
        items.append(
            SetupItem(
                "L2.S6",
                catalog.raw_deck_size >= PILES_L2,
                f"{catalog.raw_deck_size} raw cards in three piles",
                f"at least {PILES_L2} raw cards",
                ("raw_materials",),
            )
        )
    return SetupCheck(level, players, tuple(items))
