"""What a player holds and what the installations on the table lack: the bots' arithmetic.

Shared by the greedy bot (:mod:`mhp_cards.sim.bots`) and its level-3 economy
(:mod:`mhp_cards.sim.economy`); read from the player's view only.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from typing import Final

from mhp_cards.catalog.models import Catalog, formula_of
from mhp_cards.chem.formula import Formula
from mhp_cards.game.state import (
    ContainerState,
    GameState,
    InstallationState,
    MissionState,
    Player,
)
from mhp_cards.referee.actions import Action, Trade
from mhp_cards.referee.react import free_mission_places
from mhp_cards.referee.scoring import printed_price
from mhp_cards.referee.table import INSTALLATIONS_READ, card_formula, formula_key
from mhp_cards.rules.numbers import DRAWN_CARDS, MISSION_DOUBLE, TOKENS_PER_PLAYER

__all__ = [
    "WORTH_DEALS",
    "all_inputs",
    "game_worth",
    "gap_of",
    "holdings",
    "inputs_held",
    "is_card_sale",
    "missions_with_place",
    "needed",
    "open_to",
    "serves_missions",
    "shared_holdings",
    "stock",
    "tokens_needed",
]


def needed(installation: InstallationState) -> Counter[Formula]:
    """The substances the installation takes as raw inputs, each counted once a container."""
    return Counter(_needed(installation))


def _needed(installation: InstallationState) -> Counter[Formula]:
    """:func:`needed`, the remembered counter itself: for this module's readers only."""
    # An installation's state object is shared by every later state until a token moves on
    # it, so the answer is remembered for the object itself (kept alive, so its id stays its).
    known = _NEEDED.get(id(installation))
    if known is not None and known[0] is installation:
        return known[1]
    wanted = Counter(
        formula_of(c.substance) for c in installation.containers if c.role == "raw-input"
    )
    if len(_NEEDED) >= _REMEMBERED:
        _NEEDED.clear()
    _NEEDED[id(installation)] = (installation, wanted)
    return wanted


#: Installation states whose inputs :func:`needed` remembers before it starts afresh.
_REMEMBERED = 4096
_NEEDED: dict[int, tuple[InstallationState, Counter[Formula]]] = {}


def open_to(view: GameState, player_id: str) -> list[InstallationState]:
    """The installations a player can plan on: their own and the shared ones.

    Wider than the referee's ``usable_installations``: at level 3 a shared installation is
    usable only at the Base, but a plan may include walking there.
    """
    return [i for i in view.installations if i.owner in (None, player_id)]


def gap_of(
    installation: InstallationState, have: Counter[Formula | None]
) -> Counter[Formula] | None:
    """What the installation's inputs lack beyond ``have``; None for one without inputs."""
    wanted = _needed(installation)
    if not wanted:
        return None
    held = have.get  # not have[f]: a Counter's missing key goes through Python code
    gap: Counter[Formula] = Counter()
    for formula, count in wanted.items():
        lacking = count - held(formula, 0)
        if lacking > 0:
            gap[formula] = lacking
    return gap


def inputs_held(installation: InstallationState, have: Counter[Formula | None]) -> bool:
    """Whether ``have`` holds every input the installation takes (it has some): its gap is empty.

    :func:`gap_of` is empty, without building the gap: the bots ask this of every installation
    open to them at most choices.
    """
    wanted = _needed(installation)
    if not wanted:
        return False
    held = have.get
    return all(held(formula, 0) >= count for formula, count in wanted.items())


def tokens_needed(installation: InstallationState) -> int:
    """Free tokens a run of the installation needs: one per product container (L2.T4)."""
    containers = installation.containers
    known = _PRODUCTS.get(id(containers))
    if known is not None and known[0] is containers:
        return known[1]
    count = sum(1 for c in containers if c.role == "product")
    if len(_PRODUCTS) >= _REMEMBERED:
        _PRODUCTS.clear()
    _PRODUCTS[id(containers)] = (containers, count)
    return count


#: Product containers by the containers value (kept alive, so its id stays its own).
_PRODUCTS: dict[int, tuple[tuple[ContainerState, ...], int]] = {}


def serves_missions(view: GameState, installation: InstallationState) -> bool:
    """Whether one of the installation's products has a free place on the Mission card.

    Remembered for the installation and Mission-card values themselves (kept alive, so their
    ids stay theirs): the states of a game share both until a token moves.
    """
    key = (id(installation), id(view.missions))
    known = _SERVES.get(key)
    if known is not None and known[0] is installation and known[1] is view.missions:
        return known[2]
    serves = any(
        missions_with_place(view, c.substance)
        for c in installation.containers
        if c.role == "product"
    )
    if len(_SERVES) >= _REMEMBERED:
        _SERVES.clear()
    _SERVES[key] = (installation, view.missions, serves)
    return serves


_SERVES: dict[tuple[int, int], tuple[InstallationState, tuple[MissionState, ...], bool]] = {}


def missions_with_place(view: GameState, substance: str) -> list[str]:
    """The missions with a free place for the substance, in card order (the referee's list)."""
    return [view.missions[m].id for m, _, _ in free_mission_places(view, substance)]


def game_worth(view: GameState, catalog: Catalog, installation: InstallationState) -> float:
    """What an installation promises over a head-to-head game, in мР (Ruling V1.2-choose).

    The game imagined :data:`WORTH_DEALS` times: the box's raw deck shuffled (a fixed seed,
    so the answer is a pure function of the table) into one pile that the players draw in
    turn until it is empty (V1.5), two cards a turn to keep one and put the other under the
    pile (V1.3-draw-two; one card under the house rule draw-one). The player keeps the card
    their installation lacks most, the others any card; the player keeps what the
    installation takes (V1.3.R1) and runs it once its inputs are held, a product held in a
    container standing in for a card (L2.T6) and freeing its token. A run needs a free token
    for every product and, for a product with no free place on the Mission card, room in its
    container (L2.T4); one product a turn is sold to the Bank, which frees its token and its
    place: the cheapest of those whose container is full (Ruling V1.4-sell), or with no token
    free the cheapest of all (V1.4; under the house rule sell-when-out only then). The Bank
    pays the price from the player's share of the coins it holds (L2.S7), nothing once that
    is spent, so a sale keeps the product's worth only while the share lasts. A product
    on the Mission card counts double (V1.P1). The opponent and the end are not imagined.
    """
    products = tuple(
        (
            formula_of(c.substance),
            printed_price(catalog, c.substance),
            _free_slots(view, c.substance),
            len(c.places),
        )
        for c in installation.containers
        if c.role == "product"
    )
    inputs = tuple(sorted(needed(installation).items(), key=lambda item: str(item[0])))
    drawn = 1 if view.house_rules.draw_one else DRAWN_CARDS
    any_time = not view.house_rules.sell_when_out
    purse = view.bank // len(view.players)
    key = (inputs, products, len(view.players), drawn, any_time, purse)
    memo = catalog.memo("sim.head-to-head-worth")
    if key not in memo:
        memo[key] = _imagined(
            catalog, dict(inputs), products, len(view.players), drawn, any_time, purse
        )
    return memo[key]  # type: ignore[no-any-return]


#: The deals a head-to-head installation's worth is imagined over (:func:`game_worth`).
WORTH_DEALS: Final = 200
_WORTH_SEED: Final = 25


def _imagined(
    catalog: Catalog,
    inputs: dict[Formula, int],
    products: tuple[tuple[Formula, int, int, int], ...],
    players: int,
    drawn: int,
    any_time: bool,
    purse: int,
) -> float:
    """:func:`game_worth` worked out: the mean worth over the imagined deals.

    The imagined games name each formula by a small number (its code): a formula hashes in
    Python and these games read tens of thousands, which made the first keep of five
    installations in a process cost about 0.19 s of CPU (0.11 s now). The codes change
    nothing drawn or kept.
    """
    if not inputs:
        return 0.0
    codes: dict[Formula, int] = {}
    deck = [
        codes.setdefault(raw.parsed, len(codes))
        for raw in catalog.raw_materials
        for _ in range(raw.copies)
    ]
    wanted = {codes.setdefault(formula, len(codes)): count for formula, count in inputs.items()}
    made = tuple(
        (codes.setdefault(formula, len(codes)), price, slots, places)
        for formula, price, slots, places in products
    )
    rng = random.Random(_WORTH_SEED)
    total = 0.0
    for _ in range(WORTH_DEALS):
        rng.shuffle(deck)
        total += _one_game(
            deque(deck), wanted, made, len(codes), players, drawn, any_time, purse, rng
        )
    return total / WORTH_DEALS


def _one_game(
    pile: deque[int],
    inputs: dict[int, int],
    products: tuple[tuple[int, int, int, int], ...],
    kinds: int,
    players: int,
    drawn: int,
    any_time: bool,
    purse: int,
    rng: random.Random,
) -> float:
    """One imagined game (:func:`game_worth`): what the installation's runs were worth.

    Formulas are named by their codes ``0 .. kinds - 1`` (:func:`_imagined`). ``any_time``:
    a full container may be emptied by a sale with tokens free (Ruling V1.4-sell);
    ``purse``: the coins the Bank pays this player at most.
    """
    held = [0] * kinds
    want = [inputs.get(code, 0) for code in range(kinds)]
    filled = [0] * len(products)
    placed = [0] * len(products)
    free, worth = TOKENS_PER_PLAYER, 0.0
    mine = rng.randrange(players)
    turn = 0
    pop, under, choice = pile.pop, pile.extendleft, rng.choice
    prices = [product[1] for product in products]
    places = [product[3] for product in products]
    indices = range(len(products))
    dirty = True  # whether the holdings changed since the run was last found unable to run
    while pile:
        cards = [pop() for _ in range(drawn if drawn <= len(pile) else len(pile))]
        ours = turn % players == mine
        turn += 1
        if not ours:  # another player keeps any card; the others go under the pile
            cards.remove(choice(cards))
            under(cards)
            continue
        # The card kept: the one the installation lacks most (the first such).
        kept = cards[0]
        for card in cards[1:]:
            if want[card] - held[card] > want[kept] - held[kept]:
                kept = card
        cards.remove(kept)
        under(cards)  # the others go under the pile (V1.3-draw-two)
        if want[kept]:
            held[kept] += 1
            dirty = True
        sold = -1
        if free == 0 and any(filled):
            # V1.4: out of tokens, a sale to the Bank frees one (the cheapest product).
            sold = min((k for k in indices if filled[k]), key=prices.__getitem__)
        elif any_time:
            # V1.4-sell: a full container is emptied by a sale (the cheapest full one, the
            # first of equals).
            for k in indices:
                if filled[k] >= places[k] and (sold < 0 or prices[k] < prices[sold]):
                    sold = k
        if sold >= 0:
            # The Bank pays what its share of the purse still holds; the rest is lost.
            paid = min(prices[sold], purse)
            purse -= paid
            worth -= prices[sold] - paid
            filled[sold] -= 1
            free += 1
            dirty = True
        if not dirty:
            continue  # nothing the run needs has changed since it last could not run
        dirty = False
        # A product held in a container stands in for a card (L2.T6), freeing its token.
        used = [0] * len(products)
        for formula, count in inputs.items():
            lacking = count
            for k, product in enumerate(products):
                while lacking and product[0] == formula and filled[k] > used[k]:
                    used[k] += 1
                    lacking -= 1
            if lacking > held[formula]:
                break
        else:
            to_mission = [placed[k] < product[2] for k, product in enumerate(products)]
            full = [
                not placing and filled[k] - used[k] >= product[3]
                for k, (placing, product) in enumerate(zip(to_mission, products, strict=True))
            ]
            if free + sum(used) < len(products) or any(full):
                continue
            for formula, count in inputs.items():
                held[formula] -= count - sum(
                    used[k] for k, product in enumerate(products) if product[0] == formula
                )
            for k, placing in enumerate(to_mission):
                filled[k] -= used[k]
                worth -= used[k] * products[k][1]
                free += used[k] - 1
                if placing:
                    placed[k] += 1
                    worth += MISSION_DOUBLE * products[k][1]
                else:
                    filled[k] += 1
                    worth += products[k][1]
            dirty = True
    return worth


def _free_slots(view: GameState, substance: str) -> int:
    """The free places for the substance on the whole Mission card (each token's place)."""
    key = formula_key(substance)
    return sum(
        tokens.count(None)
        for mission in view.missions
        for formula, tokens in mission.places
        if formula_key(formula) == key
    )


def is_card_sale(action: Action) -> bool:
    """A trade that hands raw cards to the partner, and nothing of the partner's back."""
    return (
        isinstance(action, Trade)
        and bool(action.give)
        and not action.receive
        and action.give_product is None
        and action.get_product is None
    )


def holdings(catalog: Catalog, view: GameState, me: Player) -> Counter[Formula | None]:
    """The player's raw cards and the products under their tokens, by formula.

    Worked out once for the hand and kept with the view's facts of the installations (the
    states of a game share them until a token moves); each call has a fresh counter.
    """
    return Counter(shared_holdings(catalog, view, me))


def shared_holdings(catalog: Catalog, view: GameState, me: Player) -> Counter[Formula | None]:
    """:func:`holdings` as kept, not copied: for readers only, who must not change it."""
    facts = view.facts(INSTALLATIONS_READ)
    key = ("sim-holdings", me.id, me.raw_cards)
    found: tuple[Catalog, Counter[Formula | None]] | None = facts.get(key)
    if found is None or found[0] is not catalog:
        found = facts[key] = (catalog, _holdings(catalog, view, me))
    return found[1]


def stock(catalog: Catalog, view: GameState) -> Counter[Formula | None]:
    """The Warehouse's cards by formula; kept, not copied: for readers only.

    Remembered for the Warehouse value itself (kept alive, so its id stays its own), which
    the states of a game share until a card comes in or goes out.
    """
    warehouse = view.warehouse
    known = _STOCK.get(id(warehouse))
    if known is not None and known[0] is warehouse and known[1] is catalog:
        return known[2]
    counted = Counter(card_formula(catalog, card) for card in warehouse)
    if len(_STOCK) >= _REMEMBERED:
        _STOCK.clear()
    _STOCK[id(warehouse)] = (warehouse, catalog, counted)
    return counted


_STOCK: dict[int, tuple[tuple[str, ...], Catalog, Counter[Formula | None]]] = {}


def _holdings(catalog: Catalog, view: GameState, me: Player) -> Counter[Formula | None]:
    have = Counter(_hand(catalog, me.raw_cards))
    held = have.get  # not have[f] += n: a Counter's missing key goes through Python code
    for formula, count in _products(view, me.id):
        have[formula] = held(formula, 0) + count
    return have


def _hand(catalog: Catalog, cards: tuple[str, ...]) -> Counter[Formula | None]:
    """The hand's cards by formula, kept for the hand (a copy is made of it): not to be changed.

    A player's hand comes back from state to state while their installations do not.
    """
    known = _HANDS.get(cards)
    if known is not None and known[0] is catalog:
        return known[1]
    counted: Counter[Formula | None] = Counter(card_formula(catalog, card) for card in cards)
    if len(_HANDS) >= _REMEMBERED:
        _HANDS.clear()
    _HANDS[cards] = (catalog, counted)
    return counted


_HANDS: dict[tuple[str, ...], tuple[Catalog, Counter[Formula | None]]] = {}


def _products(view: GameState, player_id: str) -> tuple[tuple[Formula, int], ...]:
    """Each product container's formula and the player's tokens on it, in the table's order.

    A fact of the installations, kept for the states that share them.
    """
    facts = view.facts(INSTALLATIONS_READ)
    key = ("sim-products", player_id)
    found: tuple[tuple[Formula, int], ...] | None = facts.get(key)
    if found is None:
        found = facts[key] = tuple(
            (formula_of(container.substance), container.places.count(player_id))
            for installation in view.installations
            for container in installation.containers
            if container.role == "product"
        )
    return found


def all_inputs(view: GameState) -> frozenset[Formula]:
    """The inputs of every installation the player to move can plan on (own and shared).

    Remembered for the installations value and the player (the states of a game share the
    value until a token moves; kept alive, so its id stays its own).
    """
    installations, me = view.installations, view.current.id
    key = (id(installations), me)
    known = _INPUTS.get(key)
    if known is not None and known[0] is installations:
        return known[1]
    found = frozenset(
        substance for installation in open_to(view, me) for substance in _needed(installation)
    )
    if len(_INPUTS) >= _REMEMBERED:
        _INPUTS.clear()
    _INPUTS[key] = (installations, found)
    return found


_INPUTS: dict[tuple[int, str], tuple[tuple[InstallationState, ...], frozenset[Formula]]] = {}
