"""The greedy bot's chemistry: tokens freed, reactions run, pile cards taken and picked.

At levels 2, head to head and 3 a player runs installations with chemist tokens, eight of
them, one freed a turn: :class:`ChemistryPlay` holds the greedy bot's answers to which token
to free (and whether), which reaction to run and where its products go on the Mission card,
and which pile card to take or, head to head, which drawn card to keep.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Set

from mhp_cards.catalog.models import Catalog, formula_of
from mhp_cards.chem.formula import Formula
from mhp_cards.errors import IllegalPlayError
from mhp_cards.game.state import GameState, InstallationState, Player
from mhp_cards.referee.actions import Action, FreeToken, PickDrawn, React, TakeRaw
from mhp_cards.referee.engine import apply
from mhp_cards.referee.scoring import printed_price, totals
from mhp_cards.referee.table import card_formula
from mhp_cards.rules.numbers import MISSION_DOUBLE
from mhp_cards.sim.holdings import (
    all_inputs,
    gap_of,
    inputs_held,
    missions_with_place,
    open_to,
    shared_holdings,
    tokens_needed,
)

__all__ = ["ChemistryPlay", "best_reaction"]


class ChemistryPlay:
    """The greedy bot's decisions on tokens, reactions and pile cards (see the module)."""

    catalog: Catalog
    _raw_formulas: Set[Formula]
    """The formulas of the raw kinds: a product no raw card supplies is worth keeping."""

    def _token_to_free(
        self, view: GameState, me: Player, frees: list[Action], reacts: list[Action]
    ) -> Action | None:
        """The token to free this turn, if one is worth freeing.

        Kept: a product that an installation takes and that no raw card supplies (ammonia);
        water or CO2 in a container is worth no more than the raw card it saves. At level 3 a
        sale to the Bank at the printed price scores what the product would (L3.P1), so one is
        always made. At levels 2 and head to head a token is freed only towards a run it
        unblocks (:meth:`_unblocking_free`).
        """
        inputs = all_inputs(view) - self._raw_formulas
        if view.level != "3":
            return self._unblocking_free(view, me, frees, reacts, inputs)
        sales = [
            a
            for a in frees
            if isinstance(a, FreeToken)
            and a.how == "sell-bank"
            and _product_formula(view, a) not in inputs
        ]
        return max(sales, key=lambda a: a.price) if sales else None

    def _unblocking_free(
        self,
        view: GameState,
        me: Player,
        frees: list[Action],
        reacts: list[Action],
        kept: Set[Formula],
    ) -> Action | None:
        """Levels 2 and head to head: the cheapest freeing towards a run the tokens block.

        The run: the most valuable one (:meth:`_run_value`) whose inputs the player holds but
        that the referee does not list, for want of free tokens or of a free place in one of
        its product containers. The freeing: a sale to the Bank or a dump of a product not in
        ``kept``, from the full container when one blocks the run; the one that costs the
        player's score least (a Bank short of money pays less than the price, a dump pays a
        fine), made only when that cost, once for every token still lacking, is below what
        the run brings.
        """
        freeable = [
            a
            for a in frees
            if isinstance(a, FreeToken)
            and a.how in ("sell-bank", "dump")
            and _product_formula(view, a) not in kept
        ]
        if not freeable:
            return None  # asked first: no run is worth looking for
        blocked = self._blocked_run(view, me, reacts)
        if blocked is None:
            return None
        installation, gain = blocked
        full = {
            (c.card, c.index)
            for c in installation.containers
            if c.role == "product"
            and None not in c.places
            and not missions_with_place(view, c.substance)
        }
        options = [
            a
            for a in freeable
            if not full
            or (
                a.product.installation == installation.number
                and (a.product.card, a.product.container) in full
            )
        ]
        if not options:
            return None
        before = totals(view, self.catalog)[me.id]
        # The cost depends on the substance, the way and the price only: worked out once each.
        by_kind: dict[tuple[Formula | None, str, int], int] = {}
        costs: dict[Action, int] = {}
        for action in options:
            assert isinstance(action, FreeToken)
            key = (_product_formula(view, action), action.how, action.price)
            if key not in by_kind:
                try:
                    after = apply(view, action, self.catalog)[0]
                except IllegalPlayError:
                    continue  # not one the referee listed for this view
                by_kind[key] = before - totals(after, self.catalog)[me.id]
            costs[action] = by_kind[key]
        if not costs:
            return None
        cheapest = min(costs, key=costs.__getitem__)
        short = max(1, tokens_needed(installation) - view.free_tokens(me.id))
        return cheapest if costs[cheapest] * short < gain else None

    def _price(self, substance: str) -> int:
        """The printed price of a substance."""
        return printed_price(self.catalog, substance)

    def _blocked_run(
        self, view: GameState, me: Player, reacts: list[Action]
    ) -> tuple[InstallationState, int] | None:
        """The most valuable installation whose inputs are held but whose run is not listed."""
        running = {a.installation for a in reacts if isinstance(a, React)}
        have = shared_holdings(self.catalog, view, me)
        best: tuple[InstallationState, int] | None = None
        for installation in open_to(view, me.id):
            if installation.number in running or not inputs_held(installation, have):
                continue
            gain = self._run_value(view, installation)
            if best is None or gain > best[1]:
                best = (installation, gain)
        return best

    def _run_value(
        self, view: GameState, installation: InstallationState, *, hoped: bool = False
    ) -> int:
        """What one run of the installation adds to the score at printed prices.

        Head to head a product placed on the Mission card counts double at once (V1.P1);
        at level 2 only once its mission is complete, which the run does not decide: counted
        double there only when ``hoped``.
        """
        value = 0
        for container in installation.containers:
            if container.role != "product":
                continue
            price = self._price(container.substance)
            placed = (hoped or view.level == "1v1") and missions_with_place(
                view, container.substance
            )
            value += price * MISSION_DOUBLE if placed else price
        return value

    def _pick(self, view: GameState, me: Player, picks: list[Action], rng: random.Random) -> Action:
        """Head to head: the drawn card that brings the installation nearest to running."""
        worth = self._card_worth(view, me)
        # A card beyond what the next run lacks still serves a later one (V1.3.R1 keeps it).
        taken = all_inputs(view)
        scores = {
            action: (worth(formula), formula in taken)
            for action in picks
            if isinstance(action, PickDrawn)
            for formula in (card_formula(self.catalog, action.card),)
        }
        top = max(scores.values())
        return rng.choice([action for action, score in scores.items() if score == top])

    def _card_worth(self, view: GameState, me: Player) -> Callable[[Formula | None], float]:
        """How near a raw card of a formula brings an installation to running, by its merit."""
        shared_too = view.level == "2"
        options = [
            installation
            for installation in view.installations
            if installation.owner == me.id or (shared_too and installation.owner is None)
        ]
        have = shared_holdings(self.catalog, view, me)
        wanted = [
            (installation, gap)
            for installation in options
            if (gap := gap_of(installation, have)) is not None
        ]
        # What a run brings for each token it takes: tokens, not cards, run short.
        merits: dict[int, float] = {}

        def merit(installation: InstallationState) -> float:
            if installation.number not in merits:
                value = self._run_value(view, installation, hoped=True)
                merits[installation.number] = value / tokens_needed(installation)
            return merits[installation.number]

        def worth(formula: Formula | None) -> float:
            best = 0.0
            for installation, gap in wanted:
                if formula in gap:
                    best = max(best, merit(installation) / sum(gap.values()))
            return best

        return worth

    def _take(self, view: GameState, me: Player, takes: list[Action], rng: random.Random) -> Action:
        """The pile card that brings an installation nearest to running; else any."""
        worth = self._card_worth(view, me)

        def top_card(action: Action) -> Formula | None:
            assert isinstance(action, TakeRaw)
            pile = view.piles[action.pile - 1]
            return card_formula(self.catalog, pile[-1]) if pile else None

        scores = {action: worth(top_card(action)) for action in takes}
        top = max(scores.values())
        return rng.choice([action for action in takes if scores[action] == top])


def _product_formula(view: GameState, action: FreeToken) -> Formula | None:
    for installation in view.installations:
        if installation.number == action.product.installation:
            for container in installation.containers:
                if (
                    container.card == action.product.card
                    and container.index == action.product.container
                ):
                    return formula_of(container.substance)
    return None


def best_reaction(
    view: GameState,
    reacts: list[Action],
    rng: random.Random,
    price: Callable[[str], int] | None = None,
) -> Action:
    """The reaction placing the most products on missions, each nearest completion.

    With ``price`` (a substance's printed price), first the reaction whose products are worth
    the most, those placed on the Mission card counted double (V1.P1; L2.P1 once complete).
    """
    free_places = {m.id: sum(t.count(None) for _, t in m.places) for m in view.missions}

    def worth(action: React) -> tuple[int, int, float]:
        installation = next(i for i in view.installations if i.number == action.installation)
        free = dict(free_places)
        choices = list(action.missions)
        value, placed, closeness = 0, 0, 0.0
        for container in installation.containers:
            if container.role != "product":
                continue
            worth_here = 0 if price is None else price(container.substance)
            # Places this reaction's earlier products took are no longer free.
            options = [m for m in missions_with_place(view, container.substance) if free[m]]
            # Without a choice the referee takes the first mission in card order (L2.M1).
            chosen = (choices.pop(0) if choices else options[0]) if options else None
            if chosen is None or not free[chosen]:
                value += worth_here
                continue
            value += worth_here * MISSION_DOUBLE
            placed += 1
            closeness += 1.0 / free[chosen]
            free[chosen] -= 1
        return value, placed, closeness

    scored = [(worth(a), a) for a in reacts if isinstance(a, React)]
    best = max(score for score, _ in scored)
    return rng.choice([a for score, a in scored if score == best])
