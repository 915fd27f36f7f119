"""The referee: every rule of the game in one place — check, apply, legal actions.

``check(state, action, catalog)`` never raises: it returns a :class:`Ruling` (allowed or
forbidden, with the rule IDs and the reason in Russian and English, written when read).
``apply`` returns the new state and the events the action caused; an illegal action raises
:class:`~mhp_cards.errors.IllegalPlayError` carrying the ruling. ``legal_actions`` lists every
action the current player may take, trades with each partner included (an open price is listed
once; :func:`price_range` gives the rest), and ``apply`` of an action it has just listed
computes only the action's effect. Dice are explicit: given by the table in the action, or
rolled from the game's seeded generator and recorded in the events. Each rule's judge is its
chain of refusals and its effect; they live in :mod:`~mhp_cards.referee.field` (level 1 and the
field of level 3) and :mod:`~mhp_cards.referee.chemistry` (installations, tokens, trades).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, Final, TypeVar

from pydantic import BaseModel

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import IllegalPlayError
from mhp_cards.game.state import EndCode, GameState, Player
from mhp_cards.referee.actions import (
    Action,
    BuyRaw,
    BuyUpgrade,
    Claim,
    EndTurn,
    FreeToken,
    Move,
    ProductRef,
    React,
    ResolveFight,
    SellRaw,
    TakeRaw,
    Trade,
)
from mhp_cards.referee.chemistry import (
    can_react,
    find_container,
    judge_free,
    judge_react,
    judge_take,
    judge_trade,
    mission_places,
    reactions,
    refuse_trade,
    trade_effect,
)
from mhp_cards.referee.common import (
    CHEMISTRY_LEVELS,
    FIELD_LEVELS,
    Event,
    Judge,
    Outcome,
    end_rules,
    event,
    guarded,
)
from mhp_cards.referee.end import END_RULES, END_TEXTS
from mhp_cards.referee.field import (
    buy_effect,
    fight_choices,
    judge_buy,
    judge_claim,
    judge_fight,
    judge_move,
    judge_sell,
    judge_warehouse,
    move_effect,
    paths,
    refuse_buy,
    refuse_sell,
    refuse_warehouse,
    sell_effect,
    warehouse_effect,
)
from mhp_cards.referee.ruling import Ruling, allowed, forbidden, refused
from mhp_cards.rules.numbers import COMBINE_CAPACITY

__all__ = ["Event", "Outcome", "apply", "check", "judge", "legal_actions"]


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
    listed = _LISTED.get(id(state))
    # The very action objects legal_actions listed for this state (they are shared values):
    # an equal action made elsewhere is judged as usual.
    if (
        listed is not None
        and listed[0] is state
        and listed[1] is catalog
        and listed[3].get(id(action)) is action
    ):
        outcome = listed[2].get(action)
        effect = _EFFECTS.get(type(action))
        if outcome is None and effect is not None:
            outcome = effect(state, action, catalog)
    if outcome is None:
        outcome = judge(state, action, catalog)
    if outcome.state is None:
        raise IllegalPlayError(outcome.ruling, str(outcome.ruling))
    return outcome.state, outcome.events


def judge(state: GameState, action: Action, catalog: Catalog) -> Outcome:
    """Check an action and compute its consequences (the work behind check and apply)."""
    if state.ended:
        return Outcome(
            forbidden(
                end_rules(state),
                f"Игра окончена: {state.end_reason}.",
                f"The game is over: {state.end_reason}.",
            )
        )
    actor = action.player or state.current.id
    if actor not in {player.id for player in state.players}:
        return Outcome(
            forbidden(
                ("L1.T1",),
                f"Игрок {actor!r} не участвует в игре.",
                f"{actor!r} is not playing.",
                players=[p.id for p in state.players],
            )
        )
    if state.fight is not None and not isinstance(action, ResolveFight):
        return Outcome(
            forbidden(
                ("L1.T4",),
                "Сначала разрешите бой: бросьте кубики (действие fight).",
                "Resolve the fight first: roll the dice (the fight action).",
                fight=state.fight.model_dump(),
            )
        )
    if actor != state.current.id and not isinstance(action, ResolveFight):
        turn_rule = "L1.T1" if state.level in FIELD_LEVELS else "L2.T1"
        own = own_turn_rule(state, action)
        rules = (turn_rule,) if own in (None, turn_rule) else (turn_rule, own, "L1.T7-own-turn")
        return Outcome(
            forbidden(
                rules,
                f"Сейчас ход игрока {state.current.id}, а не {actor}.",
                f"It is {state.current.id}'s turn, not {actor}'s.",
                turn=state.current.id,
            )
        )
    handler = _HANDLERS[type(action)]
    try:
        return handler(state, action, catalog)
    except (KeyError, IndexError) as error:
        # An action naming a card, pile or container the game does not have.
        return Outcome(
            forbidden(
                ("L1.T1",),
                f"Такого в игре нет: {error}.",
                f"The action names something that is not in the game: {error}.",
            )
        )


def price_range(state: GameState, action: Action, catalog: Catalog) -> range | None:
    """The prices an action may name where the rules leave the price open; None elsewhere.

    A sale to the Bank at level 2 is at the nominal price or less, as far as the Bank can pay
    (L2.T5), at level 3 at the printed price (L3.T3); a sale to a player or a trade is for any
    whole number of мР the payer holds (Ruling L2.T2-one-trade, "Trades at the table"). For a
    trade the range is what the acting player pays: negative numbers are paid to them.
    :func:`legal_actions` lists such an action once, with a price from this range.
    """
    if isinstance(action, FreeToken):
        if action.how == "dump":
            return None
        ref = action.product
        found = find_container(state, ref.installation, ref.card, ref.container)
        if found is None:
            return range(0)
        nominal = catalog.substance(found[2].substance).price
        if action.how == "sell-bank":
            if state.level == "3":
                return range(nominal, nominal + 1) if state.bank >= nominal else range(0)
            return range(0, min(nominal, state.bank) + 1)
        buyer = next((p for p in state.players if p.id == action.partner), None)
        return range(0, buyer.money + 1) if buyer is not None else range(0)
    if isinstance(action, Trade):
        partner = next((p for p in state.players if p.id == action.partner), None)
        if partner is None:
            return range(0)
        return range(-partner.money, state.current.money + 1)
    return None


def mission_choices(state: GameState, reaction: React) -> list[React]:
    """The other places a reaction's products may take on the Mission card (L2.M1-choice).

    The reaction as given puts each product on the first mission with a free place; each
    variant here names another choice for at least one product.
    """
    installation = next(i for i in state.installations if i.number == reaction.installation)
    options = [
        [state.missions[m].id for m, _, _ in mission_places(state.missions, container.substance)]
        for container in installation.containers
        if container.role == "product"
    ]
    options = [ids for ids in options if ids]
    if all(len(ids) < 2 for ids in options):
        return []
    firsts = tuple(ids[0] for ids in options)
    return [
        React.model_construct(
            installation=reaction.installation, cards=reaction.cards, missions=choice
        )
        for choice in itertools.product(*options)
        if choice != firsts
    ]


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
    if moves_left and any(True for _ in paths(state, player, attacks=not repairing)):
        return Outcome(
            refused(
                ("L1.T1",),
                lambda: (
                    "Сначала ход комбайном: он перемещается каждый ход.",
                    "Move the combine first: it moves every turn.",
                ),
            )
        )
    if state.level in ("2", "1v1") and "take" not in state.done_this_turn and any(state.piles):
        rule = "V1.3" if state.level == "1v1" else "L2.T1"
        return Outcome(
            refused(
                (rule,),
                lambda: (
                    "Сначала возьмите карточку сырья из стопки.",
                    "Take a raw card from a pile first.",
                ),
            )
        )
    if state.level == "3" and len(player.raw_cards) >= COMBINE_CAPACITY and state.bank > 0:
        return Outcome(
            refused(
                ("L3.S3", "L3.S3.R1"),
                lambda: (
                    f"В комбайне {COMBINE_CAPACITY} карточек: проведите реакцию или продайте сырьё "
                    "Банку.",
                    f"The combine holds {COMBINE_CAPACITY} cards: run a reaction or sell raw cards "
                    "to the Bank first.",
                ),
            )
        )
    return None


def end_effect(state: GameState, action: EndTurn, catalog: Catalog) -> Outcome:
    """The consequences of ``EndTurn`` once refuse_end has allowed it."""
    number = state.turn_number + 1
    turn = (state.turn + 1) % len(state.players)
    progress = not _PROGRESS.isdisjoint(state.done_this_turn)
    new = state.model_copy(
        update={
            "turn": turn,
            "turn_number": number,
            "done_this_turn": (),
            "round": state.round + (1 if turn == 0 else 0),
            "quiet_turns": 0 if progress else state.quiet_turns + 1,
        }
    )
    events = [
        event(
            "end-turn",
            f"Ход переходит к {new.current.id}.",
            f"{new.current.id} is next.",
            next=new.current.id,
        )
    ]
    new, reason = game_over(new, catalog)
    if reason is not None:
        events.append(reason)
    rules = ("L1.T1",) if state.level in FIELD_LEVELS else ("L2.T1",)
    ruling = allowed(
        rules, f"Ход закончен; ходит {new.current.id}.", f"Turn over; {new.current.id} plays next."
    )
    return Outcome(ruling, new, tuple(events))


judge_end: Judge[EndTurn] = guarded(
    refuse_end,
    end_effect,
    "End the turn: the duties of the turn done, the next player, the end of the game.",
)


#: What counts as progress for Ruling L3.E1-no-progress.
_PROGRESS = frozenset({"collect", "react", "warehouse"})


def game_over(state: GameState, catalog: Catalog) -> tuple[GameState, Event | None]:
    """Mark the game ended when an end condition holds after a turn (L1.E1, L2.E1, V1.5, L3.E1)."""
    code: EndCode | None = None
    if state.level == "1" and state.field is not None and not any(c.raw for c in state.field.cells):
        code = "field-empty"
    elif state.level in ("2", "1v1") and not any(state.piles):
        code = "piles-empty"
    elif state.level == "3" and state.quiet_turns >= len(state.players):
        code = "no-progress"
    elif (
        state.level == "3"
        and state.field is not None
        and not any(c.raw for c in state.field.cells)
        and not state.warehouse
        and not any(can_react(state, catalog, p.id) for p in state.players)
    ):
        code = "exhausted"
    if code is None:
        return state, None
    reason_ru, reason_en = END_TEXTS[code]
    new = state.model_copy(update={"ended": True, "end_code": code, "end_reason": reason_en})
    return new, event(
        "end",
        f"Игра окончена: {reason_ru}.",
        f"The game is over: {reason_en}.",
        code=code,
        rules=list(END_RULES[state.level][code]),
    )


# Legal actions -----------------------------------------------------------------------------------


def legal_actions(state: GameState, catalog: Catalog) -> list[Action]:
    """What the current player may do now: every kind of action the rules allow.

    Moves come from the same path rule :func:`judge_move` applies, so they are legal as
    listed; actions whose ruling cannot depend on which card they name (a sale to the Bank, a
    Warehouse purchase, a pile) are judged once per kind; the rest are judged one by one. An
    action with an open price is listed once (:func:`price_range`). The actions are values
    made once and shared: their fields come from the state, so they are not validated again.
    """
    if state.ended:
        return []
    if state.fight is not None:
        return [action for action in fight_choices(state) if judge(state, action, catalog).state]
    player = state.current
    listed: list[Action] = []
    outcomes: dict[Action, Outcome] = {}

    # The current player's own actions, in a game that goes on with no fight pending: judge()'s
    # first refusals cannot apply, so each action goes straight to its rule's judge.
    def allowed_now(action: Action) -> bool:
        guard = _GUARDS.get(type(action))
        try:
            if guard is not None:  # the judge's own refusals, without building the next state
                return guard(state, action, catalog) is None
            outcome = _HANDLERS[type(action)](state, action, catalog)
        except (KeyError, IndexError):  # judge() refuses what names nothing in the game
            return False
        if outcome.state is None:
            return False
        outcomes[action] = outcome
        return True

    def each_if_one(actions: list[Action]) -> list[Action]:
        return actions if actions and allowed_now(actions[0]) else []

    if state.level in FIELD_LEVELS:
        if "move" not in state.done_this_turn:
            repairing = player.combine is not None and (
                player.combine.repair_turn == state.turn_number
            )
            listed += [
                _made(Move, path=path) for path in paths(state, player, attacks=not repairing)
            ]
        listed += [
            action
            for action in (
                _made(BuyUpgrade, upgrade="solar-battery"),
                _made(BuyUpgrade, upgrade="armour"),
            )
            if allowed_now(action)
        ]
        listed += each_if_one(_each_card(SellRaw, player.raw_cards))
        listed += each_if_one(_each_card(BuyRaw, state.warehouse))
    if state.level == "1":
        listed += [
            claim
            for claim in (_made(Claim, mission=mission.id) for mission in catalog.missions)
            if allowed_now(claim)
        ]
    if state.level in ("2", "1v1"):
        listed += each_if_one([_made(TakeRaw, pile=n) for n in (1, 2, 3) if state.piles[n - 1]])
    if state.level in CHEMISTRY_LEVELS:
        for reaction in reactions(state, catalog, player):
            if allowed_now(reaction):
                listed.append(reaction)
                listed += [
                    variant for variant in mission_choices(state, reaction) if allowed_now(variant)
                ]
        for installation in state.installations:
            for container in installation.containers:
                if player.id in container.places:
                    ref = _made(
                        ProductRef,
                        installation=installation.number,
                        card=container.card,
                        container=container.index,
                    )
                    to_bank = _made(FreeToken, product=ref, how="sell-bank", price=0)
                    prices = price_range(state, to_bank, catalog)
                    offers: list[Action] = [_made(FreeToken, product=ref, how="dump")]
                    if prices:
                        offers.append(
                            _made(FreeToken, product=ref, how="sell-bank", price=prices[-1])
                        )
                    for buyer in state.players:
                        if buyer.id != player.id and state.level != "1v1":
                            offers.append(
                                _made(
                                    FreeToken,
                                    product=ref,
                                    how="sell-player",
                                    partner=buyer.id,
                                    price=0,
                                )
                            )
                    listed += [action for action in offers if allowed_now(action)]
    if state.level != "1v1" and "trade" not in state.done_this_turn:
        for partner in state.players:
            if partner.id != player.id:
                listed += _trades(state, player, partner, allowed_now)
    end = _made(EndTurn)
    if allowed_now(end):
        listed.append(end)
    _LISTED.clear()
    _LISTED[id(state)] = (state, catalog, outcomes, {id(action): action for action in listed})
    return listed


#: What legal_actions listed for the last state it was asked about, with the outcomes it has
#: judged: applying one of those actions to that state needs no second check (as python-chess's
#: push after its move generator): a judged outcome is reused, an unjudged action has its
#: effect computed without the refusal chain.
_LISTED: dict[int, tuple[GameState, Catalog, dict[Action, Outcome], dict[int, Action]]] = {}


#: Actions already made, by class and fields: an action is a frozen value, so one can be shared.
_MADE: dict[tuple[Any, ...], Any] = {}
_MADE_LIMIT: Final = 200_000

M = TypeVar("M", bound=BaseModel)


def _each_card(kind: type[SellRaw] | type[BuyRaw], cards: tuple[str, ...]) -> list[Action]:
    """One action per card, the list itself made once per tuple of cards."""
    key = (kind, cards)
    made = _MADE.get(key)
    if made is None:
        made = _MADE[key] = [_made(kind, card=card) for card in cards]
    return list(made)


def _made(kind: type[M], **fields: Any) -> M:
    """The action (or product place) ``kind(**fields)``, made once without validation."""
    key = (kind, *fields.items())
    made = _MADE.get(key)
    if made is None:
        if len(_MADE) >= _MADE_LIMIT:
            _MADE.clear()
        made = _MADE[key] = kind.model_construct(**fields)
    return made


def _trades(
    state: GameState, player: Player, partner: Player, allowed_now: Callable[[Action], bool]
) -> list[Action]:
    """The one-item trades with ``partner``: sell, buy or swap a raw card or a product.

    Listed with no money paid; :func:`price_range` gives the payments the partner may agree
    to. Raw cards of one kind are interchangeable, so each kind is listed once; at level 1,
    where a trade may move several cards, any such trade is a series of these.
    """
    mine, theirs = _first_of_each_kind(player.raw_cards), _first_of_each_kind(partner.raw_cards)
    # The verdict on a raw trade depends on how many cards go each way (the combine's room at
    # level 3), never on which held cards it names: one judgement per shape.
    listed = [
        action
        for shape in _raw_trade_shapes(partner.id, tuple(mine), tuple(theirs))
        if shape and allowed_now(shape[0])
        for action in shape
    ]
    if state.level in CHEMISTRY_LEVELS:
        own = _product_refs(state, player.id)
        others = _product_refs(state, partner.id)
        candidates: list[Action] = [
            *(_made(Trade, partner=partner.id, get_product=ref) for ref in others),
            *(
                _made(Trade, partner=partner.id, give_product=a, get_product=b)
                for a in own
                for b in others
            ),
            *(
                _made(Trade, partner=partner.id, give_product=ref, receive=(card,))
                for ref in own
                for card in theirs
            ),
            *(
                _made(Trade, partner=partner.id, give=(card,), get_product=ref)
                for ref in others
                for card in mine
            ),
        ]
        listed += [action for action in candidates if allowed_now(action)]
    return listed


def _raw_trade_shapes(
    partner: str, mine: tuple[str, ...], theirs: tuple[str, ...]
) -> tuple[list[Action], list[Action], list[Action]]:
    """The one-card sales, purchases and swaps with ``partner``, made once per pair of hands."""
    key = (_raw_trade_shapes, partner, mine, theirs)
    shapes: tuple[list[Action], list[Action], list[Action]] | None = _MADE.get(key)
    if shapes is None:
        sales: list[Action] = [_made(Trade, partner=partner, give=(card,)) for card in mine]
        purchases: list[Action] = [
            _made(Trade, partner=partner, receive=(card,)) for card in theirs
        ]
        swaps: list[Action] = [
            _made(Trade, partner=partner, give=(a,), receive=(b,))
            for a in mine
            for b in theirs
            if _kind_of(a) != _kind_of(b)
        ]
        shapes = _MADE[key] = (sales, purchases, swaps)
    return shapes


def _kind_of(card: str) -> str:
    return card.partition("#")[0]


def _first_of_each_kind(cards: tuple[str, ...]) -> list[str]:
    """The first card of each kind, in the order of ``cards``."""
    seen: dict[str, str] = {}
    for card in cards:
        seen.setdefault(card.partition("#")[0], card)
    return list(seen.values())


def _product_refs(state: GameState, player_id: str) -> list[ProductRef]:
    """A place of each product container on which the player has a token (one per container)."""
    return [
        _made(
            ProductRef,
            installation=installation.number,
            card=container.card,
            container=container.index,
        )
        for installation in state.installations
        for container in installation.containers
        if container.role == "product" and player_id in container.places
    ]


#: The refusal chains of the judges whose actions legal_actions lists most: asking them is the
#: judge's own answer for the current player's action, without the state it would build.
_GUARDS: dict[type, Callable[[GameState, Any, Catalog], Outcome | None]] = {
    BuyUpgrade: refuse_buy,
    SellRaw: refuse_sell,
    BuyRaw: refuse_warehouse,
    Trade: refuse_trade,
    EndTurn: refuse_end,
}

#: The consequences of those actions once allowed: what apply computes for a listed action.
_EFFECTS: dict[type, Callable[[GameState, Any, Catalog], Outcome]] = {
    Move: move_effect,
    BuyUpgrade: buy_effect,
    SellRaw: sell_effect,
    BuyRaw: warehouse_effect,
    Trade: trade_effect,
    EndTurn: end_effect,
}

_HANDLERS: dict[type, Callable[[GameState, Any, Catalog], Outcome]] = {
    Move: judge_move,
    ResolveFight: judge_fight,
    BuyUpgrade: judge_buy,
    SellRaw: judge_sell,
    BuyRaw: judge_warehouse,
    Trade: judge_trade,
    TakeRaw: judge_take,
    React: judge_react,
    FreeToken: judge_free,
    Claim: judge_claim,
    EndTurn: judge_end,
}
