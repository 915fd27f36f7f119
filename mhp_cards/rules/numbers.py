"""Every number and name of the game, once: levels, counts, prices, limits, the house rules.

The rules of RULES.md fix these numbers; the catalog describes a box, and the validator checks
the box against them. Code that needs one of them, and printed text that states one, takes it
from here, so a number of the game is defined in exactly one place.

>>> LEVELS
('1', '2', '1v1', '3')
>>> WAREHOUSE_SIZE["3"], COMBINE_CAPACITY, WAREHOUSE_PRICE
((8, 12), 6, 4)
>>> HouseRules.from_names(["armour-sum"]).names()
('armour-sum',)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, model_serializer, model_validator

from mhp_cards.errors import HouseRuleError
from mhp_cards.wording import shown

__all__ = [
    "BANK_SALE_PRICE",
    "BANK_START_L2",
    "COINS",
    "COINS_PER_PLAYER_L2",
    "COMBINE_CAPACITY",
    "DIE_SIDES",
    "DRAWN_CARDS",
    "ELECTROLYSERS",
    "FATE_REMOVED",
    "FIFTH_SEAT_COINS_L2",
    "FIGHT_TAKE",
    "FIRST_MOVE_CARDS",
    "HEAD_TO_HEAD_PLAYERS",
    "HOUSE_RULES",
    "LANGS",
    "LEVELS",
    "MIN_FIELD",
    "MISSION_DOUBLE",
    "PILES_L2",
    "PLAYERS",
    "TOKENS_PER_PLAYER",
    "TOKENS_TWO_PLAYERS",
    "UPGRADE_PRICE",
    "UPGRADE_RULES",
    "WAREHOUSE_PRICE",
    "WAREHOUSE_SIZE",
    "HouseRuleError",
    "HouseRules",
    "Lang",
    "Level",
    "MissionMatch",
    "chemist_tokens",
    "chemist_tokens_rule",
]

Level: TypeAlias = Literal["1", "2", "1v1", "3"]
"""A level of the game: 1 «Комбайнёры», 2 «Химики», 1v1 head to head, 3 «Профи»."""
Lang: TypeAlias = Literal["ru", "en"]
"""A language of the rulebook and the printed kit."""

LEVELS: Final[tuple[Level, ...]] = ("1", "2", "1v1", "3")
LANGS: Final[tuple[Lang, ...]] = ("ru", "en")

#: Players at a table (every level; head to head is for exactly two, V1.1).
PLAYERS: Final = range(2, 6)
#: Head to head: two players, one installation each (V1.1, V1.2).
HEAD_TO_HEAD_PLAYERS: Final = 2

# Setup of the field (L1.S1–L1.S3, L3.S1–L3.S2).
#: How many Fate cards may be removed before the field is laid (L1.S1).
FATE_REMOVED: Final = (8, 12)
#: The fewest Fate cards the field may have (L1.S1).
MIN_FIELD: Final = 60
#: How many raw cards the Warehouse receives at setup, by level (L1.S3, L3.S2).
WAREHOUSE_SIZE: Final[dict[Level, tuple[int, int]]] = {"1": (4, 8), "3": (8, 12)}

# Money and pieces (L1.S5, L2.S7, L3.S4, L3.S5).
#: Coins in the box; at levels 1 and 3 they all start in the Bank.
COINS: Final = 50
#: Coins each player gets at level 2 and head to head (L2.S7).
COINS_PER_PLAYER_L2: Final = 8
#: Coins in the Bank at the start of level 2 and head to head (L2.S7).
BANK_START_L2: Final = 10
#: Coins the fifth of five players takes from the Bank's at the start of level 2, beside
#: their own (L2.S7-fifth): the last seat of five won 16.2 % of 1,600 greedy games, not 20.
FIFTH_SEAT_COINS_L2: Final = 2
#: Chemist tokens per player at levels 2 and 3 and head to head (L2.S7, L3.S5).
TOKENS_PER_PLAYER: Final = 8
#: Chemist tokens per player when two play level 2 or 3 (L2.S7-two): with 16 tokens the
#: six-place mission was nearly never completed (catalog/README.md, eleventh design note).
TOKENS_TWO_PLAYERS: Final = 10
#: Identical electrolyser cards in the box, one per player at most (L2.S1).
ELECTROLYSERS: Final = 5
#: What a substance on the Mission card scores, in prices: on a completed mission at levels 2
#: and 3 (L2.P1, L3.P1), on any mission head to head (V1.P1).
MISSION_DOUBLE: Final = 2
#: Raw piles at level 2 (L2.S6) and head to head (V1.1).
PILES_L2: Final = 3

# Prices and limits on the field (L1.T3, L1.T6, L1.T8, L1.T9, L3.S3, L1.T4).
#: The cells a combine's first move from the Base crosses, and the raw cards it brings: those
#: cells' cards, the shortfall made up from the Warehouse (L1.T2, L1.T2-two-cards).
FIRST_MOVE_CARDS: Final = 2
#: The price of a solar battery or armour (L1.T3, L1.T6).
UPGRADE_PRICE: Final = 4
#: The rule that sells each combine upgrade (L1.T3, L1.T6), by the upgrade's catalog ID.
UPGRADE_RULES: Final = {"solar-battery": "L1.T3", "armour": "L1.T6"}
#: What the Warehouse charges for a raw card (L1.T9, L3.T4).
WAREHOUSE_PRICE: Final = 4
#: What the Bank pays for a raw card (L1.T8, L3.T3).
BANK_SALE_PRICE: Final = 1
#: Head to head: the raw cards a player draws from a pile to keep one of (V1.3-draw-two).
DRAWN_CARDS: Final = 2
#: The most raw cards a combine holds at level 3 (L3.S3).
COMBINE_CAPACITY: Final = 6
#: The most substance cards the winner of a fight takes (L1.T4).
FIGHT_TAKE: Final = 3
#: The die of fights (L1.T4).
DIE_SIDES: Final = 6

MissionMatch: TypeAlias = Literal["exact-subset", "whole-hand", "at-least"]
"""How a level-1 hand is matched against a mission (L1.E1.R1 and its house rules)."""

#: Every house rule, by the name ``rules.yaml`` and the command line use.
HOUSE_RULES: Final = (
    "diagonal-adjacency",
    "armour-sum",
    "exact-subset",
    "whole-hand",
    "at-least",
    "deal-evenly",
    "battery-exactly-two",
    "sale-counts-once",
    "bank-takes-the-rest",
    "any-installation",
    "run-or-discard",
    "mission-end-only",
    "ends-at-once",
    "quiet-round-ends",
    "every-upgrade",
    "first-move-as-found",
    "installation-at-random",
    "draw-one",
    "eight-tokens",
    "sell-when-out",
    "equal-coins",
)
_MATCHES: Final[tuple[MissionMatch, ...]] = ("exact-subset", "whole-hand", "at-least")


class HouseRules(BaseModel):
    """The house rules a table has switched on, as named switches.

    In a game-state file it is written as the list of names that are on (``["armour-sum"]``),
    the form the first state files used, and read from that list or from this mapping.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: ``diagonal-adjacency``: the 8 surrounding cells are adjacent (L1.T1.R1).
    diagonal_adjacency: bool = False
    #: ``armour-sum``: an armoured defender adds the two rolls (L1.T6.R1).
    armour_sum: bool = False
    #: ``exact-subset`` (default), ``whole-hand`` or ``at-least`` (L1.E1.R1).
    mission_match: MissionMatch = "exact-subset"
    #: ``deal-evenly``: deal as many main cards as divide evenly (L2.S2.R1).
    deal_evenly: bool = False
    #: ``battery-exactly-two``: a battery combine moves exactly two cells (L1.T3-up-to-two).
    battery_exactly_two: bool = False
    #: ``sale-counts-once``: a product sold to a player is the freed token only, not also the
    #: turn's trade (L2.T2-one-trade).
    sale_counts_once: bool = False
    #: ``bank-takes-the-rest``: every coin not dealt to a player starts in the Bank (L2.S7.R1).
    bank_takes_the_rest: bool = False
    #: ``any-installation``: head to head deals any installation, not only those that run
    #: alone (V1.2-runnable).
    any_installation: bool = False
    #: ``run-or-discard``: head to head keeps a card only when a reaction can run with it at
    #: once (V1.3.R1).
    run_or_discard: bool = False
    #: ``mission-end-only``: level 3 ends only with a mission (L3.E1.R1, L3.E1-no-progress).
    mission_end_only: bool = False
    #: ``ends-at-once``: a completed mission ends the game at once, the round not played out
    #: (L2.E1-round).
    ends_at_once: bool = False
    #: ``quiet-round-ends``: the second edition's level 3: a whole round without progress ends
    #: the game even while a combine has room, and with the Bank dry a full combine keeps its
    #: six cards (L3.E1-no-progress, L3.S3.R1).
    quiet_round_ends: bool = False
    #: ``every-upgrade``: every upgrade is sold at levels 1 and 3, whatever levels the box
    #: sells it at (L1.T6.R2).
    every_upgrade: bool = False
    #: ``first-move-as-found``: a first move from the Base brings only the raw cards on its
    #: cells, no shortfall made up from the Warehouse (L1.T2-two-cards).
    first_move_as_found: bool = False
    #: ``installation-at-random``: head to head deals each player one installation at random
    #: instead of a hand to keep one from (V1.2-choose).
    installation_at_random: bool = False
    #: ``draw-one``: head to head a player draws one card, not two to keep one of
    #: (V1.3-draw-two).
    draw_one: bool = False
    #: ``eight-tokens``: two players at levels 2 and 3 take 8 chemist tokens each, not 10
    #: (L2.S7-two).
    eight_tokens: bool = False
    #: ``sell-when-out``: head to head a product is sold to the Bank only by a player with no
    #: chemist token free (V1.4-sell).
    sell_when_out: bool = False
    #: ``equal-coins``: at level 2 every player takes 8 coins, the fifth of five too
    #: (L2.S7-fifth).
    equal_coins: bool = False

    @model_validator(mode="before")
    @classmethod
    def _from_names(cls, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return cls._switches(value)
        return value

    @classmethod
    def _switches(cls, names: Iterable[object]) -> dict[str, Any]:
        names = list(names)
        unknown = [
            name if isinstance(name, str) else f"{shown(name)} (not a name)"
            for name in names
            if name not in HOUSE_RULES
        ]
        if unknown:
            raise HouseRuleError(
                f"unknown house rule(s) {', '.join(unknown)}; known: {', '.join(HOUSE_RULES)}"
            )
        matches = sorted({str(name) for name in names if name in _MATCHES} - {"exact-subset"})
        if len(matches) > 1:
            raise HouseRuleError(f"house rules {' and '.join(matches)} exclude each other")
        switches: dict[str, Any] = {
            str(name).replace("-", "_"): True for name in names if name not in _MATCHES
        }
        if matches:
            switches["mission_match"] = matches[0]
        return switches

    @classmethod
    def from_names(cls, names: Iterable[str]) -> HouseRules:
        """The switches from house-rule names; :class:`HouseRuleError` for an unknown one."""
        return cls.model_validate(cls._switches(list(names)))

    def names(self) -> tuple[str, ...]:
        """The names of the house rules that are on, in the order of :data:`HOUSE_RULES`."""
        on = {name.replace("_", "-") for name, value in self if value is True}
        if self.mission_match != "exact-subset":
            on.add(self.mission_match)
        return tuple(name for name in HOUSE_RULES if name in on)

    @model_serializer(mode="plain")
    def _as_names(self) -> list[str]:
        return list(self.names())

    def __contains__(self, name: object) -> bool:
        return name in self.names() or name == self.mission_match

    def __bool__(self) -> bool:
        return bool(self.names())


def chemist_tokens(level: Level, players: int, house: HouseRules | None = None) -> int:
    """The chemist tokens each player takes at setup (L2.S7, L3.S5, L2.S7-two).

    >>> chemist_tokens("1", 3), chemist_tokens("2", 3), chemist_tokens("3", 2)
    (0, 8, 10)
    >>> chemist_tokens("1v1", 2), chemist_tokens("2", 2, HouseRules.from_names(["eight-tokens"]))
    (8, 8)
    """
    if level == "1":
        return 0
    two = players == 2 and level in ("2", "3")
    if two and not (house is not None and house.eight_tokens):
        return TOKENS_TWO_PLAYERS
    return TOKENS_PER_PLAYER


def chemist_tokens_rule(level: Level, players: int, house: HouseRules | None = None) -> str:
    """The rule that sets :func:`chemist_tokens` for this table, for a citation.

    >>> [chemist_tokens_rule(level, 2) for level in ("1", "2", "1v1", "3")]
    ['L1.S1', 'L2.S7-two', 'L2.S7', 'L2.S7-two']
    >>> chemist_tokens_rule("3", 4), chemist_tokens_rule("3", 2, HouseRules(eight_tokens=True))
    ('L3.S5', 'L3.S5')
    """
    if level == "1":
        return "L1.S1"
    if chemist_tokens(level, players, house) == TOKENS_TWO_PLAYERS:
        return "L2.S7-two"
    return "L3.S5" if level == "3" else "L2.S7"
