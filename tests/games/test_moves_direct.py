"""The move endpoint's direct path (games/api/direct.py) answers as DRF's MoveView does.

A move sent with ``ply`` as a JSON number takes the direct path. The same move with
``ply`` as a string ("3") is one the direct path leaves to DRF, whose serializer reads it
as the same number. DRF adds an ``Allow`` header to what it answers, which shows which
path answered.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from apikit.throttles import MoveThrottle
from games.models import Game, Move
from tests.factories import make_user, winning_lines

pytestmark = pytest.mark.django_db


def move(client: Client, game_id: int, ply: Any, text: str) -> tuple[int, Any, bool]:
    """(status, JSON body, whether DRF answered)."""
    response = client.post(
        f"/api/games/{game_id}/moves/",
        json.dumps({"ply": ply, "move": text}),
        content_type="application/json",
    )
    assert response["Content-Type"] == "application/json"
    return response.status_code, response.json(), response.has_header("Allow")


def both(client: Client, games: tuple[int, int], ply: int, text: str) -> tuple[int, Any]:
    """The same move in two games at the same position, one by each path: same answer."""
    direct = move(client, games[0], ply, text)
    drf = move(client, games[1], str(ply), text)
    assert (direct[2], drf[2]) == (False, True)  # each path answered its own
    assert direct[:2] == drf[:2]
    return direct[0], direct[1]


@pytest.mark.slow
@pytest.mark.parametrize("guest", [False, True], ids=["player", "guest"])
def test_both_paths_answer_a_whole_game_alike(guest: bool) -> None:
    client = Client()
    if not guest:
        client.force_login(make_user("alice"))
    games = tuple(
        client.post("/api/games/", {"deal": 0}, content_type="application/json").json()["id"]
        for _ in range(2)
    )
    line = winning_lines()[0]
    # refusals: an illegal move, then (after a move) a stale ply; neither is stored
    assert both(client, games, 0, "Kc>F")[0] == 400
    for ply, text in enumerate(line):
        status, body = both(client, games, ply, text)
        assert status == 200 and body["ply"] == ply + 1
        if ply == 0:
            status, body = both(client, games, 0, line[1])
            assert status == 409 and body["ply"] == 1
    assert body["status"] == "won"
    first, second = (Game.objects.get(pk=pk) for pk in games)
    assert (first.status, first.ply, first.score) == (second.status, second.ply, second.score)
    logs = [list(Move.objects.filter(game=g).order_by("ply").values_list("text")) for g in games]
    assert logs[0] == logs[1] and len(logs[0]) == len(line)
    # the game is over: the same 409 from both
    status, body = both(client, games, len(line), line[0])
    assert status == 409 and "over" in body["detail"]


def test_another_players_game_is_not_found_by_either_path() -> None:
    owner, intruder = Client(), Client()
    owner.force_login(make_user("alice"))
    intruder.force_login(make_user("mallory"))
    games = tuple(
        owner.post("/api/games/", {"deal": 0}, content_type="application/json").json()["id"]
        for _ in range(2)
    )
    status, body = both(intruder, games, 0, winning_lines()[0][0])
    assert status == 404 and body == {"detail": "no such game"}
    assert not Move.objects.filter(game_id__in=games).exists()


ODD = [  # (what, body, extra request arguments, DRF's status)
    ("a BOM before the JSON", '\ufeff{"ply": 0, "move": "8d>6"}', {}, 400),
    ("NaN beside the move", '{"ply": 0, "move": "8d>6", "x": NaN}', {}, 400),
    ("Infinity anywhere", '{"ply": 0, "move": "8d>6", "x": Infinity}', {}, 400),
    ("only HTML accepted", '{"ply": 0, "move": "8d>6"}', {"HTTP_ACCEPT": "text/html"}, 406),
    ("an unknown ?format=", '{"ply": 0, "move": "8d>6"}', {"QUERY_STRING": "format=xml"}, 404),
    ("the ply a float", '{"ply": 0.5, "move": "8d>6"}', {}, 400),
]


@pytest.mark.parametrize(("what", "body", "extra", "status"), ODD, ids=[case[0] for case in ODD])
def test_odd_requests_get_drfs_answer_and_play_nothing(
    what: str, body: str, extra: dict[str, str], status: int
) -> None:
    client = Client()
    client.force_login(make_user("alice"))
    game_id = client.post("/api/games/", {"deal": 0}, content_type="application/json").json()["id"]
    response = client.post(
        f"/api/games/{game_id}/moves/", body.encode(), content_type="application/json", **extra
    )
    assert response.status_code == status, (what, response.content)
    assert Game.objects.get(pk=game_id).ply == 0 and not Move.objects.filter(game_id=game_id)


def test_a_move_over_the_limit_counts_once(settings: Any) -> None:
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "moves": "2/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    player = make_user("alice")
    client = Client()
    client.force_login(player)
    game_id = client.post("/api/games/", {"deal": 0}, content_type="application/json").json()["id"]
    line = winning_lines()[0]
    key = MoveThrottle.window_key(f"u{player.pk}", 60)
    try:
        assert [move(client, game_id, ply, line[ply])[0] for ply in range(2)] == [200, 200]
        refused = client.post(
            f"/api/games/{game_id}/moves/",
            json.dumps({"ply": 2, "move": line[2]}),
            content_type="application/json",
        )
        assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60
        assert "throttled" in refused.json()["detail"]
        assert cache.get(key) == 3  # each request counted once, the refused one too
    finally:
        cache.delete(key)
