"""Bad input gets the right 4xx with a readable JSON message, never a 500, never a change."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Game, Move
from tests.factories import Api

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(api: Api) -> dict[str, Any]:
    _, game = api.post("/api/games/", {"deal": 0})
    status, _ = api.post(f"/api/games/{game['id']}/moves/", {"ply": 0, "move": "8d>6"})
    assert status == 200
    return game


def snapshot(game_id: int) -> tuple[Any, ...]:
    game = Game.objects.get(pk=game_id)
    log = list(Move.objects.filter(game_id=game_id).values_list("ply", "text"))
    return game.position, game.ply, game.score, game.status, log


MOVE_CASES = [
    ("malformed JSON", None, '{"ply": 1, "move": "9c>7"', 400, "JSON parse error"),
    ("not an object", None, '[1, "9c>7"]', 400, "Expected a dictionary"),
    ("empty object", {}, None, 400, "ply: This field is required"),
    ("missing move", {"ply": 1}, None, 400, "move: This field is required"),
    ("missing ply", {"move": "9c>7"}, None, 400, "ply: This field is required"),
    ("ply as text", {"ply": "one", "move": "9c>7"}, None, 400, "ply: A valid integer"),
    ("ply as bool", {"ply": True, "move": "9c>7"}, None, 400, "ply"),
    ("ply as float", {"ply": 1.5, "move": "9c>7"}, None, 400, "ply: A valid integer"),
    ("negative ply", {"ply": -1, "move": "9c>7"}, None, 400, "greater than or equal to 0"),
    ("huge ply", {"ply": 10**30, "move": "9c>7"}, None, 400, "less than or equal to"),
    ("move as list", {"ply": 1, "move": ["9c>7"]}, None, 400, "move: Not a valid string"),
    ("move as object", {"ply": 1, "move": {"card": "9c"}}, None, 400, "move: Not a valid string"),
    ("move null", {"ply": 1, "move": None}, None, 400, "move: This field may not be null"),
    ("empty move", {"ply": 1, "move": ""}, None, 400, "move: This field may not be blank"),
    ("unknown card", {"ply": 1, "move": "Zz>4"}, None, 400, "Zz"),
    ("unknown destination", {"ply": 1, "move": "9c>9"}, None, 400, "destination"),
    ("no arrow", {"ply": 1, "move": "9c7"}, None, 400, "no '>'"),
    ("10 kB move", {"ply": 1, "move": "9c>7" * 2500}, None, 400, "no more than 16 characters"),
    ("illegal move", {"ply": 1, "move": "Qd>1"}, None, 400, "Qd cannot go on 8s"),
    ("face-down card", {"ply": 1, "move": "Jh>F"}, None, 400, "face down"),
    ("stale ply", {"ply": 0, "move": "9c>7"}, None, 409, "is not the next one"),
    ("future ply", {"ply": 7, "move": "9c>7"}, None, 409, "is not the next one"),
    ("NUL in move", {"ply": 1, "move": "9c\x00>7"}, None, 400, "Null characters"),
    ("unicode move", {"ply": 1, "move": "\uff19c>7"}, None, 400, "not a card"),
]


@pytest.mark.parametrize("case", MOVE_CASES, ids=[c[0] for c in MOVE_CASES])
def test_bad_moves_are_refused_and_change_nothing(
    api: Api, game: dict[str, Any], case: tuple[Any, ...]
) -> None:
    _, data, raw, expected, message = case
    before = snapshot(game["id"])
    status, body = api.post(f"/api/games/{game['id']}/moves/", data, raw=raw)
    assert status == expected, body
    assert isinstance(body["detail"], str) and message in body["detail"], body
    if expected == 409:
        assert body["ply"] == 1
    assert snapshot(game["id"]) == before


def test_the_next_good_move_still_works_after_bad_ones(api: Api, game: dict[str, Any]) -> None:
    for _, data, raw, _, _ in MOVE_CASES:
        api.post(f"/api/games/{game['id']}/moves/", data, raw=raw)
    status, body = api.post(f"/api/games/{game['id']}/moves/", {"ply": 1, "move": "9c>7"})
    assert status == 200 and body["ply"] == 2


def test_someone_elses_game_is_not_found(game: dict[str, Any], other_api: Api) -> None:
    before = snapshot(game["id"])
    gid = game["id"]
    for url, data in (
        (f"/api/games/{gid}/moves/", {"ply": 1, "move": "9c>7"}),
        (f"/api/games/{gid}/undo/", {"ply": 1}),
        (f"/api/games/{gid}/resign/", None),
    ):
        status, body = other_api.post(url, data)
        assert status == 404 and body["detail"] == "no such game"
    assert other_api.get(f"/api/games/{gid}/")[0] == 404
    assert other_api.get(f"/api/games/{gid}/replay/")[0] == 404
    assert snapshot(gid) == before


def test_unauthenticated_clients_cannot_touch_a_players_game(game: dict[str, Any]) -> None:
    stranger = Api(Client())
    before = snapshot(game["id"])
    status, _ = stranger.post(f"/api/games/{game['id']}/moves/", {"ply": 1, "move": "9c>7"})
    assert status == 404
    assert stranger.get(f"/api/games/{game['id']}/")[0] == 404
    assert snapshot(game["id"]) == before


def test_unknown_game_ids(api: Api) -> None:
    assert api.get("/api/games/999999/")[0] == 404
    status, body = api.post("/api/games/999999/moves/", {"ply": 0, "move": "9c>7"})
    assert status == 404 and body["detail"] == "no such game"
    status, body = api.get("/api/games/99999999999999999999999/")
    assert status == 404


START_CASES = [
    ({}, "send either"),
    ({"daily": "easy", "deal": 1}, "send either"),
    ({"daily": "extreme"}, 'daily: "extreme" is not a valid choice'),
    ({"deal": -1}, "deal: A deal number is a whole number"),
    ({"deal": 2**64}, "deal: A deal number"),
    ({"deal": 10**400}, "deal: A deal number"),
    ({"deal": "12abc"}, "deal: A deal number"),
    ({"deal": 1.5}, "deal: A deal number"),
    ({"deal": True}, "deal: A deal number"),
    ({"deal": 1, "variant": "spider"}, 'variant: "spider" is not a valid choice'),
    ({"deal": 1, "variant": "yukon+takeback"}, "is not a valid choice"),
]


@pytest.mark.parametrize(("data", "message"), START_CASES)
def test_bad_starts(api: Api, data: Any, message: str) -> None:
    count = Game.objects.count()
    status, body = api.post("/api/games/", data)
    assert status == 400 and message in body["detail"], body
    assert Game.objects.count() == count


def test_huge_json_number_in_a_raw_body(api: Api) -> None:
    status, body = api.post("/api/games/", raw='{"deal": ' + "9" * 5000 + "}")
    assert status == 400, body


def test_wrong_methods_and_content_types_are_json_errors(api: Api, game: dict[str, Any]) -> None:
    status, body = api.call("get", f"/api/games/{game['id']}/moves/")
    assert status == 405 and "detail" in body
    response = api.client.post(
        f"/api/games/{game['id']}/moves/",
        data="ply=1&move=9c>7",
        content_type="text/plain",
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 415 and "detail" in response.json()
    response = api.client.post(
        f"/api/games/{game['id']}/moves/",
        data=b"\xff\xfe{",
        content_type="application/json",
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 400 and "detail" in response.json()


def test_guest_posts_need_a_csrf_token_when_checks_are_on(db: None) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/api/games/", {"deal": 1}, content_type="application/json")
    assert response.status_code == 403 and "CSRF" in response.json()["detail"]
    me = client.get("/api/auth/me/")
    token = me.cookies["csrftoken"].value
    response = client.post(
        "/api/games/", {"deal": 1}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 201
