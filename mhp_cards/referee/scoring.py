"""Scores at the end (or in the middle) of a game, line by line, with the rules they rest on.

Level 1 (L1.E3): raw cards held plus money; a completed mission wins outright (L1.E2).
Level 2 and 3 (L2.P1, L3.P1): the value of every substance under the player's tokens on their
own and shared installations, plus the substances on the Mission card (doubled on a completed
mission), plus money. Head to head (V1.P1): every substance on the Mission card counts double.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState
from mhp_cards.game.tablememo import TableMemo
from mhp_cards.referee.reasons import written
from mhp_cards.referee.ruling import Ruling, Verdict
from mhp_cards.rules.numbers import MISSION_DOUBLE

__all__ = ["Line", "Score", "printed_price", "score", "totals"]


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a score: what it counts, its value, the rule."""

    player: str
    what: str
    value: int
    rule: str


@dataclass(frozen=True, slots=True)
class Score:
    """Every player's total, the breakdown and the winners."""

    totals: dict[str, int]
    lines: tuple[Line, ...]
    winners: tuple[str, ...]
    ruling: Ruling


def score(state: GameState, catalog: Catalog) -> Score:
    """The score of every player by the level's rule, with a breakdown and the winner(s)."""
    if state.level == "1":
        rule = "L1.E3"
        rules: tuple[str, ...] = ("L1.E3", "L1.E3.R1")
    else:
        rule = {"2": "L2.P1", "1v1": "V1.P1", "3": "L3.P1"}[state.level]
        rules = (rule, "L2.P1.R1")
    lines = [
        Line(player, _what(about), value, rule) for player, value, about in _items(state, catalog)
    ]
    totals = {player.id: 0 for player in state.players}
    for line in lines:
        totals[line.player] += line.value
    if state.claims:
        # Everyone who announced a mission in the last round shares the win (L2.E1-round).
        winners: tuple[str, ...] = tuple(dict.fromkeys(player for player, _ in state.claims))
        rules = ("L1.E2",) if state.house_rules.ends_at_once else ("L1.E2", "L2.E1-round")
    else:
        best = max(totals.values())
        winners = tuple(player for player, total in totals.items() if total == best)
    verdict: Verdict = "ended" if state.ended else "score"
    ruling = Ruling(
        verdict,
        rules,
        "score.totals",
        MappingProxyType(
            {
                "totals": totals,
                "winners": list(winners),
                "lines": [
                    {
                        "player": line.player,
                        "what": line.what,
                        "value": line.value,
                        "rule": line.rule,
                    }
                    for line in lines
                ],
                "ended": state.ended,
                "end_reason": state.end_reason,
            }
        ),
    )
    return Score(totals, tuple(lines), winners, ruling)


def totals(state: GameState, catalog: Catalog) -> dict[str, int]:
    """Every player's total as :func:`score` counts it, without the breakdown's words."""
    sums = {player.id: 0 for player in state.players}
    if state.level == "1":
        for player in state.players:
            sums[player.id] += len(player.raw_cards) + player.money
        return sums
    for owner, value in _token_totals(state, catalog).items():
        sums[owner] += value
    for player in state.players:
        sums[player.id] += player.money
    return sums


def _token_totals(state: GameState, catalog: Catalog) -> dict[str, int]:
    """What the substances under each player's tokens score (levels 2 and 3, head to head).

    It reads the level, the installations and the Mission card alone: remembered for the
    values of those (kept alive, so their ids stay theirs), which the states of a game share
    until a token moves. The lookahead bot asks it of every action it weighs.
    """
    known = _TOKEN_TOTALS.get(state, catalog, state.level)
    if known is not None:
        return known
    sums: dict[str, int] = {}
    for player, value, _ in _token_items(state, catalog):
        sums[player] = sums.get(player, 0) + value
    return _TOKEN_TOTALS.put(state, catalog, sums, state.level)


_TOKEN_TOTALS: TableMemo[dict[str, int]] = TableMemo(4096)


def _items(state: GameState, catalog: Catalog) -> Iterator[tuple[str, int, tuple[Any, ...]]]:
    """Each scored item by the level's rule: whose it is, its value and what it is."""
    if state.level == "1":
        for player in state.players:
            yield player.id, len(player.raw_cards), ("raw", len(player.raw_cards))
            yield player.id, player.money, ("money",)
        return
    yield from _token_items(state, catalog)
    for player in state.players:
        yield player.id, player.money, ("money",)


def _token_items(state: GameState, catalog: Catalog) -> Iterator[tuple[str, int, tuple[Any, ...]]]:
    """The scored substances under tokens, on installations and the Mission card (not level 1)."""
    prices = _prices(catalog)
    for installation in state.installations:
        for container in installation.containers:
            for token in container.places:
                if token is None:
                    continue
                price = _price(prices, catalog, container.substance)
                yield token, price, ("container", container, installation.number)
    complete = state.complete_missions()
    for mission in state.missions:
        double = mission.id in complete or state.level == "1v1"
        for formula, tokens in mission.places:
            price = _price(prices, catalog, formula)
            for token in tokens:
                if token is None:
                    continue
                yield (
                    token,
                    price * MISSION_DOUBLE if double else price,
                    ("mission", formula, mission, double),
                )


def _prices(catalog: Catalog) -> dict[str, int]:
    """The price of each substance by the formula text it is named by, as they are asked for."""
    return catalog.memo("referee.scoring-prices")


def printed_price(catalog: Catalog, formula: str) -> int:
    """The printed price of the substance named ``formula`` (L2.P1), kept with the catalog."""
    return _price(_prices(catalog), catalog, formula)


def _price(prices: dict[str, int], catalog: Catalog, formula: str) -> int:
    """The price of the substance named ``formula``, remembered in ``prices``."""
    price = prices.get(formula)
    if price is None:
        price = prices[formula] = catalog.substance(formula).price
    return price


def _what(about: tuple[Any, ...]) -> str:
    """The words of a score line for what :func:`_items` says an item is."""
    match about:
        case ("raw", count):
            return f"{count} raw cards"
        case ("container", container, number):
            return f"{container.substance} on {container.card} (installation {number})"
        case ("mission", formula, mission, double):
            return f"{formula} on mission {mission.id}{' ×2' if double else ''}"
    return "money"


@written("score.totals")
def _totals(values: Mapping[str, Any]) -> tuple[str, str]:
    shown = ", ".join(f"{p} {t}" for p, t in values["totals"].items())
    winners = values["winners"]
    win_ru = "победа: " + ", ".join(winners)
    win_en = "winner" + ("s" if len(winners) > 1 else "") + ": " + ", ".join(winners)
    return f"Очки: {shown}; {win_ru}.", f"Scores: {shown}; {win_en}."
