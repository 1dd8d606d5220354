"""The close of day: a daily game changes only while its day is open.

The attack these tests replay: start the easy daily at 23:58 UTC, wait for midnight, read
the game (the deal number used to show once the day closed), solve the deal with the
public solver and play the line after midnight: won, verified, first on the closed day's
board. The clock is moved across midnight by patching ``django.utils.timezone.now``.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.models import User
from apikit.errors import Conflict
from games import daily, services
from games.api.serializers import GameSerializer, ReplaySerializer
from games.models import (
    WEEKLY,
    WEEKLY_VARIANT,
    DailyChallenge,
    Deal,
    Game,
    Mode,
    Move,
    Status,
    Verification,
    tiers_of,
    utc_today,
)
from leaderboards import records
from tests.factories import Api, make_challenges, make_user, winning_lines
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

LINE = winning_lines()[0]  # deal 0: the "easy daily" of these tests, with its solver line
DAY_CLOSED = "this day closed at 00:00 UTC"


class Clock:
    """A fake ``timezone.now`` the test moves, across midnight UTC."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += dt.timedelta(**delta)


@pytest.fixture
def day() -> dt.date:
    return utc_today()


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, day: dt.date) -> Iterator[Clock]:
    fake = Clock(dt.datetime.combine(day, dt.time(23, 58), tzinfo=dt.UTC))
    monkeypatch.setattr(timezone, "now", fake)
    yield fake


@pytest.fixture(autouse=True)
def _new_day_not_seen_yet() -> None:
    """Each process ends the closed days' games once a day: forget another test's day."""
    daily.closed_days_swept_through = None


@pytest.fixture
def capture(django_capture_on_commit_callbacks: Any) -> Any:
    """Run what a commit queues (verification, board updates), as production does."""
    return django_capture_on_commit_callbacks


@pytest.fixture
def easy(day: dt.date) -> DailyChallenge:
    deal, _ = Deal.objects.get_or_create(number=0, variant="yukon", defaults={"solution": LINE})
    return DailyChallenge.objects.create(date=day, tier="easy", deal=deal)


def midnight(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)


def start_near_the_close(api: Api, clock: Clock) -> dict[str, Any]:
    """The attacker's start, at 23:58 UTC: the game begins on the server's clock."""
    status, game = api.post("/api/games/", {"daily": "easy"})
    assert status == 201, game
    Game.objects.filter(pk=game["id"]).update(started_at=clock.now)
    return dict(game)


def play(api: Api, game_id: int, moves: list[str], first_ply: int = 0) -> list[tuple[int, Any]]:
    return [
        api.post(f"/api/games/{game_id}/moves/", {"ply": first_ply + i, "move": text})
        for i, text in enumerate(moves)
    ]


def board_rows(api: Api, day: dt.date) -> list[dict[str, Any]]:
    status, board = api.get(f"/api/leaderboards/daily/{day.isoformat()}/easy/")
    assert status == 200, board
    return list(board["results"])


# ----- the attack, step by step ----------------------------------------------------------


@pytest.mark.slow
def test_the_midnight_attack_is_refused(
    *, api: Api, player: User, clock: Clock, easy: DailyChallenge, day: dt.date, capture: Any
) -> None:
    game = start_near_the_close(api, clock)
    assert game["deal"] is None
    assert game["closes_at"] == midnight(day).isoformat().replace("+00:00", "Z")
    for status, body in play(api, game["id"], LINE[:3]):  # before midnight: fine
        assert status == 200, body
        clock.advance(seconds=1)

    clock.now = midnight(day) + dt.timedelta(seconds=5)
    with capture(execute=True):  # the verification queued when the read ends the game
        status, seen = api.get(f"/api/games/{game['id']}/")
    assert status == 200
    # The read after the close ends the game: it can no longer change, so its deal may show.
    assert seen["status"] == Status.ABANDONED, seen
    for status, body in play(api, game["id"], LINE[3:], first_ply=3):
        assert status == 409, body
        assert DAY_CLOSED in body["detail"]
        assert body["status"] == Status.ABANDONED

    stored = Game.objects.get(pk=game["id"])
    assert (stored.status, stored.ply, stored.moves) == (Status.ABANDONED, 3, 3)
    assert stored.verification == Verification.VERIFIED  # played, not won: it counts as such
    assert stored.finished_at is not None and stored.finished_at < midnight(day)
    assert len(services.log_entries(stored)) == 3  # verified: packed
    rows = board_rows(api, day)
    assert [(r["display_name"], r["won"], r["status"]) for r in rows] == [
        (player.display_name, False, Status.ABANDONED)
    ]


def test_a_move_after_midnight_without_a_read_ends_the_game_with_a_409(
    api: Api, clock: Clock, easy: DailyChallenge, day: dt.date
) -> None:
    game = start_near_the_close(api, clock)
    [(status, _)] = play(api, game["id"], LINE[:1])
    assert status == 200
    clock.now = midnight(day)  # 00:00:00.000000 is already the next day
    [(status, body)] = play(api, game["id"], LINE[1:2], first_ply=1)  # the direct path
    assert status == 409 and DAY_CLOSED in body["detail"], body
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == Status.ABANDONED
    assert stored.finished_at is not None and stored.finished_at < midnight(day)
    assert stored.elapsed_ms == Move.objects.get(game=stored, ply=0).at_ms


def test_drfs_move_view_refuses_a_closed_day_too(
    api: Api, clock: Clock, easy: DailyChallenge, day: dt.date
) -> None:
    game = start_near_the_close(api, clock)
    clock.now = midnight(day) + dt.timedelta(minutes=1)
    # A ply sent as a string is the serializer's to read: DRF's MoveView answers.
    status, body = api.post(f"/api/games/{game['id']}/moves/", {"ply": "0", "move": LINE[0]})
    assert status == 409 and DAY_CLOSED in body["detail"], body
    stored = Game.objects.get(pk=game["id"])
    assert (stored.status, stored.ply, stored.score) == (Status.ABANDONED, 0, 0)
    assert stored.finished_at == stored.started_at  # no move: it stopped where it started


def test_resign_after_the_close_gets_the_409_and_the_game_ends_unfinished(
    api: Api, clock: Clock, easy: DailyChallenge, day: dt.date
) -> None:
    game = start_near_the_close(api, clock)
    play(api, game["id"], LINE[:2])
    clock.now = midnight(day) + dt.timedelta(hours=3)
    status, body = api.post(f"/api/games/{game['id']}/resign/")
    assert status == 409 and DAY_CLOSED in body["detail"], body
    assert Game.objects.get(pk=game["id"]).status == Status.ABANDONED


@pytest.mark.slow
def test_a_game_finished_before_the_close_stays_as_it_was(
    api: Api, clock: Clock, easy: DailyChallenge, day: dt.date, capture: Any
) -> None:
    game = start_near_the_close(api, clock)
    with capture(execute=True):
        for status, body in play(api, game["id"], LINE):
            assert status == 200, body
    clock.now = midnight(day) + dt.timedelta(seconds=1)
    status, seen = api.get(f"/api/games/{game['id']}/")
    assert seen["status"] == Status.WON and seen["deal"] == "0"
    status, body = api.post(f"/api/games/{game['id']}/resign/")
    assert status == 409 and DAY_CLOSED in body["detail"] and body["status"] == Status.WON
    assert [r["won"] for r in board_rows(api, day)] == [True]


def test_the_sweeper_ends_games_left_in_play_at_their_last_move(
    api: Api, clock: Clock, easy: DailyChallenge, day: dt.date
) -> None:
    game = start_near_the_close(api, clock)
    clock.advance(seconds=30)
    play(api, game["id"], LINE[:4])
    last_move = clock.now
    clock.now = midnight(day) + dt.timedelta(minutes=5)
    done = services.sweep_games(pending_after=dt.timedelta(minutes=5), queue=lambda _: None)
    assert done["abandoned"] == 1
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == Status.ABANDONED
    assert stored.finished_at == last_move < midnight(day)  # it stopped at its last move


@pytest.mark.slow
def test_the_embedded_default_ends_yesterdays_games_on_the_first_request_of_the_day(
    api: Api, clock: Clock, easy: DailyChallenge, day: dt.date, settings: Any
) -> None:
    settings.DAILY_PREPARE_ON_REQUEST = True
    game = start_near_the_close(api, clock)
    clock.now = midnight(day) + dt.timedelta(minutes=1)
    new_day = day + dt.timedelta(days=1)
    make_challenges(new_day)  # the new day is ready: no solver run here
    if WEEKLY in tiers_of(new_day):  # ... its weekly too, when the test runs on a Saturday
        weekly, _ = Deal.objects.get_or_create(number=25, variant=WEEKLY_VARIANT)
        DailyChallenge.objects.create(date=new_day, tier=WEEKLY, deal=weekly)
    status, overview = api.get("/api/daily/")
    assert status == 200, overview
    assert Game.objects.get(pk=game["id"]).status == Status.ABANDONED


# ----- boards never show a result finished after the close --------------------------------


def _won_after_the_close(api: Api, clock: Clock, day: dt.date, capture: Any) -> Game:
    """A won, verified game whose row is then moved past the close behind the services'
    back (an UPDATE in a shell, or a row written by the old code)."""
    game = start_near_the_close(api, clock)
    with capture(execute=True):
        for status, body in play(api, game["id"], LINE):
            assert status == 200, body
    stored = Game.objects.get(pk=game["id"])
    assert stored.verification == Verification.VERIFIED and stored.finished_at is not None
    late = midnight(day) + dt.timedelta(seconds=40)
    shift = late - stored.finished_at
    Game.objects.filter(pk=stored.pk).update(started_at=stored.started_at + shift, finished_at=late)
    return Game.objects.get(pk=stored.pk)


@pytest.mark.parametrize("redis_down", [False, True])
def test_a_result_finished_after_the_close_is_on_no_board(
    *,
    api: Api,
    player: User,
    clock: Clock,
    easy: DailyChallenge,
    day: dt.date,
    redis_down: bool,
    settings: Any,
    capture: Any,
) -> None:
    if redis_down:
        settings.LEADERBOARDS_REDIS_URL = ""
    game = _won_after_the_close(api, clock, day, capture)
    clock.now = midnight(day) + dt.timedelta(minutes=2)
    records.clear_cache()
    from leaderboards import services as boards

    boards.rebuild_boards([easy.pk])
    boards.on_game_verified(Game, game)  # the receiver that adds a verified result
    assert board_rows(api, day) == []
    assert records.streak_board(day + dt.timedelta(days=1)) == []
    assert records.alltime_board() == []
    profile = records.player_profile(player.display_name)
    assert (profile["played"], profile["games"], profile["current_streak"]) == (0, [], 0)


def test_verification_rejects_a_game_that_finished_after_its_day_closed(
    api: Api, clock: Clock, easy: DailyChallenge, day: dt.date, capture: Any
) -> None:
    game = _won_after_the_close(api, clock, day, capture)
    Game.objects.filter(pk=game.pk).update(verification=Verification.PENDING)
    assert services.verify_game(game.pk) == Verification.REJECTED
    assert "after its day closed" in Game.objects.get(pk=game.pk).rejection_reason


# ----- the deal number is never sent for a game in play -----------------------------------


def test_the_serializers_hide_the_deal_of_a_game_still_in_play_after_the_close(
    api: Api, clock: Clock, easy: DailyChallenge, day: dt.date
) -> None:
    game_id = start_near_the_close(api, clock)["id"]
    clock.now = midnight(day) + dt.timedelta(minutes=10)
    # Read without the services (which would end it first): the row still says playing.
    game = Game.objects.select_related("deal", "challenge").get(pk=game_id)
    assert game.status == Status.PLAYING and game.is_public()
    assert GameSerializer(game).data["deal"] is None
    assert ReplaySerializer(game).data["deal"] is None


ENDPOINTS = [
    ("get", "/api/games/{id}/"),
    ("get", "/api/games/{id}/replay/"),
    ("get", "/api/games/{id}/analysis/"),
    ("post", "/api/games/{id}/moves/"),
    ("post", "/api/games/{id}/resign/"),
    ("post", "/api/games/{id}/report/"),
    ("get", "/api/daily/"),
    ("get", "/api/players/{name}/"),
]


@pytest.mark.parametrize(("method", "url"), ENDPOINTS)
@pytest.mark.parametrize("reader", ["player", "other"])
def test_no_endpoint_sends_the_deal_while_the_game_is_in_play(
    *,
    api: Api,
    other_api: Api,
    player: User,
    clock: Clock,
    easy: DailyChallenge,
    day: dt.date,
    method: str,
    url: str,
    reader: str,
    settings: Any,
) -> None:
    settings.DAILY_PREPARE_ON_REQUEST = False  # no solver run for the new day's challenges
    game_id = start_near_the_close(api, clock)["id"]
    play(api, game_id, LINE[:2])
    who = api if reader == "player" else other_api
    target = url.format(id=game_id, name=player.display_name)
    data = {"ply": 2, "move": LINE[2], "reason": "looks too good"}
    for at in (midnight(day) - dt.timedelta(seconds=1), midnight(day) + dt.timedelta(seconds=1)):
        clock.now = at
        status, body = who.call(method, target, data if method == "post" else None)
        text = json.dumps(body, separators=(",", ":"))
        if Game.objects.get(pk=game_id).status == Status.PLAYING:
            assert '"deal":"0"' not in text, (at, status, body)
        if "{id}" in url and at > midnight(day) and status != 404:  # whoever may touch it
            assert Game.objects.get(pk=game_id).status != Status.PLAYING, (status, body)


# ----- PostgreSQL: the move path's SQL (one SELECT with the challenge's date) --------------


@pytest.mark.postgres
def test_the_move_path_reads_the_close_in_its_one_select_on_postgresql(
    api: Api, clock: Clock, easy: DailyChallenge, day: dt.date, django_assert_num_queries: Any
) -> None:
    assert connection.vendor == "postgresql"
    game = start_near_the_close(api, clock)
    [(status, _)] = play(api, game["id"], LINE[:1])
    assert status == 200
    clock.now = midnight(day)
    with pytest.raises(Conflict, match=DAY_CLOSED):
        services.play_move(services.Actor(user_id=api_user_id(api)), game["id"], 1, LINE[1])
    assert Game.objects.get(pk=game["id"]).status == Status.ABANDONED


def api_user_id(api: Api) -> int:
    return int(api.client.session["_auth_user_id"])


def test_a_practice_game_is_not_touched_by_the_close(clock: Clock, day: dt.date) -> None:
    guest = Client()
    guest_api = Api(guest)
    status, game = guest_api.post("/api/games/", {"deal": 0})
    assert status == 201 and game["closes_at"] is None
    clock.now = midnight(day) + dt.timedelta(hours=1)
    [(status, body)] = play(guest_api, game["id"], LINE[:1])
    assert status == 200, body
    assert Game.objects.get(pk=game["id"]).mode == Mode.PRACTICE


def test_a_start_a_second_before_the_close_is_the_open_days(
    clock: Clock, easy: DailyChallenge, day: dt.date
) -> None:
    """At 23:59:59 a start is still the open day's: the player is told when it closes."""
    clock.now = midnight(day) - dt.timedelta(seconds=1)
    client = Client()
    client.force_login(make_user("carol"))
    status, game = Api(client).post("/api/games/", {"daily": "easy"})
    assert status == 201 and game["status"] == Status.PLAYING


def test_the_migration_ends_games_the_old_sweeper_abandoned_at_their_last_move() -> None:
    import importlib

    from django.apps import apps

    migration = importlib.import_module("games.migrations.0003_abandoned_at_last_move")
    yesterday = utc_today() - dt.timedelta(days=1)
    challenge = make_challenges(yesterday)["easy"]
    started = dt.datetime.combine(yesterday, dt.time(23, 50), tzinfo=dt.UTC)
    swept = dt.datetime.combine(utc_today(), dt.time(0, 4), tzinfo=dt.UTC)  # the old sweeper
    late = Game.objects.create(
        player=make_user("late"),
        deal=challenge.deal,
        challenge=challenge,
        mode=Mode.DAILY,
        status=Status.ABANDONED,
        started_at=started,
        finished_at=swept,
        elapsed_ms=(swept - started) // dt.timedelta(milliseconds=1),
        ply=1,
        moves=1,
        position=challenge.deal.start_position().to_text(),
    )
    Move.objects.create(game=late, ply=0, text=LINE[0], at_ms=95_000)
    on_time_end = started + dt.timedelta(minutes=5)
    on_time = Game.objects.create(
        player=make_user("ontime"),
        deal=challenge.deal,
        challenge=challenge,
        mode=Mode.DAILY,
        status=Status.ABANDONED,
        started_at=started,
        finished_at=on_time_end,
        elapsed_ms=300_000,
        position=challenge.deal.start_position().to_text(),
    )
    migration.end_at_last_move(apps, None)
    late.refresh_from_db()
    on_time.refresh_from_db()
    assert late.finished_at == started + dt.timedelta(milliseconds=95_000)
    assert late.elapsed_ms == 95_000
    assert late.finished_at < challenge.closes_at
    assert (on_time.finished_at, on_time.elapsed_ms) == (on_time_end, 300_000)


def test_a_daily_game_shows_its_commitment_all_day_and_its_salt_only_with_its_deal(
    *, api: Api, clock: Clock, easy: DailyChallenge, day: dt.date, capture: Any
) -> None:
    game = start_near_the_close(api, clock)
    assert game["commitment"] == easy.commitment
    assert game["salt"] is None and game["deal"] is None
    assert easy.salt not in json.dumps(game)
    clock.now = midnight(day) + dt.timedelta(seconds=5)
    with capture(execute=True):
        status, seen = api.get(f"/api/games/{game['id']}/")
    assert status == 200 and seen["status"] == Status.ABANDONED
    assert (seen["deal"], seen["salt"], seen["commitment"]) == ("0", easy.salt, easy.commitment)
