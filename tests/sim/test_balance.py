"""``mhp balance``: the soundness figures against their bounds, on the default and a broken game."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mhp_cards.resources import default_catalog_dir
from mhp_cards.sim.balance import ROWS, Row, balance, figures_of
from mhp_cards.sim.summary import Distribution, SeatRate, Summary


def _summary(level: str, players: int, **fields) -> Summary:
    games = fields.pop("games", 100)
    ended = {"mission": games, "field-empty": 0, "piles-empty": 0, "exhausted": 0}
    ended |= {"no-progress": 0, "step-cap": 0} | fields.pop("ended", {})
    rates = fields.pop("rates", [0.5] * players)
    spread = Distribution(median=1, p10=1, p90=1, max=1, total=games)
    return Summary(
        level=level,
        players=players,
        games=games,
        seed=0,
        policy=["greedy"] * players,
        ended=ended,
        missions=fields.pop("missions", {"M1": 25, "M2": 25, "M3": 25, "M4": 25}),
        first_completion_turn=None,
        wins_by_seat=[r * games for r in rates],
        seat_win_rate=[
            SeatRate(seat=s, rate=r, low=max(0, r - 0.05), high=min(1, r + 0.05))
            for s, r in enumerate(rates)
        ],
        steps=spread,
        rounds=spread,
        installations={},
        games_per_second=1.0,
    )


def _by_kind(figures):
    return {(f.figure, f.subject.split()[0]): f for f in figures}


def test_every_level_and_player_count_is_played() -> None:
    assert [(r.level, r.players) for r in ROWS] == [
        *(("1", n) for n in range(2, 6)),
        *(("2", n) for n in range(2, 6)),
        ("1v1", 2),
        *(("3", n) for n in range(2, 6)),
    ]


def test_a_stall_fails_at_levels_2_1v1_and_3_only() -> None:
    stalled = {"no-progress": 1, "mission": 99}
    for level in ("2", "1v1", "3"):
        figures = figures_of(_summary(level, 3 if level != "1v1" else 2, ended=stalled))
        stall = next(f for f in figures if f.figure == "stalls")
        assert (stall.value, stall.passed, stall.bound) == (1, False, "= 0")
    level_1 = figures_of(_summary("1", 3, ended=stalled))
    assert all(f.figure != "stalls" for f in level_1)


def test_the_step_cap_counts_as_a_stall() -> None:
    [stall] = [
        f for f in figures_of(_summary("3", 4, ended={"step-cap": 2})) if f.figure == "stalls"
    ]
    assert stall.value == 2
    assert not stall.passed


@pytest.mark.parametrize(("missions", "passed"), [(70, True), (69, False)])
def test_level_1_needs_70_percent_of_games_ended_by_a_mission(missions: int, passed: bool) -> None:
    summary = _summary("1", 3, ended={"mission": missions, "field-empty": 100 - missions})
    [figure] = [f for f in figures_of(summary) if f.figure == "mission-ends"]
    assert figure.value == pytest.approx(missions / 100)
    assert figure.passed is passed


def test_each_mission_needs_10_percent_of_the_completions() -> None:
    summary = _summary("2", 3, missions={"M1": 82, "M2": 9, "M3": 9, "M4": 0})
    shares = {f.subject.split()[0]: f for f in figures_of(summary) if f.figure == "mission-share"}
    assert {m: f.passed for m, f in shares.items()} == {
        "M1": True,
        "M2": False,
        "M3": False,
        "M4": False,
    }
    assert shares["M2"].value == pytest.approx(0.09)
    assert shares["M2"].subject == "M2 of 100 completed"


def test_no_completion_at_all_fails_every_mission() -> None:
    summary = _summary("3", 2, missions={"M1": 0, "M2": 0, "M3": 0, "M4": 0})
    shares = [f for f in figures_of(summary) if f.figure == "mission-share"]
    assert len(shares) == 4
    assert not any(f.passed for f in shares)


def test_head_to_head_has_no_mission_share() -> None:
    figures = figures_of(_summary("1v1", 2, missions={"M1": 0, "M2": 0, "M3": 0, "M4": 0}))
    assert {f.figure for f in figures} == {"stalls", "seat-wins"}


@pytest.mark.parametrize(
    ("rate", "passed"),
    # The interval is ±5 points here: a seat fails only when it lies wholly outside 45–55 %.
    [(0.5, True), (0.59, True), (0.61, False), (0.39, False), (0.41, True)],
)
def test_two_player_seats_pass_when_their_interval_reaches_45_to_55(
    rate: float, passed: bool
) -> None:
    summary = _summary("2", 2, rates=[rate, 1 - rate])
    seats = [f for f in figures_of(summary) if f.figure == "seat-wins"]
    assert [f.passed for f in seats] == [passed, passed]
    assert seats[0].bound == "45%–55%"


def test_more_players_have_no_seat_figure() -> None:
    assert all(f.figure != "seat-wins" for f in figures_of(_summary("2", 3)))


def test_a_short_run_measures_the_default_catalog(catalog) -> None:
    rows = [Row("1", 2), Row("1v1", 2)]
    report = balance(catalog, games=6, seed=3, workers=1, rows=rows)
    assert [(r.level, r.players, r.games) for r in report.runs] == [("1", 2, 6), ("1v1", 2, 6)]
    kinds = [(f.level, f.figure) for f in report.figures]
    assert kinds == [
        ("1", "mission-ends"),
        *([("1", "mission-share")] * 4),
        *([("1", "seat-wins")] * 2),
        ("1v1", "stalls"),
        *([("1v1", "seat-wins")] * 2),
    ]
    # The same seed gives the same figures.
    again = balance(catalog, games=6, seed=3, workers=1, rows=rows)
    assert again.figures == report.figures


@pytest.fixture
def broken_catalog(tmp_path: Path) -> Path:
    """The default game whose construction mission asks for 4 iron: level 2 can make only 3.

    Each run of installation 8, the only one that makes Fe, makes one Fe and takes one
    hematite card, and the deck holds 3. With 3 O2 places too the mission still adds up to
    raw cards at level 1 (Ca2 Si C2 H2 Fe4 O15 = 2 calcite, silica, water, 2 hematite), so
    the catalog validates.
    """
    target = tmp_path / "catalog"
    shutil.copytree(default_catalog_dir(), target)
    missions = target / "missions.yaml"
    text = missions.read_text(encoding="utf-8")
    for old, new in (
        (
            "        - {formula: H2O, count: 1}      # mixing water",
            "        - {formula: Fe, count: 4}\n"
            "        - {formula: O2, count: 3}\n"
            "        - {formula: H2O, count: 1}      # mixing water",
        ),
    ):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    missions.write_text(text, encoding="utf-8")
    return target


def test_cli_passes_a_short_run_of_the_default_catalog(cli) -> None:
    result = cli("balance", "--games", "4", "--seed", "2", "--workers", "1", "--level", "1v1")
    assert result.exit_code == 0, result.stdout
    lines = result.stdout.splitlines()
    assert lines[0] == "4 greedy games per table, seed 2"
    assert lines[1].startswith("head to head deals installations 1, 2, 3, 6, 7, 8, 9, 10")
    assert any(
        line.startswith("1v1   2       games ended by no-progress or step-cap") for line in lines
    )
    assert lines[-1] == "PASS: all 3 figures within their bounds"


def test_cli_fails_a_broken_catalog_and_names_the_figure(cli, broken_catalog: Path) -> None:
    # Four iron places: level 2 never completes M4, which falls below 10 % of completions.
    args = ("balance", "--games", "8", "--seed", "1", "--workers", "1", "--level", "2")
    result = cli(*args, "--catalog", str(broken_catalog))
    assert result.exit_code == 1, result.stdout
    failing = [line for line in result.stdout.splitlines() if line.endswith("FAIL")]
    m4_lines = [line for line in failing if " M4 of " in line]
    assert len(m4_lines) == 4, result.stdout
    assert all("0.0%" in line for line in m4_lines)
    assert result.stdout.splitlines()[-1].startswith("FAIL: ")

    as_json = cli(*args, "--catalog", str(broken_catalog), "--json")
    assert as_json.exit_code == 1
    document = json.loads(as_json.stdout)
    assert document["passed"] is False
    m4 = [
        f
        for f in document["figures"]
        if f["figure"] == "mission-share" and f["subject"].startswith("M4 ")
    ]
    assert len(m4) == 4
    assert all(f["value"] == 0 for f in m4)
    assert not any(f["passed"] for f in m4)
    assert [run["players"] for run in document["runs"]] == [2, 3, 4, 5]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--games", "0"), "--games must be at least 1, not 0"),
        (("--workers", "0"), "--workers must be at least 1, not 0"),
        (("--level", "4"), "--level must be one of 1, 2, 1v1, 3, not 4"),
    ],
)
def test_usage_errors_exit_2(cli, args: tuple[str, ...], message: str) -> None:
    result = cli("balance", *args)
    assert result.exit_code == 2
    assert message in result.stderr
