"""The reactions a player may run now, listed (L2.T4, L2.T6, L3.S5).

Every installation open to the player, every way their cards and held products feed it: for
:func:`mhp_cards.referee.legal.legal_actions`, and for the head-to-head check that a card
taken fits the player's installation (:mod:`mhp_cards.referee.draws`). Each reaction is made
once and shared.
"""

from __future__ import annotations

from mhp_cards.catalog.models import Catalog
from mhp_cards.chem.formula import Formula
from mhp_cards.game.state import GameState, InstallationState, Player
from mhp_cards.referee.actions import React
from mhp_cards.referee.react import product_sources
from mhp_cards.referee.table import (
    INSTALLATIONS_READ,
    card_formula,
    formula_key,
    usable_installations,
    user,
)


def reactions(state: GameState, catalog: Catalog, player: Player) -> tuple[React, ...]:
    """Each way to run each installation the player can feed, raw cards before products.

    An input may be a raw card from the hand (the first of each kind of its formula) or a
    substance the player holds in a container (L2.T6); where both are at hand, both ways are
    listed (using the substance keeps the card and frees a token). Whether a way is allowed
    (tokens, room) is for the referee to judge. Worked out once for the installations the
    player may use and the hand: a shared value.
    """
    feeds, held, by_hand = _feeds(state, player.id)
    hand = player.raw_cards
    found = by_hand.get(hand)
    if found is None or found[0] is not catalog:
        # An installation with an input that neither a card nor a substance held can feed has
        # no way to run: its ways are not worked out.
        at_hand = held | _compositions(catalog, hand)
        ways = tuple(
            way
            for number, inputs, counts, needs in feeds
            if needs <= at_hand
            for way in _ways(catalog, number, inputs, hand, counts)
        )
        found = by_hand[hand] = (catalog, ways)
    return found[1]


#: What the installations a player may use take: (number, input substances, how many of each
#: the player holds in containers, the inputs' formula keys) for each one with inputs.
_Feeds = tuple[tuple[int, tuple[str, ...], tuple[int, ...], frozenset[object]], ...]


def _compositions(catalog: Catalog, hand: tuple[str, ...]) -> frozenset[object]:
    """The formula keys of the cards in a hand (:func:`_identity` of each card's formula)."""
    memo = catalog.memo("referee.card-compositions")
    keys = []
    for card in hand:
        key = memo.get(card, memo)
        if key is memo:
            key = memo[card] = _identity(card_formula(catalog, card))
        keys.append(key)
    return frozenset(keys)


def _feeds(
    state: GameState, player_id: str
) -> tuple[_Feeds, frozenset[object], dict[tuple[str, ...], tuple[Catalog, tuple[React, ...]]]]:
    """The inputs of the installations the player may use, with their reactions by hand.

    A fact of the state's installations (and, at level 3, where the combine stands), kept
    for the copies that leave them alone, with the reactions of each hand worked out so far.
    """
    key = ("reaction-feeds", *user(state, player_id))
    facts = state.facts(INSTALLATIONS_READ)
    found: (
        tuple[_Feeds, frozenset[object], dict[tuple[str, ...], tuple[Catalog, tuple[React, ...]]]]
        | None
    ) = facts.get(key)
    if found is not None:
        return found
    held = {
        _identity(formula): len(places)
        for formula, places in product_sources(state, player_id).items()
    }
    feeds = []
    for installation in usable_installations(state, player_id):
        inputs, keys, needs = _inputs_of(installation)
        if inputs:
            counts = tuple(held.get(key, 0) for key in keys)
            feeds.append((installation.number, inputs, counts, needs))
    kept = frozenset(key for key, count in held.items() if count > 0)
    found = facts[key] = (tuple(feeds), kept, {})
    return found


def _inputs_of(
    installation: InstallationState,
) -> tuple[tuple[str, ...], tuple[object, ...], frozenset[object]]:
    """An installation's input substances, their formula keys, and the set of those keys.

    Worked out once per installation value: an installation is copied when a token moves,
    and the copy is worked out anew.
    """
    found = _INPUTS.get(id(installation))
    if found is not None and found[0] is installation:
        return found[1]
    inputs = tuple(c.substance for c in installation.containers if c.role == "raw-input")
    keys = tuple(formula_key(text) for text in inputs)
    if len(_INPUTS) >= _INPUTS_LIMIT:  # few installation values live at once
        _INPUTS.clear()
    # The installation is kept with its inputs, so its id names no other while kept.
    _INPUTS[id(installation)] = (installation, (inputs, keys, frozenset(keys)))
    return inputs, keys, frozenset(keys)


_INPUTS_LIMIT = 4096
_INPUTS: dict[
    int,
    tuple[InstallationState, tuple[tuple[str, ...], tuple[object, ...], frozenset[object]]],
] = {}


def _ways(
    catalog: Catalog,
    number: int,
    inputs: tuple[str, ...],
    hand: tuple[str, ...],
    held: tuple[int, ...],
) -> tuple[React, ...]:
    """The reactions of :func:`reactions` on one installation, made once per hand.

    They depend on nothing else than the installation's inputs, the hand and how many of
    each input the player holds in containers (``held``, input by input).
    """
    memo = catalog.memo("referee.reaction-ways")
    key = (number, inputs, hand, held)
    found: tuple[React, ...] | None = memo.get(key)
    if found is not None:
        return found
    # Formulas compared by their identity keys: a tuple comparison, not a method call.
    formulas = [_identity(card_formula(catalog, card)) for card in hand]
    sources = dict(zip((formula_key(text) for text in inputs), held, strict=True))
    # Each partial way: the cards chosen, the hand left, the substances left.
    ways: list[tuple[tuple[str, ...], list[tuple[str, object]], dict[object, int]]] = [
        ((), list(zip(hand, formulas, strict=True)), sources)
    ]
    for text in inputs:
        key_of = formula_key(text)
        following = []
        for chosen, rest_of_hand, left in ways:
            # The first card of each kind of this formula: polymorphs (quartz, tridymite)
            # feed the same container, and the player chooses which to spend.
            kinds: set[str] = set()
            for match in rest_of_hand:
                if match[1] != key_of or (kind := match[0].rsplit("#", 1)[0]) in kinds:
                    continue
                kinds.add(kind)
                rest = list(rest_of_hand)
                rest.remove(match)
                following.append(((*chosen, match[0]), rest, left))
            if left.get(key_of, 0) > 0:
                following.append((chosen, rest_of_hand, {**left, key_of: left[key_of] - 1}))
        ways = following
        if not ways:
            break
    # Two inputs of one substance give the same way twice (card first or product first).
    seen: set[tuple[str, ...]] = set()
    made: list[React] = []
    for chosen, _, _ in ways:
        same = tuple(sorted(chosen))
        if same not in seen:
            seen.add(same)
            made.append(_reaction(number, chosen))
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    found = memo[key] = tuple(made)
    return found


_MEMO_LIMIT = 100_000


def _reaction(number: int, cards: tuple[str, ...]) -> React:
    """The reaction of these cards on this installation, one shared value for every hand.

    Judgements kept by reaction (the plan of :func:`refuse_react`, the Mission-card choices)
    then serve every hand that lists it.
    """
    key = (number, cards)
    made = _REACTIONS.get(key)
    if made is None:
        if len(_REACTIONS) >= _MEMO_LIMIT:
            _REACTIONS.clear()
        made = _REACTIONS[key] = React(installation=number, cards=cards)
    return made


_REACTIONS: dict[tuple[int, tuple[str, ...]], React] = {}


def _identity(formula: Formula | None) -> object:
    """:attr:`Formula.composition`, or None for a hidden card."""
    return None if formula is None else formula.composition
