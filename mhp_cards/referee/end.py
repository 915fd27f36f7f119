"""The end of a game as data: why it ended (a code), the mission completed, the winners.

>>> from mhp_cards.validate import load_catalog
>>> from mhp_cards.game import deal
>>> catalog = load_catalog()
>>> game_end(deal(catalog, "1", players=2, seed=1), catalog) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import EndCode, GameState
from mhp_cards.referee.reasons import written
from mhp_cards.referee.scoring import score
from mhp_cards.rules.numbers import Level

__all__ = ["END_RULES", "END_TEXTS", "GameEnd", "game_end"]

#: The words of each end, Russian and English.
END_TEXTS: Final[dict[EndCode, tuple[str, str]]] = {
    "mission": ("миссия выполнена", "a mission is complete"),
    "field-empty": ("на поле кончилось сырьё", "the field has no raw cards left"),
    "piles-empty": ("кончились все три стопки сырья", "all three raw piles are exhausted"),
    "no-progress": (
        "целый круг никто не собрал сырья, не провёл реакции и не купил со Склада",
        "a whole round passed without a raw card collected, a reaction or a Warehouse purchase",
    ),
}


@written("event.game-over")
def _game_over(values: Mapping[str, Any]) -> tuple[str, str]:
    ru, en = END_TEXTS[values["code"]]
    return f"Игра окончена: {ru}.", f"The game is over: {en}."


#: The rules behind each end, by level.
END_RULES: Final[dict[Level, dict[EndCode, tuple[str, ...]]]] = {
    "1": {"mission": ("L1.E1", "L1.E2"), "field-empty": ("L1.E1", "L1.E3")},
    "2": {"mission": ("L2.E1", "L2.P1"), "piles-empty": ("L2.E1", "L2.P1")},
    "1v1": {"piles-empty": ("V1.5", "V1.P1")},
    "3": {
        "mission": ("L3.E1", "L3.P1"),
        "field-empty": ("L3.E1", "L3.E1.R1", "L3.P1"),
        "no-progress": ("L3.E1", "L3.E1-no-progress", "L3.P1"),
    },
}


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game ended: the reason code, the mission completed (if any), the winners."""

    code: EndCode
    rules: tuple[str, ...]
    winners: tuple[str, ...]
    mission: str | None = None

    @property
    def reason(self) -> dict[str, str]:
        """The reason in words, by language."""
        ru, en = END_TEXTS[self.code]
        if self.mission is not None:
            ru, en = f"миссия {self.mission} выполнена", f"mission {self.mission} is complete"
        return {"ru": ru, "en": en}

    def to_json(self) -> dict[str, object]:
        """The end as a JSON-ready mapping."""
        return {
            "code": self.code,
            "mission": self.mission,
            "winners": list(self.winners),
            "rules": list(self.rules),
            "reason": self.reason,
        }


def game_end(state: GameState, catalog: Catalog) -> GameEnd | None:
    """The end of the game in ``state``; None while the game goes on."""
    if not state.ended or state.end_code is None:
        return None
    mission: str | None = None
    if state.claims:
        mission = state.claims[0][1]
    elif state.end_code == "mission":
        mission = next((m.id for m in state.missions if m.complete), None)
    rules = END_RULES[state.level].get(state.end_code, ())
    return GameEnd(state.end_code, rules, score(state, catalog).winners, mission)
