"""The setup of every level for this box: the counts, computed, and the steps in words.

:func:`setup_facts` works out what a setup needs from the catalog and the rules (how many Fate
cards to put aside for the field, the Warehouse, the coins left in the box for each number of
players: the ranges of Ruling L1.S1-range), never typed in; :func:`setup_steps` writes a level's
numbered setup steps with them, each with the rules it carries out. The rulebook and the
player aids share both.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.setups import removal_options
from mhp_cards.pdf.book_texts import tr
from mhp_cards.rules.numbers import (
    BANK_START_L2,
    COINS_PER_PLAYER_L2,
    FATE_REMOVED,
    FIFTH_SEAT_COINS_L2,
    MIN_FIELD,
    PILES_L2,
    PLAYERS,
    TOKENS_PER_PLAYER,
    TOKENS_TWO_PLAYERS,
    WAREHOUSE_SIZE,
    Lang,
    Level,
)

__all__ = [
    "FieldSetup",
    "SetupFacts",
    "count_range",
    "removal_text",
    "ru_count",
    "ru_raw_cards",
    "setup_facts",
    "setup_steps",
]


def ru_count(number: int, one: str, few: str, many: str) -> str:
    """``number`` with the Russian noun form it takes: 1 карта, 2 карты, 5 карт, 21 карта."""
    if number % 10 == 1 and number % 100 != 11:
        form = one
    elif 2 <= number % 10 <= 4 and not 12 <= number % 100 <= 14:
        form = few
    else:
        form = many
    return f"{number} {form}"


def ru_raw_cards(number: int) -> str:
    """``number`` raw cards in Russian: 1 карточка, 3 карточки, 72 карточки."""
    return ru_count(number, "карточка", "карточки", "карточек")


@dataclass(frozen=True, slots=True)
class FieldSetup:
    """The field of level 1 or 3 for this box: each allowed removal with its field and Warehouse."""

    level: Level
    fate: int
    raw: int
    #: (removed Fate cards, field size, Warehouse size), for every removal the rules allow.
    options: tuple[tuple[int, int, int], ...]

    @property
    def removed(self) -> tuple[int, int] | None:
        """The fewest and most Fate cards to put aside, or None when no removal works."""
        return (self.options[0][0], self.options[-1][0]) if self.options else None

    @property
    def field(self) -> tuple[int, int] | None:
        """The smallest and largest field."""
        return (self.options[-1][1], self.options[0][1]) if self.options else None

    @property
    def warehouse(self) -> tuple[int, int] | None:
        """The smallest and largest Warehouse."""
        return (self.options[0][2], self.options[-1][2]) if self.options else None


@dataclass(frozen=True, slots=True)
class SetupFacts:
    """The counts the setups of every level need, computed from the catalog and the rules."""

    fields: dict[str, FieldSetup]
    raw: int
    fate: int
    coins: int
    combines: int
    mains: int
    electrolysers: int
    alone: tuple[int, ...]
    #: Coins left in the box at level 2 for each number of players.
    coins_left: dict[int, int] = field(default_factory=dict)


def setup_facts(catalog: Catalog) -> SetupFacts:
    """The setup counts of every level for ``catalog`` (the ranges of Ruling L1.S1-range)."""
    fate = catalog.components.fate_cards.count
    raw = catalog.raw_deck_size
    fields = {}
    for level in ("1", "3"):
        options = removal_options(fate, raw, WAREHOUSE_SIZE[level])
        fields[level] = FieldSetup(
            level, fate, raw, tuple((r, fate - r, raw - fate + r) for r in options)
        )
    coins = catalog.components.coins.count
    left = {
        n: coins - COINS_PER_PLAYER_L2 * n - BANK_START_L2
        for n in PLAYERS
        if coins >= COINS_PER_PLAYER_L2 * n + BANK_START_L2
    }
    return SetupFacts(
        fields=fields,
        raw=raw,
        fate=fate,
        coins=coins,
        combines=catalog.components.combines.count,
        mains=len(catalog.main_cards),
        electrolysers=len(catalog.electrolysers),
        alone=tuple(i.number for i in catalog.installations_running_alone),
        coins_left=left,
    )


def count_range(values: tuple[int, int], lang: Lang) -> str:
    """A range of counts as the book prints it: ``8–12``, or ``8`` when both ends agree."""
    low, high = values
    return str(low) if low == high else f"{low}–{high}"


def removal_text(setup: FieldSetup, lang: Lang) -> str:
    """The setup step that says how many Fate cards to put aside, for this box."""
    if setup.removed is None or setup.field is None:
        return tr(
            "s_remove_none", lang, low=FATE_REMOVED[0], high=FATE_REMOVED[1], min_field=MIN_FIELD
        )
    low, high = setup.removed
    key = "s_remove_one" if low == high else "s_remove"
    return tr(
        key,
        lang,
        low=low,
        high=high,
        low_fate=ru_count(low, "карту Судьбы", "карты Судьбы", "карт Судьбы"),
        fate=setup.fate,
        field_low=setup.field[0],
        field_high=setup.field[1],
        field_low_cards=ru_count(setup.field[0], "карта", "карты", "карт"),
    )


def setup_steps(facts: SetupFacts, level: Level, lang: Lang) -> list[tuple[str, str]]:
    """The numbered setup steps of a level, each with the rules it carries out."""
    steps: list[tuple[str, str]] = []
    if level in ("1", "3"):
        setup = facts.fields[level]
        first = "L1.S1, L1.S1-range" if level == "1" else "L3.S1, L1.S1-range"
        steps.append((removal_text(setup, lang), first))
        steps.append((tr("s_field", lang), "L1.S2"))
        if setup.warehouse is not None:
            raw = tr(
                "s_raw",
                lang,
                raw=facts.raw,
                raw_cards=ru_raw_cards(facts.raw),
                warehouse=count_range(setup.warehouse, lang),
            )
            steps.append((raw, "L1.S3" if level == "1" else "L3.S2"))
        steps.append((tr("s_combines", lang, combines=facts.combines), "L1.S4"))
        steps.append((tr("s_bank", lang, coins=facts.coins), "L1.S5" if level == "1" else "L3.S4"))
    if level == "1v1":
        steps.append((tr("s_two", lang), "V1.1"))
        alone = tr(
            "s_alone", lang, numbers=", ".join(map(str, facts.alone)), each=len(facts.alone) // 2
        )
        steps.append((alone, "V1.2, V1.2-choose"))
    if level in ("2", "3"):
        shared = ", ".join(
            tr("s_shared_row", lang, n=n, shared=facts.mains - n)
            for n in PLAYERS
            if facts.mains >= n
        )
        deal_text = tr("s_deal", lang, mains=facts.mains) + " " + tr("s_shared", lang, table=shared)
        steps.append((deal_text, "L2.S1, L2.S2"))
    if level != "1":
        assemble = tr("s_assemble", lang, electrolysers=facts.electrolysers)
        if level == "3":
            steps.append((assemble + " " + tr("s_l3_shared", lang), "L2.S3, L2.S5, L3.S5"))
            steps.append((_tokens_text(lang), "L3.S5, L2.S7-two"))
        else:
            steps.append((assemble, "L2.S3, L2.S4, L2.S5"))
    raw_cards = ru_raw_cards(facts.raw)
    if level == "2":
        steps.append(
            (tr("s_piles", lang, raw=facts.raw, raw_cards=raw_cards, piles=PILES_L2), "L2.S6")
        )
    if level == "1v1":
        steps.append(
            (
                tr("s_piles_down", lang, raw=facts.raw, raw_cards=raw_cards, piles=PILES_L2),
                "V1.1",
            )
        )
    if level in ("2", "1v1"):
        players = [2] if level == "1v1" else list(PLAYERS)
        table = ", ".join(
            tr("s_money_row", lang, n=n, left=facts.coins_left[n])
            for n in players
            if n in facts.coins_left
        )
        money = tr("s_money", lang, each=COINS_PER_PLAYER_L2, bank=BANK_START_L2, table=table)
        if level == "2":
            fifth = tr("s_money_fifth", lang, extra=FIFTH_SEAT_COINS_L2)
            steps.append(
                (money + " " + fifth + " " + _tokens_text(lang), "L2.S7, L2.S7-fifth, L2.S7-two")
            )
        else:
            steps.append((money + " " + tr("s_tokens", lang, tokens=TOKENS_PER_PLAYER), "L2.S7"))
    return steps


def _tokens_text(lang: Lang) -> str:
    """Each player's chemist tokens at levels 2 and 3: 8, or 10 when two play (L2.S7-two)."""
    return tr("s_tokens_two", lang, tokens=TOKENS_PER_PLAYER, two=TOKENS_TWO_PLAYERS)
