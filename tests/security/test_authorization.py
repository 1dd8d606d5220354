"""One player cannot read, move in, undo, resign or replay another player's game in
progress (nor can a guest); a non-staff user cannot reach the admin (moderation)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.factories import Api, client_for, make_challenges, make_user, winning_lines

pytestmark = pytest.mark.django_db


def owner_games() -> tuple[Api, dict[str, int]]:
    make_challenges(numbers={"easy": 0, "medium": 1, "hard": 68})
    client = Client()
    client.force_login(make_user("alice"))
    owner = Api(client)
    _, daily = owner.post("/api/games/", {"daily": "easy"})
    _, practice = owner.post("/api/games/", {"deal": 1})
    line = winning_lines()
    for game, deal in ((daily, 0), (practice, 1)):
        moved = owner.post(f"/api/games/{game['id']}/moves/", {"ply": 0, "move": line[deal][0]})
        assert moved[0] == 200
    return owner, {"daily": daily["id"], "practice": practice["id"]}


@pytest.mark.parametrize("intruder", ["player", "guest"])
@pytest.mark.parametrize("kind", ["daily", "practice"])
def test_another_players_game_in_progress_is_out_of_reach(intruder: str, kind: str) -> None:
    _, games = owner_games()
    game_id = games[kind]
    before = Game.objects.get(pk=game_id)
    client = Client()
    if intruder == "player":
        client.force_login(make_user("mallory"))
    other = Api(client)
    line = winning_lines()[0 if kind == "daily" else 1]
    attempts = [
        other.get(f"/api/games/{game_id}/"),
        other.post(f"/api/games/{game_id}/moves/", {"ply": 1, "move": line[1]}),
        other.post(f"/api/games/{game_id}/undo/", {"ply": 1}),
        other.post(f"/api/games/{game_id}/resign/"),
        other.get(f"/api/games/{game_id}/replay/"),
    ]
    for status, body in attempts:
        assert status == 404, body  # not even whether it exists
    after = Game.objects.get(pk=game_id)
    assert (after.ply, after.status, after.position) == (before.ply, before.status, before.position)
    for body in other.bodies:
        assert "position" not in body


def test_the_owner_can(client: Client) -> None:
    owner, games = owner_games()
    assert owner.get(f"/api/games/{games['practice']}/")[0] == 200
    assert owner.post(f"/api/games/{games['practice']}/undo/", {"ply": 1})[0] == 200
    assert owner.post(f"/api/games/{games['daily']}/resign/")[0] == 200


@pytest.mark.parametrize("path", ["/admin/", "/admin/games/game/", "/admin/accounts/user/"])
def test_non_staff_cannot_reach_the_admin(path: str) -> None:
    client = Client()
    client.force_login(make_user("pat"))
    response = client.get(path)
    assert response.status_code in (302, 403)
    if response.status_code == 302:
        assert response["Location"].startswith("/admin/login/")
    assert Client().get(path).status_code == 302  # anonymous: to the log-in page
    staff = client_for(make_user("sam", staff=True))
    assert staff.get("/admin/").status_code == 200
