"""Seats that are yours: a phone claims a seat and only it acts as that player or sees their cards.

The scenes are the API tests' game (seed 7, level 1, red and blue): red's ``move 3,3 2,3``
collects sulfur#8 and oxygen#5. Every answer is validated against the committed schema.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

import pytest
from starlette.testclient import TestClient

from mhp_cards.serve.seats import CODE_ALPHABET, CODE_LENGTH, CODE_TRIES, digest
from mhp_cards.serve.store import DB_NAME, Store
from tests.serve.conftest import conforms, new_game

RED_MOVE = "move 3,3 2,3"
RED_CARDS = ("sulfur#8", "oxygen#5")


def claim(client: TestClient, game: dict[str, Any], player: str) -> str:
    """Claim ``player``'s seat; its secret."""
    answer = client.post(f"/api/games/{game['id']}/seats", json={"player": player})
    assert answer.status_code == 201, answer.text
    conforms(answer.json(), "Seat")
    body = answer.json()
    assert body["player"] == player
    assert player in body["seats"]
    return str(body["secret"])


def seat(secret: str | None) -> dict[str, str]:
    return {} if secret is None else {"X-Mhp-Seat": secret}


def version(client: TestClient, game: dict[str, Any]) -> int:
    return int(client.get(f"/api/games/{game['id']}").json()["version"])


def act(
    client: TestClient,
    game: dict[str, Any],
    action: str,
    secret: str | None = None,
    player: str | None = None,
) -> Any:
    body: dict[str, Any] = {"action": action, "version": version(client, game)}
    if player is not None:
        body["player"] = player
    return client.post(f"/api/games/{game['id']}/actions", json=body, headers=seat(secret))


def refused(answer: Any, seat_of: str) -> dict[str, Any]:
    """The 403 of a seat another phone holds: its code, the seat, the reason in both languages."""
    assert answer.status_code == 403, answer.text
    conforms(answer.json(), "Error")
    error = answer.json()["error"]
    assert error["code"] == "not-your-seat"
    assert error["seat"] == seat_of
    assert error["reason"]["ru"]
    assert error["reason"]["en"]
    return dict(error)


def test_a_claimed_seat_acts_with_its_secret_only(client: TestClient) -> None:
    game = new_game(client)
    secret = claim(client, game, "red")
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", secret)
    # Without the secret, even on loopback: refused, nothing applied.
    error = refused(act(client, game, RED_MOVE), "red")
    assert "Red's seat is held by another phone" in error["reason"]["en"]
    assert "Место Красного занято другим телефоном" in error["reason"]["ru"]
    assert "играть за Красного" in error["reason"]["ru"]
    assert version(client, game) == 1
    # A secret that is no seat's: the same.
    refused(act(client, game, RED_MOVE, "not-a-secret"), "red")
    # With it: played.
    answer = act(client, game, RED_MOVE, secret, player="red")
    assert answer.status_code == 200, answer.text
    conforms(answer.json(), "ActionResult")
    assert answer.json()["seats"] == ["red"]
    red = answer.json()["state"]["players"][0]
    assert sorted(red["raw_cards"]) == sorted(RED_CARDS)


def test_a_seat_is_claimed_once(client: TestClient) -> None:
    game = new_game(client)
    claim(client, game, "red")
    again = client.post(f"/api/games/{game['id']}/seats", json={"player": "red"})
    assert again.status_code == 409
    conforms(again.json(), "Error")
    assert again.json()["error"]["code"] == "seat-taken"
    assert "код" in again.json()["error"]["reason"]["ru"]
    nobody = client.post(f"/api/games/{game['id']}/seats", json={"player": "green"})
    assert nobody.status_code == 400
    assert nobody.json()["error"]["code"] == "unknown-player"
    listed = client.get("/api/games").json()["games"][0]
    assert listed["seats"] == ["red"]
    conforms(client.get("/api/games").json(), "GameList")


def test_one_seat_does_not_act_for_another(client: TestClient) -> None:
    game = new_game(client)
    red = claim(client, game, "red")
    blue = claim(client, game, "blue")
    # Blue's phone acting for red (whose turn it is): refused, and it says whose phone it is.
    error = refused(act(client, game, RED_MOVE, blue), "red")
    assert error["holders"] == ["blue"]
    assert "this phone is the seat of Blue" in error["reason"]["en"]
    # Naming the player in the action changes nothing: the actor is red either way.
    refused(act(client, game, "as red " + RED_MOVE, blue), "red")
    assert act(client, game, RED_MOVE, red).status_code == 200
    assert act(client, game, "end", red).status_code == 200
    # Now blue's turn: red's phone may not play it.
    refused(act(client, game, "move 3,3 3,2", red), "blue")


def test_an_unclaimed_seat_stays_open_to_the_table(client: TestClient) -> None:
    """Only blue's seat is claimed: red (on the shared phone) plays without a secret."""
    game = new_game(client)
    claim(client, game, "blue")
    answer = act(client, game, RED_MOVE, player="red")
    assert answer.status_code == 200, answer.text
    assert answer.json()["viewer"] == "red"


def test_a_claimed_seats_view_needs_its_secret(client: TestClient) -> None:
    game = new_game(client)
    red = claim(client, game, "red")
    act(client, game, RED_MOVE, red)
    path = f"/api/games/{game['id']}"
    for where in ("", "/legal", "/log"):
        refused(client.get(f"{path}{where}?player=red"), "red")
        error = refused(client.get(f"{path}{where}?player=red", headers=seat("wrong")), "red")
        assert "смотреть карточки Красного" in error["reason"]["ru"]
        mine = client.get(f"{path}{where}?player=red", headers=seat(red))
        assert mine.status_code == 200, mine.text
        assert mine.json()["viewer"] == "red"
    cards = client.get(f"{path}?player=red", headers=seat(red)).json()["state"]["players"][0]
    assert sorted(cards["raw_cards"]) == sorted(RED_CARDS)
    # Blue's seat is not claimed: anyone may look through blue's eyes (pass-and-play).
    assert client.get(f"{path}?player=blue").status_code == 200


def test_once_a_seat_is_claimed_no_player_means_the_public_view(client: TestClient) -> None:
    game = new_game(client)
    path = f"/api/games/{game['id']}"
    # Pass-and-play: the whole state, as before.
    whole = client.get(path).json()
    assert whole["viewer"] is None
    assert whole["state"]["viewer"] is None
    assert whole["state"]["seed"] == 7
    red = claim(client, game, "red")
    played = act(client, game, RED_MOVE, red)
    # The answer to an action that names no player is the public view too.
    public_answer = played.json()
    assert public_answer["viewer"] is None
    assert public_answer["state"]["viewer"] == "*"
    for card in RED_CARDS:
        assert card not in played.text
    public = client.get(path)
    assert public.status_code == 200
    conforms(public.json(), "Game")
    state = public.json()["state"]
    assert state["viewer"] == "*"
    assert state["seed"] == 0
    red_hand = state["players"][0]["raw_cards"]
    assert len(red_hand) == 2
    assert all(card.startswith("hidden#") for card in red_hand)
    assert all(
        cell["raw"] is None or cell["raw"].startswith("hidden#") for cell in state["field"]["cells"]
    )
    for where in ("", "/legal", "/log"):
        text = client.get(f"{path}{where}").text
        for card in RED_CARDS:
            assert card not in text, where
    legal = client.get(f"{path}/legal").json()
    conforms(legal, "Legal")
    assert legal["viewer"] is None
    assert "sell hidden#" in " ".join(a["text"] for a in legal["actions"])


def test_answering_a_proposal_needs_the_partners_secret(client: TestClient) -> None:
    game = new_game(client)
    red = claim(client, game, "red")
    blue = claim(client, game, "blue")
    act(client, game, RED_MOVE, red)
    proposal = act(client, game, "trade blue give sulfur#8", red).json()["proposal"]
    path = f"/api/games/{game['id']}/proposals/{proposal['id']}"
    now = version(client, game)
    error = refused(client.post(path + "/accept", json={"version": now}), "blue")
    assert "отвечать за Синего" in error["reason"]["ru"]
    refused(client.post(path + "/accept", json={"version": now}, headers=seat(red)), "blue")
    refused(
        client.post(path + "/decline", json={"version": now, "player": "red"}, headers=seat(blue)),
        "red",
    )
    answer = client.post(
        path + "/accept", json={"version": now, "player": "blue"}, headers=seat(blue)
    )
    assert answer.status_code == 200, answer.text
    conforms(answer.json(), "AnswerResult")
    assert answer.json()["state"]["players"][1]["raw_cards"] == ["sulfur#8"]


def test_the_proposer_may_withdraw_with_their_own_secret(client: TestClient) -> None:
    game = new_game(client)
    red = claim(client, game, "red")
    claim(client, game, "blue")
    act(client, game, RED_MOVE, red)
    proposal = act(client, game, "trade blue give sulfur#8", red).json()["proposal"]
    path = f"/api/games/{game['id']}/proposals/{proposal['id']}/decline"
    answer = client.post(
        path, json={"version": version(client, game), "player": "red"}, headers=seat(red)
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["pending"] is None


def test_undo_is_for_the_seat_whose_action_it_takes_back(client: TestClient) -> None:
    game = new_game(client)
    red = claim(client, game, "red")
    blue = claim(client, game, "blue")
    act(client, game, RED_MOVE, red)
    act(client, game, "sell sulfur#8", red)
    path = f"/api/games/{game['id']}/undo"
    error = refused(client.post(path, json={"version": version(client, game)}), "red")
    assert "отменять ход Красного" in error["reason"]["ru"]
    error = refused(
        client.post(path, json={"version": version(client, game)}, headers=seat(blue)), "red"
    )
    assert "take back Red's action" in error["reason"]["en"]
    assert len(client.get(f"/api/games/{game['id']}/log").json()["entries"]) == 2
    answer = client.post(
        path, json={"version": version(client, game), "player": "red"}, headers=seat(red)
    )
    assert answer.status_code == 200, answer.text
    conforms(answer.json(), "UndoResult")
    assert [u["text"] for u in answer.json()["undone"]] == ["sell sulfur#8"]


def test_undo_across_two_seats_needs_both(client: TestClient) -> None:
    """Red sold and ended the turn; blue bought nothing yet but the undo would reach red's."""
    game = new_game(client)
    red = claim(client, game, "red")
    act(client, game, RED_MOVE, red)
    act(client, game, "sell sulfur#8", red)
    act(client, game, "end", red)
    blue = claim(client, game, "blue")
    path = f"/api/games/{game['id']}/undo"
    # What an undo would take back now is red's: blue's phone may not.
    refused(client.post(path, json={"version": version(client, game)}, headers=seat(blue)), "red")
    assert (
        client.post(path, json={"version": version(client, game)}, headers=seat(red)).status_code
        == 200
    )


def test_seats_survive_a_new_store_on_the_same_data(make_client: Any, tmp_path: Any) -> None:
    first = make_client()
    game = new_game(first)
    red = claim(first, game, "red")
    second = make_client()  # a second app and Store on the same data directory
    refused(act(second, game, RED_MOVE), "red")
    assert act(second, game, RED_MOVE, red).status_code == 200
    assert second.get(f"/api/games/{game['id']}").json()["seats"] == ["red"]
    # The database keeps the secret's digest, never the secret.
    with sqlite3.connect(tmp_path / "data" / DB_NAME) as db:
        rows = db.execute("SELECT player, secret FROM seats").fetchall()
    assert rows == [("red", digest(red))]
    assert red not in (tmp_path / "data" / DB_NAME).read_bytes().decode("latin-1")


def test_the_store_reads_seats_back(tmp_path: Any) -> None:
    store = Store(tmp_path)
    row = store.create("1", ("red", "blue"), 7, "{}")
    store.claim_seat(row.id, "blue", digest("s"))
    store.close()
    again = Store(tmp_path)
    try:
        seats = again.seats(row.id)
    finally:
        again.close()
    assert list(seats) == ["blue"]
    assert seats["blue"].secret == digest("s")
    assert seats["blue"].code is None


def move_code(client: TestClient, game: dict[str, Any], player: str, secret: str) -> str:
    answer = client.post(
        f"/api/games/{game['id']}/seats/{player}/code", json={}, headers=seat(secret)
    )
    assert answer.status_code == 200, answer.text
    conforms(answer.json(), "SeatCode")
    body = answer.json()
    assert body["url"].endswith(f"?player={player}&move={body['code']}#/game/{game['id']}")
    assert body["qr_svg"].startswith("<svg")
    return str(body["code"])


def test_a_seat_moves_to_another_phone_by_its_code(client: TestClient) -> None:
    game = new_game(client)
    old = claim(client, game, "red")
    path = f"/api/games/{game['id']}/seats/red"
    # Only the holder gets a code.
    refused(client.post(path + "/code", json={}), "red")
    code = move_code(client, game, "red", old)
    assert len(code) == CODE_LENGTH
    assert set(code) <= set(CODE_ALPHABET)
    typed = f"{code[:3].lower()} {code[3:]}"
    moved = client.post(path + "/move", json={"code": typed})
    assert moved.status_code == 200, moved.text
    conforms(moved.json(), "Seat")
    new = moved.json()["secret"]
    assert new != old
    # The old phone has lost the seat; the new one holds it.
    refused(act(client, game, RED_MOVE, old), "red")
    assert act(client, game, RED_MOVE, new).status_code == 200
    # The code is used up.
    again = client.post(path + "/move", json={"code": code})
    assert again.status_code == 403
    assert again.json()["error"]["code"] == "bad-code"


def test_a_wrong_code_is_refused_and_five_void_it(client: TestClient) -> None:
    game = new_game(client)
    secret = claim(client, game, "red")
    code = move_code(client, game, "red", secret)
    path = f"/api/games/{game['id']}/seats/red/move"
    wrong = "2" * CODE_LENGTH if code != "2" * CODE_LENGTH else "3" * CODE_LENGTH
    for left in range(CODE_TRIES - 1, -1, -1):
        answer = client.post(path, json={"code": wrong})
        assert answer.status_code == 403
        conforms(answer.json(), "Error")
        assert answer.json()["error"]["tries_left"] == left
        assert answer.json()["error"]["reason"]["ru"]
    # The right code came too late: it is void, and the seat stays where it was.
    late = client.post(path, json={"code": code})
    assert late.status_code == 403
    assert "нет кода переноса" in late.json()["error"]["reason"]["ru"]
    assert act(client, game, RED_MOVE, secret).status_code == 200


def test_no_code_for_a_seat_nobody_holds(client: TestClient) -> None:
    game = new_game(client)
    answer = client.post(f"/api/games/{game['id']}/seats/red/move", json={"code": "ABCDEF"})
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "no-seat"
    bad = client.post(f"/api/games/{game['id']}/seats/RED/code", json={})
    assert bad.status_code == 400


@pytest.mark.parametrize("body", [{}, {"player": "Red"}, {"player": "red", "secret": "x"}])
def test_a_claim_body_is_checked(client: TestClient, body: dict[str, Any]) -> None:
    game = new_game(client)
    answer = client.post(f"/api/games/{game['id']}/seats", json=body)
    assert answer.status_code == 400
    conforms(answer.json(), "Error")


def test_pass_and_play_is_as_before(client: TestClient) -> None:
    """No seat claimed: no secret anywhere, the whole state, anyone acts for the current player."""
    game = new_game(client)
    assert game["seats"] == []
    answer = act(client, game, RED_MOVE)
    assert answer.status_code == 200
    assert answer.json()["state"]["viewer"] is None
    assert answer.json()["seats"] == []
    undo = client.post(f"/api/games/{game['id']}/undo", json={"version": version(client, game)})
    assert undo.status_code == 409  # the move collected cards: nothing to undo, as before
    assert client.get(f"/api/games/{game['id']}?player=red").status_code == 200


def test_a_phone_holding_two_seats_sends_both_secrets(client: TestClient) -> None:
    game = new_game(client)
    red = claim(client, game, "red")
    blue = claim(client, game, "blue")
    both = f"{blue}, {red}"
    assert act(client, game, RED_MOVE, both).status_code == 200
    assert act(client, game, "end", both).status_code == 200
    assert act(client, game, "move 3,3 3,2", both).status_code == 200
    for player in ("red", "blue"):
        path = f"/api/games/{game['id']}?player={player}"
        assert client.get(path, headers=seat(both)).status_code == 200


def test_each_step_of_a_fight_is_taken_by_its_own_seat(client: TestClient) -> None:
    """Blue attacks red; the defender's dice win: red's phone takes the spoils, blue's retreats."""
    game = new_game(client)
    red = claim(client, game, "red")
    blue = claim(client, game, "blue")
    for action, secret in ((RED_MOVE, red), ("end", red), (RED_MOVE, blue)):
        assert act(client, game, action, secret).status_code == 200
    # The dice: either fighter enters them, each from their own phone.
    assert act(client, game, "as red fight 1:6", red, player="red").status_code == 200
    # The spoils are red's to choose: not from blue's phone, though it is blue's turn.
    refused(act(client, game, "as red spoils", blue), "red")
    mine = client.get(f"/api/games/{game['id']}/legal?player=red", headers=seat(red))
    # Blue holds the two cards its first move drew from the Warehouse for the cells red
    # emptied (Ruling L1.T2-two-cards): none, either or both may be taken.
    assert mine.json()["groups"]["spoils"] == [
        "as red spoils",
        "as red spoils silica#1",
        "as red spoils water-ice#8",
        "as red spoils silica#1 water-ice#8",
    ]
    assert act(client, game, "as red spoils", red).status_code == 200
    # The retreat is blue's (the loser, whose turn it is): not from red's phone.
    refused(act(client, game, "retreat 2,2", red), "blue")
    retreat = client.get(f"/api/games/{game['id']}/legal").json()["actions"][0]["action"]
    answer = act(client, game, json.dumps(retreat), blue)
    assert answer.status_code == 200, answer.text
    assert answer.json()["state"]["fight"] is None
