"""The archive: a closed day's challenge played again through the API, unranked and
verified; its board, the calendar, the badges and the record; never a daily board or a
streak, and never an open day's deal."""

from __future__ import annotations

import calendar
import datetime as dt
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from games.models import Game, Mode, utc_today
from leaderboards import archive
from leaderboards.serializers import Calendar, DailyBoard, PlayerRecord
from tests.factories import (
    SECRET_DAILY_NUMBERS,
    Api,
    make_challenge,
    make_challenges,
    make_day,
    make_player,
    result,
    winning_lines,
)

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


@pytest.fixture(autouse=True)
def _boards_without_redis(settings: Any) -> None:
    """Boards and streaks from PostgreSQL alone: no cache shared with other tests."""
    settings.LEADERBOARDS_REDIS_URL = ""


def play_line(api: Api, game_id: int, line: list[str]) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for ply, text in enumerate(line):
        status, answer = api.post(f"/api/games/{game_id}/moves/", {"ply": ply, "move": text})
        assert status == 200, (ply, text, answer)
    return answer


def test_a_closed_day_is_played_unranked_and_verified(
    api: Api, player: User, django_capture_on_commit_callbacks: Any
) -> None:
    yesterday = utc_today() - dt.timedelta(days=1)
    make_day(yesterday)
    status, game = api.post(f"/api/archive/{yesterday}/easy/")
    assert status == 201, game
    assert game["mode"] == "archive" and game["date"] == yesterday.isoformat()
    assert game["closes_at"] is None and game["can_undo"] is False
    status, again = api.post(f"/api/archive/{yesterday}/easy/")
    assert status == 200 and again["id"] == game["id"]
    with django_capture_on_commit_callbacks(execute=True):
        last = play_line(api, game["id"], winning_lines()[0])
    assert last["status"] == "won"
    stored = Game.objects.get(pk=game["id"])
    assert (stored.mode, stored.verification) == (Mode.ARCHIVE, "verified")

    # Never on the daily board nor a streak ...
    status, board = api.get(f"/api/leaderboards/daily/{yesterday}/easy/")
    assert status == 200 and board["count"] == 0
    status, streaks = api.get("/api/leaderboards/streaks/")
    assert streaks["count"] == 0
    status, profile = api.get(f"/api/players/{player.display_name}/")
    assert profile["current_streak"] == 0 and profile["played"] == 0
    # ... but on the day's archive board and the player's record.
    status, board = api.get(f"/api/leaderboards/archive/{yesterday}/easy/")
    assert status == 200, board
    DailyBoard(data=board).is_valid(raise_exception=True)
    assert board["board"] == "archive" and [r["rank"] for r in board["results"]] == [1]
    assert board["me"]["game_id"] == game["id"] and board["par"] == len(winning_lines()[0])
    status, record = api.get(f"/api/players/{player.display_name}/record/")
    PlayerRecord(data=record).is_valid(raise_exception=True)
    assert record["archive"] == {"played": 1, "wins": 1}
    assert record["recent"][-2]["tiers"]["easy"] == "won"
    # Anyone may replay a finished archive game (its day is public).
    status, replay = Api(Client()).get(f"/api/games/{game['id']}/replay/")
    assert status == 200 and replay["deal"] == "0"


def test_an_archive_game_gets_no_hint_nor_undo_and_is_told_why_in_its_own_words(
    api: Api,
) -> None:
    """They were refused as "a ranked daily game is played without help" and "a ranked
    move is final": an archive game is neither ranked nor today's daily."""
    yesterday = utc_today() - dt.timedelta(days=1)
    make_day(yesterday)
    game_id = api.post(f"/api/archive/{yesterday}/easy/")[1]["id"]
    for kind in ("hint", "winnable"):
        status, body = api.get(f"/api/games/{game_id}/{kind}/")
        assert status == 403 and "an archive game is played without help" in body["detail"]
        assert "ranked daily" not in body["detail"]
    status, body = api.post(f"/api/games/{game_id}/undo/", {"ply": 0})
    assert (
        status == 403
        and body["detail"] == "undo is for practice games; an archive game's moves are final"
    )


def test_no_archive_game_of_an_open_or_missing_day(api: Api, guest_api: Api) -> None:
    today = utc_today()
    make_challenges(today)  # the numbers that must never leak
    for day in (today, today + dt.timedelta(days=1)):
        status, body = api.post(f"/api/archive/{day}/easy/")
        assert status == 404 and "not in the archive" in body["detail"], body
    status, body = api.post(f"/api/archive/{today - dt.timedelta(days=3)}/easy/")
    assert status == 404 and "no easy challenge" in body["detail"]
    assert api.post(f"/api/archive/{today - dt.timedelta(days=1)}/extreme/")[0] == 404
    assert api.post("/api/archive/2025-02-30/easy/")[0] == 400
    assert api.post("/api/archive/yesterday/easy/")[0] == 400
    status, body = guest_api.post(f"/api/archive/{today - dt.timedelta(days=1)}/easy/")
    assert status == 403
    status, body = api.get(f"/api/leaderboards/archive/{today}/easy/")
    assert status == 404
    assert not Game.objects.filter(mode=Mode.ARCHIVE).exists()
    for text in api.bodies:
        assert all(str(n) not in text for n in SECRET_DAILY_NUMBERS.values())


def test_archive_moves_are_not_refused_as_a_closed_day_and_resign_counts_lost(
    api: Api, player: User, django_capture_on_commit_callbacks: Any
) -> None:
    day = utc_today() - dt.timedelta(days=5)
    make_day(day)
    status, game = api.post(f"/api/archive/{day}/medium/")
    assert status == 201
    status, moved = api.post(
        f"/api/games/{game['id']}/moves/", {"ply": 0, "move": winning_lines()[1][0]}
    )
    assert status == 200 and moved["ply"] == 1
    assert api.post(f"/api/games/{game['id']}/undo/", {"ply": 1})[0] == 403
    with django_capture_on_commit_callbacks(execute=True):
        status, resigned = api.post(f"/api/games/{game['id']}/resign/")
    assert status == 200 and resigned["status"] == "resigned"
    assert Game.objects.get(pk=game["id"]).verification == "verified"
    status, month = api.get(f"/api/calendar/{day:%Y-%m}/")
    assert status == 200
    entry = next(d for d in month["days"] if d["date"] == day.isoformat())
    assert entry["tiers"] == {
        "easy": "not_played",
        "medium": "lost",
        "hard": "not_played",
        "weekly": None,  # no weekly that day (the calendar lists it on Sundays)
    }


def test_calendar_states_input_and_badges(api: Api, player: User, guest_api: Api) -> None:
    today = utc_today()
    last_month_end = today.replace(day=1) - dt.timedelta(days=1)
    first = last_month_end.replace(day=1)
    days = calendar.monthrange(first.year, first.month)[1]
    for n in range(days):
        date = first + dt.timedelta(days=n)
        challenge = make_challenge(date, "hard")
        if n == 0:  # one day won from the archive, the rest as dailies
            game = result(player, challenge, save=False)
            game.mode = Mode.ARCHIVE
            game.save()
        else:
            result(player, challenge, finished_at=dt.datetime.combine(date, dt.time(12), dt.UTC))
    status, month = api.get(f"/api/calendar/{first:%Y-%m}/")
    assert status == 200, month
    Calendar(data=month).is_valid(raise_exception=True)
    assert len(month["days"]) == days
    assert {d["tiers"]["hard"] for d in month["days"]} == {"won"}
    assert {d["tiers"]["easy"] for d in month["days"]} == {None}  # no easy challenges
    (badge,) = month["badges"]
    assert badge["name"] == "Chilkoot Month" and badge["month"] == f"{first:%Y-%m}"
    status, record = api.get(f"/api/players/{player.display_name}/record/")
    assert [b["name"] for b in record["badges"]] == ["Chilkoot Month"]
    # One day missing: no badge.
    Game.objects.filter(challenge__date=first + dt.timedelta(days=3)).delete()
    assert archive.badges_of(player.pk) == []
    for bad in ("2025-13", "2025", "abc", "2025-1-1"):
        status, body = api.get(f"/api/calendar/{bad}/")
        assert status == 400, (bad, body)
    next_year = today.replace(day=1) + dt.timedelta(days=400)
    assert api.get(f"/api/calendar/{next_year:%Y-%m}/")[0] == 404
    # back to the first challenge, no further: the month before it has no "previous"
    assert month["previous"] is None
    this_month = api.get(f"/api/calendar/{today:%Y-%m}/")[1]
    assert this_month["previous"] == month["month"] and this_month["next"] is None
    for early in ("0001-01", "0001-02", "0999-12", "1969-12"):
        status, body = api.get(f"/api/calendar/{early}/")
        assert status == 200, (early, body)
        assert body["month"] == early and body["previous"] is None, body
        assert {state for d in body["days"] for state in d["tiers"].values()} == {None}
    assert guest_api.get(f"/api/calendar/{today:%Y-%m}/")[0] == 403


def test_an_archive_game_of_another_player_is_private_until_over(api: Api, other_api: Api) -> None:
    day = utc_today() - dt.timedelta(days=2)
    make_day(day)
    status, game = api.post(f"/api/archive/{day}/hard/")
    assert status == 201
    assert other_api.get(f"/api/games/{game['id']}/")[0] == 404
    assert (
        other_api.post(
            f"/api/games/{game['id']}/moves/", {"ply": 0, "move": winning_lines()[68][0]}
        )[0]
        == 404
    )


def test_one_player_one_archive_game_per_day_and_tier_in_the_database(player: User) -> None:
    day = utc_today() - dt.timedelta(days=2)
    challenge = make_day(day)["easy"]
    other = make_player("Other")
    Game.objects.create(
        player=player, challenge=challenge, deal=challenge.deal, mode=Mode.ARCHIVE, position="-"
    )
    Game.objects.create(
        player=other, challenge=challenge, deal=challenge.deal, mode=Mode.ARCHIVE, position="-"
    )
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(
            player=player, challenge=challenge, deal=challenge.deal, mode=Mode.ARCHIVE, position="-"
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(
            deal=challenge.deal, mode=Mode.ARCHIVE, position="-", player=player
        )  # an archive game names its challenge
