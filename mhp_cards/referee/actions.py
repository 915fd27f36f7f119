"""What a player can do at the table, as values — and their short text form for the CLI.

Each action is a frozen model with a ``kind``; JSON and the text form read into the same value.
Text form (the current player acts unless ``as PLAYER`` comes first)::

    move 3,4 [3,5]              move through one or two cells (x,y)
    fight [4:2 3:3]              the dice of the attack (rounds attacker:defender [,second
                                 defender roll with armour]; no rounds: the game's dice roll)
    as blue spoils a#1 b#2       the winner takes up to three of the loser's cards (none: none)
    as red retreat 2,3           the loser retreats to a free neighbouring cell (none: stays)
    buy solar-battery | buy armour
    sell hematite#2              a raw card to the Bank
    warehouse hematite#1         buy a raw card from the Warehouse
    take 2                       the top card of pile 2 (level 2)
    keep 5                       head to head: keep installation 5, the others dealt leave
    pick water-ice#3             head to head: the card drawn to keep, the other to the bottom
    react 2 co2#1 water-ice#3    run installation 2 with these raw cards
    free 2:2А:1 bank 5 | free 2:2А:1 dump | free 2:2А:1 to blue 4
    trade blue give a#1 get b#2 pay 3   [for M3: the mission the product obtained goes to]
    claim M1 [co2#1 water-ice#2 …]
    end
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from mhp_cards.catalog.cardid import read_card_id
from mhp_cards.errors import ActionError, CardIdError
from mhp_cards.rules.numbers import PILES_L2
from mhp_cards.wording import model_error_text

__all__ = [
    "FIGHT_ACTIONS",
    "Action",
    "ActionError",
    "BuyRaw",
    "BuyUpgrade",
    "Claim",
    "EndTurn",
    "FreeToken",
    "KeepInstallation",
    "Move",
    "PickDrawn",
    "ProductRef",
    "React",
    "ResolveFight",
    "Retreat",
    "SellRaw",
    "TakeRaw",
    "TakeSpoils",
    "Trade",
    "format_action",
    "parse_action",
    "parse_action_json",
    "partner_of",
    "shown_to_partner",
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
    """Roll the dice of the pending attack (L1.T4, L1.T6): they name the winner and the loser.

    Either fighter enters them. The winner then chooses the spoils (:class:`TakeSpoils`) and
    the loser the retreat (:class:`Retreat`), in that order (Ruling L1.T4.R4).
    """

    kind: Literal["fight"] = "fight"
    rounds: tuple[tuple[int, ...], ...] = ()
    """Each round: attacker's roll, then the defender's roll(s); empty: roll with the game's
    dice."""


class TakeSpoils(_Action):
    """The winner of a fight takes up to three of the loser's raw cards (L1.T4, L1.T4.R1)."""

    kind: Literal["spoils"] = "spoils"
    cards: tuple[str, ...] = ()
    """The cards taken (at most 3, as many as the winner's combine holds at level 3); none:
    the winner takes nothing."""


class Retreat(_Action):
    """The loser of a fight retreats to a free neighbouring cell (L1.T4, L1.T4.R1)."""

    kind: Literal["retreat"] = "retreat"
    cell: tuple[int, int] | None = None
    """The cell; None: the loser stays, which only a loser with no free neighbour may."""


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
    pile: Annotated[int, Field(ge=1, le=PILES_L2)]


class KeepInstallation(_Action):
    """Head to head: keep one of the installations dealt; the others leave (Ruling V1.2-choose)."""

    kind: Literal["keep"] = "keep"
    installation: Annotated[int, Field(ge=1)]


class PickDrawn(_Action):
    """Head to head: the drawn card to keep; the other goes under its pile (V1.3-draw-two)."""

    kind: Literal["pick"] = "pick"
    card: str


class React(_Action):
    """Run one reaction on an installation with raw cards from the hand (L2.T4)."""

    kind: Literal["react"] = "react"
    installation: int
    cards: tuple[str, ...]
    missions: tuple[str, ...] = ()
    """The mission whose place each product for the Mission card takes, in the order of the
    installation's product containers (Ruling L2.M1-choice); empty: the first with a free
    place, in the card's order."""


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
    """A trade with another player: raw cards or products, and money (L1.T7, L2.T2, L2.T3).

    At level 1 raw cards change hands; at levels 2 and 3 one item each way at most, a raw
    card or a product (Ruling L2.T2-one-trade): buying a product from the partner is
    ``get_product``, a swap names one item each way.
    """

    kind: Literal["trade"] = "trade"
    partner: str
    give: tuple[str, ...] = ()
    receive: tuple[str, ...] = ()
    pay: int = 0
    """Money the acting player pays the partner (negative: receives)."""
    give_product: ProductRef | None = None
    """A product of the acting player's (their token) that goes to the partner."""
    get_product: ProductRef | None = None
    """A product of the partner's that goes to the acting player."""
    mission: str | None = None
    """The mission whose free place the product the acting player obtains takes (Rulings
    L2.M1-obtained, L2.M1-choice); None: the first mission with a free place for it."""


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
    | TakeSpoils
    | Retreat
    | BuyUpgrade
    | SellRaw
    | BuyRaw
    | TakeRaw
    | KeepInstallation
    | PickDrawn
    | React
    | FreeToken
    | Trade
    | Claim
    | EndTurn,
    Field(discriminator="kind"),
]
_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)

#: The actions that settle a pending fight, in their order: dice, spoils, retreat.
FIGHT_ACTIONS: Final = (ResolveFight, TakeSpoils, Retreat)


def partner_of(action: Action) -> str | None:
    """The other player who must agree to the action (Ruling "Trades at the table"); else None.

    A trade, and the sale of a product to another player (L2.T5), change that player's
    holdings too.
    """
    if isinstance(action, Trade):
        return action.partner
    if isinstance(action, FreeToken) and action.how == "sell-player":
        return action.partner
    return None


def shown_to_partner(action: Action) -> tuple[str, ...]:
    """The raw cards an offer shows its partner face up (Ruling "Trades at the table").

    A trade is agreed by both players, and nobody agrees to take a card they have not seen: the
    raw cards the acting player gives are shown to the partner while the offer waits.
    """
    if isinstance(action, Trade):
        return action.give
    return ()


def action_from_json(data: object) -> Action:
    """An action from its JSON form (a mapping with ``kind``).

    The ``text`` that ``mhp referee legal --json`` adds to each action (its text form) is
    accepted and ignored, so a listed action can be given back as it was printed.
    """
    if isinstance(data, dict) and "text" in data:
        data = {key: value for key, value in data.items() if key != "text"}
    return _ADAPTER.validate_python(data)


def parse_action_json(text: str) -> Action:
    """An action from the text of its JSON form; :class:`ActionError` saying where it is wrong.

    The message names the field at fault (``take.pile``) and what it must be, never the
    validator's own report.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ActionError(f"not an action: not JSON: {error.msg}", text, error.pos) from None
    try:
        return action_from_json(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(step) for step in first["loc"][1:] or first["loc"])
        kinds = ", ".join(USAGE)
        what = (
            f"'kind' must be one of {kinds}"
            if first["type"] in ("union_tag_invalid", "union_tag_not_found")
            else f"{where}: {model_error_text(first)}"
        )
        raise ActionError(f"not an action: {what}", text, 0) from None


_CELL = re.compile(r"^(-?\d+),(-?\d+)$")

#: The text form of each verb, with an example, for the messages of :class:`ActionError`.
USAGE: dict[str, tuple[str, str]] = {
    "move": ("move X,Y [X,Y]", "move 3,4"),
    "fight": ("fight [A:D …]", "fight 6:2"),
    "spoils": ("spoils [CARD …] (at most three; none: take nothing)", "spoils hematite#1"),
    "retreat": ("retreat [X,Y] (none: stay, with no free cell)", "retreat 2,3"),
    "buy": ("buy solar-battery | buy armour", "buy armour"),
    "sell": ("sell CARD", "sell hematite#2"),
    "warehouse": ("warehouse CARD", "warehouse hematite#1"),
    "take": ("take PILE (1 to 3)", "take 2"),
    "keep": ("keep INSTALLATION (head to head, first turn)", "keep 5"),
    "pick": ("pick CARD (head to head, one of the two drawn)", "pick water-ice#3"),
    "react": (
        "react INSTALLATION CARD … [for MISSION …]",
        "react 2 carbon-dioxide#1 water-ice#3 for M1",
    ),
    "free": (
        "free INSTALLATION:CARD:CONTAINER bank PRICE | dump | to PLAYER PRICE",
        "free 2:2А:1 bank 5",
    ),
    "trade": (
        "trade PLAYER [give CARD|PRODUCT …] [get CARD|PRODUCT …] [pay MONEY] [for MISSION]",
        "trade blue give hematite#1 get 2:2А:1 pay 2",
    ),
    "claim": ("claim MISSION [CARD …]", "claim M1"),
    "end": ("end", "end"),
}


class _Words:
    """The words of an action's text with their columns, for located errors."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.items = [(m.group(), m.start()) for m in re.finditer(r"\S+", text)]

    def __len__(self) -> int:
        return len(self.items)

    def word(self, index: int) -> str:
        return self.items[index][0]

    def error(self, index: int, verb: str, what: str) -> ActionError:
        """An error at word ``index`` (the end of the text when there is no such word)."""
        position = self.items[index][1] if index < len(self.items) else len(self.text)
        usage, example = USAGE.get(verb, ("", ""))
        form = f"; write {usage}, e.g. {example!r}" if usage else ""
        return ActionError(f"cannot read {self.text!r}: {what}{form}", self.text, position)

    def need(self, index: int, verb: str, what: str) -> str:
        if index >= len(self.items):
            raise self.error(index, verb, f"{what} is missing")
        return self.word(index)

    def integer(
        self, index: int, verb: str, what: str, low: int | None = None, high: int | None = None
    ) -> int:
        token = self.need(index, verb, what)
        if not re.fullmatch(r"-?\d{1,9}", token):
            raise self.error(index, verb, f"{what} is a whole number, not {token!r}")
        value = int(token)
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise self.error(index, verb, f"{what} is {bounds}, not {value}")
        return value

    def cell(self, index: int, verb: str) -> tuple[int, int]:
        token = self.need(index, verb, "a cell")
        match = _CELL.match(token)
        if not match:
            position = self.items[index][1]
            raise ActionError(
                f"{token!r} in {self.text!r} is not a cell; write x,y such as 3,4",
                self.text,
                position,
            )
        return int(match.group(1)), int(match.group(2))

    def product(self, index: int, verb: str) -> ProductRef:
        token = self.need(index, verb, "a product place")
        parts = token.split(":")
        if len(parts) != 3 or not parts[0].isdigit() or not parts[2].isdigit():
            raise ActionError(
                f"{token!r} in {self.text!r} is not a product place; write "
                "INSTALLATION:CARD:CONTAINER, e.g. 2:2А:1",
                self.text,
                self.items[index][1],
            )
        try:
            card = read_card_id(parts[1]).text  # a Latin A reads as the Cyrillic А
        except CardIdError as error:
            raise ActionError(
                f"{parts[1]!r} in {self.text!r} is not a card ID: {error}",
                self.text,
                self.items[index][1] + len(parts[0]) + 1,
            ) from None
        return ProductRef(installation=int(parts[0]), card=card, container=int(parts[2]))

    def done(self, index: int, verb: str) -> None:
        if index < len(self.items):
            count = len(self.items) - index
            raise self.error(index, verb, f"'{verb}' is complete; {count} more word(s) after it")


def parse_action(text: str) -> Action:
    """Read the text form of an action (see the module documentation).

    A mistake raises :class:`ActionError`, a :class:`~mhp_cards.errors.TextError` that names
    the word at fault, the form the verb expects and an example.
    """
    words = _Words(text)
    player: str | None = None
    first = 0
    if len(words) >= 2 and words.word(0) == "as":
        player, first = words.word(1), 2
    if len(words) <= first:
        raise ActionError("empty action; write e.g. 'move 3,4' or 'end'", text, len(text))
    verb = words.word(first).lower()
    if verb not in USAGE:
        raise ActionError(
            f"unknown action {verb!r}; one of {', '.join(USAGE)}", text, words.items[first][1]
        )
    return _parse(verb, words, first + 1, player)


def _parse(verb: str, words: _Words, at: int, player: str | None) -> Action:
    if verb == "move":
        path = tuple(words.cell(i, verb) for i in range(at, len(words)))
        if not path:
            raise words.error(at, verb, "the cells of the move are missing")
        return Move(player=player, path=path)
    if verb == "fight":
        return _fight(words, at, player)
    if verb == "spoils":
        return TakeSpoils(player=player, cards=tuple(words.word(i) for i in range(at, len(words))))
    if verb == "retreat":
        cell = words.cell(at, verb) if at < len(words) else None
        words.done(at + 1 if cell is not None else at, verb)
        return Retreat(player=player, cell=cell)
    if verb == "buy":
        upgrade = words.need(at, verb, "the upgrade")
        if upgrade not in ("solar-battery", "armour"):
            raise ActionError(
                f"{words.text!r}: buy solar-battery | buy armour", words.text, words.items[at][1]
            )
        words.done(at + 1, verb)
        return BuyUpgrade(player=player, upgrade=upgrade)
    if verb in ("sell", "warehouse"):
        card = words.need(at, verb, "the card")
        words.done(at + 1, verb)
        return (
            SellRaw(player=player, card=card)
            if verb == "sell"
            else BuyRaw(player=player, card=card)
        )
    if verb == "take":
        pile = words.integer(at, verb, "the pile", 1, PILES_L2)
        words.done(at + 1, verb)
        return TakeRaw(player=player, pile=pile)
    if verb == "pick":
        card = words.need(at, verb, "the card")
        words.done(at + 1, verb)
        return PickDrawn(player=player, card=card)
    if verb == "keep":
        number = words.integer(at, verb, "the installation number", 1)
        words.done(at + 1, verb)
        return KeepInstallation(player=player, installation=number)
    if verb == "react":
        number = words.integer(at, verb, "the installation number", 1)
        rest = [words.word(i) for i in range(at + 1, len(words))]
        cut = rest.index("for") if "for" in rest else len(rest)
        if cut < len(rest) and cut == len(rest) - 1:
            raise words.error(len(words), verb, "the missions after 'for' are missing")
        return React(
            player=player,
            installation=number,
            cards=tuple(rest[:cut]),
            missions=tuple(rest[cut + 1 :]),
        )
    if verb == "free":
        return _free(words, at, player)
    if verb == "trade":
        return _trade(words, at, player)
    if verb == "claim":
        mission = words.need(at, verb, "the mission")
        cards = tuple(words.word(i) for i in range(at + 1, len(words)))
        return Claim(player=player, mission=mission, cards=cards)
    words.done(at, verb)
    return EndTurn(player=player)


def _fight(words: _Words, at: int, player: str | None) -> ResolveFight:
    verb = "fight"
    rounds: list[tuple[int, ...]] = []
    for index in range(at, len(words)):
        word = words.word(index)
        if word in ("take", "retreat"):
            # The old one-action fight: the choices come after the dice now (L1.T4.R4).
            raise words.error(
                index,
                verb,
                "the spoils and the retreat are chosen after the dice: 'spoils CARD …' by the "
                "winner, then 'retreat X,Y' by the loser",
            )
        values = re.split("[:,]", word)
        if not all(re.fullmatch(r"\d{1,2}", value) for value in values):
            raise words.error(index, verb, f"{word!r} is not a round of dice such as 6:2")
        rounds.append(tuple(int(value) for value in values))
    return ResolveFight(player=player, rounds=tuple(rounds))


def _free(words: _Words, at: int, player: str | None) -> FreeToken:
    verb = "free"
    product = words.product(at, verb)
    how = words.need(at + 1, verb, "how to free it (bank, dump or to)")
    if how == "bank":
        price = words.integer(at + 2, verb, "the price", 0)
        words.done(at + 3, verb)
        return FreeToken(player=player, product=product, how="sell-bank", price=price)
    if how == "dump":
        words.done(at + 2, verb)
        return FreeToken(player=player, product=product, how="dump")
    if how == "to":
        partner = words.need(at + 2, verb, "the buyer")
        price = words.integer(at + 3, verb, "the price", 0)
        words.done(at + 4, verb)
        return FreeToken(
            player=player, product=product, how="sell-player", partner=partner, price=price
        )
    raise ActionError(
        f"{words.text!r}: free … bank PRICE | dump | to PLAYER PRICE",
        words.text,
        words.items[at + 1][1],
    )


def _trade(words: _Words, at: int, player: str | None) -> Trade:
    verb = "trade"
    partner = words.need(at, verb, "the partner")
    give: list[str] = []
    receive: list[str] = []
    products: dict[str, ProductRef] = {}
    pay = 0
    mission: str | None = None
    mode = ""
    for index in range(at + 1, len(words)):
        word = words.word(index)
        if word in ("give", "get", "pay", "for"):
            mode = word
        elif mode in ("give", "get") and ":" in word:
            if mode in products:
                raise words.error(index, verb, f"one product to {mode} at most, not two")
            products[mode] = words.product(index, verb)
        elif mode == "give":
            give.append(word)
        elif mode == "get":
            receive.append(word)
        elif mode == "pay":
            pay = words.integer(index, verb, "the money paid")
        elif mode == "for":
            if mission is not None:
                raise words.error(index, verb, f"one mission after 'for', not {mission} and {word}")
            mission = word
        else:
            raise words.error(index, verb, f"{word!r}: say give, get, pay or for first")
    return Trade(
        player=player,
        partner=partner,
        give=tuple(give),
        receive=tuple(receive),
        pay=pay,
        give_product=products.get("give"),
        get_product=products.get("get"),
        mission=mission,
    )


def _places(ref: ProductRef | None) -> list[str]:
    return [] if ref is None else [f"{ref.installation}:{ref.card}:{ref.container}"]


def format_action(action: Action) -> str:
    """The text form of ``action``, as a player types it (:func:`parse_action` reads it back).

    >>> format_action(parse_action("move 3,4 3,5"))
    'move 3,4 3,5'
    """
    prefix = f"as {action.player} " if action.player else ""
    return prefix + _body(action)


def _body(action: Action) -> str:
    if isinstance(action, Move):
        return "move " + " ".join(f"{x},{y}" for x, y in action.path)
    if isinstance(action, ResolveFight):
        return " ".join(["fight", *(":".join(map(str, r)) for r in action.rounds)])
    if isinstance(action, TakeSpoils):
        return " ".join(["spoils", *action.cards])
    if isinstance(action, Retreat):
        return "retreat" if action.cell is None else f"retreat {action.cell[0]},{action.cell[1]}"
    if isinstance(action, BuyUpgrade):
        return f"buy {action.upgrade}"
    if isinstance(action, SellRaw):
        return f"sell {action.card}"
    if isinstance(action, BuyRaw):
        return f"warehouse {action.card}"
    if isinstance(action, TakeRaw):
        return f"take {action.pile}"
    if isinstance(action, KeepInstallation):
        return f"keep {action.installation}"
    if isinstance(action, PickDrawn):
        return f"pick {action.card}"
    if isinstance(action, React):
        chosen = ["for", *action.missions] if action.missions else []
        return " ".join(["react", str(action.installation), *action.cards, *chosen])
    if isinstance(action, FreeToken):
        [place] = _places(action.product)
        if action.how == "sell-bank":
            return f"free {place} bank {action.price}"
        if action.how == "dump":
            return f"free {place} dump"
        return f"free {place} to {action.partner} {action.price}"
    if isinstance(action, Trade):
        parts = ["trade", action.partner]
        if action.give or action.give_product:
            parts += ["give", *action.give, *_places(action.give_product)]
        if action.receive or action.get_product:
            parts += ["get", *action.receive, *_places(action.get_product)]
        if action.pay:
            parts += ["pay", str(action.pay)]
        if action.mission is not None:
            parts += ["for", action.mission]
        return " ".join(parts)
    if isinstance(action, Claim):
        return " ".join(["claim", action.mission, *action.cards])
    return "end"
