"""Head to head: keeping one of the installations dealt (Ruling V1.2-choose).

Every installation that may be dealt head to head lies face up, as many to each player as
divide evenly (:func:`~mhp_cards.game.deal`); on their first turn, before drawing, a player
keeps one of theirs and the others leave the game. Under the house rule
``installation-at-random`` each player is dealt one installation at random, as V1.2 reads,
and there is nothing to keep.
"""

from __future__ import annotations

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState, Player
from mhp_cards.referee.actions import KeepInstallation
from mhp_cards.referee.common import Judge, Outcome, event, guarded, only_at_levels
from mhp_cards.referee.reasons import said
from mhp_cards.referee.ruling import Ruling, allowed, forbidden, refused
from mhp_cards.referee.table import INSTALLATIONS_READ

__all__ = [
    "KEEP_RULES",
    "choosing",
    "judge_keep",
    "keep_effect",
    "owned",
    "refuse_keep",
    "unkept",
]

#: The rules of keeping an installation.
KEEP_RULES = ("V1.2", "V1.2-choose")


def owned(state: GameState, player: Player) -> tuple[int, ...]:
    """The numbers of the installations the player owns, in number order.

    A fact of the installations, kept for the states that share them (asked at every step
    head to head).
    """
    key = ("owned", player.id)
    facts = state.facts(INSTALLATIONS_READ)
    numbers: tuple[int, ...] | None = facts.get(key)
    if numbers is None:
        numbers = facts[key] = tuple(i.number for i in state.installations if i.owner == player.id)
    return numbers


def choosing(state: GameState, player: Player) -> bool:
    """Whether the player has yet to keep one of the installations dealt to them."""
    return state.level == "1v1" and len(owned(state, player)) > 1


def unkept(state: GameState) -> Ruling | None:
    """A refusal while the current player has yet to keep an installation; None otherwise."""
    player = state.current
    if not choosing(state, player):
        return None
    return refused(KEEP_RULES, "keep.first", {"offered": list(owned(state, player))})


def refuse_keep(state: GameState, action: KeepInstallation, catalog: Catalog) -> Outcome | None:
    """Why the installation may not be kept now (V1.2-choose); None when it may."""
    refusal = only_at_levels(state, ("1v1",), KEEP_RULES, "keep.head-to-head")
    if refusal:
        return Outcome(refusal)
    player = state.current
    mine = owned(state, player)
    if len(mine) <= 1:
        return Outcome(refused(KEEP_RULES, "keep.kept-already", {"installations": list(mine)}))
    if action.installation not in mine:
        return Outcome(
            forbidden(
                KEEP_RULES,
                "keep.not-dealt",
                {"installation": action.installation, "offered": list(mine)},
            )
        )
    return None


def keep_effect(state: GameState, action: KeepInstallation, catalog: Catalog) -> Outcome:
    """Keep the installation; the player's others leave the game (V1.2-choose)."""
    player = state.current
    left = tuple(n for n in owned(state, player) if n != action.installation)
    new = state.model_copy(
        update={
            "installations": tuple(i for i in state.installations if i.number not in left),
            "unused_installations": tuple(sorted((*state.unused_installations, *left))),
        }
    )
    words = {"player": player.id, "installation": action.installation, "left": list(left)}
    ruling = allowed(KEEP_RULES, "keep.kept", words)
    return Outcome(
        ruling, new, (event("keep", "keep.kept", words, installation=action.installation),)
    )


judge_keep: Judge[KeepInstallation] = guarded(
    refuse_keep,
    keep_effect,
    "Head to head: keep one of the installations dealt (Ruling V1.2-choose).",
)

said(
    "keep.kept",
    "{player} оставляет себе установку {installation}; из игры уходят: {left}.",
    "{player} keeps installation {installation}; leaving the game: {left}.",
)
said(
    "keep.first",
    "Сначала оставьте себе одну из розданных установок: {offered}.",
    "First keep one of the installations dealt to you: {offered}.",
)
said(
    "keep.head-to-head",
    "установку выбирают только в игре один на один",
    "an installation is kept only head to head",
)
said(
    "keep.kept-already",
    "Установка уже выбрана: {installations}.",
    "The installation is kept already: {installations}.",
)
said(
    "keep.not-dealt",
    "Установку {installation} вам не сдавали; выбирайте из {offered}.",
    "Installation {installation} was not dealt to you; keep one of {offered}.",
)
