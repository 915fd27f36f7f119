"""The referee: every rule of the game in one place — check, apply, legal actions.

``check(state, action, catalog)`` never raises: it returns a :class:`Ruling` (allowed or
forbidden, with the rule IDs and the reason in Russian and English, written when read).
``apply`` returns the new state and the events the action caused; an illegal action raises
:class:`~mhp_cards.errors.IllegalPlayError` carrying the ruling. ``legal_actions`` lists every
action the current player may take, trades with each partner included (an open price is listed
once; :func:`price_range` gives the rest), and ``apply`` of an action it has just listed
computes only the action's effect. Dice are explicit: given by the table in the action, or
rolled from the game's seeded generator and recorded in the events. Each rule's judge is its
chain of refusals and its effect; they live in one module per area of the rules: ``move``,
``fight``, ``market`` (upgrades, Bank, Warehouse), ``claim``, ``react`` (piles, reactions,
mission places), ``tokens`` and ``trade``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import IllegalPlayError
from mhp_cards.game.state import EndCode, GameState
from mhp_cards.referee.actions import (
    FIGHT_ACTIONS,
    Action,
    BuyRaw,
    BuyUpgrade,
    Claim,
    EndTurn,
    FreeToken,
    KeepInstallation,
    Move,
    PickDrawn,
    React,
    ResolveFight,
    Retreat,
    SellRaw,
    TakeRaw,
    TakeSpoils,
    Trade,
)
from mhp_cards.referee.claim import judge_claim
from mhp_cards.referee.common import (
    FIELD_LEVELS,
    Event,
    Judge,
    Outcome,
    end_rules,
    event,
    guarded,
)
from mhp_cards.referee.draws import (
    judge_pick,
    judge_take,
    pick_effect,
    refuse_pick,
    refuse_take,
    take_effect,
    unpicked,
)
from mhp_cards.referee.end import END_RULES, END_TEXTS
from mhp_cards.referee.fight import (
    judge_fight,
    judge_retreat,
    judge_spoils,
    refuse_spoils,
    spoils_effect,
)
from mhp_cards.referee.keep import judge_keep, keep_effect, refuse_keep
from mhp_cards.referee.market import (
    buy_effect,
    judge_buy,
    judge_sell,
    judge_warehouse,
    must_unload,
    refuse_buy,
    refuse_sell,
    refuse_warehouse,
    sell_effect,
    warehouse_effect,
)
from mhp_cards.referee.move import judge_move, move_effect, path_list, refuse_move
from mhp_cards.referee.react import judge_react, react_effect, refuse_react
from mhp_cards.referee.reasons import said
from mhp_cards.referee.ruling import Ruling, allowed, forbidden, refused
from mhp_cards.referee.tokens import judge_free, refuse_free
from mhp_cards.referee.trade import judge_trade, refuse_trade, trade_effect
from mhp_cards.rules.numbers import COMBINE_CAPACITY

__all__ = [
    "EFFECTS",
    "JUDGES",
    "LISTED",
    "PROGRESS",
    "REFUSALS",
    "Event",
    "Outcome",
    "apply",
    "check",
    "is_legal",
    "judge",
    "quiet_round_can_end",
]


def check(state: GameState, action: Action, catalog: Catalog) -> Ruling:
    """The ruling on ``action`` in ``state``; never raises."""
    return judge(state, action, catalog).ruling


def apply(
    state: GameState, action: Action, catalog: Catalog
) -> tuple[GameState, tuple[Event, ...]]:
    """The state after ``action`` and the events it caused; IllegalPlayError if forbidden.

    An action that :func:`legal_actions` has just listed for this state is not judged again.
    """
    outcome = None
    judged = _listed(state, action, catalog)
    if judged is not None:
        outcome = judged.get(id(action))
        effect = EFFECTS.get(type(action))
        if outcome is None and effect is not None:
            outcome = effect(state, action, catalog)
    if outcome is None:
        outcome = judge(state, action, catalog)
    if outcome.state is None:
        raise IllegalPlayError(outcome.ruling, str(outcome.ruling))
    return outcome.state, outcome.events


def is_legal(state: GameState, action: Action, catalog: Catalog) -> bool:
    """True when :func:`check` would allow ``action``; cheaper than asking for the ruling.

    An action :func:`legal_actions` has just listed for this state is legal as listed; for the
    others only the rule's refusal chain is asked where it has one, so no next state and no
    text are made.
    """
    if _listed(state, action, catalog) is not None:
        return True
    refusal = _refuse_anyone(state, action)
    if refusal is not None:
        return False
    guard = REFUSALS.get(type(action)) or _CHEAP_REFUSALS.get(type(action))
    try:
        if guard is not None:
            return guard(state, action, catalog) is None
        return JUDGES[type(action)](state, action, catalog).state is not None
    except (KeyError, IndexError):  # judge() refuses what names nothing in the game
        return False


def _listed(state: GameState, action: Action, catalog: Catalog) -> dict[int, Outcome] | None:
    """The outcomes legal_actions judged for ``state`` when it has just listed ``action``.

    Only the very action objects it listed count (they are shared values): an equal action
    made elsewhere is judged as usual. None when ``action`` was not listed for this state.
    """
    listed = LISTED.get(id(state))
    if listed is not None and listed[0] is state and listed[1] is catalog:
        for made in listed[3]:
            if made is action:
                return listed[2]
    return None


def judge(state: GameState, action: Action, catalog: Catalog) -> Outcome:
    """Check an action and compute its consequences (the work behind check and apply)."""
    refusal = _refuse_anyone(state, action)
    if refusal is not None:
        return refusal
    handler = JUDGES[type(action)]
    try:
        return handler(state, action, catalog)
    except (KeyError, IndexError) as error:
        # An action naming a card, pile or container the game does not have.
        return Outcome(forbidden(("L1.T1",), "game.no-such-thing", {"error": error}))


def _refuse_anyone(state: GameState, action: Action) -> Outcome | None:
    """The refusals every action meets before its own rule's.

    The game is over, the player is not playing, a fight is pending, or it is not their turn.
    """
    if state.ended:
        return Outcome(forbidden(end_rules(state), "game.over", {"end_reason": state.end_reason}))
    actor = action.player or state.current.id
    if actor not in {player.id for player in state.players}:
        return Outcome(
            forbidden(
                ("L1.T1",),
                "game.not-playing",
                {"actor": actor},
                players=[p.id for p in state.players],
            )
        )
    # A fight's steps are taken by its players, whoever's turn it is (Ruling L1.T4.R4).
    fighting = isinstance(action, FIGHT_ACTIONS)
    if state.fight is not None and not fighting:
        return Outcome(
            forbidden(("L1.T4", "L1.T4.R4"), "game.fight-first", fight=state.fight.model_dump())
        )
    if actor == state.current.id and not isinstance(action, PickDrawn):
        waiting = unpicked(state)  # Ruling V1.3-draw-two: the card drawn is picked first
        if waiting is not None:
            return Outcome(waiting)
    if actor != state.current.id and not fighting:
        turn_rule = "L1.T1" if state.level in FIELD_LEVELS else "L2.T1"
        own = own_turn_rule(state, action)
        rules = (turn_rule,) if own in (None, turn_rule) else (turn_rule, own, "L1.T7-own-turn")
        return Outcome(
            forbidden(rules, "game.not-your-turn", {"actor": actor}, turn=state.current.id)
        )
    return None


def own_turn_rule(state: GameState, action: Action) -> str | None:
    """The rule that allows ``action`` on the player's own turn (Ruling L1.T7-own-turn)."""
    level = state.level
    if isinstance(action, Trade):
        return {"1": "L1.T7", "3": "L3.T2"}.get(level, "L2.T2")
    if isinstance(action, SellRaw):
        return "L3.T3" if level == "3" else "L1.T8"
    if isinstance(action, BuyRaw):
        return "L3.T4" if level == "3" else "L1.T9"
    if isinstance(action, BuyUpgrade):
        return "L1.T3" if action.upgrade == "solar-battery" else "L1.T6"
    if isinstance(action, Claim):
        return "L1.E1"
    if isinstance(action, TakeRaw):
        return "V1.3" if level == "1v1" else "L2.T1"
    if isinstance(action, KeepInstallation):
        return "V1.2-choose"
    if isinstance(action, PickDrawn):
        return "V1.3-draw-two"
    if isinstance(action, React):
        return "L2.T4"
    if isinstance(action, FreeToken):
        return "L3.T3" if level == "3" and action.how == "sell-bank" else "L2.T5"
    return None


# Ending the turn, ending the game ----------------------------------------------------------------


def refuse_end(state: GameState, action: EndTurn, catalog: Catalog) -> Outcome | None:
    """Why the turn may not end yet (L1.T1, L2.T1, V1.3, L3.S3); None when it may."""
    player = state.current
    moves_left = state.level in FIELD_LEVELS and "move" not in state.done_this_turn
    repairing = player.combine is not None and player.combine.repair_turn == state.turn_number
    if moves_left and path_list(state, player, attacks=not repairing):
        return _MOVE_FIRST
    if state.level in ("2", "1v1") and "take" not in state.done_this_turn and any(state.piles):
        return _TAKE_FIRST[state.level]
    if must_unload(state):
        return _COMBINE_FULL
    return None


_MOVE_FIRST = Outcome(refused(("L1.T1",), "end.move-first"))
_TAKE_FIRST = {
    level: Outcome(refused((rule,), "end.take-first"))
    for level, rule in (("2", "L2.T1"), ("1v1", "V1.3"))
}
_COMBINE_FULL = Outcome(
    refused(("L3.S3", "L3.S3.R1"), "end.combine-full", {"capacity": COMBINE_CAPACITY})
)


def end_effect(state: GameState, action: EndTurn, catalog: Catalog) -> Outcome:
    """The consequences of ``EndTurn`` once refuse_end has allowed it."""
    number = state.turn_number + 1
    turn = (state.turn + 1) % len(state.players)
    progress = not PROGRESS.isdisjoint(state.done_this_turn)
    new = state.model_copy(
        update={
            "turn": turn,
            "turn_number": number,
            "done_this_turn": (),
            "round": state.round + (1 if turn == 0 else 0),
            "quiet_turns": 0 if progress else state.quiet_turns + 1,
        }
    )
    events = [event("end-turn", "event.next", next=new.current.id)]
    new, reason = game_over(new, catalog)
    if reason is not None:
        events.append(reason)
    rules = ("L1.T1",) if state.level in FIELD_LEVELS else ("L2.T1",)
    ruling = allowed(rules, "end.turn-over", {"next": new.current.id})
    return Outcome(ruling, new, tuple(events))


judge_end: Judge[EndTurn] = guarded(
    refuse_end,
    end_effect,
    "End the turn: the duties of the turn done, the next player, the end of the game.",
)


#: What a turn does that counts as progress (Ruling L3.E1-no-progress): kinds in
#: ``GameState.done_this_turn``.
PROGRESS: Final = frozenset({"collect", "react", "warehouse"})


def quiet_round_can_end(state: GameState) -> bool:
    """Whether a whole round without progress ends a level-3 game (L3.E1-no-progress).

    Only under the house rule quiet-round-ends, the earlier ruling. By default a quiet round
    goes on: every combine must move (L1.T1) and a full one must unload (L3.S3.R1), so raw
    cards keep being collected until the field's last card ends the game (L3.E1.R1).
    """
    return state.house_rules.quiet_round_ends


def game_over(state: GameState, catalog: Catalog) -> tuple[GameState, Event | None]:
    """Mark the game ended when an end condition holds after a turn (L1.E1, L2.E1, V1.5, L3.E1)."""
    code: EndCode | None = None
    pending = state.level != "1v1" and (bool(state.claims) or bool(state.complete_missions()))
    if pending:
        # The round of the completed mission is played out (Ruling L2.E1-round).
        code = "mission" if state.turn == 0 else None
    elif state.level == "1" and state.field is not None and not state.field.raw_left:
        code = "field-empty"
    elif (
        state.level == "3"
        and not state.house_rules.mission_end_only
        and state.field is not None
        and not state.field.raw_left
    ):
        code = "field-empty"  # the raw supply of level 3 is the field (L3.E1.R1)
    elif state.level in ("2", "1v1") and not any(state.piles):
        code = "piles-empty"
    elif state.level == "3" and state.house_rules.mission_end_only:
        code = None  # the literal L3.E1: only a mission ends the game
    elif (
        state.level == "3"
        and state.quiet_turns >= len(state.players)
        and quiet_round_can_end(state)
    ):
        code = "no-progress"
    if code is None:
        return state, None
    new = state.model_copy(
        update={"ended": True, "end_code": code, "end_reason": END_TEXTS[code][1]}
    )
    return new, event("end", "event.game-over", code=code, rules=list(END_RULES[state.level][code]))


said("game.over", "Игра окончена: {end_reason}.", "The game is over: {end_reason}.")
said("game.not-playing", "Игрок {actor!r} не участвует в игре.", "{actor!r} is not playing.")
said(
    "game.fight-first",
    "Сначала завершите бой: кубики (fight), добыча победителя (spoils), отступление "
    "проигравшего (retreat).",
    "Settle the fight first: the dice (fight), the winner's spoils (spoils), the loser's "
    "retreat (retreat).",
)
said(
    "game.not-your-turn",
    "Сейчас ход {turn:gen}, а не {actor:gen}.",
    "It is {turn}'s turn, not {actor}'s.",
)
said(
    "game.no-such-thing",
    "Такого в игре нет: {error}.",
    "The action names something that is not in the game: {error}.",
)
said(
    "end.move-first",
    "Сначала ход комбайном: он перемещается каждый ход.",
    "Move the combine first: it moves every turn.",
)
said(
    "end.take-first",
    "Сначала возьмите карточку сырья из стопки.",
    "Take a raw card from a pile first.",
)
said(
    "end.combine-full",
    "В комбайне {capacity:карточка|карточки|карточек}: проведите реакцию или продайте сырьё Банку.",
    "The combine holds {capacity} cards: run a reaction or sell raw cards to the Bank first.",
)
said("event.next", "Ход переходит к {next:dat}.", "{next} is next.")
said("end.turn-over", "Ход закончен; ходит {next}.", "Turn over; {next} plays next.")


# Legal actions -----------------------------------------------------------------------------------


#: What legal_actions listed for the last state it was asked about, with the outcomes it has
#: judged: applying one of those actions to that state needs no second check (as python-chess's
#: push after its move generator): a judged outcome is reused, an unjudged action has its
#: effect computed without the refusal chain.
LISTED: dict[int, tuple[GameState, Catalog, dict[int, Outcome], tuple[Action, ...]]] = {}


#: The refusal chains of the judges whose actions legal_actions lists most: asking them is the
#: judge's own answer for the current player's action, without the state it would build.
REFUSALS: dict[type, Callable[[GameState, Any, Catalog], Outcome | None]] = {
    BuyUpgrade: refuse_buy,
    SellRaw: refuse_sell,
    BuyRaw: refuse_warehouse,
    Trade: refuse_trade,
    EndTurn: refuse_end,
    FreeToken: refuse_free,
    React: refuse_react,
    TakeRaw: refuse_take,
    KeepInstallation: refuse_keep,
    PickDrawn: refuse_pick,
    TakeSpoils: refuse_spoils,
}

#: Refusal chains :func:`is_legal` asks besides those (legal_actions lists moves by their paths).
_CHEAP_REFUSALS: dict[type, Callable[[GameState, Any, Catalog], Outcome | None]] = {
    Move: refuse_move,
}

#: The consequences of those actions once allowed: what apply computes for a listed action.
EFFECTS: dict[type, Callable[[GameState, Any, Catalog], Outcome]] = {
    Move: move_effect,
    BuyUpgrade: buy_effect,
    SellRaw: sell_effect,
    BuyRaw: warehouse_effect,
    Trade: trade_effect,
    EndTurn: end_effect,
    React: react_effect,
    TakeRaw: take_effect,
    KeepInstallation: keep_effect,
    PickDrawn: pick_effect,
    TakeSpoils: spoils_effect,
}

JUDGES: dict[type, Callable[[GameState, Any, Catalog], Outcome]] = {
    Move: judge_move,
    ResolveFight: judge_fight,
    TakeSpoils: judge_spoils,
    Retreat: judge_retreat,
    BuyUpgrade: judge_buy,
    SellRaw: judge_sell,
    BuyRaw: judge_warehouse,
    Trade: judge_trade,
    TakeRaw: judge_take,
    KeepInstallation: judge_keep,
    PickDrawn: judge_pick,
    React: judge_react,
    FreeToken: judge_free,
    Claim: judge_claim,
    EndTurn: judge_end,
}
