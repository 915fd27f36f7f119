"""What a player can do at the table, as values — and their short text form for the CLI.

Each action is a frozen model with a ``kind``; JSON and the text form read into the same value.
Text form (the current player acts unless ``as PLAYER`` comes first)::

    move 3,4 [3,5]              move through one or two cells (x,y)
    fight [4:2 3:3] [take a#1 b#2] [retreat 2,3]   resolve the attack (rounds attacker:defender
                                 [,second defender roll with armour]; no rounds: the dice roll)
    buy solar-battery | buy armour
    sell hematite#2              a raw card to the Bank
    warehouse hematite#1         buy a raw card from the Warehouse
    take 2                       the top card of pile 2 (level 2)
    react 2 co2#1 water-ice#3    run installation 2 with these raw cards
    free 2:2А:1 bank 5 | free 2:2А:1 dump | free 2:2А:1 to blue 4
    trade blue give a#1 get b#2 pay 3
    claim M1 [co2#1 water-ice#2 …]
    end
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from mhp_cards.errors import ActionError

__all__ = [
    "Action",
    "ActionError",
    "BuyRaw",
    "BuyUpgrade",
    "Claim",
    "EndTurn",
    "FreeToken",
    "Move",
    "ProductRef",
    "React",
    "ResolveFight",
    "SellRaw",
    "TakeRaw",
    "Trade",
    "parse_action",
]


class _Action(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    player: str | None = None
    """Who acts; None means the player whose turn it is."""


class Move(_Action):
    """Move the combine through one or two cells, collecting raw cards (L1.T1–T3)."""

    kind: Literal["move"] = "move"
    path: tuple[tuple[int, int], ...]


class ResolveFight(_Action):
    """Resolve the pending attack (L1.T4, L1.T6): dice, the winner's take, the loser's retreat."""

    kind: Literal["fight"] = "fight"
    rounds: tuple[tuple[int, ...], ...] = ()
    """Each round: attacker's roll, then the defender's roll(s); empty: roll with the game's
    dice."""
    take: tuple[str, ...] | None = None
    """Raw cards the winner takes (at most 3); None: the first three."""
    retreat: tuple[int, int] | None = None
    """Cell the loser retreats to; None: the first free neighbour."""


class BuyUpgrade(_Action):
    """Buy a solar battery (L1.T3) or armour (L1.T6) for 4 мР."""

    kind: Literal["buy"] = "buy"
    upgrade: Literal["solar-battery", "armour"]


class SellRaw(_Action):
    """Sell a raw card to the Bank for 1 мР (L1.T8, L3.T3); it goes to the Warehouse."""

    kind: Literal["sell"] = "sell"
    card: str


class BuyRaw(_Action):
    """Buy a raw card from the Warehouse for 4 мР (L1.T9, L3.T4)."""

    kind: Literal["warehouse"] = "warehouse"
    card: str


class TakeRaw(_Action):
    """Take the top card of a pile (L2.T1; head to head V1.3)."""

    kind: Literal["take"] = "take"
    pile: Annotated[int, Field(ge=1, le=3)]


class React(_Action):
    """Run one reaction on an installation with raw cards from the hand (L2.T4)."""

    kind: Literal["react"] = "react"
    installation: int
    cards: tuple[str, ...]


class ProductRef(BaseModel):
    """A product place: installation number, card ID, container index on the card."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    installation: int
    card: str
    container: int


class FreeToken(_Action):
    """Free one chemist token by selling or dumping the substance under it (L2.T5, L3.T3)."""

    kind: Literal["free"] = "free"
    product: ProductRef
    how: Literal["sell-player", "sell-bank", "dump"]
    partner: str | None = None
    price: Annotated[int, Field(ge=0)] = 0


class Trade(_Action):
    """Exchange or sell raw cards with another player (L1.T7, L2.T2)."""

    kind: Literal["trade"] = "trade"
    partner: str
    give: tuple[str, ...] = ()
    receive: tuple[str, ...] = ()
    pay: int = 0
    """Money the acting player pays the partner (negative: receives)."""


class Claim(_Action):
    """Claim a mission at level 1 with raw cards held (L1.E1); no cards: the referee finds them."""

    kind: Literal["claim"] = "claim"
    mission: str
    cards: tuple[str, ...] = ()


class EndTurn(_Action):
    """End the turn."""

    kind: Literal["end"] = "end"


Action = Annotated[
    Move
    | ResolveFight
    | BuyUpgrade
    | SellRaw
    | BuyRaw
    | TakeRaw
    | React
    | FreeToken
    | Trade
    | Claim
    | EndTurn,
    Field(discriminator="kind"),
]
_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def action_from_json(data: object) -> Action:
    """An action from its JSON form (a mapping with ``kind``)."""
    return _ADAPTER.validate_python(data)


_CELL = re.compile(r"^(-?\d+),(-?\d+)$")


def _cell(token: str, text: str) -> tuple[int, int]:
    match = _CELL.match(token)
    if not match:
        raise ActionError(f"{token!r} in {text!r} is not a cell; write x,y such as 3,4")
    return int(match.group(1)), int(match.group(2))


def _product(token: str, text: str) -> ProductRef:
    parts = token.split(":")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[2].isdigit():
        raise ActionError(
            f"{token!r} in {text!r} is not a product place; write INSTALLATION:CARD:CONTAINER, "
            "e.g. 2:2А:1"
        )
    return ProductRef(installation=int(parts[0]), card=parts[1], container=int(parts[2]))


def parse_action(text: str) -> Action:
    """Read the text form of an action (see the module documentation)."""
    words = text.split()
    player: str | None = None
    if len(words) >= 2 and words[0] == "as":
        player, words = words[1], words[2:]
    if not words:
        raise ActionError("empty action; write e.g. 'move 3,4' or 'end'")
    verb, rest = words[0].lower(), words[1:]
    try:
        return _parse(verb, rest, text, player)
    except (IndexError, ValueError) as error:
        if isinstance(error, ActionError):
            raise
        raise ActionError(f"cannot read {text!r}: {error}") from None


_ARITY = {"buy": 1, "sell": 1, "warehouse": 1, "take": 1, "end": 0}


def _parse(verb: str, rest: list[str], text: str, player: str | None) -> Action:
    if verb in _ARITY and len(rest) != _ARITY[verb]:
        wanted = _ARITY[verb]
        raise ActionError(
            f"cannot read {text!r}: '{verb}' takes {wanted} word{'s' if wanted != 1 else ''} "
            f"after it, not {len(rest)}"
        )
    if verb == "move":
        return Move(player=player, path=tuple(_cell(t, text) for t in rest))
    if verb == "fight":
        rounds: list[tuple[int, ...]] = []
        take: tuple[str, ...] | None = None
        retreat = None
        index = 0
        while index < len(rest):
            word = rest[index]
            if word == "take":
                take_list = []
                index += 1
                while index < len(rest) and rest[index] not in ("retreat",):
                    take_list.append(rest[index])
                    index += 1
                take = tuple(take_list)
                continue
            if word == "retreat":
                retreat = _cell(rest[index + 1], text)
                index += 2
                continue
            rounds.append(tuple(int(v) for v in re.split("[:,]", word)))
            index += 1
        return ResolveFight(player=player, rounds=tuple(rounds), take=take, retreat=retreat)
    if verb == "buy":
        if rest[0] not in ("solar-battery", "armour"):
            raise ActionError(f"{text!r}: buy solar-battery | buy armour")
        return BuyUpgrade(player=player, upgrade=rest[0])
    if verb == "sell":
        return SellRaw(player=player, card=rest[0])
    if verb == "warehouse":
        return BuyRaw(player=player, card=rest[0])
    if verb == "take":
        return TakeRaw(player=player, pile=int(rest[0]))
    if verb == "react":
        return React(player=player, installation=int(rest[0]), cards=tuple(rest[1:]))
    if verb == "free":
        product = _product(rest[0], text)
        if rest[1] == "bank":
            return FreeToken(player=player, product=product, how="sell-bank", price=int(rest[2]))
        if rest[1] == "dump":
            return FreeToken(player=player, product=product, how="dump")
        if rest[1] == "to":
            return FreeToken(
                player=player,
                product=product,
                how="sell-player",
                partner=rest[2],
                price=int(rest[3]),
            )
        raise ActionError(f"{text!r}: free … bank PRICE | dump | to PLAYER PRICE")
    if verb == "trade":
        partner = rest[0]
        give: list[str] = []
        receive: list[str] = []
        pay = 0
        mode = ""
        for word in rest[1:]:
            if word in ("give", "get", "pay"):
                mode = word
            elif mode == "give":
                give.append(word)
            elif mode == "get":
                receive.append(word)
            elif mode == "pay":
                pay = int(word)
        return Trade(
            player=player, partner=partner, give=tuple(give), receive=tuple(receive), pay=pay
        )
    if verb == "claim":
        return Claim(player=player, mission=rest[0], cards=tuple(rest[1:]))
    if verb == "end":
        return EndTurn(player=player)
    raise ActionError(
        f"unknown action {verb!r}; one of move, fight, buy, sell, warehouse, take, react, free, "
        "trade, claim, end"
    )
