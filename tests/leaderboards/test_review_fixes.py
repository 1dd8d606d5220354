"""A closed day's games file (review of issue 17, fix 6): complete at the close, and not
cached publicly while any game of the day waits for its verification."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game, Status, Verification, utc_today
from tests.factories import SECRET_DAILY_NUMBERS, make_challenges
from tests.games.conftest import _celery_in_process  # noqa: F401 (fixture)
from tests.games.test_commitment import (
    LINES,
    Clock,
    close_the_day,
    play_daily,
    player_client,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def day_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    """Today at 09:00 UTC on the server's clock, which the test then moves past midnight."""
    fake = Clock(dt.datetime.combine(utc_today(), dt.time(9), tzinfo=dt.UTC))
    monkeypatch.setattr(timezone, "now", fake)
    yield fake


def fetch(day: dt.date) -> tuple[Any, list[dict[str, Any]]]:
    response: Any = Client().get(f"/api/daily/{day.isoformat()}/easy/games.jsonl")
    assert response.status_code == 200
    body = b"".join(response.streaming_content).decode()
    return response, [json.loads(line) for line in body.splitlines()]


def test_a_game_still_in_play_at_midnight_is_in_the_first_file(
    day_clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    make_challenges(numbers={**SECRET_DAILY_NUMBERS, "easy": 0})
    client, _ = player_client("idler")
    with django_capture_on_commit_callbacks(execute=True):
        idler = play_daily(client, day_clock, LINES[0][:2], 1.0)
    day = utc_today()
    close_the_day(day_clock)
    with django_capture_on_commit_callbacks(execute=True):
        response, first = fetch(day)
    # Ended first (at its last move, before the close), then listed: its verification
    # runs once the request commits, so the first file counts it as pending and says
    # so to caches. Never silently left out of a file that looks final.
    assert first[0]["games"] == 0 and first[0]["not_ranked"]["pending"] == 1, first[0]
    assert "public" not in response["Cache-Control"]
    ended = Game.objects.get(pk=idler)
    assert (ended.status, ended.verification) == (Status.ABANDONED, Verification.VERIFIED)
    assert ended.finished_at is not None and ended.finished_at < dt.datetime.combine(
        day + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC
    )
    response, again = fetch(day)
    assert again[0]["games"] == 1 and again[0]["not_ranked"]["pending"] == 0
    assert [line["game_id"] for line in again[1:-1]] == [idler]
    assert "public" in response["Cache-Control"]  # nothing left to change it


def test_a_game_left_in_play_counts_as_pending_and_the_file_is_not_cached_publicly(
    day_clock: Clock,
) -> None:
    make_challenges(numbers={**SECRET_DAILY_NUMBERS, "easy": 0})
    client, _ = player_client("idler")
    idler = play_daily(client, day_clock, LINES[0][:2], 1.0)
    day = utc_today()
    close_the_day(day_clock)
    response, lines = fetch(day)  # no worker: the ended game waits for verification
    assert Game.objects.get(pk=idler).verification == Verification.PENDING
    assert lines[0]["games"] == 0 and lines[0]["not_ranked"]["pending"] == 1
    cache = response["Cache-Control"]
    assert "public" not in cache and "no-cache" in cache, cache
