"""Streaks, all-time and 30-day boards, and player pages."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from games.models import DailyChallenge, Status, utc_today
from leaderboards import services
from leaderboards.serializers import AllTimeBoard, PlayerPage, StreakBoard
from tests.factories import logged_in, make_challenge, make_player, result
from tests.leaderboards.test_daily_api import check_shape

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]


def days_ago(n: int, tier: str = "easy") -> DailyChallenge:
    return make_challenge(utc_today() - dt.timedelta(days=n), tier)


@pytest.fixture
def history() -> dict[str, Any]:
    """Ann: won the last 3 days (and a hard one today: one day still); Bob: won 5 days in
    a row long ago, and yesterday; Cat: lost everything; Dan: a 40-day-old win only."""
    easy = {n: days_ago(n) for n in range(0, 45)}
    hard_today = days_ago(0, "hard")
    ann, bob, cat, dan = (make_player(n) for n in ["Ann", "Bob", "Cat", "Dan"])
    for n in (0, 1, 2):
        result(ann, easy[n], elapsed_ms=50_000 + n)
    result(ann, hard_today, elapsed_ms=90_000, moves=120, score=625)
    for n in (1, 10, 11, 12, 13, 14):
        result(bob, easy[n], elapsed_ms=70_000)
    result(bob, easy[2], won=False, score=400, status=Status.RESIGNED)
    for n in (0, 1):
        result(cat, easy[n], won=False, score=100 + n)
    result(dan, easy[40], elapsed_ms=40_000)
    return {"ann": ann, "bob": bob, "cat": cat, "dan": dan, "easy": easy}


def get(client: Client, path: str) -> Any:
    response = client.get(path, HTTP_ACCEPT="application/json")
    assert response.status_code == 200, response.content
    return response.json()


def test_streak_board(client: Client, history: Any) -> None:
    body = get(client, "/api/leaderboards/streaks/")
    rows = [
        (r["display_name"], r["rank"], r["current_streak"], r["best_streak"])
        for r in body["results"]
    ]
    assert rows == [("Ann", 1, 3, 3), ("Bob", 2, 1, 5)]
    assert body["count"] == 2 and body["board"] == "streaks"
    check_shape(StreakBoard, body)


def test_alltime_and_30_days(client: Client, history: Any) -> None:
    body = get(client, "/api/leaderboards/alltime/")
    by_name = {r["display_name"]: r for r in body["results"]}
    assert [r["display_name"] for r in body["results"]] == ["Bob", "Ann", "Dan", "Cat"]
    assert by_name["Bob"]["wins"] == 6 and by_name["Bob"]["played"] == 7
    assert by_name["Ann"]["win_rate"] == 1.0 and by_name["Ann"]["average_score"] == 625.0
    assert by_name["Ann"]["best_time_ms"] == {"easy": 50_000, "medium": None, "hard": 90_000}
    assert by_name["Cat"]["wins"] == 0 and by_name["Cat"]["rank"] == 4
    recent = get(client, "/api/leaderboards/alltime/?period=30d")
    names = [r["display_name"] for r in recent["results"]]
    assert "Dan" not in names and names[0] == "Bob" and recent["period"] == "30d"
    check_shape(AllTimeBoard, body)


def test_player_page(client: Client, history: Any) -> None:
    body = get(client, "/api/players/ann/")  # any letter case
    assert body["display_name"] == "Ann"
    assert (body["current_streak"], body["best_streak"], body["played"], body["wins"]) == (
        3,
        3,
        4,
        4,
    )
    assert body["personal_bests"]["easy"] == {
        "best_score": 625,
        "best_time_ms": 50_000,
        "fewest_moves": 100,
    }
    assert body["personal_bests"]["medium"]["best_score"] is None
    games = body["games"]
    assert [g["date"] for g in games][:2] == [utc_today().isoformat()] * 2
    assert games[0]["replay_url"] is None  # today's replay is not public yet
    assert games[-1]["replay_url"] == f"/replay/{games[-1]['game_id']}/"
    get(client, f"/api/leaderboards/daily/{utc_today()}/easy/")  # builds today's board
    body = get(client, "/api/players/Ann/")
    assert body["games"][0]["tier"] == "easy" and body["games"][0]["rank"] == 1
    assert body["games"][1]["rank"] is None  # the hard board is not built yet
    check_shape(PlayerPage, body)
    own = get(logged_in(history["ann"]), "/api/players/Ann/")
    assert own["games"][0]["replay_url"] is not None


def test_moderation_clears_the_computed_boards(client: Client, history: Any) -> None:
    assert get(client, "/api/leaderboards/streaks/")["results"][0]["display_name"] == "Ann"
    history["ann"].is_banned = True
    history["ann"].save()
    services.remove_player(history["ann"])
    assert get(client, "/api/leaderboards/streaks/")["results"][0]["display_name"] == "Bob"
    names = [r["display_name"] for r in get(client, "/api/leaderboards/alltime/")["results"]]
    assert "Ann" not in names


def test_pagination_of_computed_boards(client: Client) -> None:
    challenge = days_ago(0)
    for i in range(120):
        result(make_player(f"P{i:03d}"), challenge, score=625, elapsed_ms=1000 + i)
    body = get(client, "/api/leaderboards/alltime/?page=3")
    assert body["pages"] == 3 and len(body["results"]) == 20 and body["next"] is None
    assert body["previous"] == "/api/leaderboards/alltime/?period=all&page=2"
    assert {r["rank"] for r in body["results"]} == {1}  # all equal: one shared rank
