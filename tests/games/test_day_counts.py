"""The day's counts (played, won, guests, playing now) on the home page and /api/daily/:
each count goes over all of the day's games, so a web process counts at most once per
DAY_COUNTS_SECONDS, however many pages it draws meanwhile, and a count is never older."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import daily
from tests.factories import Api, make_day

pytestmark = pytest.mark.django_db


def counts_of_games(queries: CaptureQueriesContext) -> int:
    """The queries that count games (the day's counts, playing now)."""
    return sum(
        1
        for query in queries.captured_queries
        if "COUNT(" in query["sql"] and 'FROM "games_game"' in query["sql"]
    )


def easy_played(api: Api) -> int:
    status, day = api.get("/api/daily/")
    assert status == 200, day
    return int(next(c for c in day["challenges"] if c["tier"] == "easy")["played"])


def test_many_pages_count_the_days_games_once_in_the_window(settings: Any) -> None:
    settings.DAY_COUNTS_SECONDS = 60  # the window outlasts the test (expiry: test_process_cache)
    make_day()
    first = Api(Client(REMOTE_ADDR="198.51.100.7"))
    assert first.post("/api/games/", {"daily": "easy"})[0] == 201
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert Client().get("/").status_code == 200
            assert easy_played(Api(Client())) == 1
            status, home = Api(Client()).get("/api/leaderboards/home/")
            assert status == 200 and home["playing"]["easy"] == 1
    # Once for the day's counts, once for playing now: not at every page (6 before).
    assert counts_of_games(queries) == 2
    # A game started meanwhile shows once the kept counts expire, not before.
    assert Api(Client(REMOTE_ADDR="203.0.113.4")).post("/api/games/", {"daily": "easy"})[0] == 201
    assert easy_played(Api(Client())) == 1
    daily.counts_kept.clear()  # as if the window had passed
    assert easy_played(Api(Client())) == 2


def test_zero_seconds_counts_at_every_read(settings: Any) -> None:
    settings.DAY_COUNTS_SECONDS = 0
    make_day()
    assert easy_played(Api(Client())) == 0
    assert Api(Client(REMOTE_ADDR="198.51.100.7")).post("/api/games/", {"daily": "easy"})[0] == 201
    assert easy_played(Api(Client())) == 1
