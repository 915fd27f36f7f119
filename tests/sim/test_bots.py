"""The bots' choices: the random bot's kind-first choice, the greedy bot's priorities."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import deal, view
from mhp_cards.game.state import GameState, Position
from mhp_cards.referee import apply, legal_actions
from mhp_cards.referee.actions import (
    Action,
    BuyRaw,
    Claim,
    EndTurn,
    FreeToken,
    KeepInstallation,
    Move,
    PickDrawn,
    ProductRef,
    React,
    SellRaw,
    TakeRaw,
    Trade,
)
from mhp_cards.referee.scoring import printed_price
from mhp_cards.rules.numbers import WAREHOUSE_PRICE
from mhp_cards.sim import POLICIES, GreedyBot, RandomBot, game_seed, make_policy, play_game
from mhp_cards.sim.holdings import game_worth, holdings, needed
from mhp_cards.sim.reach import best_move, best_moves, distances
from mhp_cards.validate import load_catalog


def test_random_chooses_the_kind_first() -> None:
    trades: list[Action] = [Trade(partner="blue", pay=n) for n in range(99)]
    legal = [*trades, EndTurn()]
    rng = random.Random(1)
    bot = RandomBot()
    chosen = Counter(bot.choose(None, legal, rng).kind for _ in range(2000))  # type: ignore[arg-type]
    # Uniform over actions would end the turn about 20 times in 2000; by kind, about 1000.
    assert 850 < chosen["end"] < 1150


def test_the_policies_are_made_by_name(catalog: Catalog) -> None:
    assert set(POLICIES) == {"random", "greedy", "search", "noisy-greedy", "lookahead"}
    assert isinstance(make_policy("greedy", catalog), GreedyBot)
    assert isinstance(make_policy("random", catalog), RandomBot)


def test_greedy_claims_first_at_level_1(catalog: Catalog) -> None:
    state = deal(catalog, "1", players=2, seed=1)
    seen = view(state, state.current.id)
    legal: list[Action] = [EndTurn(), Trade(partner=state.players[1].id), Claim(mission="M2")]
    assert GreedyBot(catalog).choose(seen, legal, random.Random(0)) == Claim(mission="M2")


def test_greedy_collects_and_never_trades_at_level_1(catalog: Catalog) -> None:
    state = deal(catalog, "1", players=2, seed=1)
    seen = view(state, state.current.id)
    assert seen.field is not None
    raw = next(cell.position for cell in seen.field.cells if cell.raw is not None)
    empty_move = Move(path=(seen.field.base,))
    legal: list[Action] = [Trade(partner=state.players[1].id), empty_move, Move(path=(raw,))]
    legal.append(EndTurn())
    assert GreedyBot(catalog).choose(seen, legal, random.Random(0)) == Move(path=(raw,))
    assert GreedyBot(catalog).choose(seen, [Trade(partner="x"), EndTurn()], random.Random(0)) == (
        EndTurn()
    )


def test_greedy_buys_only_what_serves_a_mission(catalog: Catalog) -> None:
    state = deal(catalog, "1", players=2, seed=1)
    me = state.current
    state = state.model_copy(
        update={
            "players": tuple(
                p.model_copy(update={"raw_cards": ("carbon-dioxide#1",)}) if p.id == me.id else p
                for p in state.players
            )
        }
    )
    seen = view(state, me.id)
    bot = GreedyBot(catalog)
    # Holding CO2, the closest mission is M1 (C2 H8 O8 = 2 CO2 + 4 H2O): water serves it;
    # the two hematites (Fe2O3) serve no mission at level 1.
    water = BuyRaw(card="water-ice#9")
    useless: list[Action] = [BuyRaw(card="hematite#1"), BuyRaw(card="ridge-hematite#1")]
    assert bot.choose(seen, [*useless, water, EndTurn()], random.Random(0)) == water
    assert bot.choose(seen, [*useless, EndTurn()], random.Random(0)) == EndTurn()


def test_greedy_reacts_and_at_level_3_sells_the_dearest_token_when_none_is_free(
    catalog: Catalog,
) -> None:
    state = deal(catalog, "3", players=2, seed=1)
    me = state.current
    seen = view(state, me.id)
    bot = GreedyBot(catalog)
    react = React(installation=1, cards=())
    assert bot.choose(seen, [EndTurn(), react], random.Random(0)) == react
    ref = ProductRef(installation=1, card="x", container=0)
    cheap = FreeToken(product=ref, how="sell-bank", price=1)
    dear = FreeToken(product=ref, how="sell-bank", price=3)
    dump = FreeToken(product=ref, how="dump")
    legal: list[Action] = [dump, cheap, dear, EndTurn()]
    # A sale at the printed price scores what the product would (L3.P1): always made.
    assert bot.choose(seen, legal, random.Random(0)) == dear


def _with_tokens(
    state: GameState, tokens: int, placed: dict[tuple[int, str], tuple[str | None, ...]]
) -> GameState:
    """The current player with ``tokens`` chemist tokens, and the product places ``placed``.

    ``placed`` maps (installation, substance) to the places of that product container, the
    current player's tokens named ``"me"``.
    """
    me = state.current.id
    installations = []
    for installation in state.installations:
        containers = tuple(
            c.model_copy(
                update={
                    "places": tuple(
                        me if t == "me" else t for t in placed[installation.number, c.substance]
                    )
                }
            )
            if c.role == "product" and (installation.number, c.substance) in placed
            else c
            for c in installation.containers
        )
        installations.append(installation.model_copy(update={"containers": containers}))
    players = tuple(
        p.model_copy(update={"tokens": tokens}) if p.id == me else p for p in state.players
    )
    return state.model_copy(update={"players": players, "installations": tuple(installations)})


def _greedy_choice(catalog: Catalog, state: GameState, seed: int = 0) -> Action:
    """The greedy bot's choice among the actions the referee lists for the state."""
    return GreedyBot(catalog).choose(
        view(state, state.current.id), legal_actions(state, catalog), random.Random(seed)
    )


def test_greedy_frees_the_token_that_costs_least_for_a_run_tokens_block(
    catalog: Catalog,
) -> None:
    # Level 2: the player owns installation 1 (calcite + water: two products, two tokens) and
    # has both tokens on CO2 (2 мР) and H2SO4 (12 мР) elsewhere, none free.
    state = deal(catalog, "2", players=2, seed=1)
    assert next(i.owner for i in state.installations if i.number == 1) == state.current.id
    state = _with_tokens(state, 2, {(10, "CO2"): ("me",), (6, "H2SO4"): ("me",)})
    ready = _with_hand(state, ("calcite#1", "water-ice#1"))
    assert not any(isinstance(a, React) for a in legal_actions(ready, catalog))
    # The Bank pays CO2's full price (no loss) but only 10 of H2SO4's 12.
    chosen = _greedy_choice(catalog, ready)
    assert isinstance(chosen, FreeToken)
    assert (chosen.product.installation, chosen.how, chosen.price) == (10, "sell-bank", 2)
    # Without the cards of a run, no token is worth freeing.
    waiting = _with_hand(state, ("calcite#1",))
    assert not isinstance(_greedy_choice(catalog, waiting), FreeToken)


@pytest.mark.parametrize("sell_when_out", [False, True], ids=["V1.4-sell", "sell-when-out"])
def test_greedy_head_to_head_frees_a_full_container_only_when_it_pays(
    catalog: Catalog, sell_when_out: bool
) -> None:
    # Head to head the player's installation 1 has its Ca(OH)2 place taken by a former run:
    # a new run (CO2 on the Mission card, counted double, and Ca(OH)2: 10) waits for it.
    house = ("installation-at-random", *(("sell-when-out",) if sell_when_out else ()))
    state = deal(catalog, "1v1", players=2, seed=1, house_rules=house)
    assert next(i.owner for i in state.installations if i.number == 1) == state.current.id
    state = _with_hand(state, ("calcite#1", "water-ice#1"))
    spare = _with_tokens(state, 8, {(1, "Ca(OH)2"): ("me",)})
    chosen = _greedy_choice(catalog, spare)
    if sell_when_out:
        # With tokens free the Bank may not buy (V1.4): only a dump, which costs the product
        # and a fine of its price (12), more than the run brings.
        assert not isinstance(chosen, FreeToken)
    else:
        # Ruling V1.4-sell: the Bank buys it at its price with tokens free too.
        assert isinstance(chosen, FreeToken)
        assert (chosen.product.installation, chosen.how) == (1, "sell-bank")
        assert chosen.price == printed_price(catalog, "Ca(OH)2")
    # With no token free the Bank buys it at its price: freed at no cost.
    spent = _with_tokens(state, 1, {(1, "Ca(OH)2"): ("me",)})
    chosen = _greedy_choice(catalog, spent)
    assert isinstance(chosen, FreeToken)
    assert (chosen.product.installation, chosen.how) == (1, "sell-bank")


def test_greedy_runs_the_reaction_whose_products_are_worth_most(catalog: Catalog) -> None:
    # Installation 2 (CO2 + water) puts two products on the Mission card (CH4, O2: 21 мР
    # counted double, water beside); installation 6 (water + sulfur + water) only H2SO4,
    # but it is worth 26 with H2.
    state = deal(catalog, "2", players=2, seed=1)
    state = _with_hand(state, ("carbon-dioxide-frost#1", "water-ice#1", "water-ice#2", "sulfur#1"))
    listed = {a.installation for a in legal_actions(state, catalog) if isinstance(a, React)}
    assert {2, 6} <= listed
    chosen = _greedy_choice(catalog, state)
    assert isinstance(chosen, React)
    assert chosen.installation == 6


def test_greedy_takes_the_card_for_the_run_worth_most_a_token(catalog: Catalog) -> None:
    # Nitrogen and calcite held: oxygen completes installation 4 (Ca(NO3)2, 12 мР), silica
    # installation 10 (Ca2SiO4, 8 мР), water installation 1 (Ca(OH)2, 6 мР); two tokens each.
    state = deal(catalog, "2", players=2, seed=1)
    state = _with_hand(state, ("nitrogen#1", "calcite#1"))
    state = state.model_copy(update={"piles": (("silica#1",), ("water-ice#1",), ("oxygen#1",))})
    for seed in range(5):
        assert _greedy_choice(catalog, state, seed) == TakeRaw(pile=3)


def test_greedy_makes_a_compulsory_move_even_into_another_combine(catalog: Catalog) -> None:
    state = deal(catalog, "1", players=2, seed=1)
    assert state.field is not None
    me, other = state.players[0], state.players[1]
    cell = state.field.cells[0].position
    assert other.combine is not None
    moved = other.model_copy(
        update={"combine": other.combine.model_copy(update={"position": cell})}
    )
    state = state.model_copy(update={"players": (me, moved), "turn": 0})
    seen = view(state, me.id)
    attack = Move(path=(cell,))
    trade = Trade(partner=other.id)
    bot = GreedyBot(catalog)
    # The turn can end: no attack. It cannot: the move, never the trade.
    assert bot.choose(seen, [trade, attack, EndTurn()], random.Random(0)) == EndTurn()
    assert bot.choose(seen, [trade, attack], random.Random(0)) == attack


def _with_hand(state: GameState, cards: tuple[str, ...], **combine: object) -> GameState:
    """The state with the current player holding ``cards`` (and their combine changed)."""
    me = state.current
    update: dict[str, object] = {"raw_cards": cards}
    if combine:
        assert me.combine is not None
        update["combine"] = me.combine.model_copy(update=combine)
    players = tuple(p.model_copy(update=update) if p.id == me.id else p for p in state.players)
    return state.model_copy(update={"players": players})


def test_greedy_puts_a_product_on_the_mission_nearest_completion(catalog: Catalog) -> None:
    state = deal(catalog, "2", players=2, seed=1)
    other = state.players[1].id
    # Every place of M3 but one O2 place is taken; M1 and M4 are empty.
    missions = []
    for mission in state.missions:
        if mission.id == "M3":
            places = [(f, tuple(other for _ in tokens)) for f, tokens in mission.places]
            formula, tokens = next((f, t) for f, t in places if f == "O2")
            places[[f for f, _ in places].index("O2")] = (formula, (None, *tokens[1:]))
            missions.append(mission.model_copy(update={"places": tuple(places)}))
        else:
            missions.append(mission)
    state = state.model_copy(update={"missions": tuple(missions)})
    choices: list[Action] = [
        React(installation=9, cards=("calcium-perchlorate#1",), missions=(m,))
        for m in ("M1", "M3", "M4")
    ]
    chosen = GreedyBot(catalog).choose(view(state, state.current.id), choices, random.Random(0))
    assert chosen == choices[1]


def test_greedy_takes_the_pile_card_an_installation_lacks(catalog: Catalog) -> None:
    state = deal(catalog, "2", players=2, seed=1)
    state = _with_hand(state, ("halite#1",))
    me = state.current.id
    # Installation 7 runs on NaCl + H2O: water completes it. The deal gives it to the other
    # player, so the two players swap their own installations and 7 becomes the player's.
    other = next(i.owner for i in state.installations if i.number == 7)
    assert other not in (None, me)
    owner = {me: other, other: me}
    installations = tuple(
        i.model_copy(update={"owner": owner[i.owner]}) if i.owner in owner else i
        for i in state.installations
    )
    state = state.model_copy(update={"installations": installations})
    assert any(i.number == 7 and i.owner == me for i in state.installations)
    # Nitrogen fits installation 3 too, but 3 would still lack water.
    state = state.model_copy(
        update={"piles": (("nitrogen#1",), ("anhydrite#1",), ("water-ice#1",))}
    )
    takes: list[Action] = [TakeRaw(pile=n) for n in (1, 2, 3)]
    for seed in range(5):
        bot = GreedyBot(catalog)
        assert bot.choose(view(state, state.current.id), takes, random.Random(seed)) == takes[2]


def _level_3(catalog: Catalog) -> GameState:
    state = deal(catalog, "3", players=2, seed=1)
    assert state.field is not None
    return state


def _quiet_round_ends(state: GameState) -> GameState:
    """The state under the house rule quiet-round-ends: a round without progress ends the game."""
    return state.model_copy(
        update={"house_rules": state.house_rules.model_copy(update={"quiet_round_ends": True})}
    )


def test_greedy_sells_the_card_no_installation_takes_when_full(catalog: Catalog) -> None:
    state = _level_3(catalog)
    hand = ("water-ice#1", "halite#1", "anhydrite#1", "nitrogen#1", "carbon-dioxide#1", "silica#1")
    state = _with_hand(state, hand)
    legal: list[Action] = [SellRaw(card=card) for card in hand]
    for seed in range(5):
        chosen = GreedyBot(catalog).choose(
            view(state, state.current.id), legal, random.Random(seed)
        )
        assert chosen == SellRaw(card="anhydrite#1")


def _two_ways(state: GameState) -> tuple[Position, Position, Position]:
    """A cell two steps from the Base, a neighbour nearer the Base, one farther from it."""
    assert state.field is not None
    base = state.field.base
    neighbours = state.field.neighbours()
    for start in neighbours:
        near = [n for n in neighbours[start] if base in neighbours[n]]
        far = [
            n
            for n in neighbours[start]
            if n != base and base not in neighbours[n] and n not in near
        ]
        if start != base and base not in neighbours[start] and near and far:
            return start, near[0], far[0]
    raise AssertionError("no such cells on the field")


def test_greedy_heads_for_the_base_when_a_shared_installation_can_run(catalog: Catalog) -> None:
    state = _level_3(catalog)
    shared = next(i for i in state.installations if i.owner is None and i.number == 7)
    assert shared.number == 7  # NaCl + H2O, both raw cards
    start, near, far = _two_ways(state)
    state = _with_hand(state, ("halite#1", "water-ice#1"), position=start)
    assert state.field is not None
    # Both cells still hold raw cards: only the way decides.
    legal: list[Action] = [Move(path=(far,)), Move(path=(near,))]
    for seed in range(8):
        bot = GreedyBot(catalog)
        assert bot.choose(view(state, state.current.id), legal, random.Random(seed)) == (
            Move(path=(near,))
        )


def test_greedy_collects_when_the_round_would_end_without_progress(catalog: Catalog) -> None:
    state = _quiet_round_ends(_level_3(catalog))
    start, near, far = _two_ways(state)
    state = _with_hand(state, ("halite#1", "water-ice#1"), position=start)
    assert state.field is not None
    # The cell nearer the Base is empty: heading there would end the game by L3.E1-no-progress.
    cells = tuple(
        cell.model_copy(update={"raw": None}) if cell.position == near else cell
        for cell in state.field.cells
    )
    state = state.model_copy(
        update={"field": state.field.with_cards(cells), "quiet_turns": len(state.players) - 1}
    )
    legal: list[Action] = [Move(path=(near,)), Move(path=(far,))]
    chosen = GreedyBot(catalog).choose(view(state, state.current.id), legal, random.Random(0))
    assert chosen == Move(path=(far,))
    calm = state.model_copy(update={"quiet_turns": 0})
    assert GreedyBot(catalog).choose(view(calm, calm.current.id), legal, random.Random(0)) == (
        Move(path=(near,))
    )
    # By default a quiet round ends nothing (L3.E1-no-progress): the walk goes on to the Base.
    default = state.model_copy(update={"house_rules": _level_3(catalog).house_rules})
    chosen = GreedyBot(catalog).choose(view(default, default.current.id), legal, random.Random(0))
    assert chosen == Move(path=(near,))


def _without_raw(state: GameState, *emptied: Position) -> GameState:
    """The state with the raw cards of ``emptied`` cells gone."""
    assert state.field is not None
    cells = tuple(
        cell.model_copy(update={"raw": None}) if cell.position in emptied else cell
        for cell in state.field.cells
    )
    return state.model_copy(update={"field": state.field.with_cards(cells)})


def _with_player(state: GameState, **update: object) -> GameState:
    """The state with the current player's fields changed."""
    me = state.current.id
    players = tuple(p.model_copy(update=update) if p.id == me else p for p in state.players)
    return state.model_copy(update={"players": players})


def test_greedy_heads_for_the_base_only_with_the_tokens_to_react(catalog: Catalog) -> None:
    state = _level_3(catalog)
    start, near, far = _two_ways(state)
    # Shared installation 7 runs on the halite and water held, and fills two product
    # containers (NaOH, HCl): it needs two free tokens.
    state = _without_raw(_with_hand(state, ("halite#1", "water-ice#1"), position=start), near)
    legal: list[Action] = [Move(path=(near,)), Move(path=(far,))]
    bot = GreedyBot(catalog)
    assert bot.choose(view(state, state.current.id), legal, random.Random(0)) == legal[0]
    # With one free token the walk would end at the Base with nothing to run: collect instead.
    short = _with_player(state, tokens=1)
    assert bot.choose(view(short, short.current.id), legal, random.Random(0)) == legal[1]


def test_greedy_buys_from_the_warehouse_on_a_turn_without_other_progress(
    catalog: Catalog,
) -> None:
    state = _level_3(catalog)
    start, _, far = _two_ways(state)
    # Installation 7 lacks the water the Warehouse holds; the player has 5 мР.
    state = _with_player(
        _with_hand(state, ("halite#1",), position=start), money=WAREHOUSE_PRICE + 1
    )
    state = state.model_copy(update={"warehouse": ("water-ice#9", "anhydrite#1")})
    buy = BuyRaw(card="water-ice#9")
    collect, end = Move(path=(far,)), EndTurn()
    bot = GreedyBot(catalog)

    def choice(s: GameState, legal: list[Action]) -> Action:
        return bot.choose(view(s, s.current.id), legal, random.Random(0))

    # A collection is this turn's progress: the purchase waits (L3.E1-no-progress).
    assert choice(state, [buy, collect, end]) == collect
    collected = state.model_copy(update={"done_this_turn": ("move", "collect")})
    assert choice(collected, [buy, end]) == end
    # Nothing else to progress with: buy. With 8 мР and more it buys at once.
    walked = _without_raw(state, far)
    assert choice(walked, [buy, collect, end]) == buy
    rich = _with_player(state, money=2 * WAREHOUSE_PRICE)
    assert choice(rich, [buy, collect, end]) == buy


def test_greedy_full_combine_sells_a_card_its_nearest_installations_do_not_need(
    catalog: Catalog,
) -> None:
    state = _level_3(catalog)
    # Every card feeds some installation (no card is useless); three waters are more than
    # the installations nearest running (7: NaCl + H2O; 3: N2 + H2O) take.
    hand = (
        "water-ice#1",
        "water-ice#2",
        "water-ice#3",
        "halite#1",
        "nitrogen#1",
        "carbon-dioxide#1",
    )
    state = _with_hand(state, hand).model_copy(update={"warehouse": ()})
    legal: list[Action] = [SellRaw(card=card) for card in hand]
    for seed in range(8):
        chosen = GreedyBot(catalog).choose(
            view(state, state.current.id), legal, random.Random(seed)
        )
        assert isinstance(chosen, SellRaw)
        assert chosen.card.startswith("water-ice#")


def test_greedy_sells_towards_a_warehouse_card_when_the_round_would_end(
    catalog: Catalog,
) -> None:
    state = _quiet_round_ends(_level_3(catalog))
    start, near, far = _two_ways(state)
    state = _without_raw(state, near, far)
    # Every card feeds an installation, so no sale is worth making for its own sake.
    hand = ("halite#1", "water-ice#1", "nitrogen#1")
    state = _with_player(_with_hand(state, hand, position=start), money=1)
    state = state.model_copy(update={"warehouse": ("water-ice#9",)})
    legal: list[Action] = [
        *(SellRaw(card=card) for card in hand),
        Move(path=(near,)),
        EndTurn(),
    ]
    bot = GreedyBot(catalog)
    # Nobody after the player this round can progress, and no move collects: 1 мР and three
    # cards make the 4 мР of a Warehouse card, the round's last progress (L3.E1-no-progress).
    last = state.model_copy(update={"quiet_turns": len(state.players) - 1})
    assert isinstance(bot.choose(view(last, last.current.id), legal, random.Random(0)), SellRaw)
    # Early in the round the others may still progress: the cards are kept.
    chosen = bot.choose(view(state, state.current.id), legal, random.Random(0))
    assert not isinstance(chosen, SellRaw)


def test_greedy_keeps_a_player_in_reach_of_the_field_for_the_next_round(
    catalog: Catalog,
) -> None:
    state = _quiet_round_ends(_level_3(catalog))
    assert state.field is not None
    start, near, far = _two_ways(state)
    base = state.field.base
    to_base = distances(state.field.neighbours(), {base})
    # Every raw card within three steps of the Base is gone but the one on ``far``.
    state = _without_raw(
        state, *(p for p, d in to_base.items() if d <= 3 and p != far and p != base)
    )
    other = state.players[1].id
    beside = next(p for p in state.field.neighbours()[base] if p != near)
    players = tuple(
        p.model_copy(update={"combine": p.combine.model_copy(update={"position": beside})})
        if p.id == other and p.combine is not None
        else p
        for p in state.players
    )
    state = _with_hand(
        state.model_copy(update={"players": players}),
        ("halite#1", "water-ice#1"),
        position=start,
        solar_battery=True,
    )
    legal: list[Action] = [Move(path=(near, base)), Move(path=(far,)), EndTurn()]
    bot = GreedyBot(catalog)
    # Shared installation 7 could run at the Base, but from there the combine cannot reach a
    # raw card next turn, nor can the other player beside the Base, who has no money: the
    # round after the reaction would pass without progress (L3.E1-no-progress). Collect.
    for seed in range(4):
        assert bot.choose(view(state, state.current.id), legal, random.Random(seed)) == (
            Move(path=(far,))
        )
    # When the other player can buy from the Warehouse, the walk to the Base is safe.
    rich = state.model_copy(
        update={
            "players": tuple(
                p.model_copy(update={"money": WAREHOUSE_PRICE}) if p.id == other else p
                for p in state.players
            ),
            "warehouse": ("water-ice#9",),
        }
    )
    assert bot.choose(view(rich, rich.current.id), legal, random.Random(0)) == legal[0]


def test_greedy_collects_less_to_stay_in_reach_of_the_field_when_nobody_else_can(
    catalog: Catalog,
) -> None:
    state = _quiet_round_ends(_level_3(catalog))
    assert state.field is not None
    cells = state.field.positions - {state.field.base}
    start = next(
        (x, y)
        for x, y in sorted(cells)
        if {(x - 2, y), (x - 1, y), (x + 1, y), (x + 3, y), (x, y + 1)} <= cells
    )
    x, y = start
    two, one, beyond = ((x - 1, y), (x - 2, y)), (x + 1, y), (x + 3, y)
    # The field is bare but for two cells on one side and, on the other, one cell and one
    # more two steps beyond it.
    state = _without_raw(state, *(cells - {*two, one, beyond}))
    other = state.players[1].id
    players = tuple(
        p.model_copy(
            update={"combine": p.combine.model_copy(update={"position": (x, y + 1), "moved": True})}
        )
        if p.id == other and p.combine is not None
        else p
        for p in state.players
    )
    state = _with_hand(
        state.model_copy(update={"players": players}),
        (),
        position=start,
        solar_battery=True,
        moved=True,
    )
    legal: list[Action] = [Move(path=two), Move(path=(one,)), EndTurn()]
    bot = GreedyBot(catalog)
    # Collecting two would leave the combine out of reach of any raw card, and the other
    # player cannot progress either: the next round would pass without progress
    # (L3.E1-no-progress). Collecting one keeps a card within next turn's reach.
    for seed in range(4):
        chosen = bot.choose(view(state, state.current.id), legal, random.Random(seed))
        assert chosen == Move(path=(one,))
    # With a card within the other player's reach, the bigger collection is safe.
    near_other = _with_player(state)
    near_other = near_other.model_copy(
        update={
            "field": state.field.with_cards(
                tuple(
                    c.model_copy(update={"raw": "water-ice#9"}) if c.position == (x, y + 2) else c
                    for c in state.field.cells
                )
            )
        }
    )
    assert (
        bot.choose(view(near_other, near_other.current.id), legal, random.Random(0)) == (legal[0])
    )


def test_greedy_last_hope_purchase_is_a_card_an_installation_lacks(catalog: Catalog) -> None:
    state = _quiet_round_ends(_level_3(catalog))
    start, near, far = _two_ways(state)
    state = _without_raw(state, near, far)
    # One free token: no installation that the halite would complete can run yet, so the
    # purchase is no step of the Warehouse plan, only the round's last progress.
    state = _with_player(
        _with_hand(state, ("water-ice#1",), position=start), money=WAREHOUSE_PRICE, tokens=1
    )
    state = state.model_copy(
        update={"warehouse": ("anhydrite#1", "halite#9"), "quiet_turns": len(state.players) - 1}
    )
    legal: list[Action] = [
        BuyRaw(card="anhydrite#1"),
        BuyRaw(card="halite#9"),
        Move(path=(near,)),
        EndTurn(),
    ]
    for seed in range(4):
        chosen = GreedyBot(catalog).choose(
            view(state, state.current.id), legal, random.Random(seed)
        )
        assert chosen == BuyRaw(card="halite#9")


def _as_other(state: GameState, **update: object) -> tuple[GameState, str]:
    """The state with the second player's fields changed, and that player's ID."""
    other = state.players[1].id
    players = tuple(p.model_copy(update=update) if p.id == other else p for p in state.players)
    return state.model_copy(update={"players": players}), other


def test_greedy_accepts_only_cards_that_let_an_installation_run(catalog: Catalog) -> None:
    state, other = _as_other(_level_3(catalog), raw_cards=("halite#1",), money=3)
    seen = view(state, other)
    bot = GreedyBot(catalog)
    rng = random.Random(0)
    water = Trade(partner=other, give=("water-ice#1",), pay=-1)
    # Halite and water run shared installation 7 (Ruling "Trades at the table").
    assert bot.accepts(seen, water, rng)
    # Not at the Warehouse's price, not for a card of its own, not a card nothing needs.
    assert not bot.accepts(seen, water.model_copy(update={"pay": -WAREHOUSE_PRICE}), rng)
    assert not bot.accepts(seen, water.model_copy(update={"receive": ("halite#1",)}), rng)
    assert not bot.accepts(seen, Trade(partner=other, give=("anhydrite#1",)), rng)
    # Not when the installation could run without it.
    ready, _ = _as_other(state, raw_cards=("halite#1", "water-ice#2"))
    assert not bot.accepts(view(ready, other), water, rng)


def test_greedy_offers_a_card_when_the_field_is_bare_and_the_warehouse_out_of_reach(
    catalog: Catalog,
) -> None:
    field = _level_3(catalog).field
    assert field is not None
    board, other = _as_other(_level_3(catalog), money=3)
    board = _with_player(_with_hand(board, ("water-ice#1",), moved=True), money=1)
    bare = _without_raw(board, *(cell.position for cell in field.cells))
    listed: list[Action] = [Trade(partner=other, give=("water-ice#1",)), EndTurn()]
    bot = GreedyBot(catalog)

    def choice(state: GameState) -> Action:
        return bot.choose(view(state, state.current.id), listed, random.Random(0))

    # For what the Bank would pay: 1 мР.
    assert choice(bare) == Trade(partner=other, give=("water-ice#1",), pay=-1)
    # With cards left on the field, or the money for a Warehouse card, no offer is made.
    assert choice(board) == EndTurn()
    assert choice(_with_player(bare, money=WAREHOUSE_PRICE)) == EndTurn()


def test_greedy_walks_on_to_the_base_at_the_last_chance_when_nothing_can_be_collected(
    catalog: Catalog,
) -> None:
    state = _quiet_round_ends(_level_3(catalog))
    start, near, far = _two_ways(state)
    # Both ways are bare, and the raw cards left lie beyond ``far``: the walk to the Base
    # (shared installation 7 runs on the halite and water held) is the only hope of a
    # reaction, even though the round ends after this turn if nobody progresses.
    state = _without_raw(_with_hand(state, ("halite#1", "water-ice#1"), position=start), near, far)
    assert state.field is not None
    to_far = distances(state.field.neighbours(), {far})
    state = _without_raw(state, *(p for p, d in to_far.items() if d > 2))
    last = state.model_copy(update={"quiet_turns": len(state.players) - 1})
    legal: list[Action] = [Move(path=(far,)), Move(path=(near,)), EndTurn()]
    for seed in range(4):
        chosen = GreedyBot(catalog).choose(view(last, last.current.id), legal, random.Random(seed))
        assert chosen == Move(path=(near,))


def test_greedy_remembers_the_closest_mission_by_the_kinds_held(catalog: Catalog) -> None:
    me = deal(catalog, "1", players=2, seed=1).current
    holding = me.model_copy(update={"raw_cards": ("carbon-dioxide#1", "water-ice#2")})
    same_kinds = me.model_copy(update={"raw_cards": ("water-ice#5", "carbon-dioxide#3")})
    bot = GreedyBot(catalog)
    first = bot.missing(holding)
    assert first is not None
    first["C"] = 99  # the caller's copy: the memory keeps its own
    fresh = GreedyBot(load_catalog()).missing(same_kinds)  # another catalog: nothing remembered
    assert bot.missing(same_kinds) == fresh
    assert fresh is not None
    assert fresh.get("C") != 99


def test_best_move_draws_from_the_best_moves(catalog: Catalog) -> None:
    state = deal(catalog, "3", players=3, seed=2)
    seen = view(state, state.current.id)
    moves = [a for a in legal_actions(state, catalog) if isinstance(a, Move)]
    best = best_moves(seen, list(moves))
    assert best
    assert all(m in moves for m in best)
    for seed in range(5):
        drawn = best_move(seen, list(moves), random.Random(seed))
        assert drawn == random.Random(seed).choice(best)


def test_the_inputs_of_an_installation_are_a_fresh_counter(catalog: Catalog) -> None:
    state = deal(catalog, "2", players=2, seed=1)
    installation = next(i for i in state.installations if needed(i))
    first = needed(installation)
    first.clear()
    assert needed(installation) == needed(installation.model_copy(deep=True))
    assert needed(installation)


def test_holdings_are_a_fresh_counter_and_follow_the_hand(catalog: Catalog) -> None:
    """Holdings are kept with the state's facts, per hand: a caller's change does not reach the
    next call, and another hand (a card sold) is counted anew."""
    state = deal(catalog, "2", players=2, seed=1)
    me = state.current.model_copy(update={"raw_cards": state.piles[0][:3]})
    assert len(me.raw_cards) == 3
    first = holdings(catalog, state, me)
    assert sum(first.values()) == len(me.raw_cards)
    first.clear()
    assert holdings(catalog, state, me) == holdings(catalog, state.model_copy(deep=True), me)
    assert sum(holdings(catalog, state, me).values()) == len(me.raw_cards)
    fewer = me.model_copy(update={"raw_cards": me.raw_cards[1:]})
    assert sum(holdings(catalog, state, fewer).values()) == len(me.raw_cards) - 1


def test_greedy_keeps_the_installation_that_promises_most_head_to_head(catalog: Catalog) -> None:
    """Ruling V1.2-choose: of the five dealt, the one game_worth rates highest, not the first."""
    state = deal(catalog, "1v1", 2, 3)
    legal = legal_actions(state, catalog)
    seen = view(state, state.current.id)
    mine = {i.number: i for i in seen.installations if i.owner == state.current.id}
    worths = {n: game_worth(seen, catalog, i) for n, i in mine.items()}
    chosen = GreedyBot(catalog).choose(seen, legal, random.Random(0))
    assert isinstance(chosen, KeepInstallation)
    assert chosen.installation == max(worths, key=worths.__getitem__)
    assert chosen != legal[0]


def test_game_worth_counts_what_the_bank_can_pay(catalog: Catalog) -> None:
    """Ruling V1.4-sell: an installation whose containers fill is worth more than when it
    must stand idle (sell-when-out), but a sale pays only from the player's share of the
    Bank's coins: installation 6's sulfuric acid, sold over and over, soon spends that share
    and then sells for nothing, so it is worth less than under the literal rule."""
    state = deal(catalog, "1v1", 2, 1)
    literal = deal(catalog, "1v1", 2, 1, house_rules=("sell-when-out",))
    worth = {i.number: game_worth(state, catalog, i) for i in state.installations}
    as_written = {i.number: game_worth(literal, catalog, i) for i in literal.installations}
    assert worth[1] > as_written[1] + 10  # the lime works: full after its first runs
    assert worth[2] == max(worth.values())
    assert worth[6] < as_written[6]


def test_game_worth_ranks_a_scarce_input_below_a_plentiful_one(catalog: Catalog) -> None:
    """Installation 9 takes one raw kind with few copies; 10 takes calcite and silica."""
    state = deal(catalog, "1v1", 2, 3)  # blue holds 2, 7, 8, 9 and 10
    seen = view(state, "blue")
    worth = {i.number: game_worth(seen, catalog, i) for i in seen.installations}
    assert 0 < worth[9] < worth[10]


#: game_worth of every installation of the default catalog, two players, with sales to the
#: Bank only when out of tokens (the house rule sell-when-out), computed on formulas (before
#: the imagined games named formulas by small codes): the codes must change nothing.
_WORTHS_DRAW_TWO = {1: 10.0, 2: 51.38, 3: 17.775, 4: 42.72, 5: 41.4, 6: 40.0, 7: 27.86}
_WORTHS_DRAW_ONE = {2: 47.35, 4: 38.28, 5: 38.67, 6: 39.3, 8: 20.825, 9: 6.165, 10: 30.14}
#: The same under Ruling V1.4-sell (a full container emptied by a sale, the Bank paying from
#: the player's share of its coins), as first computed.
_WORTHS_SELL = {1: 23.49, 2: 50.82, 3: 25.455, 4: 39.58, 5: 39.47, 6: 31.3, 10: 35.59}


@pytest.mark.parametrize(
    ("house_rules", "expected"),
    [
        (("sell-when-out",), _WORTHS_DRAW_TWO),
        (("draw-one", "sell-when-out"), _WORTHS_DRAW_ONE),
        ((), _WORTHS_SELL),
    ],
    ids=["draw-two", "draw-one", "sell"],
)
def test_game_worth_is_the_same_imagined_games_as_ever(
    catalog: Catalog, house_rules: tuple[str, ...], expected: dict[int, float]
) -> None:
    state = deal(catalog, "1v1", 2, 1, house_rules=house_rules)
    installations = {i.number: i for i in state.installations}
    worth = {n: game_worth(state, catalog, installations[n]) for n in expected}
    assert worth == pytest.approx(expected, abs=1e-9)


def test_greedy_picks_the_drawn_card_its_installation_takes(catalog: Catalog) -> None:
    """Ruling V1.3-draw-two: of halite (no use to installation 5) and nitrogen (an input of
    5), the nitrogen, whichever order the two were drawn in."""
    state = deal(catalog, "1v1", 2, 3)
    state = apply(state, KeepInstallation(installation=5), catalog)[0]
    bot = GreedyBot(catalog)
    for drawn in (("halite#1", "nitrogen#1"), ("nitrogen#1", "halite#1")):
        picking = state.model_copy(update={"drawn": drawn, "drawn_pile": 1})
        picks: list[Action] = [PickDrawn(card=card) for card in drawn]
        chosen = bot.choose(view(picking, "red"), picks, random.Random(0))
        assert chosen == PickDrawn(card="nitrogen#1")


class _Keeping:
    """A greedy bot that remembers the installation it kept (Ruling V1.2-choose)."""

    def __init__(self, catalog: Catalog) -> None:
        self.bot = GreedyBot(catalog)
        self.kept: int | None = None

    def choose(self, view: GameState, legal: list[Action], rng: random.Random) -> Action:
        action = self.bot.choose(view, legal, rng)
        if isinstance(action, KeepInstallation):
            self.kept = action.installation
        return action

    def proposes_trades(self, view: GameState) -> bool:
        return self.bot.proposes_trades(view)


@pytest.mark.parametrize(
    ("house_rules", "least", "most"),
    [((), 0.25, 0.75), (("sell-when-out",), 0.9, 1.0)],
    ids=["V1.4-sell", "sell-when-out"],
)
def test_head_to_head_is_not_decided_by_the_installation_kept(
    catalog: Catalog, house_rules: tuple[str, ...], least: float, most: float
) -> None:
    """Ruling V1.4-sell: with sales to the Bank on any turn, the keeper of installation 2 (the
    strongest head to head) wins about half the greedy games; under the literal sale rule
    (sell-when-out) an installation stands idle once full and 2's keeper wins nearly all."""
    games = 40
    won = kept = 0
    for index in range(games):
        bots = [_Keeping(catalog), _Keeping(catalog)]
        result = play_game(catalog, "1v1", 2, game_seed(3, index), bots, house_rules=house_rules)
        for seat, bot in enumerate(bots):
            if bot.kept == 2:
                kept += 1
                won += result.winners == (seat,)
    assert kept == games  # it is dealt to one of the two in every game, and kept
    assert least <= won / kept <= most
