"""Per-round data: each round's scores replayed independently, and the curves built from them."""

from __future__ import annotations

import random

import pytest

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import GameState, deal
from mhp_cards.referee import Action, apply
from mhp_cards.referee.scoring import score
from mhp_cards.sim import GreedyBot, RandomBot, play_game, simulate
from mhp_cards.sim.result import GameResult
from mhp_cards.sim.summary import curves


class Recorder:
    def __init__(self, inner, log: list[Action]) -> None:
        self.inner = inner
        self.log = log

    def choose(self, seen: GameState, legal: list[Action], rng: random.Random) -> Action:
        action = self.inner.choose(seen, legal, rng)
        self.log.append(action)
        return action


@pytest.mark.parametrize(("level", "players", "seed"), [("1", 3, 5), ("2", 3, 4), ("3", 2, 2)])
def test_round_scores_are_the_scores_at_each_rounds_end(
    catalog: Catalog, level: str, players: int, seed: int
) -> None:
    """Replay the recorded actions on the full state and score it whenever a round ends."""
    log: list[Action] = []
    bots = [Recorder(GreedyBot(catalog) if s else RandomBot(), log) for s in range(players)]
    result = play_game(catalog, level, players, seed=seed, policies=bots, max_steps=600)
    state = deal(catalog, level, players=players, seed=seed)
    expected: list[tuple[int, ...]] = []
    completed: list[int] = []
    done: set[str] = set()
    for action in log:
        before = state.round
        turn = state.turn_number
        state, _ = apply(state, action, catalog)
        now = {m.id for m in state.missions if m.complete}
        now.update(mission for _, mission in state.claims)
        for mission in sorted(now - done):
            assert (mission, turn) in result.mission_turns
        done |= now
        if state.round > before:
            totals = score(state, catalog).totals
            expected.append(tuple(totals[p.id] for p in state.players))
            completed.append(len(done))
    totals = score(state, catalog).totals
    expected.append(tuple(totals[p.id] for p in state.players))
    completed.append(len(done))
    assert list(result.round_scores) == expected
    assert list(result.round_missions) == completed
    assert len(result.round_scores) == result.rounds
    assert {m for m, _ in result.mission_turns} == done
    if result.mission_turns:
        assert result.first_completion_turn == min(t for _, t in result.mission_turns)


def _result(index: int, scores: list[tuple[int, ...]], missions: list[int]) -> GameResult:
    return GameResult(
        index=index,
        seed=index,
        steps=10,
        rounds=len(scores),
        ended_by="mission" if missions[-1] else "field-empty",
        mission=None,
        winners=(0,),
        reactions=(),
        first_completion_turn=None,
        round_scores=tuple(scores),
        round_missions=tuple(missions),
    )


def test_the_bands_are_over_the_games_still_played_and_missions_carry_forward() -> None:
    results = [
        _result(0, [(1, 0), (2, 5)], [0, 1]),
        _result(1, [(3, 1), (4, 2), (9, 9), (10, 9)], [0, 0, 0, 0]),
        _result(2, [(2, 2), (6, 2), (7, 3)], [0, 1, 2]),
    ]
    made = curves(results, players=2)
    assert made is not None
    assert made.rounds == [1, 2, 3, 4]
    assert made.playing == [3, 3, 2, 1]
    # Seat 0 in round 3: games 1 and 2 only (9 and 7); round 4: game 1 only.
    assert made.score[0].median[2] == 8.0
    assert made.score[0].median[3] == 10.0
    assert made.score[0].p10[0] == 1.0
    assert made.score[0].p90[0] == 3.0
    # Missions by round over every game: game 0 keeps its 1 and game 2 its 2 after they end.
    assert made.missions_completed.p90 == [0.0, 1.0, 2.0, 2.0]
    assert made.with_mission == pytest.approx([0.0, 2 / 3, 2 / 3, 2 / 3], abs=1e-6)


def test_no_recorded_rounds_gives_no_curves() -> None:
    old = GameResult(0, 0, 1, 1, "mission", None, (0,), (), None)
    assert curves([old], players=2) is None


@pytest.mark.parametrize(("level", "players"), [("1", 3), ("2", 4), ("1v1", 2), ("3", 3)])
def test_the_summary_curves_agree_with_the_other_figures(
    catalog: Catalog, level: str, players: int
) -> None:
    summary = simulate(catalog, level, players, 8, seed=3, max_steps=400, workers=1)
    made = summary.curves
    assert made is not None
    assert made.playing[0] == summary.games
    assert made.playing == sorted(made.playing, reverse=True)
    assert len(made.rounds) == summary.rounds.max
    histogram = {int(k): v for k, v in summary.rounds_histogram.items()}
    assert sum(histogram.values()) == summary.games
    assert list(histogram) == sorted(histogram)
    for n, playing in enumerate(made.playing, start=1):
        assert playing == sum(v for k, v in histogram.items() if k >= n)
    assert len(made.score) == players
    for band in [*made.score, made.missions_completed]:
        assert len(band.median) == len(made.rounds)
        assert all(
            lo <= mid <= hi for lo, mid, hi in zip(band.p10, band.median, band.p90, strict=True)
        )
    assert made.with_mission == sorted(made.with_mission)
    assert (made.with_mission[-1] > 0) == (summary.first_completion_turn is not None)
    assert set(summary.mission_first_turn) == set(summary.missions)
    for mission, won in summary.missions.items():
        if won:  # a mission that won a game was completed in it
            assert summary.mission_first_turn[mission] is not None
