"""The engine benchmark runs, prints its table and fails on a correctness problem, never on speed.

Tiny parameters keep these fast; no timing is asserted. The script is run once as CI runs it
(a subprocess) and imported for the rest, with one piece of the engine broken on purpose to
see the benchmark exit 1.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import deal
from mhp_cards.issues import Issue
from mhp_cards.validate import load_catalog

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "engine_bench.py"
TINY = ["--levels", "2,1v1", "--games", "1", "--repeats", "1", "--chess-games", "1"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    # The script imports timing.py from beside it, as running it puts its folder on the path.
    sys.path.insert(0, str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("engine_bench", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["engine_bench"] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules["engine_bench"]
    sys.modules.pop("engine_games", None)
    sys.path.remove(str(SCRIPT.parent))


@pytest.fixture(scope="module")
def games(bench: ModuleType) -> ModuleType:
    """``benchmarks/engine_games.py``, the games the script imports from beside it."""
    return sys.modules["engine_games"]


def table(output: str) -> dict[str, list[str]]:
    """The table's rows by 'level players', split on runs of two spaces."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["level", "players"])
    rows = {}
    for line in lines[start + 2 :]:
        if not line.startswith("   ") or line.startswith("   ×"):
            break
        cells = [cell.strip() for cell in line.strip().split("  ") if cell.strip()]
        rows[f"{cells[0]} {cells[1]}"] = cells
    return rows


def test_runs_as_ci_runs_it_and_prints_the_table() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *TINY],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    header = done.stdout.splitlines()
    assert any(line.split()[:4] == ["level", "players", "games", "steps"] for line in header)
    rows = table(done.stdout)
    assert set(rows) >= {"2 2", "1v1 2"}
    if importlib.util.find_spec("chess") is not None:
        assert rows["chess 2"][8] == "1×"
        assert rows["1v1 2"][8].endswith("×")
    else:
        assert "python-chess not installed: reference skipped" in done.stdout
    assert "every timed replay identical" in done.stdout


def test_a_capped_game_is_counted_not_hidden(bench: ModuleType, capsys) -> None:
    assert bench.main([*TINY, "--step-cap", "3"]) == 0
    rows = table(capsys.readouterr().out)
    assert rows["2 2"][3] == "3"  # steps
    assert float(rows["2 2"][4]) >= 1  # legal actions per step, counted untimed
    assert rows["2 2"][9] == "1"  # capped
    assert rows["2 2"][10] == "capped 1"
    assert rows["1v1 2"][9] == "1"


def test_both_ways_of_choosing_get_a_table(bench: ModuleType, capsys) -> None:
    assert bench.main(TINY) == 0
    out = capsys.readouterr().out
    assert "Random games, uniform over actions (rng.choice of the list): 1 per level" in out
    assert "Random games, uniform over kinds (a kind, then an action): 1 per level" in out
    assert bench.main([*TINY, "--choice", "kinds"]) == 0
    out = capsys.readouterr().out
    assert "uniform over actions" not in out
    assert "uniform over kinds" in out


def test_uniform_over_kinds_picks_a_kind_first(games: ModuleType) -> None:
    import random

    from mhp_cards.referee import parse_action

    end = parse_action("end")
    sales = [parse_action(f"sell water-ice#{k}") for k in range(1, 10)]
    picks = [games.uniform_kind(random.Random(seed), [*sales, end]) for seed in range(200)]
    assert 60 < sum(pick is end for pick in picks) < 140  # about half, not a tenth


def test_an_unknown_choice_is_a_usage_error(bench: ModuleType, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        bench.main(["--choice", "moves"])
    assert exited.value.code == 2
    assert "unknown choice moves: expected some of actions, kinds" in capsys.readouterr().err


def test_the_game_mix_covers_two_to_five_players(bench: ModuleType) -> None:
    groups = bench.groups_for(("1", "1v1"), 8)
    assert [(g.level, g.players, g.seeds) for g in groups] == [
        ("1", 2, [0, 4]),
        ("1", 3, [1, 5]),
        ("1", 4, [2, 6]),
        ("1", 5, [3, 7]),
        ("1v1", 2, list(range(8))),
    ]


def test_coins_not_conserved_is_found(games: ModuleType, catalog) -> None:
    state = deal(catalog, "2", 3, 0)
    assert games.state_problems(state, catalog, full=True) == []
    richer = state.model_copy(update={"bank": state.bank + 1})
    problems = games.state_problems(richer, catalog, full=False)
    assert problems == ["coins not conserved: 51 in play, 50 expected"]


def test_a_status_problem_exits_1(
    bench: ModuleType, games: ModuleType, monkeypatch, capsys
) -> None:
    issue = Issue(check="status", message="two places for one card", rule="S9")
    monkeypatch.setattr(games, "status", lambda state, catalog: (issue,))
    assert bench.main(TINY) == 1
    out = capsys.readouterr().out
    assert "correctness failures" in out
    assert "status: [S9] two places for one card" in out
    assert "level players" not in " ".join(out.split())  # no timings after a failure


def test_a_listed_action_refused_exits_1(
    bench: ModuleType, games: ModuleType, monkeypatch, capsys
) -> None:
    def refuse(state, action, catalog):
        raise ValueError("not today")

    monkeypatch.setattr(games, "apply_action", refuse)
    assert bench.main(TINY) == 1
    assert "refused: not today" in capsys.readouterr().out


def test_a_game_that_does_not_replay_exits_1(bench: ModuleType, monkeypatch, capsys) -> None:
    played = bench.play

    def stopped_early(catalog, level, seed, cap, choice="actions"):
        return played(catalog, level, seed, 1, choice)

    monkeypatch.setattr(bench, "play", stopped_early)
    assert bench.main(TINY) == 1
    assert "a timed replay differs from the checked game" in capsys.readouterr().out


def test_profile_prints_the_top_cumulative_costs(bench: ModuleType, capsys) -> None:
    # Top 12: legal_actions is a child of the game loop, but a fast one, so with few rows a
    # pause inside apply's branch can rank several of its callees above it.
    assert bench.main(["--profile", "1v1", "--games", "1", "--top", "12"]) == 0
    out = capsys.readouterr().out
    assert "Profile of level 1v1, uniform over actions: 1 games" in out
    assert "the top 12 by cumulative time" in out
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["function", "calls"])
    rows = [line.split() for line in lines[start + 2 : start + 14]]
    assert not lines[start + 14].strip()  # exactly 12 functions
    # function, calls, own s, own %, "%", cumulative s, cumulative %, "%", per call, unit;
    # counted from the right, as a built-in's name has spaces
    assert rows[0][0].startswith("engine_bench.py:")
    assert rows[0][0].endswith("(games)")
    assert rows[0][-4:-2] == ["100.0", "%"]
    functions = [r[0] for r in rows]
    assert any(
        f.startswith("mhp_cards/referee/legal.py:") and f.endswith("(legal_actions)")
        for f in functions
    )
    cumulative = [float(r[-5]) for r in rows]
    assert cumulative == sorted(cumulative, reverse=True)


def test_profile_by_own_time(bench: ModuleType, capsys) -> None:
    assert bench.main(["--profile", "3", "--games", "1", "--top", "5", "--sort", "tottime"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["function", "calls"])
    own = [float(line.split()[-8]) for line in lines[start + 2 : start + 7]]
    assert own == sorted(own, reverse=True)
    assert "the top 5 by own time" in out


def test_an_unknown_level_is_a_usage_error(bench: ModuleType, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        bench.main(["--levels", "1,4"])
    assert exited.value.code == 2
    assert "unknown level 4: expected some of 1, 2, 1v1, 3" in capsys.readouterr().err


def test_without_python_chess_the_reference_is_skipped_aloud(
    bench: ModuleType, monkeypatch, capsys
) -> None:
    monkeypatch.setattr(bench.ChessRef, "load", staticmethod(lambda: None))
    assert bench.main(TINY) == 0
    out = capsys.readouterr().out
    assert "python-chess not installed: reference skipped" in out
    rows = table(out)
    assert "chess 2" not in rows
    assert rows["1v1 2"][8] == "-"


def test_a_level_named_twice_is_played_once(bench: ModuleType) -> None:
    assert bench.level_list("2, 1v1,2") == ("2", "1v1")


def first_plays(output: str, choice: str) -> dict[str, list[str]]:
    """The first plays' rows for one way of choosing, by level."""
    lines = output.splitlines()
    title = next(
        i for i, line in enumerate(lines) if line.startswith(f"First plays, uniform over {choice}")
    )
    rows = {}
    for line in lines[title + 3 :]:
        if not line.startswith("   ") or line.startswith("   ×"):
            break
        cells = [cell.strip() for cell in line.strip().split("  ") if cell.strip()]
        rows[cells[0]] = cells
    return rows


def test_first_plays_are_new_games_each_played_once(bench: ModuleType, capsys) -> None:
    assert bench.main([*TINY, "--repeats", "2"]) == 0
    out = capsys.readouterr().out
    for choice in ("actions", "kinds"):
        rows = first_plays(out, choice)
        assert set(rows) == {"2", "1v1"}
        assert rows["2"][1] == "2"  # games: 2 rounds of 1 new game
        assert int(rows["1v1"][2].replace(",", "")) > 0  # steps
        if importlib.util.find_spec("chess") is not None:
            assert rows["2"][4].endswith("×")
    assert "checked, untimed: 4 games and 8 first plays" in out


def test_a_first_play_that_does_not_replay_exits_1(
    bench: ModuleType, games: ModuleType, monkeypatch, capsys
) -> None:
    played = bench.play

    def short_when_new(catalog, level, seed, cap, choice="actions"):
        return played(catalog, level, seed, 1 if seed >= games.FRESH_SEEDS else cap, choice)

    monkeypatch.setattr(bench, "play", short_when_new)
    assert bench.main(TINY) == 1
    out = capsys.readouterr().out
    assert "a first play differs from its checked replay" in out
    assert "a timed replay differs" not in out  # the replayed games are as they were
