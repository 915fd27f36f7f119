"""The raw piles: a card taken (L2.T1, L2.T6), head to head two drawn and one kept (V1.3).

Level 2 and head to head. A card taken that fits the player's installation stays with it; head
to head one that does not is discarded (V1.3.R1, Ruling V1.3-draw-two).
"""

from __future__ import annotations

from typing import Any, Final

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState, Player
from mhp_cards.referee.actions import PickDrawn, TakeRaw
from mhp_cards.referee.common import (
    Judge,
    Outcome,
    event,
    guarded,
    once_a_turn,
    only_at_levels,
    updated,
)
from mhp_cards.referee.keep import unkept
from mhp_cards.referee.reaction_list import reactions
from mhp_cards.referee.reasons import said
from mhp_cards.referee.ruling import Ruling, allowed, forbidden, refused
from mhp_cards.referee.table import (
    INSTALLATIONS_READ,
    card_formula,
    formula_key,
    player_index,
)
from mhp_cards.rules.numbers import DRAWN_CARDS


def refuse_take(state: GameState, action: TakeRaw, catalog: Catalog) -> Outcome | None:
    """Why the top card of the pile may not be taken now (L2.T1, V1.3); None when it may."""
    rules = _take_rules(state)
    refusal = only_at_levels(state, ("2", "1v1"), rules, "take.from-the-field")
    if refusal:
        return Outcome(refusal)
    refusal = once_a_turn(
        state,
        "take",
        rules,
        "take.once",
    ) or unkept(state)
    if refusal:
        return Outcome(refusal)
    pile = state.piles[action.pile - 1]
    if not pile:
        return Outcome(
            forbidden(
                rules, "take.pile-empty", {"pile": action.pile}, piles=[len(p) for p in state.piles]
            )
        )
    return None


def _take_rules(state: GameState) -> tuple[str, ...]:
    return ("V1.3",) if state.level == "1v1" else ("L2.T1",)


def take_effect(state: GameState, action: TakeRaw, catalog: Catalog) -> Outcome:
    """Take the top card of a pile once refuse_take has allowed it (V1.3 discards a misfit).

    Head to head the top two cards are drawn to pick one of (Ruling V1.3-draw-two; the last
    card of a pile alone), unless the house rule draw-one is on.
    """
    rules = _take_rules(state)
    pile = state.piles[action.pile - 1]
    piles = list(state.piles)
    player = state.current
    if state.level == "1v1" and not state.house_rules.draw_one and len(pile) >= DRAWN_CARDS:
        piles[action.pile - 1] = pile[:-DRAWN_CARDS]
        new = state.model_copy(
            update={
                "piles": tuple(piles),
                "drawn": pile[-DRAWN_CARDS:],
                "drawn_pile": action.pile,
                "done_this_turn": (*state.done_this_turn, "take"),
            }
        )
        words = {"player": player.id, "pile": action.pile, "count": DRAWN_CARDS}
        ruling = allowed((*rules, "V1.3-draw-two"), "take.drawn", words)
        return Outcome(ruling, new, (event("draw", "take.drawn", words, pile=action.pile),))
    card = pile[-1]
    piles[action.pile - 1] = pile[:-1]
    outcome = _settle(state, catalog, card, action.pile, {"piles": tuple(piles)}, rules)
    if state.level == "1v1" and state.house_rules.draw_one:
        ruling = outcome.ruling
        outcome = Outcome(
            ruling.replace(
                rules=(*ruling.rules, "V1.3-draw-two"),
                house_rules=(*ruling.house_rules, "draw-one"),
            ),
            outcome.state,
            outcome.events,
        )
    return outcome


def _settle(
    state: GameState,
    catalog: Catalog,
    card: str,
    pile: int,
    changes: dict[str, Any],
    rules: tuple[str, ...],
) -> Outcome:
    """The card taken from ``pile`` goes to the hand, or head to head to the discard (V1.3).

    ``changes``: what else the take changed (the piles, the drawn cards put away).
    """
    player = state.current
    done = state.done_this_turn
    events = []
    house: tuple[str, ...] = ()
    if state.level == "1v1":
        rules = (*rules, "V1.3.R1")
        if state.house_rules.run_or_discard:
            house = ("run-or-discard",)
    if state.level == "1v1" and not _fits_own_installation(state, catalog, player, card):
        # Ruling V1.3.R2: the discard ends the turn; "discard" marks it done.
        changes["discard"] = (*state.discard, card)
        done = (*done, "discard")
        rules = (*rules, "V1.3.R2")
        events.append(event("discard", "take.discarded", {"player": player.id}, card=card))
    else:
        players = list(state.players)
        players[player_index(state, player.id)] = updated(
            player, raw_cards=(*player.raw_cards, card)
        )
        changes["players"] = tuple(players)
        events.append(event("take", "take.taken", {"player": player.id, "pile": pile}, card=card))
    changes["done_this_turn"] = done if "take" in done else (*done, "take")
    new = state.model_copy(update=changes)
    ruling = allowed(rules, events[0].code, events[0].words, card=card)
    if house:
        ruling = ruling.replace(house_rules=house)
    return Outcome(ruling, new, tuple(events))


#: The rules of picking one of the cards drawn head to head.
PICK_RULES: Final = ("V1.3", "V1.3-draw-two")


def refuse_pick(state: GameState, action: PickDrawn, catalog: Catalog) -> Outcome | None:
    """Why the card may not be picked now (V1.3-draw-two); None when it may."""
    refusal = only_at_levels(state, ("1v1",), PICK_RULES, "pick.head-to-head")
    if refusal:
        return Outcome(refusal)
    if not state.drawn:
        return Outcome(refused(PICK_RULES, "pick.nothing-drawn"))
    if action.card not in state.drawn:
        return Outcome(
            forbidden(
                PICK_RULES, "pick.not-drawn", {"card": action.card, "drawn": list(state.drawn)}
            )
        )
    return None


def pick_effect(state: GameState, action: PickDrawn, catalog: Catalog) -> Outcome:
    """Keep the card picked as V1.3 says; the other goes face down under its pile."""
    number = state.drawn_pile
    others = tuple(card for card in state.drawn if card != action.card)
    piles = list(state.piles)
    piles[number - 1] = (*others, *piles[number - 1])  # a pile's bottom card comes first
    changes: dict[str, Any] = {"piles": tuple(piles), "drawn": (), "drawn_pile": 0}
    outcome = _settle(state, catalog, action.card, number, changes, PICK_RULES)
    put_back = event("return", "pick.returned", {"player": state.current.id, "pile": number})
    return Outcome(outcome.ruling, outcome.state, (*outcome.events, put_back))


judge_pick: Judge[PickDrawn] = guarded(
    refuse_pick,
    pick_effect,
    "Head to head: keep one of the two cards drawn, the other under its pile (V1.3-draw-two).",
)


def unpicked(state: GameState) -> Ruling | None:
    """A refusal while the current player has drawn cards to pick one of; None otherwise."""
    if not state.drawn:
        return None
    return refused(PICK_RULES, "pick.first", {"drawn": len(state.drawn)})


judge_take: Judge[TakeRaw] = guarded(
    refuse_take,
    take_effect,
    "Take the top card of a pile (L2.T1; head to head V1.3 discards what does not fit).",
)


def _fits_own_installation(state: GameState, catalog: Catalog, player: Player, card: str) -> bool:
    """Whether head to head keeps the card (V1.3).

    A raw-input container of the player's own installation takes it (Ruling V1.3.R1); with
    ``run-or-discard``, a reaction runs with it at once.
    """
    formula = card_formula(catalog, card)
    if formula is None:
        return True  # a face-down card in a player's view: what it fits is not known there
    fits = formula.composition in _raw_inputs(state, player.id)
    if not fits or not state.house_rules.run_or_discard:
        return fits
    holding = updated(player, raw_cards=(*player.raw_cards, card))
    return any(card in way.cards for way in reactions(state, catalog, holding))


def _raw_inputs(state: GameState, player_id: str) -> frozenset[object]:
    """The formula keys of the raw-input containers of the player's own installations.

    A fact of the installations, kept for the states that share them: head to head it is
    asked at every card taken.
    """
    key = ("own-raw-inputs", player_id)
    facts = state.facts(INSTALLATIONS_READ)
    inputs: frozenset[object] | None = facts.get(key)
    if inputs is None:
        inputs = facts[key] = frozenset(
            formula_key(container.substance)
            for installation in state.installations
            if installation.owner == player_id
            for container in installation.containers
            if container.role == "raw-input"
        )
    return inputs


said("take.from-the-field", "сырьё добывают комбайны", "raw cards come from the field")
said(
    "take.drawn",
    "{player} берёт две верхние карточки стопки {pile} и выбирает одну.",
    "{player} draws the top two cards of pile {pile} and picks one.",
)
said(
    "pick.returned",
    "Другая карточка уходит рубашкой вверх под низ стопки {pile}.",
    "The other card goes face down to the bottom of pile {pile}.",
)
said("pick.head-to-head", "из двух карточек выбирают только один на один", "only head to head")
said(
    "pick.nothing-drawn",
    "Выбирать не из чего: сначала возьмите две карточки из стопки.",
    "There is nothing to pick from: draw two cards from a pile first.",
)
said(
    "pick.not-drawn",
    "Карточки {card} нет среди взятых: {drawn}.",
    "{card} is not among the cards drawn: {drawn}.",
)
said(
    "pick.first",
    "Сначала выберите одну из взятых карточек.",
    "First pick one of the cards drawn.",
)
said(
    "take.once",
    "Карточку сырья в этот ход уже взяли.",
    "A raw card has been taken this turn already.",
)
said("take.pile-empty", "Стопка {pile} пуста.", "Pile {pile} is empty.")
said(
    "take.discarded",
    "{card} не подходит к установке {player:gen}: в сброс.",
    "{card} does not fit {player}'s installation: discarded.",
)
said(
    "take.taken", "{player} взял {card} из стопки {pile}.", "{player} took {card} from pile {pile}."
)
