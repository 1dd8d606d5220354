"""Your data: the download (every game with its whole move log, closed flags on your
games, reports you made) and deleting the account after confirming who you are (the
result stays on past boards as "deleted player", the move log stays, the audit log too)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from accounts.models import DELETED_NAME, User
from games.models import Game, Move, Status
from games.services import log_entries
from leaderboards import day_board
from moderation import services as moderation
from moderation.models import AuditLog, Flag, FlagKind, FlagStatus, Report
from tests.factories import (
    LINES,
    client_for,
    make_challenge,
    make_day,
    make_player,
    play_daily_through_api,
    result,
)
from tests.games.conftest import _celery_in_process  # noqa: F401 (fixture)
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

PASSWORD = "a long enough pass 42"
CONFIRM = {"confirm": "delete my account"}


def post(client: Client, url: str, data: Any) -> Any:
    return client.post(url, json.dumps(data), content_type="application/json")


def player_with_password(name: str) -> User:
    user = make_player(name)
    user.set_password(PASSWORD)
    user.save()
    return user


def test_the_download_has_every_game_with_its_whole_log(
    django_capture_on_commit_callbacks: Any,
) -> None:
    day = make_day()
    ann = player_with_password("Ann")
    client = client_for(ann)
    line = LINES[day["easy"].deal.number][:6]
    game_id = play_daily_through_api(client, "easy", line, django_capture_on_commit_callbacks)
    other = make_player("Bob")
    reported = result(other, day["hard"])
    moderation.file_report(ann, reported, "too fast to be true")
    mine = result(ann, day["medium"])
    Flag.objects.create(
        game=mine, kind=FlagKind.FAST_MOVES, reason="fast", status=FlagStatus.CLEARED
    )
    Flag.objects.create(game=mine, kind=FlagKind.EVEN_PACING, reason="even")  # still open

    response = client.get("/api/auth/export/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    data = response.json()
    assert data["profile"]["username"] == "ann" and data["profile"]["display_name"] == "Ann"
    games = {g["id"]: g for g in data["games"]}
    assert set(games) == {game_id, mine.pk}
    played = games[game_id]
    stored = [entry.text for entry in log_entries(Game.objects.get(pk=game_id))]
    assert [entry["move"] for entry in played["log"]] == stored == line
    assert [entry["ply"] for entry in played["log"]] == list(range(len(line)))
    # the day is open: its deal number and the server's position stay secret
    assert played["deal"] is None and "position" not in played
    assert '"deal": null' in json.dumps(played)
    assert [f["kind"] for f in data["closed_flags"]] == [FlagKind.FAST_MOVES]
    assert [(r["game"], r["reason"]) for r in data["reports_made"]] == [
        (reported.pk, "too fast to be true")
    ]
    assert "password" not in json.dumps(data["profile"]).replace("has_password", "")


def test_the_download_is_for_the_logged_in_player_only() -> None:
    assert Client().get("/api/auth/export/").status_code == 403


def test_deleting_needs_the_confirmation_and_who_you_are() -> None:
    cat = player_with_password("Cat")
    client = client_for(cat)
    assert post(client, "/api/auth/delete/", {}).status_code == 400
    assert post(client, "/api/auth/delete/", {"confirm": "yes"}).status_code == 400
    wrong = post(client, "/api/auth/delete/", {**CONFIRM, "password": "not it"})
    assert wrong.status_code == 400 and "Wrong password" in wrong.json()["detail"]
    unconfirmed = post(client, "/api/auth/delete/", CONFIRM)  # a session, but no re-authentication
    assert unconfirmed.status_code == 401
    assert unconfirmed.json()["reauthenticate"].startswith("/accounts/reauthenticate/")
    assert (
        Client().post("/api/auth/delete/", CONFIRM, content_type="application/json").status_code
        == 403
    )
    cat.refresh_from_db()
    assert cat.is_active and cat.deleted_at is None


def test_deletion_keeps_boards_logs_and_the_audit_log() -> None:
    challenge = make_challenge()
    dan = player_with_password("Dan")
    eve = make_player("Eve")
    mod = make_player("Mod", staff=True, moderator=True)
    game = result(dan, challenge, score=625)
    Move.objects.create(game=game, ply=0, text="Ah>F", at_ms=10)
    result(eve, challenge, score=600)
    cheat = make_player("Cheat")
    moderation.ban_player(mod, cheat.pk, "testing the log")
    moderation.unban_player(mod, cheat.pk, "it was a test")
    audit_before = list(AuditLog.objects.values_list("pk", "action", "reason"))
    board_url = f"/api/leaderboards/daily/{challenge.date.isoformat()}/{challenge.tier}/"
    assert [r["display_name"] for r in Client().get(board_url).json()["results"]] == ["Dan", "Eve"]
    client = client_for(dan)

    response = post(client, "/api/auth/delete/", {**CONFIRM, "password": PASSWORD})
    assert response.status_code == 200, response.content
    assert response.json() == {"authenticated": False, "player": None}
    dan.refresh_from_db()
    assert dan.display_name == DELETED_NAME and dan.username == f"deleted:{dan.pk}"
    assert not dan.is_active and not dan.has_usable_password() and dan.email == ""
    # the result stays, under the new name, and its log stays for the public proof
    assert Game.objects.get(pk=game.pk).status == Status.WON
    assert Move.objects.filter(game=game).count() == 1
    day_board.process_cache.clear()  # what this process read in the last 2 s (the page above)
    rows = Client().get(board_url).json()["results"]
    assert [r["display_name"] for r in rows] == [DELETED_NAME, "Eve"]
    assert list(AuditLog.objects.values_list("pk", "action", "reason")) == audit_before
    # the session is gone, the account cannot log in, and its old name is free again
    assert client.get("/api/auth/me/").json()["authenticated"] is False
    login = post(Client(), "/api/auth/login/", {"username": "dan", "password": PASSWORD})
    assert login.status_code == 400
    assert (
        post(
            Client(),
            "/api/auth/signup/",
            {"username": "dan", "display_name": "Dan", "password": PASSWORD},
        ).status_code
        == 201
    )


def test_two_deleted_players_both_show_the_name() -> None:
    for name in ("Fay", "Gus"):
        user = player_with_password(name)
        response = post(client_for(user), "/api/auth/delete/", {**CONFIRM, "password": PASSWORD})
        assert response.status_code == 200, response.content
    assert User.objects.filter(display_name=DELETED_NAME).count() == 2
    # and nobody can take the name
    status = post(
        Client(),
        "/api/auth/signup/",
        {"username": "sly", "display_name": "Deleted Player", "password": PASSWORD},
    )
    assert status.status_code == 400
    assert Report.objects.count() == 0


def test_a_new_display_name_shows_on_the_boards() -> None:
    challenge = make_challenge()
    hal = make_player("Hal")
    result(hal, challenge)
    board_url = f"/api/leaderboards/daily/{challenge.date.isoformat()}/{challenge.tier}/"
    assert [r["display_name"] for r in Client().get(board_url).json()["results"]] == ["Hal"]
    response = post(client_for(hal), "/api/auth/display-name/", {"display_name": "Hal 9000"})
    assert response.status_code == 200, response.content
    day_board.process_cache.clear()  # what this process read in the last 2 s (the page above)
    assert [r["display_name"] for r in Client().get(board_url).json()["results"]] == ["Hal 9000"]
