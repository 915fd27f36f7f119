"""The aggregate: Wilson intervals against published values, percentiles, shared wins."""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mhp_cards.catalog.models import Catalog
from mhp_cards.sim.result import GameResult
from mhp_cards.sim.summary import (
    Z95,
    Distribution,
    dispersion,
    games_to_decide,
    games_to_fit,
    games_to_leave,
    games_to_leave_median,
    games_to_leave_rate,
    median_interval,
    rate_interval,
    summarise,
    wilson,
)


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (no continuity
        # correction): 81/263, 15/148, 0/20, 1/29.
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_published_intervals(
    successes: int, trials: int, low: float, high: float
) -> None:
    got = wilson(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_is_exact_at_the_ends() -> None:
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(1, 10_000), st.data())
def test_wilson_contains_the_rate_and_narrows_with_trials(trials: int, data) -> None:
    successes = data.draw(st.integers(0, trials))
    low, high = wilson(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0
    wide = wilson(successes, trials)
    narrow = wilson(successes * 4, trials * 4)
    assert narrow[1] - narrow[0] <= wide[1] - wide[0] + 1e-12


def test_distribution_uses_nearest_rank_percentiles() -> None:
    dist = Distribution.of(list(range(1, 11)))  # 1..10
    assert (dist.median, dist.p10, dist.p90, dist.max) == (5.5, 1, 9, 10)
    single = Distribution.of([7])
    assert (single.median, single.p10, single.p90, single.max) == (7, 7, 7, 7)


def _result(index: int, winners: tuple[int, ...], ended_by: str, mission: str | None = None):
    return GameResult(index, index, 10 + index, 2, ended_by, mission, winners, ((2, 3),), None)


def test_a_tie_shares_the_win_and_every_mission_and_end_is_listed(catalog: Catalog) -> None:
    results = [
        _result(0, (0, 1), "field-empty"),
        _result(1, (1,), "mission", "M2"),
        _result(2, (2,), "step-cap"),
        _result(3, (0, 1, 2), "field-empty"),
    ]
    summary = summarise(
        results,
        catalog=catalog,
        level="1",
        players=3,
        seed=1,
        policies=["greedy"] * 3,
        elapsed=2.0,
    )
    third = 1 / 3
    assert summary.wins_by_seat == pytest.approx([0.5 + third, 1.5 + third, 1 + third])
    assert math.fsum(summary.wins_by_seat) == pytest.approx(4)
    assert summary.missions == {"M1": 0, "M2": 1, "M3": 0, "M4": 0}
    assert summary.ended["step-cap"] == 1
    assert summary.ended["piles-empty"] == 0
    assert summary.installations["2"] == 12
    assert summary.installations["1"] == 0
    # Every game ran installation 2 three times, and installation 1 never.
    assert summary.installation_runs_histogram["2"] == {"3": 4}
    assert summary.installation_runs_histogram["1"] == {"0": 4}
    assert summary.seat_win_rate[1].rate == pytest.approx((1.5 + third) / 4)
    assert summary.games_per_second == 2.0
    assert summary.first_completion_turn is None


@pytest.mark.parametrize(
    ("rate", "low", "high"),
    [(0.5, 0.45, 0.55), (0.489, 0.45, 0.55), (0.2, 0.15, 0.25), (0.31, 0.2833, 0.3833)],
)
def test_games_to_fit_is_the_fewest_games_whose_interval_fits(
    rate: float, low: float, high: float
) -> None:
    games = games_to_fit(rate, low, high)
    assert games is not None
    fits = wilson(rate * games, games)
    assert fits[0] >= low
    assert fits[1] <= high
    short = wilson(rate * (games - 1), games - 1)
    assert short[0] < low or short[1] > high


@pytest.mark.parametrize("rate", [0.45, 0.55, 0.6, 0.0])
def test_games_to_fit_has_no_answer_on_or_outside_the_band(rate: float) -> None:
    assert games_to_fit(rate, 0.45, 0.55) is None


@pytest.mark.parametrize(
    ("rate", "low", "high"),
    [(0.40, 0.45, 0.55), (0.58, 0.45, 0.55), (0.053, 0.10, 1.0), (0.0, 0.10, 1.0)],
)
def test_games_to_leave_is_the_fewest_games_whose_interval_lies_outside(
    rate: float, low: float, high: float
) -> None:
    games = games_to_leave(rate, low, high)
    assert games is not None

    def outside(trials: int) -> bool:
        below, above = wilson(rate * trials, trials)
        return above < low or below > high

    assert outside(games)
    assert not outside(games - 1)


@pytest.mark.parametrize("rate", [0.45, 0.5, 0.55])
def test_games_to_leave_has_no_answer_on_or_inside_the_band(rate: float) -> None:
    assert games_to_leave(rate, 0.45, 0.55) is None


@given(rate=st.floats(0.01, 0.99), width=st.floats(0.02, 0.3), centre=st.floats(0.1, 0.9))
def test_games_to_decide_fits_inside_and_leaves_outside(
    rate: float, width: float, centre: float
) -> None:
    low, high = centre - width / 2, centre + width / 2
    games = games_to_decide(rate, low, high)
    if rate in (low, high):
        assert games is None
        return
    inside = low < rate < high
    assert games == (games_to_fit(rate, low, high) if inside else games_to_leave(rate, low, high))


def test_the_runs_histogram_counts_each_game_once_with_its_runs_added_up(catalog: Catalog) -> None:
    results = [
        GameResult(0, 0, 10, 2, "mission", "M1", (0,), ((2, 1), (4, 2)), None),
        GameResult(1, 1, 10, 2, "mission", "M1", (0,), ((2, 2),), None),
        GameResult(2, 2, 10, 2, "mission", "M1", (0,), (), None),
    ]
    summary = summarise(
        results, catalog=catalog, level="2", players=2, seed=0, policies=["greedy"] * 2,
        elapsed=1.0,
    )  # fmt: skip
    histogram = summary.installation_runs_histogram
    assert histogram["2"] == {"0": 1, "1": 1, "2": 1}
    assert histogram["4"] == {"0": 2, "2": 1}
    for number, counts in histogram.items():
        assert sum(counts.values()) == 3
        assert (
            sum(int(runs) * games for runs, games in counts.items())
            == (summary.installations[number])
        )


@given(
    mean=st.floats(0, 5),
    games=st.integers(1, 2_000),
    spread=st.floats(1, 10),
)
def test_the_rate_interval_solves_its_score_equation(mean: float, games: int, spread: float):
    low, high = rate_interval(mean, games, spread)
    assert 0 <= low <= mean <= high
    # Each end is a rate λ whose own spread puts the mean at z standard errors from it:
    # (mean - λ)² = z² · spread · λ / games (the low end clipped at 0).
    for rate in (high, low) if low > 0 else (high,):
        assert (mean - rate) ** 2 == pytest.approx(Z95**2 * spread * rate / games, abs=1e-9)
    # More games narrow it; a wider spread widens it; a spread under 1 counts as 1.
    wider = rate_interval(mean, games, spread * 2)
    assert wider[0] <= low
    assert wider[1] >= high
    narrower = rate_interval(mean, games * 4, spread)
    assert narrower[1] - narrower[0] <= high - low
    assert rate_interval(mean, games, 0.3) == rate_interval(mean, games, 1.0)


def test_no_run_in_a_few_games_is_no_evidence_of_a_rare_installation() -> None:
    assert rate_interval(0.0, 5) == (0.0, pytest.approx(Z95**2 / 5))
    assert rate_interval(0.0, 5)[1] > 0.25  # 5 games without a run: the bound stays in reach
    assert rate_interval(0.0, 40)[1] < 0.25  # 40 games without one: it does not


def test_dispersion_is_the_variance_over_the_mean() -> None:
    counts = {0: 30, 1: 8, 3: 2}
    sample = [0] * 30 + [1] * 8 + [3] * 2
    expected = statistics.variance(sample) / statistics.mean(sample)
    assert dispersion(counts) == pytest.approx(expected)
    assert dispersion({0: 10}) == 1.0  # nothing ran: no spread to show
    assert dispersion({2: 1}) == 1.0  # one game


@given(mean=st.floats(0, 0.249), spread=st.floats(1, 4))
def test_games_to_leave_rate_is_the_fewest_games_whose_interval_lies_below(
    mean: float, spread: float
) -> None:
    games = games_to_leave_rate(mean, 0.25, spread)
    assert games is not None
    assert rate_interval(mean, games, spread)[1] < 0.25
    if games > 1:
        assert rate_interval(mean, games - 1, spread)[1] >= 0.25
    assert games_to_leave_rate(0.25, 0.25, spread) is None


@given(st.lists(st.integers(1, 40), min_size=1, max_size=300))
def test_the_median_interval_holds_the_median_between_two_of_the_games(lengths: list[int]):
    histogram = dict(Counter(lengths))
    low, high = median_interval(histogram)
    assert low in histogram
    assert high in histogram
    assert low <= statistics.median(lengths) <= high
    # Its ends are order statistics about z·√n/2 ranks either side of the middle.
    ordered = sorted(lengths)
    n = len(ordered)
    reach = Z95 * math.sqrt(n) / 2
    assert low == ordered[max(1, math.floor(n / 2 - reach)) - 1]
    assert high == ordered[min(n, math.ceil(n / 2 + 1 + reach)) - 1]


def test_the_median_interval_covers_the_true_median_about_95_times_in_100() -> None:
    # Samples of 60 game lengths from a known distribution whose median is 12.
    rng = random.Random(7)
    values = list(range(6, 19))  # 6 … 18, uniform: median 12
    covered = 0
    trials = 2_000
    for _ in range(trials):
        low, high = median_interval(Counter(rng.choice(values) for _ in range(60)))
        covered += low <= 12 <= high
    assert 0.93 <= covered / trials <= 0.995


@given(beyond=st.integers(6, 9), scale=st.integers(1, 3), over=st.booleans())
def test_games_to_leave_median_is_the_fewest_whose_interval_leaves(
    beyond: int, scale: int, over: bool
) -> None:
    # Of every 10 games, ``beyond`` last 6 rounds (or 18, ``over``) and the rest 12; the band
    # is 8–16.
    far = 18 if over else 6
    histogram = {far: beyond * scale, 12: (10 - beyond) * scale}
    needed = games_to_leave_median(histogram, 8, 16)
    assert needed is not None

    def outside(n: int) -> bool:  # the interval over n games of the same shares
        low, high = median_interval({far: n // 10 * beyond, 12: n // 10 * (10 - beyond)})
        return low > 16 if over else high < 8

    # At whole tens of games the shares are exact: the interval lies outside the band from the
    # first ten at or past ``needed`` on, and not at the tens before it.
    first = -(-needed // 10) * 10
    assert all(outside(n) for n in range(first, first + 200, 10))
    assert not any(outside(n) for n in range(10, first, 10))
    assert games_to_leave_median({6: 50, 12: 50}, 8, 16) is None
    assert games_to_leave_median({9: 50, 12: 50}, 8, 16) is None


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_seat_on_its_band_edge_but_for_rounding_names_no_games(players: int) -> None:
    # The seat band is 1/n ± 5 points, computed: 0.2 - 0.05 is 0.15000000000000002, and 3 wins
    # of 20 is 0.15. No number of games decides a rate on its bound (the search for one ran to
    # an astronomical count).
    fair = 1 / players
    low, high = fair - 0.05, fair + 0.05
    for games in (20, 40, 60, 100):
        for wins in range(games + 1):
            rate = wins / games
            if math.isclose(rate, low) or math.isclose(rate, high):
                assert games_to_decide(rate, low, high) is None
    assert 0.35 - 0.1 < 0.25  # a mean on the bound but for rounding
    assert games_to_leave_rate(0.35 - 0.1, 0.25) is None
