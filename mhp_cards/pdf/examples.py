"""The rulebook's worked examples: real positions of seeded games, checked by the referee.

Each example is found, not written: a deterministic search plays seeded games of the catalog
in hand with the simulator's bots and stops at the first position that shows what the example
teaches (a level-1 turn, a mission check, a reaction run, a trade, a level-3 turn at the Base,
a fight). The book states what happens in it from its own reading of the rules — the cards a
move collects, the element sums of a mission, one card a portion and one token a product
container — and :func:`verify` replays the example's action through the referee: a ruling other
than "allowed", or an outcome other than the book says, is a problem that stops the build. A
changed catalog gives other examples, drawn and checked the same way.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

from mhp_cards.assembly.played import played_installation
from mhp_cards.catalog.models import Catalog, formula_of
from mhp_cards.chem.formula import Formula
from mhp_cards.errors import TypesetError
from mhp_cards.game.dealer import deal
from mhp_cards.game.state import GameState, Position
from mhp_cards.game.visibility import view
from mhp_cards.referee.actions import (
    Action,
    Claim,
    Move,
    React,
    ResolveFight,
    Retreat,
    TakeSpoils,
    Trade,
)
from mhp_cards.referee.engine import apply, check
from mhp_cards.referee.fight import fight_actor
from mhp_cards.referee.legal import legal_actions, price_range
from mhp_cards.rules.numbers import Level
from mhp_cards.sim.policies import make_policy

__all__ = ["EXAMPLES", "Example", "find_examples", "verify"]

#: The examples of the book, in its order.
EXAMPLES: Final = ("l1-turn", "l1-mission", "fight", "l2-reaction", "trade", "l3-base")
#: How many seeds the search tries for each example, and the steps of each game.
SEEDS: Final = range(1, 41)
STEPS: Final = 1500
#: Players at the table in the examples.
PLAYERS: Final = 3
#: The dice of the fight example: the attacker rolls this, the defender that (and a second,
#: lower roll with armour), so the attacker wins in one round.
FIGHT_DICE: Final = (5, 3, 2)


@dataclass(frozen=True, slots=True)
class Example:
    """One worked example: the position before, the action, the position after.

    ``facts`` is what the book says about it, computed from the rules as the book states them.
    """

    key: str
    level: Level
    seed: int
    before: GameState
    action: Action
    after: GameState
    facts: dict[str, object] = field(default_factory=dict, hash=False)
    more: tuple[Action, ...] = ()
    """The actions that finish what ``action`` starts, played after it (a fight: the winner's
    spoils, then the loser's retreat); ``after`` is the position after the last."""

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action of the example, in order."""
        return (self.action, *self.more)

    @property
    def player(self) -> str:
        """The colour of the player who acts."""
        return self.before.current.id

    def names(self, key: str) -> tuple[str, ...]:
        """A fact that is a list of names (cards, substances)."""
        value = self.facts[key]
        assert isinstance(value, tuple | list)
        return tuple(str(item) for item in value)

    def number(self, key: str) -> int:
        """A fact that is a number (a price)."""
        value = self.facts[key]
        assert isinstance(value, int)
        return value


def _walk(
    catalog: Catalog, level: Level, seed: int, policy: str
) -> Iterator[tuple[GameState, list[Action], Action]]:
    """(position, the legal actions, the bot's choice) along a seeded game."""
    bot = make_policy(policy, catalog)
    rng = random.Random(seed)
    state = deal(catalog, level, players=PLAYERS, seed=seed)
    for _ in range(STEPS):
        if state.ended:
            return
        legal = legal_actions(state, catalog)
        if not legal:
            return
        choice = bot.choose(view(state, fight_actor(state) or state.current.id), legal, rng)
        yield state, legal, choice
        state, _ = apply(state, choice, catalog)


def _example(
    catalog: Catalog,
    key: str,
    level: Level,
    seed: int,
    before: GameState,
    action: Action,
    more: tuple[Action, ...] = (),
) -> Example:
    after, _ = apply(before, action, catalog)
    for step in more:
        after, _ = apply(after, step, catalog)
    return Example(key, level, seed, before, action, after, more=more)


Finder = Callable[[Catalog, int], Example | None]


def _l1_turn(catalog: Catalog, seed: int) -> Example | None:
    """A move of one cell after the first round, onto a cell with a raw card."""
    for state, _, choice in _walk(catalog, "1", seed, "greedy"):
        if (
            isinstance(choice, Move)
            and state.turn_number >= len(state.players)
            and len(choice.path) == 1
            and state.field is not None
            and (cell := state.field.cell_at(choice.path[0])) is not None
            and cell.raw is not None
            and len(state.current.raw_cards) >= 2
        ):
            example = _example(catalog, "l1-turn", "1", seed, state, choice)
            example.facts["collected"] = _collected(state, choice.path)
            return example
    return None


def _collected(state: GameState, path: Sequence[Position]) -> tuple[str, ...]:
    """The book's reading of L1.T1: the raw card of every cell the combine enters."""
    assert state.field is not None
    cells = [state.field.cell_at(position) for position in path]
    return tuple(cell.raw for cell in cells if cell is not None and cell.raw is not None)


def _l1_mission(catalog: Catalog, seed: int) -> Example | None:
    """The claim of a level-1 mission with the cards that make it up."""
    for state, legal, _ in _walk(catalog, "1", seed, "greedy"):
        claims = [a for a in legal if isinstance(a, Claim)]
        if not claims:
            continue
        mission = catalog.mission(claims[0].mission)
        cards = _exact_subset(catalog, state.current.raw_cards, mission.elements)
        if cards is None:
            continue
        action = Claim(mission=mission.id, cards=cards)
        example = _example(catalog, "l1-mission", "1", seed, state, action)
        example.facts["cards"] = cards
        example.facts["mission"] = mission.id
        return example
    return None


def _kind(card: str) -> str:
    return card.split("#", maxsplit=1)[0]


def _exact_subset(
    catalog: Catalog, hand: Sequence[str], target: dict[str, int]
) -> tuple[str, ...] | None:
    """The smallest set of cards in ``hand`` whose atoms add up to ``target`` exactly (L1.E1).

    Every subset is tried, smallest first: the book's own count, not the referee's.
    """
    elements = {card: catalog.raw_material(_kind(card)).parsed.elements for card in hand}
    for size in range(1, len(hand) + 1):
        for chosen in itertools.combinations(sorted(hand), size):
            total: Counter[str] = Counter()
            for card in chosen:
                total.update(elements[card])
            if dict(total) == dict(target):
                return chosen
    return None


def _fight(catalog: Catalog, seed: int) -> Example | None:
    """An attack at level 1 on a combine holding cards: set dice, the spoils, the retreat.

    The three steps of a fight, in the order of Ruling L1.T4.R4: the dice (the attacker
    wins), the attacker's spoils (three cards when the referee agrees), the defender's retreat
    to the first free neighbouring cell.
    """
    for state, _, _ in _walk(catalog, "1", seed, "random"):
        fight = state.fight
        if fight is None or fight.stage != "dice":
            continue
        defender = state.player(fight.defender)
        if len(defender.raw_cards) < 2:
            continue
        armour = defender.combine is not None and defender.combine.armour
        rounds = (FIGHT_DICE if armour else FIGHT_DICE[:2],)
        dice = ResolveFight(rounds=rounds)
        rolled, _ = apply(state, dice, catalog)
        spoils = TakeSpoils(cards=tuple(sorted(defender.raw_cards)[:3]))
        if check(rolled, spoils, catalog).verdict != "allowed":
            continue
        taken, _ = apply(rolled, spoils, catalog)
        retreats = [a for a in legal_actions(taken, catalog) if isinstance(a, Retreat) and a.cell]
        if not retreats:
            continue
        retreat = Retreat(player=fight.defender, cell=retreats[0].cell)
        example = _example(catalog, "fight", "1", seed, state, dice, (spoils, retreat))
        example.facts.update(winner=fight.attacker, loser=fight.defender, take=spoils.cards)
        example.facts["retreat"] = retreat.cell
        return example
    return None


def _products(state: GameState, player: str) -> Counter[tuple[str, str, int, int]]:
    """Where ``player``'s tokens stand: (installation or mission, card, container, place)."""
    found: Counter[tuple[str, str, int, int]] = Counter()
    for installation in state.installations:
        for container in installation.containers:
            for place, token in enumerate(container.places):
                if token == player:
                    found[(str(installation.number), container.card, container.index, place)] += 1
    for mission in state.missions:
        for index, (_, tokens) in enumerate(mission.places):
            for place, token in enumerate(tokens):
                if token == player:
                    found[(mission.id, "", index, place)] += 1
    return found


def _token_substances(state: GameState, player: str) -> Counter[Formula]:
    """The substance under each of ``player``'s tokens, on installations and the Mission card."""
    found: Counter[Formula] = Counter()
    for installation in state.installations:
        for container in installation.containers:
            found[formula_of(container.substance)] += sum(t == player for t in container.places)
    for mission in state.missions:
        for substance, tokens in mission.places:
            found[formula_of(substance)] += sum(t == player for t in tokens)
    return +found


def _reaction_facts(catalog: Catalog, example: Example) -> None:
    """The portion rule as the book states it: what one run lays and makes."""
    assert isinstance(example.action, React)
    played = played_installation(catalog, example.action.installation)
    example.facts["lays"] = played.inputs
    example.facts["makes"] = played.outputs
    example.facts["piped"] = tuple(c.substance for c in played.piped_products)


def _l2_reaction(catalog: Catalog, seed: int) -> Example | None:
    """A reaction run at level 2, on an installation that pipes a substance on if one does."""
    best: Example | None = None
    for state, _, choice in _walk(catalog, "2", seed, "greedy"):
        if not isinstance(choice, React):
            continue
        example = _example(catalog, "l2-reaction", "2", seed, state, choice)
        _reaction_facts(catalog, example)
        if (
            example.facts["piped"]
            and len(played_installation(catalog, choice.installation).arrangement.cells) > 1
        ):
            return example
        best = best or example
    return best if best is not None and seed == SEEDS[-1] else None


def _trade(catalog: Catalog, seed: int) -> Example | None:
    """A product bought from another player at level 2, its token replaced by the buyer's."""
    for state, legal, _ in _walk(catalog, "2", seed, "greedy"):
        for action in legal:
            if not isinstance(action, Trade) or action.get_product is None or action.give:
                continue
            prices = price_range(state, action, catalog)
            if not prices or max(prices) < 1:
                continue
            ref = action.get_product
            installation = next(i for i in state.installations if i.number == ref.installation)
            container = next(
                c
                for c in installation.containers
                if c.card == ref.card and c.index == ref.container
            )
            price = min(max(prices), catalog.substance(container.substance).price)
            chosen = action.model_copy(update={"pay": price})
            if check(state, chosen, catalog).verdict != "allowed":
                continue
            example = _example(catalog, "trade", "2", seed, state, chosen)
            example.facts.update(partner=action.partner, price=price, substance=container.substance)
            return example
    return None


def _l3_base(catalog: Catalog, seed: int) -> Example | None:
    """A level-3 turn at the Base: a reaction on a shared installation, which the Base allows."""
    for state, _, choice in _walk(catalog, "3", seed, "greedy"):
        if not isinstance(choice, React) or state.field is None:
            continue
        player = state.current
        owner = next(i.owner for i in state.installations if i.number == choice.installation)
        if (
            owner is None
            and player.combine is not None
            and player.combine.position == state.field.base
        ):
            example = _example(catalog, "l3-base", "3", seed, state, choice)
            _reaction_facts(catalog, example)
            return example
    return None


_FINDERS: Final[dict[str, Finder]] = {
    "l1-turn": _l1_turn,
    "l1-mission": _l1_mission,
    "fight": _fight,
    "l2-reaction": _l2_reaction,
    "trade": _trade,
    "l3-base": _l3_base,
}


def find_examples(catalog: Catalog) -> tuple[dict[str, Example], list[TypesetError]]:
    """Every example of the book, found in seeded games (same catalog, same examples).

    An example no seeded game shows is a problem (the book cannot teach it), as is one the
    referee rules otherwise than the book says (:func:`verify`).
    """
    memo = catalog.memo("pdf.examples")
    found: dict[str, Example] | None = memo.get("found")
    if found is None:
        found = {}
        for key in EXAMPLES:
            for seed in SEEDS:
                example = _FINDERS[key](catalog, seed)
                if example is not None:
                    found[key] = example
                    break
        memo["found"] = found
    problems = [
        TypesetError(
            "rulebook",
            f"worked example {key}",
            f"no seeded game (seeds {SEEDS.start}–{SEEDS.stop - 1}) shows it",
        )
        for key in EXAMPLES
        if key not in found
    ]
    for example in found.values():
        problems += [
            TypesetError("rulebook", f"worked example {example.key}", message)
            for message in verify(example, catalog)
        ]
    return found, problems


def verify(example: Example, catalog: Catalog) -> list[str]:
    """What the referee rules otherwise than the book says about ``example`` (empty: nothing).

    The action is judged anew (never taken as listed) and applied; the position it gives is
    compared with the book's reading of the rules.
    """
    before, action = example.before, example.action
    after = before
    for step in example.actions:
        ruling = check(after, step, catalog)
        if ruling.verdict != "allowed":
            return [f"the referee forbids it ({', '.join(ruling.rules)}): {ruling.reason_en}"]
        after, _ = apply(after, step, catalog)
    if after != example.after:
        return ["the referee's position after the action is not the one the book shows"]
    player = example.player
    wrong: list[str] = []
    if example.key == "l1-turn":
        gained = Counter(after.player(player).raw_cards) - Counter(before.current.raw_cards)
        if sorted(gained.elements()) != sorted(example.names("collected")):
            wrong.append(f"the combine collects {sorted(gained)}, not {example.facts['collected']}")
    elif example.key == "l1-mission":
        if (player, example.facts["mission"]) not in after.claims:
            wrong.append("the claim does not win the mission")
    elif example.key == "fight":
        winner, loser = str(example.facts["winner"]), str(example.facts["loser"])
        take = example.names("take")
        if not set(take) <= set(after.player(winner).raw_cards) or set(take) & set(
            after.player(loser).raw_cards
        ):
            wrong.append(f"the winner does not take {take}")
        combine = after.player(loser).combine
        if combine is None or combine.position != example.facts["retreat"]:
            wrong.append("the loser does not retreat where the book says")
    elif example.key in ("l2-reaction", "l3-base"):
        assert isinstance(action, React)
        laid = sorted(str(catalog.raw_material(_kind(c)).parsed) for c in action.cards)
        lays = sorted(str(formula_of(s)) for s in example.names("lays"))
        if laid != lays:
            wrong.append(f"the run lays {laid}, the portion rule says {lays}")
        made = _token_substances(after, player) - _token_substances(before, player)
        makes = Counter(formula_of(s) for s in example.names("makes"))
        if made != makes:
            wrong.append(f"the run puts tokens on {dict(made)}, the book says {dict(makes)}")
        if example.key == "l3-base":
            assert before.field is not None
            away = _off_the_base(before)
            if away is not None and check(away, action, catalog).verdict == "allowed":
                wrong.append("the shared installation is allowed away from the Base too")
    elif example.key == "trade":
        partner, price = str(example.facts["partner"]), example.number("price")
        substance = formula_of(str(example.facts["substance"]))
        if after.player(player).money != before.current.money - price:
            wrong.append("the buyer does not pay the price")
        if after.player(partner).money != before.player(partner).money + price:
            wrong.append("the seller is not paid the price")
        bought = _token_substances(after, player) - _token_substances(before, player)
        sold = _token_substances(before, partner) - _token_substances(after, partner)
        if bought != Counter({substance: 1}) or sold != Counter({substance: 1}):
            wrong.append("the token on the product does not change hands")
    return wrong


def _off_the_base(state: GameState) -> GameState | None:
    """``state`` with the current player's combine on a cell next to the Base (or None)."""
    assert state.field is not None
    base = state.field.base
    neighbours = state.field.neighbours()[base]
    taken = {p.combine.position for p in state.players if p.combine is not None}
    free = [cell for cell in neighbours if cell not in taken]
    combine = state.current.combine
    if not free or combine is None:
        return None
    moved = state.current.model_copy(
        update={"combine": combine.model_copy(update={"position": free[0]})}
    )
    players = tuple(moved if p.id == moved.id else p for p in state.players)
    return state.model_copy(update={"players": players})
