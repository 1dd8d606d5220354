"""A guest plays today's dailies at once, through the players' API (issue 39, "Play first").

The game is the guest session's (mode ``guest``): played, closed and verified like a
daily, never on a board while it is a guest's, and nobody else's to read before the close.
The sign-up and log-in that follow are tests/games/test_guest_daily_accounts.py; the
links and holds, tests/moderation/test_guest_links.py.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import daily
from games.models import Game, Mode, Status, utc_today
from moderation.models import GameOrigin
from moderation.origins import DEVICE_COOKIE
from tests.factories import LINES, Api, Clock, make_challenges, make_day, make_user
from tests.games.test_secrecy import play_random_game
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

LINE = LINES[0]  # deal 0: make_day()'s easy challenge


def guest(address: str = "198.51.100.7") -> Api:
    return Api(Client(REMOTE_ADDR=address))


def board(date: dt.date, tier: str = "easy") -> list[dict[str, Any]]:
    status, answer = guest("192.0.2.1").get(f"/api/leaderboards/daily/{date.isoformat()}/{tier}/")
    assert status == 200, answer
    return list(answer["results"])


def play(api: Api, game_id: int, moves: list[str], first_ply: int = 0) -> list[Any]:
    answers = []
    for ply, text in enumerate(moves, start=first_ply):
        status, answer = api.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": text})
        assert status == 200, answer
        answers.append(answer)
    return answers


def test_a_guest_starts_plays_and_wins_a_daily_that_ranks_nowhere(
    django_capture_on_commit_callbacks: Any,
) -> None:
    challenges = make_day()
    api = guest()
    status, game = api.post("/api/games/", {"daily": "easy"})
    assert status == 201, game
    closes_at = game["closes_at"]
    assert (game["mode"], game["guest"], game["tier"]) == ("guest", True, "easy")
    assert game["ranks_if_signed_up_before"] == closes_at is not None
    assert game["deal"] is None and game["salt"] is None
    assert game["commitment"] == challenges["easy"].commitment
    assert api.post("/api/games/", {"daily": "easy"}) == (200, game)  # one per session

    with django_capture_on_commit_callbacks(execute=True):
        answers = play(api, game["id"], LINE)
    assert answers[-1]["status"] == "won"
    assert all(answer["receipt"] is None for answer in answers)  # a receipt names a player
    stored = Game.objects.get(pk=game["id"])
    assert (stored.mode, stored.player_id, stored.verification) == (Mode.GUEST, None, "verified")
    assert stored.played_as_guest and not stored.provisional
    assert board(utc_today()) == []  # never ranked while it is a guest's

    status, again = api.get(f"/api/games/{game['id']}/")
    assert status == 200 and again["status"] == "won" and again["guest"] is True
    status, replay = api.get(f"/api/games/{game['id']}/replay/")
    assert status == 200 and len(replay["log"]) == len(LINE)
    assert replay["deal"] is None  # the day is still open


def test_the_days_counts_say_how_many_guests_played(
    django_capture_on_commit_callbacks: Any,
) -> None:
    make_day()
    first, second = guest(), guest("203.0.113.4")
    player = Client()
    player.force_login(make_user("ann"))
    _, game = first.post("/api/games/", {"daily": "easy"})
    second.post("/api/games/", {"daily": "easy"})
    Api(player).post("/api/games/", {"daily": "easy"})
    with django_capture_on_commit_callbacks(execute=True):
        play(first, game["id"], LINE)

    status, today = first.get("/api/daily/")
    assert status == 200
    easy = today["challenges"][0]
    assert (easy["played"], easy["won"], easy["guests"]) == (3, 1, 2)
    assert easy["game"]["id"] == game["id"] and easy["game"]["status"] == "won"  # its own
    assert today["challenges"][1]["guests"] == 0
    _, theirs = second.get("/api/daily/")
    assert theirs["challenges"][0]["game"]["id"] != game["id"]
    _, nobodys = guest("192.0.2.9").get("/api/daily/")
    assert nobodys["challenges"][0]["game"] is None and nobodys["challenges"][0]["guests"] == 2


def test_another_session_guest_or_player_cannot_read_or_move_a_guests_game() -> None:
    make_day()
    owner = guest()
    _, game = owner.post("/api/games/", {"daily": "easy"})
    play(owner, game["id"], LINE[:5])
    player = Client()
    player.force_login(make_user("bob"))
    for other in (guest(), guest("203.0.113.4"), Api(player)):
        gid = game["id"]
        assert other.get(f"/api/games/{gid}/")[0] == 404
        assert other.get(f"/api/games/{gid}/replay/")[0] == 404
        assert other.get(f"/api/games/{gid}/receipt/")[0] == 404
        assert other.post(f"/api/games/{gid}/moves/", {"ply": 5, "move": LINE[5]})[0] == 404
        assert other.post(f"/api/games/{gid}/resign/")[0] == 404
        assert other.get(f"/api/games/{gid}/analysis/")[0] == 404
    assert Game.objects.get(pk=game["id"]).ply == 5
    # and its owner cannot use what ranked games refuse
    assert owner.post(f"/api/games/{game['id']}/undo/", {"ply": 5})[0] == 403
    assert owner.get(f"/api/games/{game['id']}/hint/")[0] == 403
    assert owner.get(f"/api/games/{game['id']}/replay/")[0] == 409  # in play: not yet


@pytest.mark.slow
def test_no_answer_to_a_guest_shows_a_face_down_card_or_the_deal() -> None:
    make_challenges()  # deals with numbers that stand out if they leak
    rng = random.Random(39)
    for tier in ("easy", "medium", "hard"):
        api = guest()
        status, game = api.post("/api/games/", {"daily": tier})
        assert status == 201 and game["deal"] is None
        play_random_game(api, game["id"], rng, practice=False)


def test_a_guest_start_records_its_origin_and_gives_a_device_id() -> None:
    make_day()
    client = Client(REMOTE_ADDR="198.51.100.5")
    response = client.post(
        "/api/games/", json.dumps({"daily": "medium"}), content_type="application/json"
    )
    assert response.status_code == 201, response.content
    device = response.cookies[DEVICE_COOKIE].value
    origin = GameOrigin.objects.get(game_id=response.json()["id"])
    assert (origin.network, origin.device) == ("198.51.100.0/24", device)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock(dt.datetime.combine(utc_today(), dt.time(23, 58), tzinfo=dt.UTC))
    monkeypatch.setattr(timezone, "now", fake)
    daily.closed_days_swept_through = None  # another test's day
    yield fake


def test_a_guests_game_closes_with_its_day(clock: Clock) -> None:
    day = clock.now.date()
    make_day(day)
    api = guest()
    _, game = api.post("/api/games/", {"daily": "easy"})
    play(api, game["id"], LINE[:4])
    clock.advance(3 * 60_000)  # 00:01, the next day

    status, body = api.post(f"/api/games/{game['id']}/moves/", {"ply": 4, "move": LINE[4]})
    assert status == 409 and body["detail"].startswith("this day closed at 00:00 UTC")
    assert body["status"] == Status.ABANDONED
    assert api.post(f"/api/games/{game['id']}/resign/")[0] == 409
    status, ended = api.get(f"/api/games/{game['id']}/")
    assert ended["status"] == "abandoned" and ended["ranks_if_signed_up_before"] is None
    # a start now is today's (not published yet here), never the closed day's
    status, body = api.post("/api/games/", {"daily": "easy"})
    assert status == 404 and "not ready" in body["detail"]
    assert Game.objects.filter(mode=Mode.GUEST).count() == 1


def test_guest_starts_are_budgeted_per_address(settings: Any) -> None:
    """A guest's game is a free scout: a script that drops its cookies for a new one each
    time meets its address's limit (429 with Retry-After), and a player never does."""
    make_day()
    settings.COSTLY_CALL_LIMITS = {"guest_dailies": "2/min", "guest_dailies_address": "4/min"}
    for _ in range(4):
        assert guest("10.0.0.1").post("/api/games/", {"daily": "hard"})[0] == 201
    refused = guest("10.0.0.1").client.post(
        "/api/games/", json.dumps({"daily": "hard"}), content_type="application/json"
    )
    assert refused.status_code == 429, refused.content
    body = refused.json()
    assert (body["limit"], body["per"]) == ("guest_dailies_address", "address")
    assert int(refused["Retry-After"]) == body["retry_after"] >= 1
    assert Game.objects.count() == 4  # refused before a game (or a session) was made
    # one guest resuming again and again meets its own limit (counted once it has a session)
    same = guest("10.0.0.2")
    answers = [same.post("/api/games/", {"daily": "easy"}) for _ in range(4)]
    assert [status for status, _ in answers] == [201, 200, 200, 429]
    assert answers[-1][1]["per"] == "player"
    player = Client(REMOTE_ADDR="10.0.0.1")
    player.force_login(make_user("cat"))
    assert Api(player).post("/api/games/", {"daily": "hard"})[0] == 201


def test_the_schema_says_what_a_guest_game_is(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schemas = json.loads(response.content)["components"]["schemas"]
    game = schemas["Game"]["properties"]
    assert game["guest"]["type"] == "boolean"
    assert game["ranks_if_signed_up_before"]["format"] == "date-time"
    assert game["ranks_if_signed_up_before"].get("nullable") is True
    assert "guest" in schemas["ModeEnum"]["enum"]
    assert schemas["DailyChallenge"]["properties"]["guests"]["type"] == "integer"
