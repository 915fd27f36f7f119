"""What every judgement of the referee shares: outcomes, events, and small state updates."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, TypeVar

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState, Player
from mhp_cards.referee.ruling import Ruling, refused
from mhp_cards.rules.numbers import COMBINE_CAPACITY

__all__ = [
    "CHEMISTRY_LEVELS",
    "FIELD_LEVELS",
    "Event",
    "Judge",
    "Outcome",
    "capacity_left",
    "end_rules",
    "event",
    "guarded",
    "mark_done",
    "once_a_turn",
    "only_at_levels",
    "updated",
    "updated_combine",
]

FIELD_LEVELS: Final = ("1", "3")
CHEMISTRY_LEVELS: Final = ("2", "1v1", "3")


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened because of an action, told in Russian and English."""

    kind: str
    ru: str
    en: str
    data: MappingProxyType[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def to_json(self) -> dict[str, Any]:
        """The JSON form of the event."""
        return {"kind": self.kind, "ru": self.ru, "en": self.en, "data": dict(self.data)}


@dataclass(frozen=True, slots=True)
class Outcome:
    """The referee's judgement of an action: the ruling and, when allowed, what follows."""

    ruling: Ruling
    state: GameState | None = None
    events: tuple[Event, ...] = ()


# Shared pieces -----------------------------------------------------------------------------------


def end_rules(state: GameState) -> tuple[str, ...]:
    """The rule that ends a game at the state's level."""
    return {"1": ("L1.E1",), "2": ("L2.E1",), "1v1": ("V1.5",), "3": ("L3.E1",)}[state.level]


def only_at_levels(
    state: GameState, levels: Sequence[str], rules: tuple[str, ...], what_ru: str, what_en: str
) -> Ruling | None:
    """A refusal when the state's level is not one of ``levels``; None when it is."""
    if state.level in levels:
        return None
    return refused(
        rules,
        lambda: (
            f"На уровне {state.level} так нельзя: {what_ru}.",
            f"Not at level {state.level}: {what_en}.",
        ),
        level=state.level,
    )


def once_a_turn(
    state: GameState, kind: str, rules: tuple[str, ...], ru: str, en: str
) -> Ruling | None:
    """A refusal when ``kind`` was done this turn already; None otherwise."""
    if kind in state.done_this_turn:
        return refused(rules, lambda: (ru, en), done_this_turn=list(state.done_this_turn))
    return None


def mark_done(state: GameState, kind: str) -> GameState:
    """The state with ``kind`` recorded as done this turn."""
    return state.model_copy(update={"done_this_turn": (*state.done_this_turn, kind)})


def event(kind: str, ru: str, en: str, **data: Any) -> Event:
    """An event with its data."""
    return Event(kind, ru, en, MappingProxyType(data))


def updated(player: Player, **update: Any) -> Player:
    """The player with some fields changed."""
    return player.model_copy(update=update)


def updated_combine(player: Player, **update: Any) -> Player:
    """The player with some fields of their combine changed."""
    assert player.combine is not None
    return player.model_copy(update={"combine": player.combine.model_copy(update=update)})


def capacity_left(state: GameState, player: Player) -> int | None:
    """Raw cards a level-3 combine may still take (L3.S3); None at other levels."""
    if state.level != "3":
        return None
    return max(0, COMBINE_CAPACITY - len(player.raw_cards))


A = TypeVar("A")
#: A judge of one kind of action: the ruling on it in a state, and its consequences if allowed.
Judge = Callable[[GameState, A, Catalog], Outcome]


def guarded(
    refuse: Callable[[GameState, A, Catalog], Outcome | None],
    effect: Callable[[GameState, A, Catalog], Outcome],
    doc: str,
) -> Judge[A]:
    """The judge that is ``refuse``'s refusal when there is one, else ``effect``'s outcome.

    ``legal_actions`` asks ``refuse`` alone, and ``apply`` of a listed action ``effect`` alone:
    the rule is written once, as its chain of refusals and its consequences.
    """

    def judge(state: GameState, action: A, catalog: Catalog) -> Outcome:
        refusal = refuse(state, action, catalog)
        return refusal if refusal is not None else effect(state, action, catalog)

    judge.__doc__ = doc
    return judge
