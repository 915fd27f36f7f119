"""Random play with invariants, and perft-style pinned counts of legal actions.

Games of every level (1, 2, head to head, 3) for 2 to 5 players are dealt from several seeds
and played with random legal actions, chosen by a policy that makes progress (collect raw
cards, take, react; sell or buy now and then; end the turn), until the game ends or 400 steps.
After every step:

* ``status(state, catalog)`` finds nothing (every card in one place, tokens, combines…);
* the coins are conserved: Bank + box + players' money = 50;
* every action ``legal_actions`` lists is allowed by ``check`` and ``apply`` does not raise,
  and a game that has not ended has some legal action;
* the JSON round trip of the state is lossless; every player has the chemist tokens of the
  setup (8; 10 for two at levels 2 and 3; none at level 1) and no more on the table;

and ``score`` works at the end. The pinned counts are checked by hand in each test with a
short independent computation (neighbours of the Base, two-step paths, distinct cards held).
"""

from __future__ import annotations

import random
from collections import deque

import pytest

from mhp_cards.catalog.models import formula_of
from mhp_cards.game import GameState, deal, status
from mhp_cards.game.visibility import view
from mhp_cards.referee import (
    Action,
    action_from_json,
    apply,
    check,
    format_action,
    legal_actions,
    parse_action,
    price_range,
    score,
)
from mhp_cards.referee.actions import Move, TakeRaw

STEP_CAP = 400
GAMES = [
    *(("1", n, seed) for n in range(2, 6) for seed in (0, 1)),
    *(("2", n, seed) for n in range(2, 6) for seed in (0, 1)),
    *(("1v1", 2, seed) for seed in range(4)),
    *(("3", n, seed) for n in range(2, 6) for seed in (0, 1)),
]
PARAMS = [pytest.param(*game, id=f"L{game[0]}-{game[1]}p-s{game[2]}") for game in GAMES]


# --- the policy -----------------------------------------------------------------------------------


def distances_to_raw(state: GameState) -> dict[tuple[int, int], int]:
    """Steps from every field position to the nearest cell with a raw card (orthogonal)."""
    assert state.field is not None
    positions = state.field.positions
    queue = deque(c.position for c in state.field.cells if c.raw)
    far = dict.fromkeys(queue, 0)
    while queue:
        x, y = queue.popleft()
        for step in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if step in positions and step not in far:
                far[step] = far[(x, y)] + 1
                queue.append(step)
    return far


def choose(state: GameState, actions: list[Action], rng: random.Random) -> Action:
    """A random legal action that tends to move the game forward."""
    by_kind: dict[str, list[Action]] = {}
    for action in actions:
        by_kind.setdefault(action.kind, []).append(action)
    for kind in ("fight", "claim"):
        if kind in by_kind:
            return by_kind[kind][0]
    for kind in ("spoils", "retreat"):  # a fight's later steps: any listed choice
        if kind in by_kind:
            return rng.choice(by_kind[kind])
    if "react" in by_kind and rng.random() < 0.8:
        return rng.choice(by_kind["react"])
    if "take" in by_kind:
        return rng.choice(by_kind["take"])
    if "move" in by_kind:
        moves = by_kind["move"]
        if rng.random() < 0.85 and state.field is not None:
            far = distances_to_raw(state)
            raw = {c.position for c in state.field.cells if c.raw}

            def value(move: Move) -> tuple[int, int]:
                gained = sum(1 for cell in move.path if cell in raw)
                return (-gained, far.get(move.path[-1], 99))

            best = min(value(m) for m in moves)
            return rng.choice([m for m in moves if value(m) == best])
        return rng.choice(moves)
    if "free" in by_kind and state.free_tokens(state.current.id) < 3 and rng.random() < 0.5:
        return rng.choice(by_kind["free"])
    trading = [a for kind in ("sell", "buy", "warehouse") for a in by_kind.get(kind, [])]
    if trading and rng.random() < 0.15:
        return rng.choice(trading)
    if "end" in by_kind:
        return by_kind["end"][0]
    return rng.choice(actions)


# --- the invariants -------------------------------------------------------------------------------


def assert_invariants(state: GameState, catalog) -> None:
    issues = status(state, catalog)
    assert not issues, "\n".join(f"[{i.rule}] {i.message}" for i in issues)
    money = sum(p.money for p in state.players)
    assert state.bank + state.box_coins + money == 50, (state.bank, state.box_coins, money)
    assert GameState.from_json(state.to_json()) == state
    two = len(state.players) == 2 and state.level in ("2", "3")
    most = 10 if two and not state.house_rules.eight_tokens else 8  # L2.S7-two
    if state.level == "1":
        most = 0
    for player in state.players:
        assert player.tokens == most
        assert state.tokens_placed(player.id) <= most
        assert state.free_tokens(player.id) >= 0
    if state.field is not None:  # carried from field to field, never recomputed in play
        cells = state.field.cells
        assert state.field.raw_positions == {(c.x, c.y) for c in cells if c.raw is not None}
        seen = view(state, state.current.id).field
        assert seen is not None
        assert seen.raw_positions == state.field.raw_positions


def assert_legal_actions(state: GameState, actions: list[Action], catalog) -> None:
    if state.ended:
        assert actions == []
        return
    assert actions, f"no legal action for {state.current.id} in a game that has not ended"
    assert len(set(actions)) == len(actions), "an action is listed twice"
    for action in actions:
        ruling = check(state, action, catalog)
        assert ruling.verdict == "allowed", f"{action!r} listed but {ruling}"
        after, _ = apply(state, action, catalog)
        money = after.bank + after.box_coins + sum(p.money for p in after.players)
        assert money == 50, action
        assert action_from_json(action.model_dump(mode="json")) == action


def play(catalog, dealt, level: str, players: int, seed: int) -> tuple[GameState, int]:
    state = dealt(level, players, seed)
    rng = random.Random(f"{level}/{players}/{seed}")
    assert_invariants(state, catalog)
    steps = 0
    while not state.ended and steps < STEP_CAP:
        actions = legal_actions(state, catalog)
        assert_legal_actions(state, actions, catalog)
        action = choose(state, actions, rng)
        state, events = apply(state, action, catalog)
        assert all(e.ru and e.en for e in events)
        assert_invariants(state, catalog)
        steps += 1
    assert_legal_actions(state, legal_actions(state, catalog), catalog)
    return state, steps


@pytest.fixture(scope="module")
def dealt(catalog):
    cache: dict[tuple[str, int, int], GameState] = {}

    def make(level: str, players: int, seed: int) -> GameState:
        key = (level, players, seed)
        if key not in cache:
            cache[key] = deal(catalog, level, players, seed)
        return cache[key]

    return make


@pytest.mark.parametrize(("level", "players", "seed"), PARAMS)
def test_random_play_keeps_the_invariants(catalog, dealt, level, players, seed) -> None:
    final, steps = play(catalog, dealt, level, players, seed)
    assert_final_score(final, catalog)
    # The policy makes progress: games of levels 1, 2 and head to head end within the cap
    # (level 1 by an empty field, level 2 by a mission or empty piles), so the end of the
    # game is exercised, not only the opening. Level 3 rarely ends within 400 steps.
    if level != "3":
        assert final.ended, f"not over after {steps} steps"


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (4, 0), (5, 1)])
def test_random_play_level_3_through_its_fights(catalog, dealt, players, seed) -> None:
    """Level 3 with more seeds: every fight is the dice, then spoils the winner chooses among
    those that fit their combine (L3.S3), then the loser's retreat; the invariants hold for
    the whole game."""
    final, _ = play(catalog, dealt, "3", players, seed)
    assert_final_score(final, catalog)


def assert_final_score(final: GameState, catalog) -> None:
    level = final.level
    result = score(final, catalog)
    assert set(result.totals) == {p.id for p in final.players}
    assert result.winners
    assert set(result.winners) <= set(result.totals)
    best = max(result.totals.values())
    if not final.claims:
        assert all(result.totals[w] == best for w in result.winners)
    assert result.ruling.verdict == ("ended" if final.ended else "score")
    assert sum(line.value for line in result.lines) == sum(result.totals.values())
    if level == "1":
        for player in final.players:
            assert result.totals[player.id] == len(player.raw_cards) + player.money
    if final.ended:
        assert final.end_reason


# --- perft: pinned counts of legal actions -------------------------------------------------------


def neighbours(state: GameState, cell, diagonal: bool = False) -> set[tuple[int, int]]:
    assert state.field is not None
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if diagonal:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    x, y = cell
    return {(x + dx, y + dy) for dx, dy in steps} & state.field.positions


def first_moves(state: GameState, diagonal: bool = False) -> int:
    """Two-step paths from the Base: a neighbour, then one of its neighbours but the Base."""
    base = state.field.base
    return sum(
        len(neighbours(state, first, diagonal) - {base})
        for first in neighbours(state, base, diagonal)
    )


def counts(state: GameState, catalog) -> dict[str, int]:
    tally: dict[str, int] = {}
    for action in legal_actions(state, catalog):
        tally[action.kind] = tally.get(action.kind, 0) + 1
    return tally


def one_card_trades(state: GameState) -> int:
    """Raw trades with each other player: sell a kind, buy a kind, swap two different kinds."""
    me = {c.rsplit("#", 1)[0] for c in state.current.raw_cards}
    total = 0
    for other in state.players:
        if other.id != state.current.id:
            theirs = {c.rsplit("#", 1)[0] for c in other.raw_cards}
            total += len(me) + len(theirs) + sum(1 for a in me for b in theirs if a != b)
    return total


def step(state: GameState, text: str, catalog) -> GameState:
    return apply(state, parse_action(text), catalog)[0]


def test_perft_level_1(catalog, dealt) -> None:
    state = dealt("1", 2, 3)
    assert state.field.base == (4, 3)
    assert first_moves(state) == 12  # four neighbours of the Base, three onward cells each
    assert counts(state, catalog) == {"move": 12}
    # Red's first move: two raw cards to sell, the turn can end; nothing to buy (no money).
    state = step(state, "move 4,2 4,1", catalog)
    held = len(set(state.player("red").raw_cards))
    assert held == 2
    # Trades (L1.T7): red may offer blue either card (blue holds none to give back).
    assert counts(state, catalog) == {"sell": held, "trade": one_card_trades(state), "end": 1}
    assert one_card_trades(state) == 2
    # Blue's first move: the same twelve paths; the one ending on red's cell is an attack.
    state = step(state, "end", catalog)
    # ... and may buy either of red's two cards (L1.T7: trades at any point of one's turn).
    assert counts(state, catalog) == {"move": first_moves(state), "trade": 2}
    assert first_moves(state) == 12
    attacks = [
        a
        for a in legal_actions(state, catalog)
        if a.kind == "move" and a.path[-1] == state.player("red").combine.position
    ]
    assert [a.path for a in attacks] == [((4, 2), (4, 1))]
    # The attack, over the two cells red emptied: blue's first move draws its two cards from
    # the Warehouse (Ruling L1.T2-two-cards); only the fight may follow.
    state = step(state, "move 4,2 4,1", catalog)
    assert len(state.player("blue").raw_cards) == 2
    assert set(state.player("blue").raw_cards) <= set(dealt("1", 2, 3).warehouse)
    assert counts(state, catalog) == {"fight": 1}
    # The fight: first the dice (the game's, or the table's), then the spoils, the retreat.
    # With the table's dice red, the defender, wins: it takes none, one or both of blue's two
    # cards, and blue retreats to one of the four free cells around (4, 1) (L1.T4.R1).
    rolled = step(state, "fight 1:6", catalog)
    assert counts(rolled, catalog) == {"spoils": 1 + 2 + 1}
    assert {a.player for a in legal_actions(rolled, catalog)} == {"red"}
    after_spoils = step(rolled, "as red spoils", catalog)
    choices = legal_actions(after_spoils, catalog)
    assert counts(after_spoils, catalog) == {"retreat": 4}
    assert sorted(a.cell for a in choices) == sorted(neighbours(state, (4, 1)))
    assert {a.player for a in choices} == {None}  # blue, whose turn it is
    # The game's dice make blue win: the spoils are any one or two of red's two cards (or
    # none), then red retreats to one of its free neighbours.
    rolled = step(state, "fight", catalog)
    assert counts(rolled, catalog) == {"spoils": 1 + 2 + 1}
    state = step(rolled, "spoils " + " ".join(state.player("red").raw_cards), catalog)
    assert counts(state, catalog) == {"retreat": 4}
    state = step(state, "as red retreat 3,1", catalog)
    # Blue holds four cards now, its two from the Warehouse and red's two, all of them kinds
    # apart: each may be sold to the Bank or offered to red, who holds none to give back.
    assert len({c.rsplit("#", 1)[0] for c in state.player("blue").raw_cards}) == 4
    assert counts(state, catalog) == {"sell": 4, "trade": 4, "end": 1}
    state = step(state, "end", catalog)
    red = state.player("red").combine.position
    assert red == (3, 1)
    # Red under repair (L1.T5): four neighbours, blue's cell (4, 1) among them is no move.
    around = neighbours(state, red)
    assert len(around) == 4
    # Red's trades: buy any of blue's four cards.
    assert counts(state, catalog) == {"move": len(around - {(4, 1)}), "trade": 4}
    assert len(around - {(4, 1)}) == 3


def test_perft_level_1_diagonal(catalog) -> None:
    state = deal(catalog, "1", 2, 3, house_rules=("diagonal-adjacency",))
    # Eight neighbours of the Base; each touches the Base, so seven onward cells each.
    assert first_moves(state, diagonal=True) == 8 * 7
    assert counts(state, catalog) == {"move": 56}


def test_perft_level_2(catalog, dealt) -> None:
    state = dealt("2", 2, 21)
    assert counts(state, catalog) == {"take": 3}
    # Pile 1 shows a calcium perchlorate card: shared installation 9 takes it alone.
    assert state.piles[0][-1] == "calcium-perchlorate#1"
    assert {i.number: i.owner for i in state.installations if i.owner} == {6: "red", 7: "blue"}
    state = step(state, "take 1", catalog)
    hand = [
        formula_of(catalog.raw_material(c.split("#")[0]).formula) for c in state.current.raw_cards
    ]
    runnable = [
        inst.number
        for inst in state.installations
        if inst.owner in (None, "red")
        and sorted(str(formula_of(c.substance)) for c in inst.containers if c.role == "raw-input")
        == sorted(str(f) for f in hand)
    ]
    assert runnable == [9]
    # No mission takes its H2O; the O2 it makes may take its place on M1 or M3 (M2 and M4 ask
    # for none; L2.M1-choice): 2 reactions.
    # Blue holds no raw card and no product: red can only offer the card (L2.T2).
    assert counts(state, catalog) == {"react": 2, "trade": one_card_trades(state), "end": 1}
    assert one_card_trades(state) == 1
    # Three products (H2O and CaCl2 on the installation, O2 onto mission M1): each of the two
    # tokens on the installation can be dumped, sold to the Bank or sold to blue
    # (installation 9 is shared, so blue has the containers, L2.T3).
    state = step(state, "react 9 calcium-perchlorate#1", catalog)
    on_installations = sum(
        1 for inst in state.installations for c in inst.containers for t in c.places if t == "red"
    )
    assert on_installations == 2
    assert counts(state, catalog) == {"free": 3 * on_installations, "end": 1}
    sales = [a for a in legal_actions(state, catalog) if a.kind == "free" and a.how != "dump"]
    assert {a.partner for a in sales if a.how == "sell-player"} == {"blue"}
    for sale in sales:  # listed with a price from the range the rules leave open
        assert sale.price in price_range(state, sale, catalog)
    # Blue: three piles, all with cards.
    state = step(state, "end", catalog)
    # ... and may buy either of red's two products on shared installation 9 (L2.T2, L2.T3).
    assert one_card_trades(state) == 0
    assert counts(state, catalog) == {"take": 3, "trade": 2}
    bought = [a for a in legal_actions(state, catalog) if a.kind == "trade"]
    assert {a.get_product.installation for a in bought} == {9}
    assert sum(1 for p in state.piles if p) == 3


def test_perft_head_to_head(catalog, dealt) -> None:
    """The first turns by default: five installations to keep one of (V1.2-choose), three
    piles, two cards drawn to pick one of (V1.3-draw-two), then the end of the turn."""
    state = dealt("1v1", 2, 1)
    assert counts(state, catalog) == {"keep": 5}
    state = step(state, format_action(legal_actions(state, catalog)[0]), catalog)
    assert counts(state, catalog) == {"take": 3}
    state = step(state, "take 2", catalog)
    assert counts(state, catalog) == {"pick": 2}
    state = step(state, f"pick {state.drawn[0]}", catalog)
    assert counts(state, catalog) == {"end": 1}
    state = step(state, "end", catalog)
    assert counts(state, catalog) == {"keep": 5}


def test_perft_head_to_head_as_written(catalog, dealt) -> None:
    state = deal(catalog, "1v1", 2, 1, house_rules=("installation-at-random", "draw-one"))
    assert {i.number: i.owner for i in state.installations} == {1: "red", 7: "blue"}
    assert counts(state, catalog) == {"take": 3}
    # Pile 2 shows water ice: it fits red's installation 1 (CaCO3 and H2O in), and alone it
    # runs nothing.
    assert state.piles[1][-1] == "water-ice#9"
    state = step(state, "take 2", catalog)
    assert state.current.raw_cards == ("water-ice#9",)
    assert counts(state, catalog) == {"end": 1}
    state = step(state, "end", catalog)
    assert counts(state, catalog) == {"take": 3}
    # Empty two piles: one take is left.
    state = state.model_copy(update={"piles": ((), (), state.piles[2])})
    assert legal_actions(state, catalog) == [TakeRaw(pile=3)]


def test_perft_level_3(catalog, dealt) -> None:
    state = dealt("3", 2, 3)
    assert first_moves(state) == 12
    assert counts(state, catalog) == {"move": 12}
    state = step(state, "move 4,2 4,1", catalog)
    state = step(state, "end", catalog)
    state = step(state, "move 3,3 3,2", catalog)
    state = step(state, "end", catalog)
    red = state.player("red")
    # Red stands on (4, 1), away from the Base: one-cell moves to the free neighbours, a sale
    # for each distinct card; red's own installation 2 needs CO2 and H2O, red holds no H2O.
    around = neighbours(state, red.combine.position)
    taken = {p.combine.position for p in state.players if p.id != "red"}
    assert len(around) == 4
    assert not around & taken
    assert counts(state, catalog) == {
        "move": len(around),
        "sell": len(set(red.raw_cards)),
        "trade": one_card_trades(state),
    }
    # Two kinds each way: two sales, two purchases and four swaps (L3.T2, L1.T7).
    assert counts(state, catalog) == {"move": 4, "sell": 2, "trade": 8}
