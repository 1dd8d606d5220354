"""Guests' games of the dailies on the boards' pages (issue 39, "Play first").

The home page's "playing now" counts the guests at play beside the players; and a player
who logged in after playing as a guest finds that game in their page's history, marked as
a guest's and unranked, never in a total, a personal best or a rank.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Game, Mode, utc_today
from leaderboards.serializers import PlayerPage
from tests.factories import LINES, Api, make_challenge, make_day, make_player, result
from tests.leaderboards.test_daily_api import check_shape

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

LINE = LINES[0]  # deal 0: make_day()'s easy challenge
AUTH = "/_allauth/browser/v1/auth"
PASSWORD = "a long enough pass 42"


@pytest.fixture(autouse=True)
def _verify_in_process() -> Iterator[None]:
    """A finished game is verified at once, as `make run` does without a worker."""
    from yukon_site.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


def start(api: Api, tier: str = "easy") -> int:
    status, game = api.post("/api/games/", {"daily": tier})
    assert status == 201, game
    return int(game["id"])


def play(api: Api, game_id: int, moves: list[str], capture: Any) -> None:
    with capture(execute=True):
        for ply, text in enumerate(moves):
            status, answer = api.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": text})
            assert status == 200, answer


def playing(client: Client) -> dict[str, int]:
    """The home page's "playing now" of the three dailies (a Sunday adds the weekly)."""
    status, home = Api(client).get("/api/leaderboards/home/")
    assert status == 200, home
    return {tier: home["playing"][tier] for tier in ("easy", "medium", "hard")}


def test_playing_now_counts_the_guests_at_play(
    django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.DAY_COUNTS_SECONDS = 0  # counted at each read (tests/games/test_day_counts.py)
    make_day()
    guests = [Api(Client(REMOTE_ADDR=f"198.51.100.{n}")) for n in (1, 2)]
    easy = [start(api) for api in guests]
    start(guests[0], "hard")
    player = Api(Client())
    player.client.force_login(make_player("Ann"))
    start(player)
    assert playing(Client()) == {"easy": 3, "medium": 0, "hard": 1}

    play(guests[1], easy[1], LINE, django_capture_on_commit_callbacks)  # over: not at play
    assert playing(Client()) == {"easy": 2, "medium": 0, "hard": 1}


def established(name: str) -> User:
    """A month-old account with a password and three verified dailies (never provisional,
    so its own daily is never held for its link to the guest's game)."""
    player = make_player(name)
    player.set_password(PASSWORD)
    player.date_joined = timezone.now() - dt.timedelta(days=30)
    player.save()
    for days in (4, 3, 2):
        result(player, make_challenge(utc_today() - dt.timedelta(days=days)))
    return player


def test_a_guest_game_kept_at_log_in_is_in_the_history_marked_and_unranked(
    django_capture_on_commit_callbacks: Any,
) -> None:
    make_day()
    established("Regular")
    api = Api(Client())
    as_guest = start(api)
    play(api, as_guest, LINE[:10], django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        status, _ = api.post(f"/api/games/{as_guest}/resign/")
    assert status == 200
    still_playing = start(api, "medium")  # never finished: never listed

    status, body = api.post(f"{AUTH}/login", {"username": "regular", "password": PASSWORD})
    assert status == 200 and body["meta"]["is_authenticated"], body
    assert Game.objects.get(pk=as_guest).mode == Mode.GUEST  # kept, unranked
    own = start(api)  # the player's own daily of the same deal, which ranks
    play(api, own, LINE, django_capture_on_commit_callbacks)
    Api(Client()).get(f"/api/leaderboards/daily/{utc_today()}/easy/")  # builds the board

    for viewer in (Client(), api.client):  # anyone, and the player on their own page
        status, page = Api(viewer).get("/api/players/Regular/")
        assert status == 200, page
        check_shape(PlayerPage, page)
        today = [
            (g["game_id"], g["guest"], g["status"], g["rank"])
            for g in page["games"]
            if g["date"] == utc_today().isoformat()
        ]
        assert today == [(own, False, "won", 1), (as_guest, True, "resigned", None)]
        assert still_playing not in {g["game_id"] for g in page["games"]}
        assert [g["guest"] for g in page["games"]].count(True) == 1
        assert page["count"] == 5 and page["pages"] == 1  # three past dailies, today's two
        # The totals, streak and bests are the ranked dailies' alone.
        assert (page["played"], page["wins"], page["average_score"]) == (4, 4, 625.0)
        assert page["personal_bests"]["easy"]["fewest_moves"] == len(LINE)
    status, mine = api.get("/api/players/Regular/")
    assert [g["replay_url"] for g in mine["games"][:2]] == [
        f"/replay/{own}/",
        f"/replay/{as_guest}/",
    ]
    status, theirs = Api(Client()).get("/api/players/Regular/")
    assert [g["replay_url"] for g in theirs["games"][:2]] == [None, None]  # open until the close
    # A kept guest game moderation holds (linked to the daily): the hold is its player's to
    # know, not the page's visitors'.
    Game.objects.filter(pk=as_guest).update(held=True)
    theirs = Api(Client()).get("/api/players/Regular/")[1]
    assert as_guest in [g["game_id"] for g in theirs["games"]]
    assert not any(g["held"] for g in theirs["games"])
    mine = api.get("/api/players/Regular/")[1]
    assert [g["held"] for g in mine["games"] if g["game_id"] == as_guest] == [True]
