"""The boards answer through their serializers (leaderboards/serializers.py).

Each answer has the keys its serializer declares, in the declared order, rows included;
the serializers' own rendering (``Answer``) sends what DRF's generic one would; and the
schema lists the 403 a guest gets for a board narrowed to a circle.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client
from rest_framework import serializers

from accounts.models import User
from games.models import DailyChallenge, Status, utc_today
from leaderboards import serializers as shapes
from social import services as social
from tests.factories import client_for, logged_in, make_challenge, make_player, result

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

CIRCLE_BOARDS = ["/api/leaderboards/streaks/", "/api/leaderboards/alltime/"]


@pytest.fixture
def season() -> dict[str, Any]:
    """Four players over ten days, with a league and a follow: every board has rows, a
    viewer's own among them."""
    today = utc_today()
    easy = [make_challenge(today - dt.timedelta(days=n)) for n in range(10)]
    hard = make_challenge(today, "hard")
    players = {name: make_player(name) for name in ["Ann", "Bob", "Cat", "Dan"]}
    for i, player in enumerate(players.values()):
        for n in range(0, 10, i + 1):
            result(player, easy[n], won=(n + i) % 3 != 0, score=600 - 5 * i, elapsed_ms=50_000 + n)
        result(player, hard, won=i % 2 == 0, elapsed_ms=1_000 * (i + 1))
    league = social.create_league(players["Ann"], "Night Owls")
    social.join_league(players["Bob"], league.invite_token)
    social.follow(players["Ann"], "Cat")
    return {"players": players, "easy": easy, "league": league}


def answers(ann: User, easy: list[DailyChallenge], league_id: int) -> dict[str, Any]:
    """Path -> the serializer of its answer: every board and page of the leaderboards."""
    day, yesterday = easy[0], easy[1]
    return {
        f"/api/leaderboards/daily/{day.date}/easy/": shapes.DailyBoard,
        f"/api/leaderboards/daily/{day.date}/easy/?around=me": shapes.DailyBoard,
        f"/api/leaderboards/daily/{day.date}/easy/?league={league_id}": shapes.DailyBoard,
        f"/api/leaderboards/archive/{yesterday.date}/easy/": shapes.DailyBoard,
        "/api/leaderboards/streaks/?following=true": shapes.StreakBoard,
        "/api/leaderboards/alltime/?period=30d": shapes.AllTimeBoard,
        f"/api/leaderboards/leagues/{league_id}/": shapes.LeagueBoard,
        "/api/leaderboards/home/": shapes.Home,
        f"/api/calendar/{day.date:%Y-%m}/": shapes.Calendar,
        f"/api/players/{ann.display_name}/": shapes.PlayerPage,
        f"/api/players/{ann.display_name}/record/": shapes.PlayerRecord,
    }


def keys_in_order(shape: serializers.Field | None, body: Any) -> None:
    """``body`` has exactly the keys ``shape`` declares, in its order, all the way down."""
    if isinstance(shape, serializers.ListSerializer):
        for item in body:
            keys_in_order(shape.child, item)
        return
    if isinstance(shape, serializers.DictField) and body is not None:
        for item in body.values():
            keys_in_order(shape.child, item)
        return
    if not isinstance(shape, serializers.Serializer) or body is None:
        return
    declared = list(shape.fields)
    assert list(body) == [key for key in declared if key in body], (type(shape), list(body))
    assert set(declared) - set(body) <= {"weekly"}, type(shape)  # the weekly: Sundays only
    for key, field in shape.fields.items():
        if key in body:
            keys_in_order(field, body[key])


def test_every_answer_has_its_serializers_keys_in_their_order(season: dict[str, Any]) -> None:
    ann = season["players"]["Ann"]
    client = logged_in(ann)
    for path, shape in answers(ann, season["easy"], season["league"].pk).items():
        response = client.get(path, HTTP_ACCEPT="application/json")
        assert response.status_code == 200, (path, response.content)
        keys_in_order(shape(), response.json())


def test_the_answers_render_as_drf_renders_them(
    season: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The serializers' own walk over the fields (``Answer``) against DRF's generic one:
    the same bytes, ETags included, for every page (the viewer's rows are among them)."""
    ann = season["players"]["Ann"]
    paths = list(answers(ann, season["easy"], season["league"].pk))
    client = logged_in(ann)

    def fetch() -> list[tuple[int, bytes, str | None]]:
        sent = [client.get(path, HTTP_ACCEPT="application/json") for path in paths]
        return [(r.status_code, r.content, r.get("ETag")) for r in sent]

    ours = fetch()
    monkeypatch.setattr(
        shapes.Answer, "to_representation", serializers.Serializer.to_representation
    )
    assert fetch() == ours
    assert all(status == 200 for status, _, _ in ours)


def test_values_a_field_would_change_are_rendered_by_the_field() -> None:
    """Only values of the type a field keeps go out unchanged: an int win rate becomes a
    float, a bool count a number, an enum member its text; a missing weekly key stays out."""
    row = {
        "display_name": "Ann",
        "played": True,  # bool, not int: DRF's int(True)
        "wins": 1,
        "win_rate": 1,  # int: DRF's float(1)
        "average_score": 612.5,
        "best_time_ms": {"easy": 1_000, "medium": None, "hard": None},
        "rank": 1,
    }
    ours = shapes.AllTimeRow(row, context={"viewer_name": "Ann"}).data
    assert json.dumps(ours) == json.dumps(
        {
            "display_name": "Ann",
            "deleted": False,
            "played": 1,
            "wins": 1,
            "win_rate": 1.0,
            "average_score": 612.5,
            "best_time_ms": {"easy": 1_000, "medium": None, "hard": None},
            "rank": 1,
            "me": True,
        }
    )
    playing = shapes.PlayingNow({"easy": 2, "medium": 0, "hard": 1}).data
    assert list(playing) == ["easy", "medium", "hard"]
    badge = shapes.Badge({"tier": "easy", "month": "2026-11", "name": Status.WON, "title": "y"})
    assert type(badge.data["name"]) is str and badge.data["name"] == "won"


def test_the_schema_lists_the_403_a_guest_gets_for_a_circle(
    client: Client, season: dict[str, Any]
) -> None:
    document = json.loads(
        client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content
    )
    day = season["easy"][0]
    guest = client_for(None)
    boards = [*CIRCLE_BOARDS, f"/api/leaderboards/daily/{day.date}/easy/"]
    for path in boards:
        answer = guest.get(f"{path}?following=true", HTTP_ACCEPT="application/json")
        assert answer.status_code == 403, answer.content
        assert "log in" in answer.json()["detail"]
    for path in [*CIRCLE_BOARDS, "/api/leaderboards/daily/{date}/{tier}/"]:
        responses = document["paths"][path]["get"]["responses"]
        assert "403" in responses, path
        assert "guest" in responses["403"]["description"], path


def test_a_long_junk_date_is_refused_with_a_short_echo(client: Client) -> None:
    junk = "x" * 500
    for path in [
        f"/api/leaderboards/daily/{junk}/easy/",
        f"/api/leaderboards/archive/{junk}/easy/",
        f"/api/daily/{junk}/",
        f"/api/daily/{junk}/close/",
        f"/api/daily/{junk}/easy/games.jsonl",
    ]:
        response = client.get(path, HTTP_ACCEPT="application/json")
        assert response.status_code == 400, (path, response.content)
        message = response.json()["errors"]["date"]
        assert message == f"{'x' * 40!r} is not a date (YYYY-MM-DD)", path
