"""``mhp referee``: mission, check, apply, score, legal — exit codes, text, JSON, languages,
and clean errors (never a traceback) for bad cards, actions and state files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mhp_cards.game import GameState, deal, status
from mhp_cards.referee import apply, legal_actions, parse_action, score
from mhp_cards.validate import load_catalog

CATALOG = load_catalog()
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
M1_CARDS = "CO2, H2O, CO2, H2O, H2O, H2O"  # C2 H8 O8: all of M1 (2 CH4 + 4 O2)


def no_traceback(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stdout
    assert "Traceback" not in result.stderr


@pytest.fixture
def game(tmp_path: Path, cli) -> Path:
    """Level 1, two players, seed 3, dealt by the CLI: red on the Base, red to play."""
    path = tmp_path / "game.json"
    result = cli(
        "setup", "deal", "--level", "1", "--players", "2", "--seed", "3", "--out", str(path)
    )
    assert result.exit_code == 0, result.stderr
    return path


def write(path: Path, state: GameState) -> Path:
    path.write_text(state.to_json() + "\n", encoding="utf-8")
    return path


# --- referee mission ------------------------------------------------------------------------------


def test_mission_complete_exits_0(cli) -> None:
    result = cli("referee", "mission", "--mission", "M1", "--cards", M1_CARDS)
    no_traceback(result)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("COMPLETE: Mission M1")
    assert "C2H8O8" in lines[0]
    assert lines[1] == "rules: L1.E1, L1.E1.R1, L1.E1.R2"
    assert any(line.strip().startswith("L1.E1 — ") for line in lines)


def test_mission_incomplete_exits_1_with_what_is_missing(cli) -> None:
    # 2 CO2 + O2 + H2O is C2 H2 O7 of C2 H8 O8; a third CO2 would bring a third carbon.
    result = cli("referee", "mission", "--mission", "M1", "--cards", "CO2, O2, H2O, CO2, CO2")
    no_traceback(result)
    assert result.exit_code == 1
    first = result.stdout.splitlines()[0]
    assert first.startswith("INCOMPLETE: Mission M1 is not complete")
    assert "missing H6O" in first
    assert result.stderr == ""


def test_mission_incomplete_json_lists_the_missing_elements(cli) -> None:
    # M4 is Ca2 Si S C2 H2 O12; these cards hold Ca Si S C H2 O9: one CaCO3 short.
    cards = "SiO2, CaSO4, H2O, CO2"
    result = cli("referee", "mission", "--mission", "M4", "--cards", cards, "--json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["verdict"] == "incomplete"
    assert document["facts"]["missing"] == {"Ca": 1, "C": 1, "O": 3}


def test_mission_reads_cyrillic_look_alikes_and_says_so(cli) -> None:
    result = cli("referee", "mission", "--mission", "M1", "--cards", "СО2, Н2О, H2O, CO2, H2O, H2O")
    no_traceback(result)
    assert result.exit_code == 0
    assert "note: read 'СО2' as 'CO2' (Cyrillic letters that look Latin)" in result.stdout
    assert "note: read 'Н2О' as 'H2O' (Cyrillic letters that look Latin)" in result.stdout
    assert "COMPLETE" in result.stdout
    as_json = cli("referee", "mission", "--mission", "M1", "--cards", "Н2О, CO2", "--json")
    assert json.loads(as_json.stdout)["notes"] == [
        "read 'Н2О' as 'H2O' (Cyrillic letters that look Latin)"
    ]


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("CO2, H2O, Xq2", "'Xq2' is no raw card"),
        ("NaOH", "no raw card with the formula NaOH"),
        (" , ", "no cards named"),
        ("unobtainium#3", "is no raw card"),
    ],
)
def test_mission_unknown_card_exits_1_cleanly(cli, cards, message) -> None:
    result = cli("referee", "mission", "--mission", "M1", "--cards", cards)
    no_traceback(result)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert message in result.stderr
    assert "the deck has" in result.stderr or "no cards named" in result.stderr


def test_mission_unknown_mission_exits_1_cleanly(cli) -> None:
    result = cli("referee", "mission", "--mission", "M9", "--cards", "H2O")
    no_traceback(result)
    assert result.exit_code == 1
    assert "no mission 'M9'" in result.stderr
    assert "M1, M2, M3, M4" in result.stderr


def test_mission_json(cli) -> None:
    result = cli("referee", "mission", "--mission", "M1", "--cards", M1_CARDS + ", NaCl", "--json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["verdict"] == "complete"
    assert document["rules"] == ["L1.E1", "L1.E1.R1", "L1.E1.R2"]
    assert set(document["reason"]) == {"ru", "en"}
    assert CYRILLIC.search(document["reason"]["ru"])
    assert "complete" in document["reason"]["en"]
    used = document["facts"]["cards_used"]
    assert sorted(used) == sorted(["carbon-dioxide"] * 2 + ["water-ice"] * 4)
    assert document["facts"]["needed"] == {"C": 2, "H": 8, "O": 8}
    assert document["house_rules"] == []
    assert document["notes"] == []


def test_mission_in_russian(cli) -> None:
    result = cli("referee", "mission", "--mission", "M1", "--cards", M1_CARDS, "--lang", "ru")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("COMPLETE: Миссия M1")
    assert "L1.E1 — Конец игры" in result.stdout
    english = cli("referee", "mission", "--mission", "M1", "--cards", M1_CARDS)
    assert not CYRILLIC.search(english.stdout.splitlines()[0].replace("мР", ""))


def test_mission_house_rules(cli) -> None:
    cards = M1_CARDS + ", NaCl"
    default = cli("referee", "mission", "--mission", "M1", "--cards", cards)
    assert default.exit_code == 0
    whole = cli(
        "referee", "mission", "--mission", "M1", "--cards", cards, "--house-rule", "whole-hand"
    )
    assert whole.exit_code == 1
    assert "house rules in force: whole-hand" in whole.stdout
    least = cli(
        "referee",
        "mission",
        "--mission",
        "M1",
        "--cards",
        "CO2, CO2, CO2, H2O, H2O, H2O, H2O",  # C3 H8 O10: at least C H4 O6, never exactly
        "--house-rule",
        "at-least",
        "--json",
    )
    assert least.exit_code == 0
    assert json.loads(least.stdout)["house_rules"] == ["at-least"]


def test_mission_unknown_house_rule_is_refused(cli) -> None:
    result = cli(
        "referee",
        "mission",
        "--mission",
        "M1",
        "--cards",
        M1_CARDS + ", NaCl",
        "--house-rule",
        "wholehand",
    )
    no_traceback(result)
    assert result.exit_code == 2  # an option value outside its choices, like --level 4
    assert "wholehand" in result.stderr


# --- referee check --------------------------------------------------------------------------------


def test_check_allowed_exits_0(cli, game) -> None:
    result = cli("referee", "check", str(game), "move 4,2 4,1")
    no_traceback(result)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("ALLOWED: ")
    assert lines[1] == "rules: L1.T1, L1.T2"


def test_check_forbidden_exits_1_with_the_rule(cli, game) -> None:
    result = cli("referee", "check", str(game), "move 4,2")
    no_traceback(result)
    assert result.exit_code == 1
    assert result.stdout.startswith("FORBIDDEN: ")
    assert "rules: L1.T1, L1.T2" in result.stdout
    assert "L1.T2 — First move from the Base" in result.stdout
    ended = cli("referee", "check", str(game), "end", "--json")
    assert ended.exit_code == 1
    document = json.loads(ended.stdout)
    assert document["verdict"] == "forbidden"
    assert document["rules"] == ["L1.T1"]
    assert CYRILLIC.search(document["reason"]["ru"])


def test_check_in_russian(cli, game) -> None:
    result = cli("referee", "check", str(game), "end", "--lang", "ru")
    assert result.exit_code == 1
    assert result.stdout.startswith("FORBIDDEN: Сначала ход комбайном")
    assert "L1.T1 — Ход комбайна" in result.stdout


def test_check_reads_a_json_action(cli, game) -> None:
    action = json.dumps({"kind": "move", "path": [[4, 2], [4, 1]]})
    result = cli("referee", "check", str(game), action, "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["verdict"] == "allowed"
    forbidden = cli("referee", "check", str(game), json.dumps({"kind": "move", "path": [[4, 2]]}))
    assert forbidden.exit_code == 1


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ('{"kind": "fly"}', "not an action"),
        ("{not json", "not an action"),
        ("fly 3,4", "unknown action 'fly'"),
        ("move 3;4", "not a cell"),
        ("", "empty action"),
    ],
)
def test_check_bad_action_exits_1_cleanly(cli, game, action, message) -> None:
    result = cli("referee", "check", str(game), action)
    no_traceback(result)
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ")
    assert message in result.stderr


# --- referee apply --------------------------------------------------------------------------------


def test_apply_writes_the_new_state_and_leaves_the_input(cli, game, tmp_path) -> None:
    before = game.read_bytes()
    out = tmp_path / "after.json"
    result = cli("referee", "apply", str(game), "move 4,2 4,1", "--out", str(out))
    no_traceback(result)
    assert result.exit_code == 0
    assert game.read_bytes() == before
    written = GameState.from_json(out.read_text(encoding="utf-8"))
    expected, events = apply(
        GameState.from_json(before.decode()), parse_action("move 4,2 4,1"), CATALOG
    )
    assert written == expected
    assert not status(written, CATALOG)
    assert f"  • {events[0].en}" in result.stdout
    assert "collected" in result.stdout
    assert result.stdout.rstrip().endswith(f"wrote {out}")


def test_apply_lists_every_event(cli, game, tmp_path) -> None:
    state = GameState.from_json(game.read_text(encoding="utf-8"))
    red = state.players[0].combine.model_copy(update={"position": (4, 1), "moved": True})
    blue = state.players[1].combine.model_copy(update={"position": (4, 0), "moved": True})
    players = (
        state.players[0].model_copy(update={"combine": red}),
        state.players[1].model_copy(update={"combine": blue}),
    )
    path = write(tmp_path / "face-off.json", state.model_copy(update={"players": players}))
    result = cli("referee", "apply", str(path), "move 4,0", "--lang", "ru")
    assert result.exit_code == 0
    bullets = [line for line in result.stdout.splitlines() if line.startswith("  • ")]
    assert len(bullets) == 2
    assert "Напал" in bullets[1]
    as_json = cli("referee", "apply", str(path), "move 4,0", "--json")
    document = json.loads(as_json.stdout)
    assert [e["kind"] for e in document["events"]] == ["move", "attack"]
    assert document["ruling"]["verdict"] == "allowed"
    assert "L1.T4" in document["ruling"]["rules"]
    # The attack waits for its dice: no winner yet, no spoils.
    assert document["state"]["fight"] == {
        "attacker": "red",
        "defender": "blue",
        "cell": [4, 0],
        "rounds": [],
        "winner": None,
        "taken": None,
    }


def test_apply_forbidden_writes_nothing(cli, game, tmp_path) -> None:
    out = tmp_path / "after.json"
    result = cli("referee", "apply", str(game), "end", "--out", str(out))
    no_traceback(result)
    assert result.exit_code == 1
    assert not out.exists()
    assert result.stdout.startswith("FORBIDDEN")
    as_json = cli("referee", "apply", str(game), "end", "--json")
    assert as_json.exit_code == 1
    document = json.loads(as_json.stdout)
    assert document["state"] is None
    assert document["events"] == []


def test_apply_chain_of_states(cli, game, tmp_path) -> None:
    first, second = tmp_path / "1.json", tmp_path / "2.json"
    assert cli("referee", "apply", str(game), "move 4,2 4,1", "--out", str(first)).exit_code == 0
    assert cli("referee", "apply", str(first), "end", "--out", str(second)).exit_code == 0
    state = GameState.from_json(second.read_text(encoding="utf-8"))
    assert state.current.id == "blue"
    assert state.turn_number == 1


# --- referee score and legal ----------------------------------------------------------------------


def test_score(cli, game, tmp_path) -> None:
    after = tmp_path / "after.json"
    cli("referee", "apply", str(game), "move 4,2 4,1", "--out", str(after))
    result = cli("referee", "score", str(after))
    no_traceback(result)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert any("2 raw cards" in line and "[L1.E3]" in line for line in lines)
    assert "SCORE: Scores: red 2, blue 0; winner: red." in lines
    document = json.loads(cli("referee", "score", str(after), "--json").stdout)
    expected = score(GameState.from_json(after.read_text(encoding="utf-8")), CATALOG)
    assert document["facts"]["totals"] == expected.totals == {"red": 2, "blue": 0}
    assert document["facts"]["winners"] == ["red"]
    assert document["rules"] == ["L1.E3", "L1.E3.R1"]
    ru = cli("referee", "score", str(after), "--lang", "ru")
    assert "Очки: red 2, blue 0; победа: red." in ru.stdout


def test_score_tie_shares_the_win(cli, game) -> None:
    result = cli("referee", "score", str(game), "--json")
    document = json.loads(result.stdout)
    assert document["facts"]["winners"] == ["red", "blue"]
    assert "winners: red, blue" in document["reason"]["en"]


def test_legal(cli, game, tmp_path) -> None:
    result = cli("referee", "legal", str(game))
    no_traceback(result)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "red may:"
    assert len(lines) == 1 + 12
    assert "  move 4,2 4,1" in lines, "the text form a player types"
    document = json.loads(cli("referee", "legal", str(game), "--json").stdout)
    state = GameState.from_json(game.read_text(encoding="utf-8"))
    listed = legal_actions(state, CATALOG)
    assert [entry.pop("text") for entry in document] == [line.strip() for line in lines[1:]]
    assert document == [a.model_dump(mode="json", exclude_none=True) for a in listed]
    assert [parse_action(line.strip()) for line in lines[1:]] == listed


def test_legal_level_2(cli, tmp_path) -> None:
    path = write(tmp_path / "l2.json", deal(CATALOG, "2", 3, 3))
    document = json.loads(cli("referee", "legal", str(path), "--json").stdout)
    assert document == [{"text": f"take {n}", "kind": "take", "pile": n} for n in (1, 2, 3)]


# --- bad state files ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "apply", "score", "legal"])
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no state file"),
        ("{not json", "not a game state"),
        ("[1, 2]", "not a game state"),
        ('{"level": "1"}', "not a game state"),
        ('{"version": 1, "level": "7", "seed": 1, "rng": 1, "players": []}', "not a game state"),
    ],
    ids=["missing", "not-json", "a-list", "incomplete", "invalid"],
)
def test_bad_state_file_exits_1_cleanly(cli, tmp_path, command, content, message) -> None:
    path = tmp_path / "state.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    args = ["referee", command, str(path)]
    if command in ("check", "apply"):
        args.append("end")
    result = cli(*args)
    no_traceback(result)
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ")
    assert message in result.stderr


def broken_states() -> dict[str, GameState]:
    state = deal(CATALOG, "1", 2, 3)
    red = state.players[0]
    return {
        "turn-out-of-range": state.model_copy(update={"turn": 7}),
        "level-1-without-a-field": state.model_copy(update={"field": None}),
        "unknown-raw-card": state.model_copy(
            update={
                "players": (
                    red.model_copy(update={"raw_cards": ("unobtainium#1",)}),
                    *state.players[1:],
                )
            }
        ),
    }


EXPECTED_RULE = {
    "turn-out-of-range": "[L1.T1] turn 7 names no player",
    "level-1-without-a-field": "raw card(s) are nowhere",
    "unknown-raw-card": "[L1.S3] raw card 'unobtainium#1'",
}


@pytest.mark.parametrize("name", sorted(broken_states()))
@pytest.mark.parametrize("command", ["legal", "check", "apply", "score"])
def test_inconsistent_state_file_exits_1_cleanly(cli, tmp_path, name, command) -> None:
    """A state that parses but breaks the rules (a turn naming no player, a level-1 game
    without a field, an unknown raw card) is refused with its problems and their rules."""
    path = write(tmp_path / "state.json", broken_states()[name])
    action = {"unknown-raw-card": "claim M1"}.get(name, "end")
    args = ["referee", command, str(path)] + ([action] if command in ("check", "apply") else [])
    result = cli(*args)
    no_traceback(result)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: {path} is not a consistent game state:")
    assert EXPECTED_RULE[name] in result.stderr


def test_mission_status_of_a_level_2_game(cli, tmp_path) -> None:
    state = deal(CATALOG, "2", 2, 3)
    path = write(tmp_path / "l2.json", state)
    result = cli("referee", "mission", "--state", str(path))
    no_traceback(result)
    assert result.exit_code == 1  # no mission complete yet
    assert result.stdout.startswith("INCOMPLETE: M1: 0/6 places")
    document = json.loads(
        cli("referee", "mission", "--state", str(path), "--mission", "M3", "--json").stdout
    )
    assert document["facts"]["missions"][0]["places"] == 4  # CO(NH2)2, CO2, O2 ×2
    level_1 = cli(
        "referee", "mission", "--state", str(write(tmp_path / "l1.json", deal(CATALOG, "1", 2, 3)))
    )
    assert level_1.exit_code == 1
    assert level_1.stdout.startswith("OUTSIDE-RULES")
    neither = cli("referee", "mission")
    no_traceback(neither)
    assert neither.exit_code == 2
    assert "--state" in neither.stderr
