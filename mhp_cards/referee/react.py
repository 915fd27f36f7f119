"""Reactions run and the Mission card's places (L2.T4, L2.T6, L2.M1, L3.S5, L2.E1-round).

Level 2, head to head, and the installations of level 3. The raw piles are
:mod:`mhp_cards.referee.draws`; the reactions a player may run, listed,
:mod:`mhp_cards.referee.reaction_list`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple

from mhp_cards.catalog.models import Catalog, formula_of
from mhp_cards.chem.formula import Formula
from mhp_cards.game.state import GameState, MissionState
from mhp_cards.referee.actions import React
from mhp_cards.referee.common import (
    CHEMISTRY_LEVELS,
    Event,
    Outcome,
    event,
    mark_done,
    once_a_turn,
    only_at_levels,
    refuse_after_discard,
    updated,
)
from mhp_cards.referee.reasons import said, written
from mhp_cards.referee.ruling import allowed, forbidden
from mhp_cards.referee.table import (
    INSTALLATIONS_READ,
    formula_key,
    kind_key,
    replace_player,
    usable_numbers,
    user,
)


def mission_places(
    missions: Sequence[MissionState], formula_text: str
) -> list[tuple[int, int, int]]:
    """The free Mission-card places for a product, one per mission, in the card's order.

    Each is (mission index, place index, slot index): the first free slot of the first
    place of that product on that mission.
    """
    return _free_places([mission.places for mission in missions], formula_text)


def free_mission_places(state: GameState, formula_text: str) -> tuple[tuple[int, int, int], ...]:
    """:func:`mission_places` on the state's Mission card, kept while the card is unchanged."""
    key = ("mission-places", formula_text)
    facts = state.facts(_MISSIONS_READ)
    found: tuple[tuple[int, int, int], ...] | None = facts.get(key)
    if found is None:
        found = facts[key] = tuple(mission_places(state.missions, formula_text))
    return found


_MISSIONS_READ: Final = frozenset({"missions"})


def _free_places(
    board: Sequence[tuple[tuple[str, tuple[str | None, ...]], ...]], formula_text: str
) -> list[tuple[int, int, int]]:
    """:func:`mission_places` for the places of each mission (``MissionState.places``)."""
    key = formula_key(formula_text)
    found: list[tuple[int, int, int]] = []
    for m, places in enumerate(board):
        for p, (place_formula, tokens) in enumerate(places):
            if None in tokens and formula_key(place_formula) == key:
                found.append((m, p, tokens.index(None)))
                break
    return found


def _with_places(
    missions: tuple[MissionState, ...],
    board: tuple[tuple[tuple[str, tuple[str | None, ...]], ...], ...] | None,
) -> tuple[MissionState, ...]:
    """The missions with the places of ``board`` (unchanged when it is None)."""
    if board is None:
        return missions
    return tuple(
        mission if places is mission.places else mission.model_copy(update={"places": places})
        for mission, places in zip(missions, board, strict=True)
    )


class _ReactPlan(NamedTuple):
    """What an allowed reaction does, as :func:`_plan_react` works it out while judging it."""

    place: int
    """The installation's index in the state's installations."""
    used: tuple[tuple[int, int, int], ...]
    """The places of the player's substances that feed it instead of raw cards (L2.T6)."""
    board: tuple[tuple[tuple[str, tuple[str | None, ...]], ...], ...] | None
    """The places of each mission with the products placed on the card (L2.M1); None when
    none goes there."""
    slots: tuple[tuple[int, int], ...]
    """(container index, place) of each product that stays in its container."""
    placed: tuple[str, ...]
    """Where each product went, in words."""


def refuse_react(state: GameState, action: React, catalog: Catalog) -> Outcome | None:
    """Why the reaction may not be run now (L2.T4, L2.T6, L2.T5, L2.M1); None when it may."""
    plan = _plan_react(state, action, catalog)
    return plan if isinstance(plan, Outcome) else None


def judge_react(state: GameState, action: React, catalog: Catalog) -> Outcome:
    """Run an installation with raw cards from the hand (L2.T4, L2.M1, L3.S5)."""
    plan = _plan_react(state, action, catalog)
    return plan if isinstance(plan, Outcome) else _react_effect(state, action, plan)


def react_effect(state: GameState, action: React, catalog: Catalog) -> Outcome:
    """The consequences of ``React`` once refuse_react has allowed it."""
    plan = _plan_react(state, action, catalog)
    assert not isinstance(plan, Outcome), "refuse_react allowed it"
    return _react_effect(state, action, plan)


def _plan_react(state: GameState, action: React, catalog: Catalog) -> Outcome | _ReactPlan:
    """The refusal of a reaction, or what it does: the rule, without building the next state."""
    rules = _REACT_RULES
    refusal = only_at_levels(
        state,
        CHEMISTRY_LEVELS,
        rules,
        "react.no-installations-here",
    )
    if refusal:
        return Outcome(refusal)
    refusal = once_a_turn(
        state,
        "react",
        rules,
        "react.once",
    ) or refuse_after_discard(state)
    if refusal:
        return Outcome(refusal)
    player = state.current
    # The rest of the rule reads the installations, the Mission card, the player's tokens and
    # where they stand (user), and the hand only to find the cards named: worked out once for
    # the copies of the state that leave those alone (the listing, then apply, then the other
    # steps of the turn ask it again).
    key = ("react-plan", id(action), *user(state, player.id), player.tokens)
    facts = state.facts(_PLAN_READ)
    known: list[Any] | None = facts.get(key)
    if known is None or known[0] is not action or known[1] is not catalog:
        known = facts[key] = [action, catalog, _react_place(state, action, player.id), None]
    place = known[2]
    if isinstance(place, Outcome):
        return place
    missing = [c for c in action.cards if c not in player.raw_cards]
    if missing:
        return Outcome(forbidden(rules, "cards.player-lacks", {"missing": missing}))
    plan = known[3]
    if plan is None:  # only for cards the player holds: a card the game lacks is refused above
        plan = known[3] = _react_plan(state, action, catalog, player.id, place)
    return plan  # type: ignore[no-any-return]


#: The fields of a state the plan of a reaction reads, besides the player's (in its key).
_PLAN_READ: Final = frozenset({"level", "installations", "missions"})


def _react_place(state: GameState, action: React, player_id: str) -> Outcome | int:
    """The index of the installation the reaction runs, or why it may not run there."""
    rules = _REACT_RULES
    index = next(
        (i for i, inst in enumerate(state.installations) if inst.number == action.installation),
        None,
    )
    if index is None:
        return Outcome(
            forbidden(rules, "react.no-installation", {"installation": action.installation})
        )
    installation = state.installations[index]
    if installation.number not in usable_numbers(state, player_id):
        if state.level == "3" and installation.owner is None:
            return Outcome(forbidden(("L3.S5",), "react.shared-at-base"))
        if state.level == "1v1":
            return Outcome(forbidden(("V1.2",), "react.own-only"))
        return Outcome(
            forbidden(
                ("L2.T4",),
                "react.someone-elses",
                {"installation": installation.number, "owner": installation.owner},
            )
        )
    if len(set(action.cards)) != len(action.cards):
        return Outcome(forbidden(rules, "cards.named-twice"))
    return index


def _react_plan(
    state: GameState, action: React, catalog: Catalog, player_id: str, index: int
) -> Outcome | _ReactPlan:
    """The rest of the reaction's rule once its cards are held: inputs, tokens, places."""
    rules = _REACT_RULES
    installation = state.installations[index]
    inputs = [c for c in installation.containers if c.role == "raw-input"]
    remaining = list(action.cards)
    unmatched = []
    for container in inputs:
        formula = formula_key(container.substance)
        match = next((c for c in remaining if kind_key(catalog, c) == formula), None)
        if match is None:
            unmatched.append(container.substance)
        else:
            remaining.remove(match)
    # L2.T6: a substance the player holds in a container may feed the reaction instead.
    used_products: list[tuple[int, int, int]] = []
    lacking = []
    if unmatched:
        sources = {f: list(places) for f, places in product_sources(state, player_id).items()}
        for substance in unmatched:
            pool = sources.get(formula_of(substance), [])
            if pool:
                used_products.append(pool.pop(0))
            else:
                lacking.append(substance)
    if lacking:
        return Outcome(
            forbidden(
                (*rules, "L2.T6"),
                "react.lacking",
                {"lacking": lacking},
                needed=[c.substance for c in inputs],
            )
        )
    if remaining:
        return Outcome(
            forbidden(
                rules,
                "react.extra-cards",
                {"remaining": remaining},
                needed=[c.substance for c in inputs],
            )
        )
    products = [k for k, c in enumerate(installation.containers) if c.role == "product"]
    free = state.free_tokens(player_id) + len(used_products)
    if free < len(products):
        return Outcome(
            forbidden(
                (*rules, "L2.T5"), "react.tokens-short", {"needed": len(products)}, free_tokens=free
            )
        )
    # The places the substances used leave free on this installation's containers.
    freed = [(k, slot) for i, k, slot in used_products if i == index]
    missions = state.missions
    # The Mission card's places once a product has taken one (None until then).
    board: list[tuple[tuple[str, tuple[str | None, ...]], ...]] | None = None
    slots_taken: list[tuple[int, int]] = []
    placed: list[str] = []
    choices = list(action.missions)
    for k in products:
        container = installation.containers[k]
        options: Sequence[tuple[int, int, int]]
        if board is None:
            options = free_mission_places(state, container.substance)
        else:
            options = _free_places(board, container.substance)
        if options:
            spot = options[0]
            if choices:
                wanted = choices.pop(0)
                chosen = next((o for o in options if missions[o[0]].id == wanted), None)
                if chosen is None:
                    offered = [missions[o[0]].id for o in options]
                    return Outcome(
                        forbidden(
                            ("L2.M1", "L2.M1-choice"),
                            "react.mission-no-place",
                            {"wanted": wanted, "substance": container.substance},
                            missions=offered,
                        )
                    )
                spot = chosen
            m, p, slot = spot
            if board is None:
                board = [mission.places for mission in missions]
            formula_text, tokens = board[m][p]
            new_tokens = list(tokens)
            new_tokens[slot] = player_id
            places = list(board[m])
            places[p] = (formula_text, tuple(new_tokens))
            board[m] = tuple(places)
            placed.append(f"{container.substance} → {missions[m].id}")
            continue
        slots = list(container.places)
        for freed_k, freed_slot in freed:
            if freed_k == k:
                slots[freed_slot] = None
        if None not in slots:
            return Outcome(
                forbidden(
                    (*rules, "L2.T5"),
                    "react.container-full",
                    {"substance": container.substance, "card": container.card},
                )
            )
        slots_taken.append((k, slots.index(None)))
        placed.append(f"{container.substance} → {container.card}")
    if choices:
        return Outcome(
            forbidden(("L2.M1", "L2.M1-choice"), "react.choices-left", {"choices": choices})
        )
    return _ReactPlan(
        index,
        tuple(used_products),
        None if board is None else tuple(board),
        tuple(slots_taken),
        tuple(placed),
    )


_REACT_RULES: tuple[str, ...] = ("L2.T4", "L2.T4.R1")


def _react_effect(state: GameState, action: React, plan: _ReactPlan) -> Outcome:
    """The state after an allowed reaction, its ruling and events."""
    player = state.current
    installations = list(state.installations)
    consumed = []
    for i, k, slot in plan.used:
        container = installations[i].containers[k]
        slots = list(container.places)
        slots[slot] = None
        moved = list(installations[i].containers)
        moved[k] = container.model_copy(update={"places": tuple(slots)})
        installations[i] = installations[i].model_copy(update={"containers": tuple(moved)})
        consumed.append(f"{container.substance} ← {container.card}")
    installation = installations[plan.place]
    containers = list(installation.containers)
    for k, slot in plan.slots:
        tokens = list(containers[k].places)
        tokens[slot] = player.id
        containers[k] = containers[k].model_copy(update={"places": tuple(tokens)})
    installations[plan.place] = installation.model_copy(update={"containers": tuple(containers)})
    new_player = updated(
        player, raw_cards=tuple(c for c in player.raw_cards if c not in action.cards)
    )
    new = replace_player(state, new_player).model_copy(
        update={
            "installations": tuple(installations),
            "missions": _with_places(state.missions, plan.board),
            "discard": (*state.discard, *action.cards),
        }
    )
    new = mark_done(new, "react")
    placed = list(plan.placed)
    used_rules = (*_REACT_RULES, "L2.T4-portion")
    if any(container.role == "transit" for container in installation.containers):
        used_rules = (*used_rules, "L2.T4-transit")
    if any("→ M" in p for p in placed):
        used_rules = (*used_rules, "L2.M1")
    if action.missions:
        used_rules = (*used_rules, "L2.M1-choice")
    if consumed:
        used_rules = (*used_rules, "L2.T6")
    words = {"installation": installation.number, "substances_used": consumed}
    ruling = allowed(
        used_rules,
        "react.run",
        words,
        products=placed,
        cards=list(action.cards),
        substances_used=consumed,
    )
    events = [event("react", "react.run", words, products=placed)]
    new, end = mission_end(state, new)
    if end:
        events.append(end)
    return Outcome(ruling, new, tuple(events))


def product_sources(
    state: GameState, player_id: str
) -> Mapping[Formula, tuple[tuple[int, int, int], ...]]:
    """Where the player's tokens stand on product containers, by substance (L2.T6).

    Each entry is (installation index, container index, place index); only installations the
    player may use now count. Worked out once for a state and the copies that leave what
    it reads alone.
    """
    key = ("product-sources", *user(state, player_id))
    facts = state.facts(INSTALLATIONS_READ)
    found: dict[Formula, tuple[tuple[int, int, int], ...]] | None = facts.get(key)
    if found is not None:
        return found
    usable = usable_numbers(state, player_id)
    sources: dict[Formula, list[tuple[int, int, int]]] = {}
    for i, installation in enumerate(state.installations):
        if installation.number not in usable:
            continue
        for k, container in enumerate(installation.containers):
            if container.role != "product" or player_id not in container.places:
                continue
            for slot, token in enumerate(container.places):
                if token == player_id:
                    formula = formula_of(container.substance)
                    sources.setdefault(formula, []).append((i, k, slot))
    found = facts[key] = {formula: tuple(places) for formula, places in sources.items()}
    return found


def mission_end(before: GameState, after: GameState) -> tuple[GameState, Event | None]:
    """Announce a mission that an action completed (L2.E1, L3.E1; not head to head, V1.5).

    The game ends at the end of the round (Ruling L2.E1-round, :func:`engine.game_over`), or
    at once with the house rule ``ends-at-once``.
    """
    if after.level == "1v1":
        return after, None
    was = before.complete_missions()
    done = [mission for mission in after.complete_missions() if mission not in was]
    if not done:
        return after, None
    if not after.house_rules.ends_at_once:
        return after, event("mission", "event.mission-complete", mission=done[0])
    reason = f"mission {done[0]} complete"
    new = after.model_copy(update={"ended": True, "end_code": "mission", "end_reason": reason})
    return new, event("end", "event.mission-ends", mission=done[0])


said(
    "react.no-installations-here",
    "установок на уровне 1 нет",
    "there are no installations at level 1",
)
said(
    "react.once", "Реакцию в этот ход уже проводили.", "A reaction has been run this turn already."
)
said(
    "react.no-installation",
    "Установки {installation} нет на столе.",
    "Installation {installation} is not on the table.",
)
said(
    "react.shared-at-base",
    "Общими установками пользуются только на базе.",
    "Shared installations are used only at the Base.",
)
said(
    "react.own-only",
    "Один на один — только своя установка.",
    "Head to head: your own installation only.",
)
said(
    "react.someone-elses",
    "Установка {installation} принадлежит {owner:dat}.",
    "Installation {installation} belongs to {owner}.",
)
said(
    "react.lacking",
    "Для реакции нужны ещё: {lacking} (карточка сырья или своё вещество в ёмкости).",
    "The reaction also needs {lacking} (a raw card, or a substance of yours in a container).",
)
said(
    "react.extra-cards",
    "Лишние карточки: {remaining}.",
    "Cards the installation does not take: {remaining}.",
)
said(
    "react.tokens-short",
    "Нужно {needed} свободных фишек, есть {free_tokens}: освободите фишку.",
    "It needs {needed} free tokens; {free_tokens} are free: free a token first.",
)


@written("react.mission-no-place")
def _no_place(values: Mapping[str, Any]) -> tuple[str, str]:
    wanted, substance, offered = (
        values["wanted"],
        values["substance"],
        ", ".join(values["missions"]),
    )
    return (
        f"У миссии {wanted} нет свободного места для {substance}; есть у {offered}.",
        f"Mission {wanted} has no free place for {substance}; {offered} has.",
    )


said(
    "react.container-full",
    "Ёмкость {substance} на {card} заполнена: освободите место.",
    "The {substance} container on {card} is full: free a place first.",
)
said(
    "react.choices-left",
    "Лишний выбор миссии: {choices} — продуктов для карты Миссий меньше.",
    "A mission chosen too many: {choices}; fewer products go to the Mission card.",
)


@written("react.run")
def _run(values: Mapping[str, Any]) -> tuple[str, str]:
    number, placed, consumed = (
        values["installation"],
        ", ".join(values["products"]),
        values["substances_used"],
    )
    taken = f" (в дело пошли {', '.join(consumed)})" if consumed else ""
    taken_en = f" (using {', '.join(consumed)})" if consumed else ""
    return (
        f"Реакция на установке {number}: {placed}{taken}.",
        f"Reaction on installation {number}: {placed}{taken_en}.",
    )


said(
    "event.mission-ends",
    "Миссия {mission} выполнена — игра окончена.",
    "Mission {mission} is complete: the game is over.",
)
said(
    "event.mission-complete",
    "Миссия {mission} выполнена: круг доигрывают, и игра окончена (L2.E1-round).",
    "Mission {mission} is complete: the round is played out, then the game is over (L2.E1-round).",
)
