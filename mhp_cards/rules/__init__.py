"""The rules of the game as data: the rule texts by ID, and every number of the game.

>>> from mhp_cards.rules import COMBINE_CAPACITY, load_rulebook
>>> load_rulebook().rule("L3.S3").id, COMBINE_CAPACITY
('L3.S3', 6)
"""

from mhp_cards.rules.numbers import (
    BANK_SALE_PRICE,
    COMBINE_CAPACITY,
    HOUSE_RULES,
    LANGS,
    LEVELS,
    UPGRADE_PRICE,
    WAREHOUSE_PRICE,
    HouseRuleError,
    HouseRules,
    Lang,
    Level,
)
from mhp_cards.rules.rulebook import HouseRule, Rule, Rulebook, load_rulebook

__all__ = [
    "BANK_SALE_PRICE",
    "COMBINE_CAPACITY",
    "HOUSE_RULES",
    "LANGS",
    "LEVELS",
    "UPGRADE_PRICE",
    "WAREHOUSE_PRICE",
    "HouseRule",
    "HouseRuleError",
    "HouseRules",
    "Lang",
    "Level",
    "Rule",
    "Rulebook",
    "load_rulebook",
]
