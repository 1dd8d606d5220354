"""The league boards kept in Redis (leaderboards.circles) are never staler than the
truth: each test reads a board first (so it is kept), changes what it was computed from,
and reads again. They also check that the kept answers equal the ones computed afresh."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import redis
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from accounts.services import delete_account
from games.models import DailyChallenge, Game, utc_today
from games.signals import game_verified
from leaderboards import circles, store
from moderation import services as moderation
from social.models import Follow, League, Membership
from tests.factories import logged_in, make_challenge, make_player, result
from tests.social.test_leagues import api, create, join, token_of

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def league(lb_redis: redis.Redis) -> dict[str, Any]:
    """Ann's league with Bob and Eve; today's easy challenge with all three results."""
    ann, bob, eve = make_player("Ann"), make_player("Bob"), make_player("Eve")
    body = create(ann)
    for user in (bob, eve):
        join(user, token_of(body))
    challenge = make_challenge()
    for user, ms in ((ann, 30_000), (bob, 20_000), (eve, 10_000)):
        verified(result(user, challenge, elapsed_ms=ms))
    return {
        "id": body["id"],
        "token": token_of(body),
        "challenge": challenge,
        "ann": ann,
        "bob": bob,
        "eve": eve,
    }


def verified(game: Game) -> Game:
    """The result enters the boards as a verified one does (games.signals)."""
    game_verified.send(sender=Game, game=Game.objects.get(pk=game.pk))
    return game


def page(user: User, league_id: int) -> dict[str, Any]:
    status, body = api(user).get(f"/api/leaderboards/leagues/{league_id}/")
    assert status == 200, body
    return body


def board(user: User, league_id: int, challenge: DailyChallenge) -> dict[str, Any]:
    path = f"/api/leaderboards/daily/{challenge.date}/{challenge.tier}/?league={league_id}"
    status, body = api(user).get(path)
    assert status == 200, body
    return body


def names_on(body: dict[str, Any]) -> dict[str, list[str]]:
    """Who shows in each part of a league page (or the ``board`` of a daily board)."""
    if "results" in body:
        return {"board": [r["display_name"] for r in body["results"]]}
    return {
        "today": [r["display_name"] for t in body["today"] for r in t["results"]],
        "week": [r["display_name"] for r in body["week"]["results"]],
        "month": [r["display_name"] for r in body["month"]["results"]],
        "streaks": [r["display_name"] for r in body["streaks"]],
    }


def kept_keys(r: redis.Redis, prefix: str) -> list[str]:
    return [k.decode() for k in r.scan_iter(match=f"{prefix}cache:circle*")]


def test_boards_are_kept_and_equal_the_ones_computed_afresh(
    league: dict[str, Any], lb_redis: redis.Redis, board_prefix: str, settings: Any
) -> None:
    ann = league["ann"]
    first = page(ann, league["id"])
    day = board(ann, league["id"], league["challenge"])
    assert names_on(first)["today"] == ["Eve", "Bob", "Ann"]
    assert kept_keys(lb_redis, board_prefix), "nothing kept: these tests would prove nothing"
    assert page(ann, league["id"]) == first  # from what was kept
    assert board(ann, league["id"], league["challenge"]) == day
    settings.LEADERBOARDS_REDIS_URL = ""  # no Redis: everything computed from PostgreSQL
    assert page(ann, league["id"]) == first
    assert board(ann, league["id"], league["challenge"]) == day


def test_what_a_process_keeps_is_never_changed_by_its_readers(
    league: dict[str, Any], lb_redis: redis.Redis
) -> None:
    """Kept values are also kept in the process a moment (``circles.process_copies``), and
    every reader cuts its own page from the same objects: members reading in turn, and
    today's tables computed again over the kept closed days after a new result, give
    exactly the answers computed afresh."""
    ann, bob, eve = league["ann"], league["bob"], league["eve"]
    yesterday = utc_today() - dt.timedelta(days=1)
    old = make_challenge(yesterday)
    noon = dt.datetime.combine(yesterday, dt.time(12), dt.UTC)
    for user, ms in ((bob, 1_000), (eve, 2_000)):
        verified(result(user, old, elapsed_ms=ms, finished_at=noon))
    for user in (ann, bob, eve):
        page(user, league["id"])
    assert circles.process_copies.entries, "nothing kept in the process: this proves nothing"
    # a new board today: today's tables are computed again over the closed days kept
    verified(result(ann, make_challenge(tier="medium")))
    readers = (ann, bob, eve, ann)
    seen = [page(user, league["id"]) for user in readers]
    circles.process_copies.clear()
    store.cache_clear(lb_redis)
    assert [page(user, league["id"]) for user in readers] == seen
    if yesterday >= circles.week_of(utc_today())[0]:  # yesterday's points count this week
        week = {r["display_name"]: r["points"] for r in seen[0]["week"]["results"]}
        assert (week["Bob"], week["Eve"], week["Ann"]) == (10 + 7, 7 + 10, 5 + 10), week


def test_a_removed_member_leaves_every_board_at_once(league: dict[str, Any]) -> None:
    ann = league["ann"]
    before = page(ann, league["id"])
    assert all("Bob" in names for names in names_on(before).values())
    assert "Bob" in names_on(board(ann, league["id"], league["challenge"]))["board"]
    status, _ = api(ann).call("delete", f"/api/leagues/{league['id']}/members/Bob/")
    assert status == 204
    after = page(ann, league["id"])
    assert all("Bob" not in names for names in names_on(after).values()), after
    assert names_on(after)["today"] == ["Eve", "Ann"]
    assert [r["rank"] for r in after["today"][0]["results"]] == [1, 2]
    assert names_on(board(ann, league["id"], league["challenge"]))["board"] == ["Eve", "Ann"]


def test_a_member_who_leaves_or_joins_shows_at_once(league: dict[str, Any]) -> None:
    ann = league["ann"]
    page(ann, league["id"])
    assert api(league["eve"]).post(f"/api/leagues/{league['id']}/leave/")[0] == 204
    assert "Eve" not in names_on(page(ann, league["id"]))["streaks"]
    zed = make_player("Zed")
    verified(result(zed, league["challenge"], elapsed_ms=1_000))
    join(zed, league["token"])
    assert names_on(page(ann, league["id"]))["today"] == ["Zed", "Bob", "Ann"]


def test_a_new_verified_result_shows_at_once(league: dict[str, Any]) -> None:
    ann = league["ann"]
    late = make_player("Late")
    join(late, league["token"])
    assert "Late" not in names_on(page(ann, league["id"]))["today"]
    assert "Late" not in names_on(board(ann, league["id"], league["challenge"]))["board"]
    verified(result(late, league["challenge"], elapsed_ms=5_000))
    body = page(ann, league["id"])
    assert names_on(body)["today"] == ["Late", "Eve", "Bob", "Ann"]
    assert body["week"]["results"][0]["display_name"] == "Late"
    assert body["week"]["results"][0]["points"] == 10
    assert names_on(board(ann, league["id"], league["challenge"]))["board"][0] == "Late"


def test_a_late_verified_result_of_yesterday_counts_at_once(league: dict[str, Any]) -> None:
    today = utc_today()
    yesterday = today - dt.timedelta(days=1)
    ann, bob = league["ann"], league["bob"]
    first = page(ann, league["id"])
    bob_week = next(r for r in first["week"]["results"] if r["display_name"] == "Bob")
    old = make_challenge(yesterday)
    finished = dt.datetime.combine(yesterday, dt.time(23, 59), dt.UTC)
    verified(result(bob, old, finished_at=finished))  # verified after midnight
    body = page(ann, league["id"])
    streak = next(r for r in body["streaks"] if r["display_name"] == "Bob")
    assert streak["current_streak"] == 2 and streak["best_streak"] == 2
    if yesterday >= max(today.replace(day=1), today - dt.timedelta(days=today.weekday())):
        bob_now = next(r for r in body["week"]["results"] if r["display_name"] == "Bob")
        assert bob_now["points"] == bob_week["points"] + 10


def test_moderation_takes_effect_at_once(
    league: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    ann, eve, bob = league["ann"], league["eve"], league["bob"]
    page(ann, league["id"])
    board(ann, league["id"], league["challenge"])
    mod = make_player("Mod", staff=True, moderator=True)
    game = Game.objects.get(player=eve, challenge=league["challenge"])
    with django_capture_on_commit_callbacks(execute=True):  # the boards' update
        moderation.disqualify_game(mod, game.pk, "cheated")
    body = page(ann, league["id"])
    assert names_on(body)["today"] == ["Bob", "Ann"]
    assert "Eve" not in names_on(body)["week"]
    assert names_on(board(ann, league["id"], league["challenge"]))["board"] == ["Bob", "Ann"]
    with django_capture_on_commit_callbacks(execute=True):
        moderation.ban_player(mod, bob.pk, "abuse")
    body = page(ann, league["id"])
    assert all("Bob" not in names for names in names_on(body).values()), body
    assert names_on(board(ann, league["id"], league["challenge"]))["board"] == ["Ann"]


def test_a_change_behind_the_services_back_is_caught_by_the_page_check(
    league: dict[str, Any],
) -> None:
    ann, bob = league["ann"], league["bob"]
    page(ann, league["id"])
    board(ann, league["id"], league["challenge"])
    # An UPDATE in a shell: no service told the boards, their versions did not move.
    Game.objects.filter(player=bob).update(disqualified=True)
    body = page(ann, league["id"])
    assert names_on(body)["today"] == ["Eve", "Ann"]
    assert names_on(body)["week"] == ["Eve", "Ann"]
    assert names_on(board(ann, league["id"], league["challenge"]))["board"] == ["Eve", "Ann"]


def test_a_renamed_member_shows_under_the_new_name(league: dict[str, Any]) -> None:
    ann, bob = league["ann"], league["bob"]
    page(ann, league["id"])
    User.objects.filter(pk=bob.pk).update(display_name="Robert")
    assert all("Robert" in names for names in names_on(page(ann, league["id"])).values())


def test_the_following_board_follows_at_once(league: dict[str, Any]) -> None:
    ann = league["ann"]
    challenge = league["challenge"]
    path = f"/api/leaderboards/daily/{challenge.date}/{challenge.tier}/?following=true"
    _, body = api(ann).get(path)
    assert [r["display_name"] for r in body["results"]] == ["Ann"]
    assert api(ann).post("/api/follows/", {"display_name": "Eve"})[0] == 201
    _, body = api(ann).get(path)
    assert [r["display_name"] for r in body["results"]] == ["Eve", "Ann"]


def test_the_home_page_leaders_follow_moderation(
    league: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    ann, eve = league["ann"], league["eve"]
    client = logged_in(ann)
    home = client.get("/api/leaderboards/home/").json()
    assert home["leagues"][0]["leaders"]["easy"]["display_name"] == "Eve"
    mod = make_player("Mod", staff=True, moderator=True)
    with django_capture_on_commit_callbacks(execute=True):
        moderation.ban_player(mod, eve.pk, "abuse")
    home = client.get("/api/leaderboards/home/").json()
    assert home["leagues"][0]["leaders"]["easy"]["display_name"] == "Bob"


def test_a_redis_failure_computes_the_boards_from_postgresql(
    league: dict[str, Any], dead_redis: str
) -> None:
    ann = league["ann"]
    assert names_on(page(ann, league["id"]))["today"] == ["Eve", "Bob", "Ann"]
    assert names_on(board(ann, league["id"], league["challenge"]))["board"] == ["Eve", "Bob", "Ann"]


def test_a_result_of_anyone_else_leaves_the_league_kept(league: dict[str, Any]) -> None:
    """On a busy day results arrive on the global board all the time: one of a player
    outside the league must not make the league's boards computed again (before, every
    result on the board did, and a 1,000-member league page cost five times as much)."""
    ann, challenge = league["ann"], league["challenge"]
    first, day = page(ann, league["id"]), board(ann, league["id"], challenge)
    circles.process_copies.clear()
    with CaptureQueriesContext(connection) as kept:
        page(ann, league["id"])
    verified(result(make_player("Stranger"), challenge, elapsed_ms=1_000))
    circles.process_copies.clear()
    with CaptureQueriesContext(connection) as after:
        assert page(ann, league["id"]) == first
        assert board(ann, league["id"], challenge) == day
    assert not [q for q in after.captured_queries if "RANK()" in q["sql"]], "computed again"
    assert len(after.captured_queries) <= 2 * len(kept.captured_queries)


def test_a_result_of_today_leaves_the_closed_days_kept(league: dict[str, Any]) -> None:
    """A member's result of today renews today's tables, not the closed days' part (a
    month of a 1,000-member league's results, ranked again: 130 ms)."""
    ann, bob = league["ann"], league["bob"]
    old = make_challenge(utc_today() - dt.timedelta(days=1))
    verified(result(bob, old, finished_at=dt.datetime.combine(old.date, dt.time(12), dt.UTC)))
    page(ann, league["id"])
    circles.process_copies.clear()
    verified(result(ann, make_challenge(tier="medium")))
    with CaptureQueriesContext(connection) as read:
        body = page(ann, league["id"])
    assert any("RANK()" in q["sql"] for q in read.captured_queries), "today's not renewed"
    assert not [q for q in read.captured_queries if "PARTITION BY" in q["sql"]], "closed days"
    assert {r["display_name"]: r["points"] for r in body["month"]["results"]}["Ann"] == 5 + 10


def test_results_version_moves_with_every_write_of_its_players(lb_redis: redis.Redis) -> None:
    assert store.results_version(lb_redis, [1, 2, 3]) == (0, 0, 0)
    store.add_entries(lb_redis, [(7, "m", 1)], [1])
    store.remove_entries(lb_redis, [(7, "m")], [1, 2], [2])
    assert store.results_version(lb_redis, [1, 2, 3]) == (0, 3, 1)
    assert store.results_version(lb_redis, [3]) == (0, 0, 0)  # another player's results
    store.replace_board(lb_redis, 8, [])
    store.drop_board(lb_redis, 8)
    assert store.results_version(lb_redis, [1, 2, 3]) == (2, 3, 1)
    assert store.results_version(lb_redis, []) == (2, 0, 0)
    # players share a bucket's counter: a bounded hash, however many players there are
    assert store.results_version(lb_redis, [1 + store.RESULT_BUCKETS]) == (2, 2, 0)
    # more buckets than one HMGET takes in the script
    assert store.results_version(lb_redis, [2, *range(10, 2_510)]) == (2, 1, 1)


# ----- a deleted account ------------------------------------------------------------------


def test_a_deleted_account_leaves_its_leagues_and_follows(league: dict[str, Any]) -> None:
    ann, bob, eve = league["ann"], league["bob"], league["eve"]
    own = create(bob, "Bob Alone")
    api(bob).post("/api/follows/", {"display_name": "Ann"})
    api(eve).post("/api/follows/", {"display_name": "Bob"})
    page(ann, league["id"])
    delete_account(bob)
    assert not Membership.objects.filter(player=bob).exists()
    assert not Follow.objects.filter(follower=bob).exists()
    assert not Follow.objects.filter(followed=bob).exists()
    body = page(ann, league["id"])
    assert all("Bob" not in n and "deleted player" not in n for n in names_on(body).values())
    _, detail = api(ann).get(f"/api/leagues/{league['id']}/")
    assert [m["display_name"] for m in detail["members"]] == ["Ann", "Eve"]
    assert League.objects.get(pk=own["id"]).closed_at is not None  # its last member left
    # An owner who deletes the account hands the league on, as one who leaves.
    delete_account(ann)
    assert League.objects.get(pk=league["id"]).owner_id == eve.pk
    assert [m["display_name"] for m in page(eve, league["id"])["streaks"]] == ["Eve"]


def test_deleting_an_account_through_the_api_leaves_its_leagues(
    league: dict[str, Any],
) -> None:
    eve = league["eve"]
    eve.set_password("a long password 1")
    eve.save()
    confirm = {"confirm": "delete my account", "password": "a long password 1"}
    status, body = api(eve).post("/api/auth/delete/", confirm)
    assert status == 200, body
    assert not Membership.objects.filter(player=eve).exists()
    assert "Eve" not in names_on(page(league["ann"], league["id"]))["streaks"]
