"""What every judgement of the referee shares: outcomes, events, and small state updates."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, NamedTuple, TypeVar

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState, Player
from mhp_cards.referee.reasons import render, said, written
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
    "refuse_after_discard",
    "shared_refusal",
    "updated",
    "updated_combine",
]

FIELD_LEVELS: Final = ("1", "3")
CHEMISTRY_LEVELS: Final = ("2", "1v1", "3")


class Event(NamedTuple):
    """Something that happened because of an action: its kind, data and text code.

    Its Russian and English text is rendered from ``code`` with the data (and ``words``, values
    only the text needs) when it is read. A named tuple, like :class:`Outcome`: cheap to make.
    """

    kind: str
    code: str
    data: Mapping[str, Any] = MappingProxyType({})
    words: Mapping[str, Any] = MappingProxyType({})

    @property
    def ru(self) -> str:
        """What happened, in Russian."""
        return render(self.code, {**self.data, **self.words})[0]

    @property
    def en(self) -> str:
        """What happened, in English."""
        return render(self.code, {**self.data, **self.words})[1]

    def to_json(self) -> dict[str, Any]:
        """The JSON form of the event."""
        ru, en = render(self.code, {**self.data, **self.words})
        return {"kind": self.kind, "code": self.code, "ru": ru, "en": en, "data": dict(self.data)}


class Outcome(NamedTuple):
    """The referee's judgement of an action: the ruling and, when allowed, what follows.

    A named tuple rather than a dataclass: the referee makes one for every judgement, refusals
    included, and a tuple is the cheapest immutable value to make.
    """

    ruling: Ruling
    state: GameState | None = None
    events: tuple[Event, ...] = ()


# Shared pieces -----------------------------------------------------------------------------------


def end_rules(state: GameState) -> tuple[str, ...]:
    """The rule that ends a game at the state's level."""
    return {"1": ("L1.E1",), "2": ("L2.E1",), "1v1": ("V1.5",), "3": ("L3.E1",)}[state.level]


@written("level.not-here")
def _not_here(values: Mapping[str, Any]) -> tuple[str, str]:
    why_ru, why_en = render(values["why"], values)
    level = values["level"]
    return f"На уровне {level} так нельзя: {why_ru}.", f"Not at level {level}: {why_en}."


def shared_refusal(
    rules: tuple[str, ...], code: str, words: Mapping[str, Any] | None = None, **facts: Any
) -> Outcome:
    """The outcome refusing with ``code``, made once for each set of rules, words and facts.

    A ruling is an immutable value, so the refusals the listing of legal actions meets again
    and again (not enough money, an upgrade held) are shared rather than made anew; the words
    and facts must be hashable (numbers, strings).
    """
    key = (rules, code, *(words or {}).items(), None, *facts.items())
    outcome = _REFUSALS.get(key)
    if outcome is None:
        if len(_REFUSALS) >= _REMEMBERED_REFUSALS:
            _REFUSALS.clear()
        outcome = _REFUSALS[key] = Outcome(refused(rules, code, words, **facts))
    return outcome


_REFUSALS: dict[tuple[Any, ...], Outcome] = {}
_REMEMBERED_REFUSALS: Final = 10_000


def only_at_levels(
    state: GameState, levels: Sequence[str], rules: tuple[str, ...], why: str
) -> Ruling | None:
    """A refusal when the state's level is not one of ``levels``; None when it is.

    ``why`` is the code of the text that says why, completing "not at level N: …".
    """
    if state.level in levels:
        return None
    return refused(rules, "level.not-here", {"why": why}, level=state.level)


def once_a_turn(state: GameState, kind: str, rules: tuple[str, ...], code: str) -> Ruling | None:
    """A refusal (reason ``code``) when ``kind`` was done this turn already; None otherwise.

    The refusal is a shared value, made once for its rules, code and the kinds done: the
    listing of legal actions meets the same ones at every step of a turn.
    """
    done = state.done_this_turn
    if kind not in done:
        return None
    key = (rules, code, done)
    ruling = _ONCE.get(key)
    if ruling is None:
        if len(_ONCE) >= _REMEMBERED_REFUSALS:
            _ONCE.clear()
        ruling = _ONCE[key] = refused(rules, code, done_this_turn=list(done))
    return ruling


_ONCE: dict[tuple[tuple[str, ...], str, tuple[str, ...]], Ruling] = {}


def refuse_after_discard(state: GameState) -> Ruling | None:
    """Head to head: after a discard the turn only ends (Ruling V1.3.R2); None otherwise."""
    if state.level == "1v1" and "discard" in state.done_this_turn:
        return refused(("V1.3", "V1.3.R2"), "take.discard-ends-turn")
    return None


def mark_done(state: GameState, kind: str) -> GameState:
    """The state with ``kind`` recorded as done this turn."""
    return state.model_copy(update={"done_this_turn": (*state.done_this_turn, kind)})


def event(kind: str, reason: str, words: Mapping[str, Any] | None = None, **data: Any) -> Event:
    """An event of ``kind`` with its data, its text that of the reason code ``reason``."""
    return Event(
        kind,
        reason,
        MappingProxyType(data),
        _NO_WORDS if words is None else MappingProxyType(words),
    )


_NO_WORDS: Mapping[str, Any] = MappingProxyType({})


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


said("cards.named-twice", "Одна и та же карточка названа дважды.", "A card is named twice.")
said("cards.player-lacks", "У игрока нет {missing}.", "The player lacks {missing}.")
said(
    "take.discard-ends-turn",
    "После сброса ход окончен: карточку берёт следующий игрок.",
    "After a discard the turn is over: the next player draws.",
)
