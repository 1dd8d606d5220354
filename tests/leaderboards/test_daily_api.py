"""The daily board API: ranks and ties, around me, bad input, caching, query counts,
self-rebuild, moderation, and the PostgreSQL fallback when Redis is down."""

from __future__ import annotations

import datetime as dt
import os
import time
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from accounts.models import User
from games.models import DailyChallenge, Game, Verification, utc_today
from games.signals import game_verified
from leaderboards import day_board, services, store
from leaderboards.models import StaleBoard
from leaderboards.serializers import DailyBoard
from tests.factories import FINISH_BASE, logged_in, make_challenge, make_player, result

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]


def url(challenge: DailyChallenge, query: str = "") -> str:
    return f"/api/leaderboards/daily/{challenge.date.isoformat()}/{challenge.tier}/{query}"


def get(client: Client, path: str, status: int = 200) -> Any:
    response = client.get(path, HTTP_ACCEPT="application/json")
    assert response.status_code == status, response.content
    return response


def ranks(body: dict[str, Any]) -> list[tuple[str, int]]:
    return [(row["display_name"], row["rank"]) for row in body["results"]]


@pytest.fixture
def tied_board(challenge: DailyChallenge) -> dict[str, User]:
    """Six results: a tie on all four keys (listed by finish time), and each key deciding once."""
    players = {name: make_player(name) for name in ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]}
    t = FINISH_BASE
    result(players["Ann"], challenge, score=625, elapsed_ms=50_000, moves=90, finished_at=t)
    # Bob and Cat tie exactly; Cat finished first, so Cat is listed first
    result(players["Bob"], challenge, elapsed_ms=60_000, moves=95, finished_at=t + dt.timedelta(2))
    result(players["Cat"], challenge, elapsed_ms=60_000, moves=95, finished_at=t + dt.timedelta(1))
    result(players["Dan"], challenge, elapsed_ms=60_000, moves=96)  # more moves
    result(players["Eve"], challenge, won=False, score=600, elapsed_ms=1_000, moves=10)
    result(players["Fay"], challenge, won=False, score=300, elapsed_ms=1_000, moves=10)
    return players


def test_first_page_ranks_ties_and_shape(
    client: Client, challenge: DailyChallenge, tied_board: Any
) -> None:
    body = get(client, url(challenge)).json()
    assert ranks(body) == [("Ann", 1), ("Cat", 2), ("Bob", 2), ("Dan", 4), ("Eve", 5), ("Fay", 6)]
    assert body["count"] == 6 and body["page"] == 1 and body["pages"] == 1
    assert body["next"] is None and body["previous"] is None
    assert body["served_from"] == "redis" and body["me"] is None
    row = body["results"][0]
    assert row["won"] is True and row["score"] == 625 and row["elapsed_ms"] == 50_000
    assert row["moves"] == 90 and row["replay_url"] is None  # the day is open: see below
    assert row["me"] is False
    check_shape(DailyBoard, body)


def test_an_open_days_board_links_no_replay_but_your_own(
    client: Client, challenge: DailyChallenge, tied_board: dict[str, User]
) -> None:
    """Every row of today's board linked its replay, which opens to others only when the
    day closes: each ▶ led a guest or another player to a 404."""
    assert [r["replay_url"] for r in get(client, url(challenge)).json()["results"]] == [None] * 6
    ann = get(logged_in(tied_board["Ann"]), url(challenge)).json()
    own = ann["results"][0]
    assert own["me"] is True and own["replay_url"] == f"/replay/{own['game_id']}/"
    assert ann["me"]["replay_url"] == own["replay_url"]
    assert [r["replay_url"] for r in ann["results"][1:]] == [None] * 5
    assert logged_in(tied_board["Ann"]).get(own["replay_url"]).status_code == 200
    assert client.get(own["replay_url"]).status_code == 404  # what a guest's ▶ led to

    yesterday = utc_today() - dt.timedelta(days=1)
    closed = make_challenge(date=yesterday)
    game = result(tied_board["Bob"], closed)
    (row,) = get(client, url(closed)).json()["results"]
    assert row["replay_url"] == f"/replay/{game.pk}/"
    assert client.get(row["replay_url"]).status_code == 200  # anyone's, once closed


def check_shape(serializer: Any, body: dict[str, Any]) -> None:
    """The answer has exactly the shape the schema documents."""
    shape = serializer(data=body)
    assert shape.is_valid(), shape.errors
    assert set(body) == set(shape.fields)


def test_redis_down_serves_the_same_board_from_postgres(
    client: Client,
    challenge: DailyChallenge,
    tied_board: Any,
    dead_redis: str,
    django_assert_num_queries: Any,
) -> None:
    body = get(client, url(challenge)).json()
    assert body["served_from"] == "postgres"
    assert ranks(body) == [("Ann", 1), ("Cat", 2), ("Bob", 2), ("Dan", 4), ("Eve", 5), ("Fay", 6)]
    with django_assert_num_queries(0):  # ranked once, then kept a while by this process
        assert get(client, url(challenge)).json() == body
    me = logged_in(tied_board["Dan"])
    body = get(me, url(challenge, "?around=me")).json()
    assert body["me"]["rank"] == 4 and body["me"]["me"] is True
    # the other boards and the player page keep working too
    get(client, "/api/leaderboards/streaks/")
    get(client, "/api/leaderboards/alltime/")
    assert get(client, "/api/players/ann/").json()["games"][0]["rank"] is None


def test_bad_input_is_a_4xx_with_a_message(
    client: Client, challenge: DailyChallenge, tied_board: Any
) -> None:
    tomorrow = (challenge.date + dt.timedelta(days=1)).isoformat()
    cases = [
        ("/api/leaderboards/daily/2025-02-30/easy/", 400, "not a date"),
        ("/api/leaderboards/daily/yesterday/easy/", 400, "not a date"),
        (f"/api/leaderboards/daily/{tomorrow}/easy/", 404, "future"),
        (f"/api/leaderboards/daily/{challenge.date}/extreme/", 404, "unknown tier"),
        ("/api/leaderboards/daily/2001-01-01/easy/", 404, "no easy challenge"),
        (url(challenge, "?page=0"), 400, "page"),
        (url(challenge, "?page=-3"), 400, "page"),
        (url(challenge, "?page=abc"), 400, "page"),
        (url(challenge, f"?page={10**9}"), 400, "page"),
        (url(challenge, "?page=2"), 404, "this board has 1 page"),
        (url(challenge, "?around=you"), 400, "around"),
        ("/api/leaderboards/streaks/?page=0", 400, "page"),
        ("/api/leaderboards/alltime/?period=week", 400, "period"),
        ("/api/leaderboards/alltime/?page=99999", 404, "page"),
        ("/api/players/Nobody/", 404, "No player is called “Nobody”."),
        (f"/api/players/{'x' * 5000}/", 404, "No player is called"),
        ("/api/players/Ann/?page=7", 404, "page"),
    ]
    for path, status, words in cases:
        response = client.get(path, HTTP_ACCEPT="application/json")
        assert response.status_code == status, (path, response.content)
        assert words in response.json()["detail"], (path, response.json())


def test_cache_headers(client: Client, challenge: DailyChallenge, tied_board: Any) -> None:
    response = get(client, url(challenge))
    assert "public" in response["Cache-Control"] and "max-age=15" in response["Cache-Control"]
    response = get(logged_in(tied_board["Ann"]), url(challenge, "?around=me"))
    assert "private" in response["Cache-Control"]
    assert "Cookie" in response["Vary"]
    closed = make_challenge(challenge.date - dt.timedelta(days=3))
    assert "max-age=300" in get(client, url(closed))["Cache-Control"]


def test_par_shows_once_the_day_is_closed(client: Client, challenge: DailyChallenge) -> None:
    line = ["8d>6", "Ac>F", "2c>F"]
    for day in (challenge, make_challenge(challenge.date - dt.timedelta(days=1))):
        day.deal.solution = line
        day.deal.save()
    assert get(client, url(challenge)).json()["par"] is None  # today: open
    yesterday = challenge.date - dt.timedelta(days=1)
    body = get(client, f"/api/leaderboards/daily/{yesterday.isoformat()}/easy/").json()
    assert body["closed"] and body["par"] == len(line)
    unsolved = make_challenge(challenge.date - dt.timedelta(days=2))
    assert get(client, url(unsolved)).json()["par"] is None  # no line stored: no par


def test_around_me_far_down_the_board(challenge: DailyChallenge) -> None:
    users = User.objects.bulk_create(
        [User(username=f"u{i}", display_name=f"U{i:03d}", password="!") for i in range(300)]
    )
    Game.objects.bulk_create(
        [result(u, challenge, score=625 - i, save=False) for i, u in enumerate(users)]
    )
    me = users[200]
    body = get(logged_in(me), url(challenge, "?around=me")).json()
    assert body["me"]["display_name"] == "U200" and body["me"]["rank"] == 201
    assert body["page"] is None and body["offset"] == 200 - day_board.PAGE_SIZE // 2
    names = [row["display_name"] for row in body["results"]]
    assert "U200" in names and len(names) == day_board.PAGE_SIZE
    assert [row["me"] for row in body["results"]].count(True) == 1
    # a plain page still tells the viewer their own rank
    body = get(logged_in(me), url(challenge, "?page=2")).json()
    assert body["me"]["rank"] == 201 and body["previous"].endswith("page=1")
    # around=me with no result of one's own: page 1
    stranger = make_player("Stranger")
    body = get(logged_in(stranger), url(challenge, "?around=me")).json()
    assert body["me"] is None and body["page"] == 1 and body["results"][0]["rank"] == 1


@pytest.mark.parametrize("around", [False, True])
def test_query_count_is_pinned(
    challenge: DailyChallenge, tied_board: Any, django_assert_num_queries: Any, around: bool
) -> None:
    client = logged_in(tied_board["Dan"]) if around else Client()
    get(client, url(challenge))  # builds the board
    day_board.process_cache.clear()
    # anonymous page: challenge + rows; around me: session and user (each none when read
    # from the Redis cache) + challenge + own game + rows
    session = 0 if settings.SESSION_ENGINE.endswith("cached_db") else 1
    user = 0 if settings.AUTHENTICATION_BACKENDS[0].endswith("CachedModelBackend") else 1
    path = url(challenge, "?around=me" if around else "")
    with django_assert_num_queries(session + user + 3 if around else 2):
        get(client, path)
    # read again within LEADERBOARD_ROWS_SECONDS: the challenge and the checked rows are
    # this process's copies; the viewer's own game is always read
    with django_assert_num_queries(session + user + 1 if around else 0):
        get(client, path)


def test_missing_key_rebuilds_on_first_read(
    client: Client, challenge: DailyChallenge, tied_board: Any, lb_redis: redis.Redis
) -> None:
    assert not lb_redis.exists(store.daily_key(challenge.pk))
    assert get(client, url(challenge)).json()["count"] == 6
    assert lb_redis.zcard(store.daily_key(challenge.pk)) == 6
    lb_redis.delete(store.daily_key(challenge.pk), store.ready_key(challenge.pk))
    assert get(client, url(challenge)).json()["count"] == 6


def test_an_empty_board_is_built_once(
    client: Client, challenge: DailyChallenge, lb_redis: redis.Redis
) -> None:
    body = get(client, url(challenge)).json()
    assert body["count"] == 0 and body["results"] == [] and body["pages"] == 1
    assert lb_redis.exists(store.ready_key(challenge.pk))


def test_verified_signal_adds_the_result(
    client: Client, challenge: DailyChallenge, tied_board: Any, lb_redis: redis.Redis
) -> None:
    get(client, url(challenge))  # built
    newcomer = make_player("Gus")
    game = result(
        newcomer, challenge, score=625, elapsed_ms=1_000, verification=Verification.PENDING
    )
    assert get(client, url(challenge)).json()["count"] == 6  # not verified: not there
    Game.objects.filter(pk=game.pk).update(verification=Verification.VERIFIED)
    game_verified.send(sender=Game, game=Game.objects.get(pk=game.pk))
    body = get(client, url(challenge)).json()
    assert body["results"][0]["display_name"] == "Gus" and body["count"] == 7
    # a practice game or a board not built yet: nothing to do, no error
    other = make_challenge(challenge.date, "hard")
    game_verified.send(sender=Game, game=result(newcomer, other))
    assert not lb_redis.exists(store.daily_key(other.pk))


def test_disqualified_and_banned_vanish(
    client: Client,
    challenge: DailyChallenge,
    tied_board: Any,
    lb_redis: redis.Redis,
    settings: Any,
) -> None:
    settings.LEADERBOARD_ROWS_SECONDS = 0.3
    get(client, url(challenge))
    ann_game = Game.objects.get(player=tied_board["Ann"])
    Game.objects.filter(pk=ann_game.pk).update(disqualified=True)
    services.remove_game(ann_game)
    assert lb_redis.zcard(store.daily_key(challenge.pk)) == 5
    body = get(client, url(challenge)).json()
    assert ranks(body)[:2] == [("Cat", 1), ("Bob", 1)]
    Game.objects.filter(pk=ann_game.pk).update(disqualified=False)
    services.restore_game(ann_game)
    assert ranks(get(client, url(challenge)).json())[0] == ("Ann", 1)

    # a ban without any call to the leaderboards: the first read after the checked rows
    # expire (LEADERBOARD_ROWS_SECONDS) notices and drops the row
    User.objects.filter(pk=tied_board["Cat"].pk).update(is_banned=True)
    time.sleep(0.35)
    body = get(client, url(challenge)).json()
    assert "Cat" not in [name for name, _ in ranks(body)] and body["count"] == 5
    assert ranks(body)[1] == ("Bob", 2)
    assert get(client, "/api/players/Cat/", 404)
    User.objects.filter(pk=tied_board["Cat"].pk).update(is_banned=False)
    services.restore_player(tied_board["Cat"])
    assert get(client, url(challenge)).json()["count"] == 6
    User.objects.filter(pk=tied_board["Bob"].pk).update(is_banned=True)
    services.remove_player(tied_board["Bob"])
    assert lb_redis.zcard(store.daily_key(challenge.pk)) == 5


def test_redis_failure_during_an_update_marks_the_board_stale(
    challenge: DailyChallenge,
    tied_board: Any,
    lb_redis: redis.Redis,
    settings: Any,
    dead_redis: str,
) -> None:
    game = Game.objects.get(player=tied_board["Eve"])
    game_verified.send(sender=Game, game=game)  # Redis is down: noted, not raised
    assert StaleBoard.objects.filter(challenge=challenge).exists()
    settings.LEADERBOARDS_REDIS_URL = os.environ["REDIS_URL"]  # Redis is back
    call_command("rebuild_leaderboards", "--stale")
    assert not StaleBoard.objects.exists()
    assert lb_redis.zcard(store.daily_key(challenge.pk)) == 6


def test_rebuild_command(
    challenge: DailyChallenge, tied_board: Any, lb_redis: redis.Redis, capsys: Any
) -> None:
    call_command("rebuild_leaderboards", "--date", challenge.date.isoformat(), "--tier", "easy")
    assert lb_redis.zcard(store.daily_key(challenge.pk)) == 6
    assert "rebuilt 1 board(s)" in capsys.readouterr().out
    lb_redis.zrem(
        store.daily_key(challenge.pk), *lb_redis.zrange(store.daily_key(challenge.pk), 0, 2)
    )
    call_command("rebuild_leaderboards")
    assert lb_redis.zcard(store.daily_key(challenge.pk)) == 6
    with pytest.raises(CommandError, match="not a date"):
        call_command("rebuild_leaderboards", "--date", "2025-13-01")
    with pytest.raises(CommandError, match="no challenge"):
        call_command("rebuild_leaderboards", "--date", "2001-01-01")


def test_schema_documents_the_boards(client: Client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    for path in [
        "/api/leaderboards/daily/{date}/{tier}/",
        "/api/leaderboards/streaks/",
        "/api/leaderboards/alltime/",
        "/api/players/{name}/",
    ]:
        assert path in schema["paths"], path
    assert "DailyBoard" in schema["components"]["schemas"]


@pytest.mark.parametrize("with_redis", [True, False])
def test_the_home_page_shows_yesterdays_first_three_as_the_board_does(
    client: Client, settings: Any, with_redis: bool
) -> None:
    """The home page reads only the first three rows of yesterday's board (and checks
    only those against PostgreSQL): they are the board's own first three, ties and all."""
    yesterday = make_challenge(utc_today() - dt.timedelta(days=1))
    t = FINISH_BASE
    for name, ms, moves, finished in [
        ("Ann", 50_000, 90, t),
        ("Bob", 60_000, 95, t + dt.timedelta(2)),
        ("Cat", 60_000, 95, t + dt.timedelta(1)),
        ("Dan", 60_000, 96, t),
        ("Eve", 70_000, 90, t),
    ]:
        result(make_player(name), yesterday, elapsed_ms=ms, moves=moves, finished_at=finished)
    if not with_redis:
        settings.LEADERBOARDS_REDIS_URL = ""
    board = get(client, url(yesterday)).json()
    home = get(client, "/api/leaderboards/home/").json()
    (shown,) = [day for day in home["yesterday"] if day["tier"] == "easy"]
    assert shown["count"] == 5
    assert shown["winners"] == board["results"][:3]
    assert ranks({"results": shown["winners"]}) == [("Ann", 1), ("Cat", 2), ("Bob", 2)]
