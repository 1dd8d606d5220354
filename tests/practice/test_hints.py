"""The practice coach through the API, with the real solver on a real database.

Following the hints alone wins; a lost position is called lost; hints never name a card
the player cannot see; ranked games get none; each question counts.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from games.models import Game
from tests.factories import Api, make_challenges
from yukon.solver import solve

pytestmark = pytest.mark.django_db


def start(api: Api, deal: int, variant: str = "yukon") -> dict[str, Any]:
    status, game = api.post("/api/games/", {"deal": deal, "variant": variant})
    assert status == 201, game
    return game


def face_up(position: dict[str, Any]) -> set[str]:
    return {card for column in position["columns"] for card in column["up"]}


@pytest.mark.slow
@pytest.mark.parametrize("deal", [0, 1, 2, 3])
def test_following_hints_alone_wins(api: Api, deal: int) -> None:
    game = start(api, deal)
    url = f"/api/games/{game['id']}"
    asked = 0
    for _ in range(300):
        if game["status"] != "playing":
            break
        status, hint = api.get(f"{url}/hint/")
        asked += 1
        assert status == 200, hint
        assert hint["verdict"] == "solved" and hint["ply"] == game["ply"], hint
        card = hint["move"].split(">")[0]
        assert card in face_up(game["position"]), f"hint {hint['move']} names a hidden card"
        status, moved = api.post(f"{url}/moves/", {"ply": game["ply"], "move": hint["move"]})
        assert status == 200, moved
        _, game = api.get(f"{url}/")
    assert game["status"] == "won"
    assert game["hints_used"] == asked and game["assisted"] is True
    stored = Game.objects.get(pk=game["id"])
    assert stored.hints_used == asked


@pytest.mark.parametrize("deal", [24, 62])
def test_a_deal_proven_lost_gets_unwinnable_and_no_move(api: Api, deal: int) -> None:
    assert solve(deal, seconds=2).verdict == "unwinnable"  # the premise, checked quickly
    game = start(api, deal)
    status, hint = api.get(f"/api/games/{game['id']}/hint/")
    assert (status, hint["verdict"], hint["move"]) == (200, "unwinnable", None)
    status, answer = api.get(f"/api/games/{game['id']}/winnable/")
    assert (status, answer["verdict"], answer["hints_used"]) == (200, "unwinnable", 2)
    assert "move" not in answer


def test_a_game_driven_into_a_lost_state_is_called_lost(api: Api) -> None:
    line = solve(0, seconds=2).moves
    game = start(api, 0)
    url = f"/api/games/{game['id']}"
    _, answer = api.get(f"{url}/winnable/")
    assert answer["verdict"] == "solved"
    # 12 moves of a winning line, then 5c>5, which the solver proves loses (see analysis).
    for ply, move in enumerate([*line[:12], "5c>5"]):
        status, body = api.post(f"{url}/moves/", {"ply": ply, "move": move})
        assert status == 200, body
    _, answer = api.get(f"{url}/winnable/")
    assert answer["verdict"] == "unwinnable"
    _, hint = api.get(f"{url}/hint/")
    assert (hint["verdict"], hint["move"]) == ("unwinnable", None)
    # Undo takes the game back to a winnable position, and the coach says so.
    status, _ = api.post(f"{url}/undo/", {"ply": 13})
    assert status == 200
    _, hint = api.get(f"{url}/hint/")
    assert hint["verdict"] == "solved" and hint["move"]


def test_ranked_games_get_no_hints(api: Api) -> None:
    make_challenges()
    status, game = api.post("/api/games/", {"daily": "easy"})
    assert status == 201
    for kind in ("hint", "winnable"):
        status, body = api.get(f"/api/games/{game['id']}/{kind}/")
        assert status == 403
        assert "practice" in body["detail"]
    assert Game.objects.get(pk=game["id"]).hints_used == 0


def test_others_games_and_finished_games(api: Api, other_api: Api, guest_api: Api) -> None:
    game = start(api, 1)
    url = f"/api/games/{game['id']}"
    for client in (other_api, guest_api):
        status, body = client.get(f"{url}/hint/")
        assert status == 404 and body["detail"] == "no such game"
    assert api.get("/api/games/999999/hint/")[0] == 404
    assert api.post(f"{url}/resign/")[0] == 200
    status, body = api.get(f"{url}/hint/")
    assert status == 409 and body["status"] == "resigned"
    assert Game.objects.get(pk=game["id"]).hints_used == 0


def test_guests_get_hints_for_their_own_practice_game(guest_api: Api) -> None:
    game = start(guest_api, 2)
    status, hint = guest_api.get(f"/api/games/{game['id']}/hint/")
    assert status == 200 and hint["verdict"] == "solved" and hint["assisted"] is True


def test_one_question_at_a_time_per_game(api: Api) -> None:
    game = start(api, 0)
    cache.add(f"coach:busy:{game['id']}", 1, timeout=30)
    status, body = api.get(f"/api/games/{game['id']}/hint/")
    assert status == 429 and "thinking" in body["detail"]
    cache.delete(f"coach:busy:{game['id']}")
    assert api.get(f"/api/games/{game['id']}/hint/")[0] == 200


@pytest.mark.django_db(transaction=True)
def test_hint_holds_no_transaction_while_the_solver_thinks(api: Api, monkeypatch: Any) -> None:
    from django.db import connection

    from analysis import coach

    game = start(api, 0)
    seen: list[bool] = []
    real = coach.solve

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(connection.in_atomic_block)
        return real(*args, **kwargs)

    monkeypatch.setattr(coach, "solve", spy)
    assert api.get(f"/api/games/{game['id']}/hint/")[0] == 200
    assert seen == [False]
