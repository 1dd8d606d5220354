"""A guest's daily after the game: a sign-up before the close makes it rank (provisional), a
log-in to an existing account never does, and one game is claimed once.

The attacker these tests play plays the day's deal in several private windows, as a guest
in each, then keeps the best: by logging in to an account they have (refused: the game
joins the history unranked), by signing up after the close (unranked), or by signing up
twice from one session (one account gets it).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import daily, services
from games.models import Game, Mode, Verification, utc_today
from tests.factories import (
    LINES,
    Api,
    Clock,
    at_once,
    make_challenge,
    make_day,
    make_player,
    result,
)
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

LINE = LINES[0]  # deal 0: make_day()'s easy challenge
AUTH = "/_allauth/browser/v1/auth"
PASSWORD = "a long enough pass 42"


def board(date: dt.date) -> list[dict[str, Any]]:
    status, answer = Api(Client()).get(f"/api/leaderboards/daily/{date.isoformat()}/easy/")
    assert status == 200, answer
    return list(answer["results"])


def guest_wins(api: Api, capture: Any) -> int:
    status, game = api.post("/api/games/", {"daily": "easy"})
    assert status == 201, game
    with capture(execute=True):
        for ply, text in enumerate(LINE):
            assert api.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": text})[0] == 200
    return int(game["id"])


def sign_up(api: Api, username: str, **extra: str) -> tuple[int, Any]:
    return api.post(f"{AUTH}/signup", {"username": username, "password": PASSWORD, **extra})


def established(name: str) -> User:
    """A month-old account with a password and three verified dailies: never provisional."""
    player = make_player(name)
    player.set_password(PASSWORD)
    player.date_joined = timezone.now() - dt.timedelta(days=30)
    player.save()
    for days in (4, 3, 2):
        result(player, make_challenge(utc_today() - dt.timedelta(days=days)))
    return player


@pytest.mark.slow
@pytest.mark.redis  # the board read before and after: Redis's, cleared as results change
def test_a_guest_who_signs_up_before_the_close_ranks_as_a_provisional_result(
    django_capture_on_commit_callbacks: Any,
) -> None:
    make_day()
    api = Api(Client())
    game_id = guest_wins(api, django_capture_on_commit_callbacks)
    assert board(utc_today()) == []

    with django_capture_on_commit_callbacks(execute=True):
        status, body = sign_up(api, "newbie", display_name="Newbie")
    assert status == 200 and body["meta"]["is_authenticated"], body
    game = Game.objects.get(pk=game_id)
    assert game.player == User.objects.get(username="newbie")
    assert (game.mode, game.session_key, game.provisional) == (Mode.DAILY, "", True)
    assert game.played_as_guest and not game.held
    rows = board(utc_today())
    assert [(row["display_name"], row["provisional"]) for row in rows] == [("Newbie", True)]
    status, seen = api.get(f"/api/games/{game_id}/")
    assert status == 200 and (seen["mode"], seen["guest"]) == ("daily", False)
    assert seen["ranks_if_signed_up_before"] is None
    status, receipt = api.get(f"/api/games/{game_id}/receipt/")
    assert status == 200 and receipt["player"] == "Newbie"
    # it is the account's one daily of the day
    assert api.post("/api/games/", {"daily": "easy"})[1]["id"] == game_id


@pytest.mark.slow
@pytest.mark.redis  # the board read before and after: Redis's, cleared as results change
def test_logging_in_to_an_existing_account_never_ranks_the_guests_game(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Attack 1: play as a guest, then log in to keep the result. The game joins the
    player's history unranked, and their own daily is still theirs to play, and ranks."""
    make_day()
    player = established("Regular")
    api = Api(Client())
    guest_game = guest_wins(api, django_capture_on_commit_callbacks)

    status, body = api.post(f"{AUTH}/login", {"username": "regular", "password": PASSWORD})
    assert status == 200 and body["meta"]["is_authenticated"], body
    kept = Game.objects.get(pk=guest_game)
    assert (kept.player_id, kept.mode, kept.provisional) == (player.pk, Mode.GUEST, False)
    assert board(utc_today()) == []
    status, seen = api.get(f"/api/games/{guest_game}/")
    assert status == 200 and seen["guest"] is True and seen["ranks_if_signed_up_before"] is None
    status, today = api.get("/api/daily/")
    assert today["challenges"][0]["game"] is None  # the player's own daily: not played yet

    status, own = api.post("/api/games/", {"daily": "easy"})
    assert status == 201 and own["id"] != guest_game and own["guest"] is False
    with django_capture_on_commit_callbacks(execute=True):
        for ply, text in enumerate(LINE):
            assert api.post(f"/api/games/{own['id']}/moves/", {"ply": ply, "move": text})[0] == 200
    rows = board(utc_today())
    assert [(row["game_id"], row["rank"]) for row in rows] == [(own["id"], 1)]
    ranked = Game.objects.get(pk=own["id"])
    assert (ranked.verification, ranked.held) == (Verification.VERIFIED, False)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock(dt.datetime.combine(utc_today(), dt.time(23, 50), tzinfo=dt.UTC))
    monkeypatch.setattr(timezone, "now", fake)
    daily.closed_days_swept_through = None  # another test's day
    yield fake


@pytest.mark.slow
def test_a_sign_up_after_the_close_leaves_the_game_unranked(
    clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    """Attack 2: win as a guest, see the day's board, and sign up after the close."""
    day = clock.now.date()
    make_day(day)
    api = Api(Client())
    game_id = guest_wins(api, django_capture_on_commit_callbacks)
    clock.advance(11 * 60_000)  # 00:01, the next day

    with django_capture_on_commit_callbacks(execute=True):
        status, body = sign_up(api, "latecomer")
    assert status == 200, body
    game = Game.objects.get(pk=game_id)
    assert game.player == User.objects.get(username="latecomer")
    assert (game.mode, game.provisional, game.verification) == (Mode.GUEST, False, "verified")
    assert board(day) == []
    status, seen = api.get(f"/api/games/{game_id}/")
    assert status == 200 and seen["guest"] is True and seen["ranks_if_signed_up_before"] is None


@pytest.mark.slow
def test_a_second_sign_up_from_the_same_session_gets_nothing(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Attack 7: sign up twice from one session (the first with an address to confirm, so
    that it does not log in and the session stays the guest's)."""
    settings.ACCOUNT_SIGNUP_ANSWER_SECONDS = 0
    make_day()
    api = Api(Client())
    game_id = guest_wins(api, django_capture_on_commit_callbacks)
    status, body = sign_up(api, "first", email="first@example.com")
    assert status == 401 and not body["meta"]["is_authenticated"], body  # confirm the email
    first = User.objects.get(username="first")
    assert Game.objects.get(pk=game_id).player == first
    status, body = sign_up(api, "second")
    assert status == 200, body
    assert Game.objects.get(pk=game_id).player == first
    assert not Game.objects.filter(player__username="second").exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_sign_ups_racing_for_one_game_give_it_to_one() -> None:
    """Attack 7, at the same moment: the rows are locked, and the second claim finds the
    game held by an account already."""
    easy = make_day()["easy"]
    session_key = "racing-session"
    game, _ = services.start_daily_game(
        services.Actor(user_id=None, session_key=session_key), "easy", today=easy.date
    )
    players = [make_player("Racer1"), make_player("Racer2")]
    claimed: dict[int, list[int]] = {}

    def claim(player: User) -> None:
        claimed[player.pk] = services.claim_guest_games_at_sign_up(player, session_key)

    at_once(claim, players)
    assert sorted(claimed.values()) == [[], [game.pk]]
    winner = next(pk for pk, ids in claimed.items() if ids)
    stored = Game.objects.get(pk=game.pk)
    assert (stored.player_id, stored.mode) == (winner, Mode.DAILY)
