"""The JSON API of ``mhp serve`` through Starlette's TestClient: every endpoint, its refusals.

The scenes are real games dealt with seed 7 at level 1 for two players (red, blue): red's
``move 3,3 2,3`` collects sulfur#8 and oxygen#5; blue's same move attacks red (a fight),
while blue's ``move 3,3 3,2`` collects nitrogen#4.
Every answer is validated against the committed schema (catalog/schema/serve-api.schema.json).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from starlette.testclient import TestClient

from mhp_cards.catalog.models import Catalog
from mhp_cards.game import deal, view
from mhp_cards.game.state import GameState
from mhp_cards.referee import action_from_json, apply, format_action, parse_action
from mhp_cards.rules.rulebook import load_rulebook
from mhp_cards.sim.bots import GreedyBot
from tests.serve.conftest import conforms, full_combine_game, new_game

RED_MOVE = "move 3,3 2,3"


def play(client: TestClient, game: dict[str, Any], action: Any, status: int = 200) -> Any:
    """Post an action at the game's current version; check the status; the answer."""
    version = client.get(f"/api/games/{game['id']}").json()["version"]
    answer = client.post(
        f"/api/games/{game['id']}/actions", json={"action": action, "version": version}
    )
    assert answer.status_code == status, answer.text
    conforms(answer.json(), "ActionResult" if status < 400 else "Error")
    return answer.json()


def fight_pending(client: TestClient) -> dict[str, Any]:
    game = new_game(client)
    for action in (RED_MOVE, "end", RED_MOVE):
        play(client, game, action)
    return game


# Health, new games, the list ---------------------------------------------------------------------


def test_health(client: TestClient) -> None:
    answer = client.get("/api/health")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "version": "0.1.0", "games": 0}
    conforms(answer.json(), "Health")


def test_a_new_game_is_the_dealers_game(client: TestClient, catalog: Catalog) -> None:
    answer = client.post(
        "/api/games",
        json={"level": "1", "players": 3, "seed": 11, "house_rules": ["armour-sum"]},
    )
    assert answer.status_code == 201
    body = answer.json()
    conforms(body, "Game")
    expected = deal(catalog, "1", 3, 11, house_rules=["armour-sum"])
    assert GameState.model_validate(body["state"]) == expected
    assert body["version"] == 1
    assert body["players"] == [p.id for p in expected.players]
    assert body["end"] is None
    assert body["pending"] is None
    assert body["turn"] == expected.current.id


def test_a_new_game_takes_the_field_shape(client: TestClient, catalog: Catalog) -> None:
    body = new_game(client, shape="cross", seed=3)
    assert body["state"]["field"]["shape"] == "cross"
    assert GameState.model_validate(body["state"]) == deal(catalog, "1", 2, 3, "cross")


def test_without_a_seed_the_game_gets_one_and_keeps_it(client: TestClient) -> None:
    body = client.post("/api/games", json={"level": "2"}).json()
    again = client.get(f"/api/games/{body['id']}").json()
    assert again["seed"] == body["seed"] == body["state"]["seed"]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"level": "4"}, "level", "no level '4'"),
        ({"players": 7}, "players", "cannot be set up"),
        ({"level": "1v1", "players": 3}, None, "cannot be set up"),
        ({"shape": "hexagon"}, "shape", "no field shape 'hexagon'"),
        ({"house_rules": ["no-such"]}, "house_rules", "no house rule 'no-such'"),
        ({"players": "two"}, "players", "'two' is text, expected a whole number"),
        ({"seed": -1}, "seed", "-1 is too small (at least 0)"),
        ({"colour": "red"}, "colour", "unknown key 'colour'"),
    ],
)
def test_a_new_game_that_cannot_be_dealt_is_refused(
    client: TestClient, body: dict[str, Any], field: str | None, words: str
) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400
    conforms(answer.json(), "Error")
    error = answer.json()["error"]
    assert words in error["message"]
    if field is not None and error["code"] != "setup":
        assert error["field"] == field
    assert client.get("/api/games").json() == {"games": []}


def test_the_saved_games_are_listed_newest_first(client: TestClient) -> None:
    first = new_game(client, seed=1)
    second = new_game(client, seed=2, level="2", players=3)
    play(client, first, RED_MOVE)
    listed = client.get("/api/games").json()
    conforms(listed, "GameList")
    assert [g["id"] for g in listed["games"]] == [first["id"], second["id"]]
    assert listed["games"][0]["version"] == 2
    assert listed["games"][0]["actions"] == 1
    assert listed["games"][1]["level"] == "2"
    assert len(listed["games"][1]["players"]) == 3


# Views --------------------------------------------------------------------------------------------


def test_a_players_view_hides_what_they_may_not_see(client: TestClient, catalog: Catalog) -> None:
    game = new_game(client)
    play(client, game, RED_MOVE)
    full = client.get(f"/api/games/{game['id']}").json()
    state = GameState.model_validate(full["state"])
    for player in ("red", "blue"):
        seen = client.get(f"/api/games/{game['id']}", params={"player": player}).json()
        conforms(seen, "Game")
        assert seen["viewer"] == player
        assert GameState.model_validate(seen["state"]) == view(state, player)
        assert seen["state"]["seed"] == 0
        assert all(
            cell["raw"] is None or cell["raw"].startswith("hidden#")
            for cell in seen["state"]["field"]["cells"]
        )
    blue = client.get(f"/api/games/{game['id']}", params={"player": "blue"}).json()
    red_hand = next(p for p in blue["state"]["players"] if p["id"] == "red")["raw_cards"]
    assert len(red_hand) == 2
    assert all(card.startswith("hidden#") for card in red_hand)
    red = client.get(f"/api/games/{game['id']}", params={"player": "red"}).json()
    own = next(p for p in red["state"]["players"] if p["id"] == "red")["raw_cards"]
    assert own == ["sulfur#8", "oxygen#5"]


def test_a_view_for_nobody_is_refused(client: TestClient) -> None:
    game = new_game(client)
    answer = client.get(f"/api/games/{game['id']}", params={"player": "purple"})
    assert answer.status_code == 400
    assert answer.json()["error"]["players"] == ["red", "blue"]


@pytest.mark.parametrize("game_id", ["0123abcd", "nothere", "../../etc/passwd", "x" * 300])
def test_an_unknown_game_is_404(client: TestClient, game_id: str) -> None:
    for path in ("", "/legal", "/log", "/score", "/events"):
        answer = client.get(f"/api/games/{game_id}{path}")
        assert answer.status_code == 404, (path, answer.text)
        conforms(answer.json(), "Error")


# Legal actions ------------------------------------------------------------------------------------


def test_legal_actions_come_grouped_in_both_forms(client: TestClient, catalog: Catalog) -> None:
    game = new_game(client)
    legal = client.get(f"/api/games/{game['id']}/legal").json()
    conforms(legal, "Legal")
    assert legal["version"] == 1
    assert legal["player"] == "red"
    assert set(legal["groups"]) == {"move"}
    assert RED_MOVE in legal["groups"]["move"]
    assert len(legal["groups"]["move"]) == 12
    for item in legal["actions"]:
        assert format_action(parse_action(item["text"])) == item["text"]
        assert (
            parse_action(item["text"]).model_dump(mode="json", exclude_none=True)
            == (item["action"])
        )
    play(client, game, RED_MOVE)
    after = client.get(f"/api/games/{game['id']}/legal").json()
    assert set(after["groups"]) == {"sell", "trade", "end"}
    trades = [item for item in after["actions"] if item["kind"] == "trade"]
    assert {item["needs_consent"] for item in trades} == {"blue"}


# Actions ------------------------------------------------------------------------------------------


def test_an_allowed_action_is_applied_logged_and_versioned(
    client: TestClient, catalog: Catalog
) -> None:
    game = new_game(client)
    body = play(client, game, RED_MOVE)
    assert body["version"] == 2
    assert body["seq"] == 1
    assert body["ruling"]["verdict"] == "allowed"
    assert body["ruling"]["rules"][0] == "L1.T1"
    assert body["events"][0]["kind"] == "move"
    assert body["events"][0]["data"]["collected"] == ["sulfur#8", "oxygen#5"]
    start = deal(catalog, "1", 2, 7)
    expected, _ = apply(start, parse_action(RED_MOVE), catalog)
    assert GameState.model_validate(body["state"]) == expected
    log = client.get(f"/api/games/{game['id']}/log").json()
    conforms(log, "Log")
    [entry] = log["entries"]
    assert (entry["seq"], entry["version"], entry["player"], entry["text"]) == (
        1,
        2,
        "red",
        RED_MOVE,
    )
    assert entry["ruling"]["rules"] == body["ruling"]["rules"]
    assert entry["barrier"] is True


def test_the_json_form_is_the_same_action(client: TestClient) -> None:
    text_game = new_game(client)
    json_game = new_game(client)
    by_text = play(client, text_game, RED_MOVE)
    by_json = play(client, json_game, {"kind": "move", "path": [[3, 3], [2, 3]]})
    as_string = new_game(client)
    by_string = play(client, as_string, '{"kind": "move", "path": [[3, 3], [2, 3]]}')
    assert by_text["state"] == by_json["state"] == by_string["state"]


def test_a_forbidden_action_is_explained_and_nothing_is_applied(client: TestClient) -> None:
    game = new_game(client)
    before = client.get(f"/api/games/{game['id']}").json()
    body = play(client, game, "buy solar-battery", status=422)
    assert body["error"]["code"] == "forbidden"
    assert body["ruling"]["verdict"] == "forbidden"
    assert body["ruling"]["rules"][0] == "L1.T3"
    assert body["ruling"]["reason"]["en"] == "It costs 4 мР; the player has 0 мР."
    assert body["ruling"]["reason"]["ru"] == "Нужно 4 мР, а у игрока 0 мР."
    assert body["error"]["action"] == "buy solar-battery"
    after = client.get(f"/api/games/{game['id']}").json()
    assert after == before
    assert client.get(f"/api/games/{game['id']}/log").json()["entries"] == []
    armour = play(client, game, "buy armour", status=422)  # level 3 only (L1.T6.R2)
    assert armour["ruling"]["rules"] == ["L1.T6", "L1.T6.R2"]
    assert armour["ruling"]["reason"]["en"] == (
        "The box does not sell it at this level, only at level 3."
    )


def test_a_move_out_of_turn_cites_the_turn_rule(client: TestClient) -> None:
    game = new_game(client)
    body = play(client, game, "as blue move 3,3", status=422)
    assert body["ruling"]["rules"][0] == "L1.T1"
    assert "Red" in body["ruling"]["reason"]["en"]
    assert "Сейчас ход Красного" in body["ruling"]["reason"]["ru"]


def test_a_stale_version_is_409_and_nothing_is_applied(client: TestClient) -> None:
    game = new_game(client)
    play(client, game, RED_MOVE)
    answer = client.post(f"/api/games/{game['id']}/actions", json={"action": "end", "version": 1})
    assert answer.status_code == 409
    conforms(answer.json(), "Error")
    assert answer.json()["error"] == {
        "code": "stale-version",
        "message": "the game is at version 2, not 1: fetch it again and retry",
        "version": 2,
    }
    assert client.get(f"/api/games/{game['id']}").json()["version"] == 2
    assert len(client.get(f"/api/games/{game['id']}/log").json()["entries"]) == 1


@pytest.mark.parametrize(
    ("action", "words", "position"),
    [
        ("jump 3,4", "unknown action 'jump'", 0),
        ("move 3;4", "'3;4' in 'move 3;4' is not a cell", 5),
        ("", "empty action", 0),
    ],
)
def test_an_unreadable_action_is_400_with_its_place(
    client: TestClient, action: str, words: str, position: int
) -> None:
    game = new_game(client)
    body = play(client, game, action, status=400)
    assert body["error"]["code"] == "bad-action"
    assert words in body["error"]["message"]
    assert body["error"]["position"] == position


@pytest.mark.parametrize(
    "action", [{"kind": "fly"}, {"kind": "move", "path": "3,4"}, ["move"], 5, None]
)
def test_an_action_in_a_wrong_json_form_is_400(client: TestClient, action: Any) -> None:
    game = new_game(client)
    answer = client.post(f"/api/games/{game['id']}/actions", json={"action": action, "version": 1})
    assert answer.status_code == 400
    conforms(answer.json(), "Error")
    assert answer.json()["error"]["field"].startswith("action")


def test_an_action_needs_a_version(client: TestClient) -> None:
    game = new_game(client)
    answer = client.post(f"/api/games/{game['id']}/actions", json={"action": "end"})
    assert answer.status_code == 400
    assert answer.json()["error"] == {
        "code": "bad-request",
        "message": "version: missing (add version: …)",
        "field": "version",
    }


def test_the_answer_can_be_a_players_view(client: TestClient) -> None:
    game = new_game(client)
    answer = client.post(
        f"/api/games/{game['id']}/actions",
        json={"action": RED_MOVE, "version": 1, "player": "blue"},
    ).json()
    assert answer["viewer"] == "blue"
    red = next(p for p in answer["state"]["players"] if p["id"] == "red")
    assert len(red["raw_cards"]) == 2
    assert all(card.startswith("hidden#") for card in red["raw_cards"])


# Dice ---------------------------------------------------------------------------------------------


def test_dice_from_the_table_decide_the_fight(client: TestClient) -> None:
    game = fight_pending(client)
    legal = client.get(f"/api/games/{game['id']}/legal").json()
    assert set(legal["groups"]) == {"fight"}
    body = play(client, game, "fight 1:6")
    fight = next(e for e in body["events"] if e["kind"] == "fight")
    assert fight["data"]["rounds"] == [[1, 6]]
    assert fight["data"]["rolled"] is False
    assert fight["data"]["winner"] == "red"  # the defender's 6 beats the attacker's 1
    # The fight waits for the winner's spoils, then the loser's retreat (Ruling L1.T4.R4).
    assert body["state"]["fight"]["winner"] == "red"
    assert set(client.get(f"/api/games/{game['id']}/legal").json()["groups"]) == {"spoils"}


def test_after_the_dice_the_winner_chooses_the_spoils_and_the_loser_the_retreat(
    client: TestClient,
) -> None:
    game = fight_pending(client)
    path = f"/api/games/{game['id']}"
    play(client, game, "fight 6:1")  # blue, the attacker, wins; red holds sulfur#8, oxygen#5
    # Blue looks at all of red's cards while choosing (their view and their legal actions).
    seen = client.get(f"{path}?player=blue").json()["state"]["players"][0]["raw_cards"]
    assert sorted(seen) == ["oxygen#5", "sulfur#8"]
    # Red does not see blue's two cards, drawn from the Warehouse for the cells red emptied
    # on the way (Ruling L1.T2-two-cards).
    others = client.get(f"{path}?player=red").json()["state"]["players"][1]
    assert len(others["raw_cards"]) == 2
    assert all(card.startswith("hidden#") for card in others["raw_cards"])
    legal = client.get(f"{path}/legal?player=blue").json()
    conforms(legal, "Legal")
    assert legal["groups"]["spoils"] == [
        "spoils",
        "spoils oxygen#5",
        "spoils sulfur#8",
        "spoils oxygen#5 sulfur#8",
    ]
    refused = play(client, game, "as red spoils", status=422)
    assert "L1.T4.R4" in refused["ruling"]["rules"]
    body = play(client, game, "spoils sulfur#8")
    assert [e["kind"] for e in body["events"]] == ["spoils"]
    assert body["state"]["fight"]["taken"] == 1
    # Now red chooses where to retreat; the actions are listed as red's.
    legal = client.get(f"{path}/legal").json()
    assert set(legal["groups"]) == {"retreat"}
    assert all(text.startswith("as red retreat ") for text in legal["groups"]["retreat"])
    body = play(client, game, legal["actions"][0]["action"])
    assert body["state"]["fight"] is None
    assert body["ruling"]["verdict"] == "allowed"
    assert "L1.T5" in body["ruling"]["rules"]
    blue = body["state"]["players"][1]
    assert blue["raw_cards"] == ["water-ice#8", "silica#1", "sulfur#8"]
    # No step of a fight is taken back.
    undo = client.post(f"{path}/undo", json={"version": body["version"]})
    assert undo.status_code == 409


def test_dice_rolled_by_the_game_follow_its_seed(client: TestClient, catalog: Catalog) -> None:
    game = fight_pending(client)
    body = play(client, game, "fight")
    fight = next(e for e in body["events"] if e["kind"] == "fight")
    assert fight["data"]["rolled"] is True
    state = deal(catalog, "1", 2, 7)
    for text in (RED_MOVE, "end", RED_MOVE, "fight"):
        state, events = apply(state, parse_action(text), catalog)
    expected = next(e for e in events if e.kind == "fight").data["rounds"]
    assert fight["data"]["rounds"] == expected
    assert GameState.model_validate(body["state"]) == state


# Proposals ----------------------------------------------------------------------------------------


def test_a_trade_waits_for_the_partner_and_is_applied_when_accepted(client: TestClient) -> None:
    game = new_game(client)
    play(client, game, RED_MOVE)
    body = play(client, game, "trade blue give sulfur#8", status=202)
    proposal = body["proposal"]
    assert (proposal["from"], proposal["to"], proposal["text"]) == (
        "red",
        "blue",
        "trade blue give sulfur#8",
    )
    assert body["ruling"]["verdict"] == "allowed"
    assert body["version"] == 3
    red = next(p for p in body["state"]["players"] if p["id"] == "red")
    assert "sulfur#8" in red["raw_cards"]  # not applied yet
    shown = client.get(f"/api/games/{game['id']}").json()
    assert shown["pending"] == proposal
    assert client.get(f"/api/games/{game['id']}/legal").json()["pending"] == proposal
    path = f"/api/games/{game['id']}/proposals/{proposal['id']}"
    wrong = client.post(path + "/accept", json={"version": 3, "player": "red"})
    assert wrong.status_code == 403
    conforms(wrong.json(), "Error")
    accepted = client.post(path + "/accept", json={"version": 3, "player": "blue"})
    assert accepted.status_code == 200, accepted.text
    conforms(accepted.json(), "AnswerResult")
    body = accepted.json()
    assert body["accepted"] == proposal
    assert body["pending"] is None
    assert body["version"] == 4
    blue = next(p for p in body["state"]["players"] if p["id"] == "blue")
    assert blue["raw_cards"] == ["sulfur#8"]
    log = client.get(f"/api/games/{game['id']}/log").json()["entries"]
    assert [e["text"] for e in log] == [RED_MOVE, "trade blue give sulfur#8"]
    again = client.post(path + "/accept", json={"version": 4})
    assert again.status_code == 404
    assert again.json()["error"]["code"] == "no-proposal"


def test_a_declined_trade_changes_nothing_but_the_version(client: TestClient) -> None:
    game = new_game(client)
    play(client, game, RED_MOVE)
    before = client.get(f"/api/games/{game['id']}").json()["state"]
    proposal = play(client, game, "trade blue give sulfur#8", status=202)["proposal"]
    path = f"/api/games/{game['id']}/proposals/{proposal['id']}/decline"
    stale = client.post(path, json={"version": 2})
    assert stale.status_code == 409
    answer = client.post(path, json={"version": 3})
    assert answer.status_code == 200
    conforms(answer.json(), "AnswerResult")
    assert answer.json()["declined"] == proposal
    assert answer.json()["version"] == 4
    assert answer.json()["state"] == before
    assert answer.json()["pending"] is None
    assert len(client.get(f"/api/games/{game['id']}/log").json()["entries"]) == 1


def test_another_action_withdraws_a_proposal(client: TestClient) -> None:
    game = new_game(client)
    play(client, game, RED_MOVE)
    proposal = play(client, game, "trade blue give sulfur#8", status=202)["proposal"]
    body = play(client, game, "end")
    assert body["pending"] is None
    answer = client.post(
        f"/api/games/{game['id']}/proposals/{proposal['id']}/accept",
        json={"version": body["version"]},
    )
    assert answer.status_code == 404


def test_a_forbidden_trade_is_no_proposal(client: TestClient) -> None:
    game = new_game(client)
    play(client, game, RED_MOVE)
    body = play(client, game, "trade blue give hematite#1", status=422)
    assert body["ruling"]["verdict"] == "forbidden"
    assert client.get(f"/api/games/{game['id']}").json()["pending"] is None


# Undo ---------------------------------------------------------------------------------------------


def test_undo_goes_back_to_the_last_reveal(client: TestClient, catalog: Catalog) -> None:
    game = new_game(client)
    after_move = play(client, game, RED_MOVE)["state"]
    play(client, game, "sell sulfur#8")
    play(client, game, "end")
    version = client.get(f"/api/games/{game['id']}").json()["version"]
    answer = client.post(f"/api/games/{game['id']}/undo", json={"version": version})
    assert answer.status_code == 200, answer.text
    conforms(answer.json(), "UndoResult")
    body = answer.json()
    assert [u["text"] for u in body["undone"]] == ["sell sulfur#8", "end"]
    assert body["state"] == after_move
    assert body["version"] == version + 1
    log = client.get(f"/api/games/{game['id']}/log").json()["entries"]
    assert [e["text"] for e in log] == [RED_MOVE]
    again = client.post(f"/api/games/{game['id']}/undo", json={"version": version + 1})
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "nothing-to-undo"
    assert "rolled dice or showed a hidden card" in again.json()["error"]["message"]
    # The game goes on from there: the next action is logged in the freed place.
    body = play(client, game, "end")
    assert body["seq"] == 2


def test_undo_never_takes_back_dice(client: TestClient) -> None:
    game = fight_pending(client)
    play(client, game, "fight 6:1")
    version = client.get(f"/api/games/{game['id']}").json()["version"]
    answer = client.post(f"/api/games/{game['id']}/undo", json={"version": version})
    assert answer.status_code == 409


def test_undo_of_a_new_game_has_nothing_to_do(client: TestClient) -> None:
    game = new_game(client)
    answer = client.post(f"/api/games/{game['id']}/undo", json={"version": 1})
    assert answer.status_code == 409
    assert answer.json()["error"]["message"] == "nothing to undo: no action has been played"


def test_undo_with_a_stale_version_is_409(client: TestClient) -> None:
    game = new_game(client)
    play(client, game, RED_MOVE)
    play(client, game, "end")
    answer = client.post(f"/api/games/{game['id']}/undo", json={"version": 2})
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "stale-version"


def test_undo_replays_the_log(client: TestClient, catalog: Catalog) -> None:
    """The state after an undo is the replay of the kept log, not a copy kept aside."""
    game = new_game(client)
    for action in (RED_MOVE, "end", "move 3,3 3,2", "sell nitrogen#4", "end"):
        play(client, game, action)
    version = client.get(f"/api/games/{game['id']}").json()["version"]
    body = client.post(f"/api/games/{game['id']}/undo", json={"version": version}).json()
    state = deal(catalog, "1", 2, 7)
    for text in (RED_MOVE, "end", "move 3,3 3,2"):
        state, _ = apply(state, parse_action(text), catalog)
    assert GameState.model_validate(body["state"]) == state


# Score and end ------------------------------------------------------------------------------------


def test_the_score_is_given_line_by_line(client: TestClient) -> None:
    game = new_game(client)
    play(client, game, RED_MOVE)
    score = client.get(f"/api/games/{game['id']}/score").json()
    conforms(score, "ScoreResult")
    assert score["totals"] == {"red": 2, "blue": 0}
    assert {"player": "red", "what": "2 raw cards", "value": 2, "rule": "L1.E3"} in score["lines"]
    assert score["winners"] == ["red"]
    assert score["end"] is None


def test_the_end_of_the_game_names_its_reason_and_winners(
    client: TestClient, catalog: Catalog
) -> None:
    """The greedy bots play a game to its end through the API, each from its own view."""
    game = new_game(client)
    bot = GreedyBot(catalog)
    rng = random.Random(1)
    for _ in range(1000):
        legal = client.get(f"/api/games/{game['id']}/legal").json()
        if not legal["actions"]:
            break
        seen = client.get(f"/api/games/{game['id']}", params={"player": legal["player"]}).json()
        options = [action_from_json(item["action"]) for item in legal["actions"]]
        choice = bot.choose(GameState.model_validate(seen["state"]), options, rng)
        answer = client.post(
            f"/api/games/{game['id']}/actions",
            json={"action": choice.model_dump(mode="json"), "version": legal["version"]},
        )
        assert answer.status_code in (200, 202), answer.text
        if answer.status_code == 202:
            proposal = answer.json()["proposal"]
            accepted = client.post(
                f"/api/games/{game['id']}/proposals/{proposal['id']}/accept",
                json={"version": answer.json()["version"], "player": proposal["to"]},
            )
            assert accepted.status_code == 200, accepted.text
    final = client.get(f"/api/games/{game['id']}").json()
    conforms(final, "Game")
    assert final["ended"] is True
    end = final["end"]
    assert end["code"] in ("mission", "field-empty")
    assert end["winners"]
    assert end["rules"][0] == "L1.E1"
    assert set(end["reason"]) == {"ru", "en"}
    after = client.post(
        f"/api/games/{game['id']}/actions", json={"action": "end", "version": final["version"]}
    )
    assert after.status_code == 422
    assert after.json()["ruling"]["rules"] == ["L1.E1"]


# The mission checker, rules, catalog, join --------------------------------------------------------


def test_the_mission_checker_finds_a_complete_mission(client: TestClient) -> None:
    answer = client.post(
        "/api/mission",
        # M1 (2 CH4 + 4 O2) adds up to C2 H8 O8 = 2 CO2 + 4 H2O; the hematite is left over.
        json={"mission": "M1", "cards": ["CO2", "H2O", "H2O", "CO2", "H2O", "H2O", "hematite"]},
    )
    assert answer.status_code == 200
    conforms(answer.json(), "MissionResult")
    ruling = answer.json()["ruling"]
    assert ruling["verdict"] == "complete"
    assert ruling["rules"][0] == "L1.E1"


def test_the_mission_checker_says_what_is_missing(client: TestClient) -> None:
    body = client.post("/api/mission", json={"mission": "M1", "cards": ["CO2", "H2O"]}).json()
    assert body["ruling"]["verdict"] == "incomplete"
    # M1 needs C2 H8 O8; CO2 + H2O hold C H2 O3.
    assert body["ruling"]["facts"]["missing"] == {"C": 1, "H": 6, "O": 5}
    assert body["cards"] == ["carbon-dioxide", "water-ice"]


def test_the_mission_checker_reads_cyrillic_lookalikes(client: TestClient) -> None:
    body = client.post("/api/mission", json={"mission": "M1", "cards": ["Н2О"]}).json()
    assert body["cards"] == ["water-ice"]
    assert body["notes"] == ["read 'Н2О' as 'H2O' (Cyrillic letters that look Latin)"]


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"mission": "M9", "cards": ["CO2"]}, "mission", "no mission 'M9'"),
        ({"mission": "M1", "cards": ["XeF9"]}, "cards", "no raw card with the formula XeF9"),
        ({"mission": "M1", "cards": []}, "cards", "no cards named"),
        ({"mission": "M1", "cards": ["CO2, H2O"]}, "cards", "one card per item"),
        ({"mission": "M1", "cards": ["CO2"], "house_rules": ["armour-sum"]}, "house_rules", ""),
        ({"mission": "M1"}, "cards", "missing (add cards: …)"),
    ],
)
def test_the_mission_checker_refuses_what_it_cannot_read(
    client: TestClient, body: dict[str, Any], field: str, words: str
) -> None:
    answer = client.post("/api/mission", json=body)
    assert answer.status_code == 400
    conforms(answer.json(), "Error")
    assert answer.json()["error"]["field"] == field
    assert words in answer.json()["error"]["message"]


def test_a_rule_is_one_request_away(client: TestClient) -> None:
    book = load_rulebook()
    answer = client.get("/api/rules/L1.T4")
    assert answer.status_code == 200
    conforms(answer.json(), "Rule")
    rule = book.rule("L1.T4")
    assert answer.json()["text"] == dict(rule.text)
    assert answer.json()["title"] == dict(rule.title)
    house = client.get("/api/rules/armour-sum").json()
    assert house["kind"] == "house-rule"
    everything = client.get("/api/rules").json()
    conforms(everything, "Rules")
    assert [r["id"] for r in everything["rules"]] == [r.id for r in book.rules]
    missing = client.get("/api/rules/L9.Z9")
    assert missing.status_code == 404


def test_the_catalog_summary_names_every_card_kind(client: TestClient, catalog: Catalog) -> None:
    body = client.get("/api/catalog").json()
    conforms(body, "CatalogSummary")
    assert [r["id"] for r in body["raw_materials"]] == [r.id for r in catalog.raw_materials]
    assert [m["id"] for m in body["missions"]] == [m.id for m in catalog.missions]
    assert body["levels"] == ["1", "2", "1v1", "3"]
    assert body["players"] == {"min": 2, "max": 5}
    hematite = next(r for r in body["raw_materials"] if r["id"] == "hematite")
    assert hematite["formula"] == "Fe2O3"


def test_join_shows_the_qr_code_of_the_first_url(make_client: Any) -> None:
    url = "http://192.0.2.7:8765/?token=abc"
    client = make_client(join_urls=(url,), token="abc")
    body = client.get("/api/join", params={"token": "abc"}).json()
    conforms(body, "Join")
    assert body["urls"] == [url]
    assert body["qr_svg"].startswith("<svg")
    loopback = make_client()
    assert loopback.get("/api/join").json() == {"urls": [], "qr_svg": None}


# Persistence --------------------------------------------------------------------------------------


def test_a_new_server_on_the_same_data_finds_every_game(make_client: Any) -> None:
    first = make_client()
    game = new_game(first)
    play(first, game, RED_MOVE)
    proposal = play(first, game, "trade blue give sulfur#8", status=202)["proposal"]
    before = first.get(f"/api/games/{game['id']}").json()
    log = first.get(f"/api/games/{game['id']}/log").json()
    second = make_client()
    assert second.get(f"/api/games/{game['id']}").json() == before
    assert second.get(f"/api/games/{game['id']}/log").json() == log
    assert second.get(f"/api/games/{game['id']}").json()["pending"] == proposal


# What each player may see -------------------------------------------------------------------------


def test_the_log_hides_the_cards_another_player_collected(client: TestClient) -> None:
    game = new_game(client)
    play(client, game, RED_MOVE)
    path = f"/api/games/{game['id']}/log"
    for_blue = client.get(path, params={"player": "blue"}).json()
    conforms(for_blue, "Log")
    assert for_blue["viewer"] == "blue"
    text = json.dumps(for_blue, ensure_ascii=False)
    assert "sulfur#8" not in text
    assert "oxygen#5" not in text
    [event] = for_blue["entries"][0]["events"]
    seen = client.get(f"/api/games/{game['id']}", params={"player": "blue"}).json()
    red = next(p for p in seen["state"]["players"] if p["id"] == "red")
    assert event["data"]["collected"] == red["raw_cards"]  # the placeholders of the view
    assert all(card in event["en"] for card in red["raw_cards"])
    for_red = client.get(path, params={"player": "red"}).json()
    assert for_red["entries"][0]["events"][0]["data"]["collected"] == [
        "sulfur#8",
        "oxygen#5",
    ]
    assert client.get(path).json()["entries"] == for_red["entries"]


def test_the_legal_actions_of_a_view_name_hidden_cards_by_placeholder(client: TestClient) -> None:
    game = new_game(client)
    play(client, game, RED_MOVE)
    play(client, game, "end")
    legal = client.get(f"/api/games/{game['id']}/legal", params={"player": "blue"}).json()
    conforms(legal, "Legal")
    trades = legal["groups"]["trade"]
    assert trades
    assert all("hidden#" in text for text in trades)
    shown = json.dumps(legal)
    assert "sulfur" not in shown
    assert "oxygen#5" not in shown
    # Blue proposes with the placeholder; the server knows which card it stands for.
    answer = client.post(
        f"/api/games/{game['id']}/actions",
        json={"action": trades[0], "version": legal["version"], "player": "blue"},
    )
    assert answer.status_code == 202, answer.text
    assert answer.json()["proposal"]["text"] == trades[0]
    real = client.get(f"/api/games/{game['id']}").json()["pending"]
    assert real["text"] in ("trade red get sulfur#8", "trade red get oxygen#5")
    for_red = client.get(f"/api/games/{game['id']}", params={"player": "red"}).json()
    assert for_red["pending"]["text"] == real["text"]  # red sees their own cards


def test_an_offered_card_is_shown_to_the_partner_face_up(client: TestClient) -> None:
    """«отдать карточка рубашкой вверх» no more: blue sees what red offers, and only while
    the offer waits (Ruling "Trades at the table")."""
    game = new_game(client)
    play(client, game, RED_MOVE)
    path = f"/api/games/{game['id']}"
    before = client.get(path, params={"player": "blue"}).json()
    red_before = next(p for p in before["state"]["players"] if p["id"] == "red")["raw_cards"]
    assert all(card.startswith("hidden#") for card in red_before)
    proposal = play(client, game, "trade blue give sulfur#8", status=202)["proposal"]
    seen = client.get(path, params={"player": "blue"}).json()
    assert seen["pending"]["text"] == "trade blue give sulfur#8"
    assert seen["pending"]["action"]["give"] == ["sulfur#8"]
    red = next(p for p in seen["state"]["players"] if p["id"] == "red")["raw_cards"]
    # The offered card face up in its place; the other keeps its placeholder and its number.
    real = next(p for p in client.get(path).json()["state"]["players"] if p["id"] == "red")
    expected = [
        card if card == "sulfur#8" else placeholder
        for card, placeholder in zip(real["raw_cards"], red_before, strict=True)
    ]
    assert red == expected
    assert "oxygen#5" not in json.dumps(seen)
    legal = client.get(f"{path}/legal", params={"player": "blue"}).json()
    assert legal["pending"]["text"] == "trade blue give sulfur#8"
    # Declined: the card goes back face down in blue's eyes.
    declined = client.post(
        f"{path}/proposals/{proposal['id']}/decline", json={"version": 3, "player": "blue"}
    )
    assert declined.status_code == 200
    after = client.get(path, params={"player": "blue"}).json()
    assert "sulfur#8" not in json.dumps(after)


def test_a_usual_button_the_referee_refuses_comes_with_its_reason(
    make_client: Any, tmp_path: Any, catalog: Any
) -> None:
    """Level 3, a full combine: no «Закончить ход» in the list, and /legal says why."""
    game = full_combine_game(tmp_path / "data", catalog)
    client = make_client()
    legal = client.get(f"/api/games/{game}/legal", params={"player": "red"}).json()
    conforms(legal, "Legal")
    assert "end" not in legal["groups"]
    [refused] = legal["refused"]
    assert (refused["kind"], refused["text"]) == ("end", "end")
    assert refused["ruling"]["verdict"] == "forbidden"
    assert refused["ruling"]["rules"][0] == "L3.S3"
    assert "6" in refused["ruling"]["reason"]["en"]
    # Where the turn may end, nothing is refused.
    other = new_game(client)
    play(client, other, RED_MOVE)
    assert client.get(f"/api/games/{other['id']}/legal").json()["refused"] == []
