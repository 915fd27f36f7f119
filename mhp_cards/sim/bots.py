"""Bots: policies that choose one of the legal actions, seeing only their player's view.

A policy is given the player's view (:func:`mhp_cards.game.view`: every card the player cannot
see is a ``hidden#N`` placeholder), the actions the referee lists for the full state, and the
game's seeded random generator. It never sees the full state: the simulator lists the actions
on the full state (the referee needs the real dice of a fight) and hands the bot only the view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, Protocol, runtime_checkable

from mhp_cards.catalog.models import Catalog, Mission, formula_of
from mhp_cards.chem.formula import Formula
from mhp_cards.game.state import GameState, Player
from mhp_cards.referee.actions import (
    Action,
    BuyRaw,
    BuyUpgrade,
    KeepInstallation,
    Move,
    SellRaw,
    TakeSpoils,
    Trade,
)
from mhp_cards.referee.legal import listed_by_kind
from mhp_cards.referee.mission import closest_below
from mhp_cards.referee.table import card_formula
from mhp_cards.rules.numbers import (
    COMBINE_CAPACITY,
    UPGRADE_PRICE,
    WAREHOUSE_PRICE,
)
from mhp_cards.sim.chemistry_play import ChemistryPlay, best_reaction
from mhp_cards.sim.economy import FieldEconomy, keep_the_round_alive, offer_on_bare_field
from mhp_cards.sim.fights import best_attack, kind_of, threatened, useful_share
from mhp_cards.sim.holdings import (
    all_inputs,
    game_worth,
    gap_of,
    inputs_held,
    is_card_sale,
    needed,
    open_to,
    shared_holdings,
    tokens_needed,
)
from mhp_cards.sim.reach import (
    best_move,
    best_moves,
    can_collect,
    others_can_progress,
    progressed,
    raw_cells,
)

__all__ = [
    "ARMOUR_STAKE",
    "GreedyBot",
    "Partner",
    "Policy",
    "RandomBot",
    "Trader",
    "actions_by_kind",
    "keep_best",
    "mission_elements",
]

#: Hands whose closest mission is remembered per catalog before the memory starts afresh.
_REMEMBERED: Final = 50_000
#: Armour is bought when at least this many cards held serve the plan (and a combine is near).
ARMOUR_STAKE: Final = 2


class Policy(Protocol):
    """Something that chooses an action from a player's view."""

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        """One of ``legal`` (never empty), decided from ``view`` and ``rng`` only."""
        ...


@runtime_checkable
class Partner(Protocol):
    """A policy that answers the offers other players make to it (Ruling "Trades at the table").

    The simulator asks the partner of every trade and every sale to another player before it
    is made; a policy without ``accepts`` agrees to everything.
    """

    def accepts(self, view: GameState, offer: Action, rng: random.Random) -> bool:
        """Whether the player whose view this is agrees to ``offer``, made by the current player."""
        ...


@runtime_checkable
class Trader(Protocol):
    """A policy that says when it may propose a trade, so the others need not be listed.

    The simulator lists the trades with other players only where ``proposes_trades`` is true
    (or nothing else is allowed); a policy without it is handed every action.
    """

    def proposes_trades(self, view: GameState) -> bool:
        """Whether this policy may choose a trade with another player from ``view``."""
        ...


class RandomBot:
    """Uniform over the kinds of action listed, then uniform among the actions of that kind.

    Plain uniform choice over the actions would mostly trade: the referee lists a one-item
    trade with every partner for every card, so trades outnumber everything else many times
    over, and a game of such choices hardly moves. Choosing the kind first gives a move, a
    reaction or the end of the turn a fair chance.
    """

    name: Final = "random"

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        """A uniform kind, then a uniform action of that kind."""
        by_kind = actions_by_kind(legal)
        kind = rng.choice(list(by_kind))
        return rng.choice(by_kind[kind])


class GreedyBot(FieldEconomy, ChemistryPlay):
    """What a sensible human does, cheaply, one look ahead at most.

    Level 1: claim a mission as soon as the referee lists the claim; buy from the Warehouse a
    card that serves the closest reachable mission; move so as to collect the most raw cards
    (whose faces are hidden until collected); attack a neighbour when the cards it expects to
    win that serve its mission outweigh those it risks and the cards the move forgoes
    (:mod:`mhp_cards.sim.fights`); buy armour when a combine could attack next turn and two
    cards that serve are held (before a Warehouse card when three are); make no offer to
    other players; end the turn.

    Head to head, first turn: keep the installation dealt that promises most over the game
    (:func:`keep_best`, Ruling V1.2-choose); of the two cards drawn (V1.3-draw-two), pick the
    one that brings the installation nearest to running, weighed as a pile card is.

    Levels 2, head to head and 3: run a reaction whenever one is listed, the one that puts
    the most products on the Mission card, each on the mission closest to completion (Ruling
    L2.M1-choice) — at levels 2 and head to head first the one whose products are worth the
    most, those placed on the Mission card counted double. Before that, free a token: at
    level 3 always, by selling to the Bank a product worth keeping for no reaction (one no
    raw card could replace; the sale scores what the product would); at levels 2 and head
    to head only when a run whose inputs are held waits for tokens or for a place, by the
    sale or dump that costs the score least, and only when that costs less than the run
    brings (eight tokens, one freed a turn, are what runs short there, not cards). Take the
    pile card that brings an installation nearest to running, weighed by what its run
    brings for each token (else any: the piles must run out for the game to end).

    Level 3 adds the field: buy the solar battery first; work towards the Warehouse card
    that lets an installation run (missions first; one with the free tokens for its
    products), selling cards that installation does not take to afford it; sell to the
    Bank every raw card no installation takes (a card in hand scores nothing) and, with a
    full combine, any; buy from the Warehouse a card an installation takes, keeping the
    last 4 мР; head for the Base when the cards held and the free tokens can run a shared
    installation there, else for the nearest raw card, collecting on the way. A round with
    no progress ends the game (Ruling L3.E1-no-progress), so a Warehouse purchase waits for
    a turn with no other progress (a collection or a reaction) unless 8 мР are held; a
    move gives way to another when it would leave a quiet round to players who cannot
    collect or buy (the mover too, from where it ends, when the turn progresses and so
    starts a new round of turns); and when nobody after it in the round could progress,
    the bot collects, or else walks on towards the Base or buys a Warehouse card (one an
    installation lacks), selling cards to afford it (one held beyond what the installations
    nearest running take). Once the field is bare, only a mission ends the game: a player
    short of the Warehouse price with nothing to run offers its cards to the players after
    it for what the Bank pays. Attacks and armour as at level 1, the plan being the
    installations' inputs and armour keeping the last 4 мР. In a fight it enters the first
    dice listed; as the winner it takes as many cards as it may, those that serve first; as the
    loser it retreats to the first cell listed.

    Offers made to it (:meth:`accepts`): it agrees only to raw cards that let one of its
    installations run at once, for less than the Warehouse would charge.
    """

    name: Final = "greedy"

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._targets: dict[str, Counter[str]] = {
            mission.id: mission_elements(mission) for mission in catalog.missions
        }
        self._raw_formulas = {kind.parsed for kind in catalog.raw_materials}
        # Raw kinds with an element no mission has: at level 1 they serve nothing.
        self._off_mission = frozenset(
            raw.id
            for raw in catalog.raw_materials
            if not any(set(raw.parsed.elements) <= set(t) for t in self._targets.values())
        )

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        """The greedy choice (see the class)."""
        by_kind = actions_by_kind(legal)
        if "fight" in by_kind:
            return by_kind["fight"][0]
        if "spoils" in by_kind:
            return self._spoils(view, by_kind["spoils"])
        if "retreat" in by_kind:
            return by_kind["retreat"][0]
        if "claim" in by_kind:
            return by_kind["claim"][0]
        if "keep" in by_kind:
            return keep_best(view, self.catalog, by_kind["keep"])
        if "pick" in by_kind:
            return self._pick(view, view.current, by_kind["pick"], rng)
        me = view.current
        if "free" in by_kind:
            sale = self._token_to_free(view, me, by_kind["free"], by_kind.get("react", []))
            if sale is not None:
                return sale
        if "react" in by_kind:
            price = None if view.level == "3" else self._price
            return best_reaction(view, by_kind["react"], rng, price)
        if "take" in by_kind:
            return self._take(view, me, by_kind["take"], rng)
        if view.level == "1" and "sell" in by_kind:
            # At level 1 a card and a coin score alike (L1.E3): a card that serves no
            # mission is sold, and its coin goes towards a Warehouse card that does.
            sale = self._no_mission_sale(by_kind["sell"])
            if sale is not None:
                return sale
        on_the_field = view.level == "3"
        # Level 3 ends after a whole round without progress (Ruling L3.E1-no-progress): a
        # player who has not progressed this turn, and whom nobody after them in the round
        # could rescue, collects or buys if they can, whatever else they meant.
        last_chance = on_the_field and not progressed(view) and not others_can_progress(view)
        if last_chance and not can_collect(view, by_kind.get("move", [])):
            sale = self._rescue_sale(view, me, by_kind.get("sell", []))
            if sale is not None:
                return sale
        if on_the_field and "buy" in by_kind and me.combine and not me.combine.solar_battery:
            battery = [a for a in by_kind["buy"] if isinstance(a, BuyUpgrade)]
            battery = [a for a in battery if a.upgrade == "solar-battery"]
            if battery:
                return battery[0]
        if on_the_field:
            step = self._warehouse_step(view, me, by_kind)
            if step is not None:
                return step
        if on_the_field and "sell" in by_kind:
            # A raw card in hand scores nothing at the end (L3.P1): one no installation takes
            # is worth its 1 мР from the Bank at once; a full combine sells one of the others.
            sale = self._useless_sale(view, by_kind["sell"])
            if sale is None and len(me.raw_cards) >= COMBINE_CAPACITY:
                sale = self._spare_sale(view, me, by_kind["sell"]) or rng.choice(by_kind["sell"])
            if sale is not None:
                return sale
        if "buy" in by_kind and view.field is not None:
            # Three cards that serve, a combine next door: armour before another card.
            armour = self._armour(view, me, by_kind["buy"], stake=ARMOUR_STAKE + 1)
            if armour is not None:
                return armour
        if "warehouse" in by_kind:
            useful = self._useful_purchases(view, me, by_kind["warehouse"])
            if useful:
                return useful[0]
            if last_chance and not can_collect(view, by_kind.get("move", [])):
                return self._rescue_purchase(view, me, by_kind["warehouse"])
        if "trade" in by_kind and self.proposes_trades(view) and not self._can_run_shared(view, me):
            # The field is bare, the Warehouse out of reach and nothing to run at the Base: a
            # card this player cannot use may let another player run an installation, and only
            # a mission can end the game now (L3.E1). The partner agrees or refuses (accepts).
            offer = offer_on_bare_field(view, by_kind["trade"])
            if offer is not None:
                return offer
        if "buy" in by_kind and view.field is not None:
            armour = self._armour(view, me, by_kind["buy"])
            if armour is not None:
                return armour
        # The best peaceful moves, worked out once a turn for the attack and the walk.
        calm: list[Move] = []
        if "move" in by_kind and view.field is not None and not last_chance:
            calm = best_moves(view, by_kind["move"])
            attack = self._attack(view, me, by_kind["move"], calm, rng)
            if attack is not None:
                return attack
        if "move" in by_kind:
            # The round's last chance is a collection, if any; else the walk goes on.
            collect_now = last_chance and can_collect(view, by_kind["move"])
            goal = None if collect_now else self._goal(view, me)
            peaceful = "end" in by_kind
            move: Action | None
            if calm and goal is None:
                move = rng.choice(calm)  # what best_move would draw from: the same moves
            else:
                move = best_move(view, by_kind["move"], rng, peaceful=peaceful, goal=goal)
            if on_the_field and isinstance(move, Move):
                move = keep_the_round_alive(view, by_kind["move"], move, goal, rng, peaceful)
            if move is not None:
                return move
        if "end" in by_kind:
            return by_kind["end"][0]
        # Nothing greedy to do and the turn cannot end yet: anything but a trade, if possible.
        others = [a for a in legal if a.kind != "trade"]
        return rng.choice(others or legal)

    def proposes_trades(self, view: GameState) -> bool:
        """Only at level 3, on a bare field, short of a Warehouse card's price.

        There the greedy bot may offer a card to another player (:func:`offer_on_bare_field`);
        anywhere else it proposes no trade while any other action is allowed.
        """
        field = view.field
        return (
            view.level == "3"
            and field is not None
            and field.raw_left == 0
            and view.current.money < WAREHOUSE_PRICE
        )

    def accepts(self, view: GameState, offer: Action, rng: random.Random) -> bool:
        """Agree to raw cards handed over that let an installation run at once.

        For no more than the Warehouse would charge for them; nothing of this player's goes
        the other way. Every other offer is refused.
        """
        if not is_card_sale(offer) or view.viewer is None:
            return False
        assert isinstance(offer, Trade)
        me = view.player(view.viewer)
        price = -offer.pay
        if price < 0 or price > me.money or price >= WAREHOUSE_PRICE * len(offer.give):
            return False
        have = shared_holdings(self.catalog, view, me)
        after = have + Counter(card_formula(self.catalog, card) for card in offer.give)
        tokens = view.free_tokens(me.id)
        return any(
            inputs_held(installation, after)
            and not inputs_held(installation, have)
            and tokens_needed(installation) <= tokens
            for installation in open_to(view, me.id)
        )

    def _plan(self, view: GameState, me: Player) -> tuple[Callable[[str], bool], int]:
        """The raw kinds an unseen card must be to serve the plan, and the held cards that do.

        Level 1: the closest reachable mission (a kind serves when it fits what the mission
        still lacks; a held card serves when it is in the closest selection). Level 3: the
        inputs that the installations open to the player still lack, and the held cards
        those installations take.
        """
        if view.level == "1":
            closest = self._closest(me)
            if closest is None:
                return (lambda kind: False), 0
            return closest.serves.__contains__, closest.serving
        have = shared_holdings(self.catalog, view, me)
        gaps: Counter[Formula] = Counter()
        wanted: set[Formula] = set()
        for installation in open_to(view, me.id):
            gap = gap_of(installation, have)
            if gap is not None:
                gaps |= gap
                wanted |= set(needed(installation))
        held = sum(1 for card in me.raw_cards if card_formula(self.catalog, card) in wanted)
        serves = frozenset(raw.id for raw in self.catalog.raw_materials if raw.parsed in gaps)
        return serves.__contains__, held

    def _closest(self, me: Player) -> _Closest | None:
        """Level 1: the closest reachable mission for the player's hand; None if none is.

        A pure function of the kinds held, so it is remembered with the catalog: a hand
        recurs across turns and games.
        """
        kinds = tuple(sorted(Counter(kind_of(card) for card in me.raw_cards).items()))
        memo = self.catalog.memo("sim.greedy-closest-mission")
        if kinds in memo:
            return memo[kinds]  # type: ignore[no-any-return]
        hand = [(self.catalog.raw_material(k), n) for k, n in kinds]
        best: tuple[int, dict[str, int], int] | None = None
        for target in self._targets.values():
            selection, missing = closest_below(hand, target)
            if not self._reachable(missing, target):
                continue
            size = sum(missing.values())
            if best is None or size < best[0]:
                best = (size, missing, sum(selection))
        closest = None
        if best is not None:
            _, lacking, serving = best
            serves = frozenset(
                raw.id
                for raw in self.catalog.raw_materials
                if _serves(raw.parsed.elements, lacking)
            )
            closest = _Closest(lacking, serving, serves)
        if len(memo) >= _REMEMBERED:
            memo.clear()
        memo[kinds] = closest
        return closest

    def _attack(
        self,
        view: GameState,
        me: Player,
        moves: list[Action],
        calm: list[Move],
        rng: random.Random,
    ) -> Action | None:
        """An attack, when it is expected to win more cards that serve than it risks.

        ``calm`` are the best peaceful moves (:func:`~mhp_cards.sim.reach.best_moves`); the
        one drawn from them is what the attack would forgo.
        """
        # Drawn before anything else, attack or not, so that a seeded game stays the same.
        peaceful = rng.choice(calm) if calm else None
        field = view.field
        assert field is not None
        # Combines on the Base cannot be attacked (the referee's ``occupant``).
        others = {p.combine.position for p in view.players if p.combine and p.id != me.id}
        others.discard(field.base)
        if not any(isinstance(m, Move) and m.path[-1] in others for m in moves):
            return None  # no move ends on another combine: no attack to weigh
        useful, serving = self._plan(view, me)
        collected = 0
        if isinstance(peaceful, Move):
            collected = len(raw_cells(field) & set(peaceful.path))
        forgone = collected * useful_share(self.catalog, useful)
        return best_attack(view, moves, self.catalog, useful, serving, forgone)

    def _armour(
        self, view: GameState, me: Player, buys: list[Action], *, stake: int = ARMOUR_STAKE
    ) -> Action | None:
        """Armour, when a combine could attack next turn and ``stake`` cards that serve are held.

        Armour makes an attack win about three times in ten instead of five (L1.T6). At level
        3 the last 4 мР stay for a Warehouse card (under the house rule quiet-round-ends a round
        without progress ends the game).
        """
        reserve = WAREHOUSE_PRICE if view.level == "3" else 0
        if me.combine is None or me.combine.armour or me.money < UPGRADE_PRICE + reserve:
            return None
        armour = [a for a in buys if isinstance(a, BuyUpgrade) and a.upgrade == "armour"]
        if not armour or not threatened(view, me):
            return None
        _, serving = self._plan(view, me)
        return armour[0] if serving >= stake else None

    def _spoils(self, view: GameState, spoils: list[Action]) -> Action:
        """The winner's spoils: as many cards as it may, those that serve its plan first."""
        useful, _ = self._plan(view, view.current)

        def worth(action: Action) -> tuple[int, int]:
            assert isinstance(action, TakeSpoils)
            return (sum(useful(kind_of(card)) for card in action.cards), len(action.cards))

        return max(spoils, key=worth)

    def _useful_purchases(self, view: GameState, me: Player, buys: list[Action]) -> list[Action]:
        if view.level == "1":
            closest = self._closest(me)
            if closest is None:
                return []
            return [a for a in buys if isinstance(a, BuyRaw) and kind_of(a.card) in closest.serves]
        if view.level == "3" and me.money < 2 * WAREHOUSE_PRICE:
            return []  # the last 4 мР wait for a Warehouse card an installation needs
        fits = all_inputs(view)
        return [
            a for a in buys if isinstance(a, BuyRaw) and card_formula(self.catalog, a.card) in fits
        ]

    def missing(self, me: Player) -> dict[str, int] | None:
        """What the closest reachable mission still lacks, by element; None if none is."""
        closest = self._closest(me)
        return None if closest is None else dict(closest.lacking)

    def _no_mission_sale(self, sales: list[Action]) -> Action | None:
        """The sale of a raw card with an element no mission has, if one is held."""
        return next(
            (a for a in sales if isinstance(a, SellRaw) and kind_of(a.card) in self._off_mission),
            None,
        )

    def _reachable(self, missing: Mapping[str, int], target: Mapping[str, int]) -> bool:
        """Some raw kind without foreign elements supplies each missing element."""
        allowed = set(target)
        return all(
            any(
                element in raw.parsed.elements and set(raw.parsed.elements) <= allowed
                for raw in self.catalog.raw_materials
            )
            for element in missing
        )


def keep_best(view: GameState, catalog: Catalog, keeps: list[Action]) -> Action:
    """Head to head: the installation dealt that promises most (:func:`game_worth`)."""
    installations = {i.number: i for i in view.installations}

    def worth(action: Action) -> float:
        assert isinstance(action, KeepInstallation)
        return game_worth(view, catalog, installations[action.installation])

    return max(keeps, key=worth)


def actions_by_kind(legal: list[Action]) -> dict[str, list[Action]]:
    """The actions grouped by kind, kinds in the order first listed, actions as listed."""
    by_kind = listed_by_kind(legal)
    if by_kind is not None:  # the referee's listing as it was made: grouped without reading it
        return by_kind
    by_kind = {}
    for action in legal:
        group = by_kind.get(action.kind)
        if group is None:  # not setdefault(kind, []): that makes a list for every action
            by_kind[action.kind] = [action]
        else:
            group.append(action)
    return by_kind


@dataclass(frozen=True, slots=True)
class _Closest:
    """The closest reachable level-1 mission for a hand (:meth:`GreedyBot._closest`)."""

    lacking: Mapping[str, int]
    """What the mission still lacks beyond the closest selection, by element."""
    serving: int
    """The held cards in the closest selection."""
    serves: frozenset[str]
    """The raw kinds that fit what the mission lacks."""


def mission_elements(mission: Mission) -> Counter[str]:
    """The elements of a mission's products, all places counted."""
    total: Counter[str] = Counter()
    for place in mission.places:
        for element, count in formula_of(place.formula).elements.items():
            total[element] += count * place.count
    return total


def _serves(elements: Mapping[str, int], missing: Mapping[str, int]) -> bool:
    return bool(elements) and all(missing.get(e, 0) >= n for e, n in elements.items())
