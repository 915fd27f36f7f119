"""Claiming a mission with raw cards at level 1 (L1.E1, L1.E2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState
from mhp_cards.referee.actions import Claim
from mhp_cards.referee.common import (
    Outcome,
    event,
    only_at_levels,
)
from mhp_cards.referee.mission import decide_mission
from mhp_cards.referee.reasons import PlayerName, render, said, written
from mhp_cards.referee.ruling import forbidden
from mhp_cards.referee.table import raw_kind

#: Refused claims remembered per catalog before the memory starts afresh.
_REMEMBERED_REFUSALS = 50_000


def judge_claim(state: GameState, action: Claim, catalog: Catalog) -> Outcome:
    """Claim a mission with raw cards at level 1 (L1.E1, L1.E2)."""
    rules = ("L1.E1", "L1.E2")
    refusal = only_at_levels(
        state,
        ("1",),
        rules,
        "claim.tokens-at-this-level",
    )
    if refusal:
        return Outcome(refusal)
    player = state.current
    if any(claimer == player.id for claimer, _ in state.claims):
        return Outcome(forbidden((*rules, "L2.E1-round"), "claim.once"))
    if not action.cards:  # the claim of the whole hand, as legal_actions asks every turn
        known = catalog.memo("referee.claim-refusals").get(
            (action.mission, player.raw_cards, state.house_rules.mission_match)
        )
        if known is not None:
            return known  # type: ignore[no-any-return]
    try:
        mission = catalog.mission(action.mission)
    except KeyError:
        return Outcome(
            forbidden(
                rules,
                "claim.no-mission",
                {"mission": action.mission},
                missions=[m.id for m in catalog.missions],
            )
        )
    cards = action.cards or player.raw_cards
    if len(set(cards)) != len(cards):
        return Outcome(forbidden(rules, "cards.named-twice"))
    missing = [c for c in cards if c not in player.raw_cards]
    if missing:
        return Outcome(forbidden(rules, "cards.player-lacks", missing=missing))
    match = state.house_rules.mission_match
    if match == "whole-hand":
        cards = player.raw_cards
    # A refused claim depends only on the mission, the cards and the house rule: remember it.
    refusals = catalog.memo("referee.claim-refusals")
    memo_key = (mission.id, cards, match)
    refused = refusals.get(memo_key)
    if refused is not None:
        return refused  # type: ignore[no-any-return]
    hand = [raw_kind(catalog, c) for c in cards]
    ruling = decide_mission(catalog, mission, hand, [match] if match != "exact-subset" else [])
    if ruling.verdict != "complete":
        if len(refusals) >= _REMEMBERED_REFUSALS:
            refusals.clear()
        refused = refusals[memo_key] = Outcome(ruling.replace(verdict="forbidden"))
        return refused
    # The claim is an action: its verdict is the actions' one (allowed), whatever the
    # mission question answered (complete); the code says it won.
    ruling = ruling.replace(
        verdict="allowed",
        rules=(*ruling.rules, "L1.E2"),
        code="claim.won",
        words={
            **ruling.words,
            "decision": ruling.code,
            "winner": player.id,
            "at_once": state.house_rules.ends_at_once,
        },
    )
    claims = (*state.claims, (player.id, mission.id))
    if state.house_rules.ends_at_once:
        new = state.model_copy(
            update={
                "ended": True,
                "end_code": "mission",
                "end_reason": f"{player.id} completed mission {mission.id}",
                "claims": claims,
            }
        )
    else:
        # The round is played out; the game ends when it does (L2.E1-round, engine.game_over).
        ruling = ruling.replace(
            rules=(*ruling.rules, "L2.E1-round"), house_rules=(*ruling.house_rules, "ends-at-once")
        )
        new = state.model_copy(update={"claims": claims})
    kind = "end" if new.ended else "claim"
    return Outcome(
        ruling,
        new,
        (event(kind, "claim.won", {**ruling.facts, **ruling.words}, winner=player.id),),
    )


said(
    "claim.tokens-at-this-level",
    "миссии выполняют фишками на карте Миссий (L2.M1)",
    "missions are completed with tokens on the Mission card (L2.M1)",
)
said("claim.no-mission", "Нет миссии {mission}.", "No mission {mission}.")
said(
    "claim.once",
    "Миссию ты уже объявил; в последнем круге ходят остальные.",
    "You have announced a mission already; the others take their last turns.",
)


@written("claim.won")
def _won(values: Mapping[str, Any]) -> tuple[str, str]:
    ru, en = render(values["decision"], values)
    winner_ru, winner_en = PlayerName(values["winner"], "ru"), PlayerName(values["winner"], "en")
    if values.get("at_once", True):
        return ru + f" Победитель — {winner_ru}.", en + f" {winner_en} wins."
    return (
        ru + f" {winner_ru} побеждает; круг доигрывают — миссию ещё может объявить каждый, кто "
        "ходит после (L2.E1-round).",
        en + f" {winner_en} wins; the round is played out, and every player after may still "
        "announce a mission (L2.E1-round).",
    )
