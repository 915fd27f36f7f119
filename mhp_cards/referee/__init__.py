"""The referee: rulings at the table for every level, each citing its rule.

>>> from mhp_cards.validate import load_catalog
>>> from mhp_cards.game import deal
>>> from mhp_cards.referee import check, parse_action
>>> catalog = load_catalog()
>>> state = deal(catalog, "1", players=2, seed=1)
>>> ruling = check(state, parse_action("buy armour"), catalog)
>>> ruling.verdict, ruling.rules[0]
('forbidden', 'L1.T6')
"""

from mhp_cards.referee.actions import (
    Action,
    ActionError,
    action_from_json,
    format_action,
    parse_action,
)
from mhp_cards.referee.end import GameEnd, game_end
from mhp_cards.referee.engine import Event, apply, check, is_legal, judge
from mhp_cards.referee.legal import legal_actions, price_range
from mhp_cards.referee.mission import decide_mission, mission_status
from mhp_cards.referee.ruling import Ruling
from mhp_cards.referee.scoring import Score, score

__all__ = [
    "Action",
    "ActionError",
    "Event",
    "GameEnd",
    "Ruling",
    "Score",
    "action_from_json",
    "apply",
    "check",
    "decide_mission",
    "format_action",
    "game_end",
    "is_legal",
    "judge",
    "legal_actions",
    "mission_status",
    "parse_action",
    "price_range",
    "score",
]
