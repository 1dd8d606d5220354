"""Whole games through the API: a known winning line to 625, undo, resign, replay, daily."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from accounts.models import User
from games.models import DailyChallenge, Deal, Game, Move, utc_today
from games.services import log_entries
from tests.factories import Api, make_challenges, winning_lines

pytestmark = pytest.mark.django_db


def play_line(api: Api, game_id: int, line: list[str]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for ply, text in enumerate(line):
        status, result = api.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": text})
        assert status == 200, (ply, text, result)
        assert result["ply"] == ply + 1
    return result


@pytest.mark.parametrize("number", [0, 1, 68])
def test_practice_game_won_with_a_known_line_is_verified(
    guest_api: Api, number: int, django_capture_on_commit_callbacks: Any
) -> None:
    line = winning_lines()[number]
    status, game = guest_api.post("/api/games/", {"deal": number, "variant": "yukon"})
    assert status == 201
    assert game["mode"] == "practice" and game["deal"] == str(number)
    assert game["ply"] == 0 and game["score"] == 0 and game["status"] == "playing"
    assert [c["down"] for c in game["position"]["columns"]] == [0, 1, 2, 3, 4, 5, 6]
    with django_capture_on_commit_callbacks(execute=True):
        last = play_line(guest_api, game["id"], line)
    assert last == {
        "ply": len(line),
        "turned": None,
        "score": 625,
        "status": "won",
        "moves": len(line),
        "receipt": None,  # a practice game: receipts are for dailies
    }
    status, game = guest_api.get(f"/api/games/{game['id']}/")
    assert status == 200
    assert game["status"] == "won" and game["score"] == 625 and game["verification"] == "verified"
    assert game["finished_at"] and game["elapsed_ms"] is not None
    assert game["can_undo"] is False
    # verified: the log is packed into the game's row, its Move rows gone
    assert len(log_entries(Game.objects.get(pk=game["id"]))) == len(line)
    assert not Move.objects.filter(game_id=game["id"]).exists()


@pytest.mark.slow
def test_daily_game_won_is_verified_and_second_start_returns_it(
    api: Api, django_capture_on_commit_callbacks: Any
) -> None:
    make_challenges(numbers={"easy": 0, "medium": 1, "hard": 68})
    status, game = api.post("/api/games/", {"daily": "easy"})
    assert status == 201
    assert game["mode"] == "daily" and game["tier"] == "easy" and game["deal"] is None
    status, again = api.post("/api/games/", {"daily": "easy"})
    assert status == 200 and again["id"] == game["id"]
    with django_capture_on_commit_callbacks(execute=True):
        play_line(api, game["id"], winning_lines()[0])
    stored = Game.objects.get(pk=game["id"])
    assert (stored.status, stored.score, stored.verification) == ("won", 625, "verified")
    status, daily = api.get("/api/daily/")
    easy = next(c for c in daily["challenges"] if c["tier"] == "easy")
    assert easy["played"] == 1 and easy["won"] == 1 and easy["game"]["id"] == game["id"]
    # Replay of one's own finished game: at once, without the deal number (day still open).
    status, replay = api.get(f"/api/games/{game['id']}/replay/")
    assert status == 200 and replay["deal"] is None
    assert [e["move"] for e in replay["log"]] == winning_lines()[0]
    assert replay["start"]["columns"][6]["down"] == 6


def test_daily_lists_three_tiers_in_order_without_numbers(
    api: Api, challenges: Any, settings: Any
) -> None:
    # On a Sunday today has the weekly too: no solver run for the tier the test leaves bare
    # (without Redis the site prepares a missing tier on request).
    settings.DAILY_PREPARE_ON_REQUEST = False
    status, daily = api.get("/api/daily/")
    assert status == 200
    assert daily["date"] == utc_today().isoformat()
    assert [c["tier"] for c in daily["challenges"]] == ["easy", "medium", "hard"]
    assert all(c["game"] is None and c["played"] == 0 for c in daily["challenges"])


def test_daily_requires_a_ready_challenge(guest_api: Api, api: Api) -> None:
    # (a guest may play it too: tests/games/test_guest_daily.py)
    status, body = guest_api.post("/api/games/", {"daily": "easy"})
    assert status == 404 and "not ready" in body["detail"]
    status, body = api.post("/api/games/", {"daily": "hard"})
    assert status == 404 and "not ready" in body["detail"]


def test_undo_in_practice_is_logged_and_verified(
    api: Api, django_capture_on_commit_callbacks: Any
) -> None:
    line = winning_lines()[0]
    _, game = api.post("/api/games/", {"deal": 0})
    gid = game["id"]
    play_line(api, gid, line[:3])
    status, after = api.post(f"/api/games/{gid}/undo/", {"ply": 3})
    assert status == 200
    assert after["ply"] == 4 and after["moves"] == 2 and after["used_undo"] is True
    status, body = api.post(f"/api/games/{gid}/undo/", {"ply": 3})
    assert status == 409 and body["ply"] == 4
    # Play the rest of the line from there.
    with django_capture_on_commit_callbacks(execute=True):
        for i, text in enumerate(line[2:]):
            status, result = api.post(f"/api/games/{gid}/moves/", {"ply": 4 + i, "move": text})
            assert status == 200, result
    stored = Game.objects.get(pk=gid)
    assert (stored.status, stored.score, stored.verification) == ("won", 625, "verified")
    assert stored.moves == len(line) and stored.ply == len(line) + 2


def test_undo_is_refused_in_ranked_games(api: Api, challenges: Any) -> None:
    _, game = api.post("/api/games/", {"daily": "easy"})
    status, body = api.post(f"/api/games/{game['id']}/undo/", {"ply": 0})
    assert status == 403 and "practice" in body["detail"]


def test_undo_with_nothing_to_undo(api: Api) -> None:
    _, game = api.post("/api/games/", {"deal": 5})
    status, body = api.post(f"/api/games/{game['id']}/undo/", {"ply": 0})
    assert status == 409 and "no move" in body["detail"]


def test_resign_then_moves_are_refused_and_replay_opens(
    api: Api, other_api: Api, django_capture_on_commit_callbacks: Any
) -> None:
    _, game = api.post("/api/games/", {"deal": 0})
    gid = game["id"]
    status, body = api.get(f"/api/games/{gid}/replay/")
    assert status == 409  # still playing
    play_line(api, gid, winning_lines()[0][:5])
    with django_capture_on_commit_callbacks(execute=True):
        status, body = api.post(f"/api/games/{gid}/resign/")
    assert status == 200 and body["status"] == "resigned"
    assert Game.objects.get(pk=gid).verification == "verified"
    status, body = api.post(f"/api/games/{gid}/moves/", {"ply": 5, "move": "Ah>F"})
    assert status == 409 and "over" in body["detail"]
    status, body = api.post(f"/api/games/{gid}/resign/")
    assert status == 409
    status, replay = api.get(f"/api/games/{gid}/replay/")
    assert status == 200 and len(replay["log"]) == 5 and replay["deal"] == "0"
    # Someone else's practice game: not theirs to see.
    assert other_api.get(f"/api/games/{gid}/replay/")[0] == 404
    assert other_api.get(f"/api/games/{gid}/")[0] == 404


def test_daily_replays_become_public_after_the_day_closes(
    api: Api, other_api: Api, player: User
) -> None:
    yesterday = utc_today() - dt.timedelta(days=1)
    old = make_challenges(date=yesterday)
    game = Game.objects.create(
        player=player,
        deal=old["easy"].deal,
        challenge=old["easy"],
        mode="daily",
        status="resigned",
        position=old["easy"].deal.start_position().to_text(),
    )
    status, replay = other_api.get(f"/api/games/{game.pk}/replay/")
    assert status == 200
    assert replay["deal"] == str(old["easy"].deal.number)
    status, detail = other_api.get(f"/api/games/{game.pk}/")
    assert status == 200 and detail["deal"] == str(old["easy"].deal.number)
    # Today's daily game of someone else stays hidden.
    today = make_challenges()
    mine = Game.objects.create(
        player=player,
        deal=today["easy"].deal,
        challenge=today["easy"],
        mode="daily",
        status="won",
        position=today["easy"].deal.start_position().to_text(),
    )
    assert other_api.get(f"/api/games/{mine.pk}/")[0] == 404
    assert other_api.get(f"/api/games/{mine.pk}/replay/")[0] == 404


def test_staff_may_read_a_game_in_progress(api: Api) -> None:
    from django.test import Client

    from tests.factories import client_for, make_user

    _, game = api.post("/api/games/", {"deal": 3})
    carol = make_user("carol", staff=True)
    password_only = Client()
    password_only.force_login(carol)  # staff powers need the second factor too
    assert Api(password_only).get(f"/api/games/{game['id']}/")[0] == 404
    staff = client_for(carol)  # with the second factor passed
    status, body = Api(staff).get(f"/api/games/{game['id']}/")
    assert status == 200 and body["id"] == game["id"]
    # ... but cannot play it.
    status, _ = Api(staff).post(f"/api/games/{game['id']}/moves/", {"ply": 0, "move": "8d>6"})
    assert status == 404


def test_guest_games_follow_the_guest_into_their_new_account(guest_api: Api) -> None:
    _, game = guest_api.post("/api/games/", {"deal": 9})
    status, me = guest_api.post(
        "/api/auth/signup/",
        {"username": "dora", "display_name": "Dora", "password": "a long enough pass 42"},
    )
    assert status == 201 and me["player"]["display_name"] == "Dora"
    assert guest_api.get(f"/api/games/{game['id']}/")[0] == 200
    assert Game.objects.get(pk=game["id"]).player is not None


def test_deal_numbers_cover_the_full_unsigned_range(guest_api: Api) -> None:
    for number in (0, 2**63 - 1, 2**63, 2**64 - 1):
        status, game = guest_api.post("/api/games/", {"deal": str(number)})
        assert status == 201 and game["deal"] == str(number)
    assert Deal.objects.filter(number=2**64 - 1).exists()
    assert DailyChallenge.objects.count() == 0
