"""Leaderboard speed: one daily board of 100,000 verified results.

Run under throwaway services from the repository root:

    .venv/bin/python scripts/test-services -- .venv/bin/python bench/bench_leaderboards.py

It creates a test database (``test_<name>``, dropped afterwards) and its own Redis key
prefix, bulk-inserts players and results, and prints: a full rebuild of the board from
PostgreSQL, then the first page and "around me" through the API (Django test client),
median and p95 over many requests, with the number of SQL queries of each. Targets:
rebuild under 5 s; both pages under 20 ms median with a constant query count.
Not a test: it prints figures. ``--results N`` changes the board size.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from accounts.models import User  # noqa: E402
from games.models import (  # noqa: E402
    DailyChallenge,
    Deal,
    Game,
    Mode,
    Status,
    Verification,
    utc_today,
)
from leaderboards import circles, day_board, store  # noqa: E402

BATCH = 5_000


def populate(count: int) -> DailyChallenge:
    rng = random.Random(6)
    deal = Deal.objects.create(number=123_456_789, variant="yukon")
    challenge = DailyChallenge.objects.create(date=utc_today(), tier="easy", deal=deal)
    start = time.perf_counter()
    for first in range(0, count, BATCH):
        users = User.objects.bulk_create(
            [
                User(username=f"bench{i}", display_name=f"Bench {i}", password="!")
                for i in range(first, min(count, first + BATCH))
            ]
        )
        base = dt.datetime.combine(challenge.date, dt.time(), tzinfo=dt.UTC)
        games = []
        for user in users:
            won = rng.random() < 0.35
            games.append(
                Game(
                    player=user,
                    deal=deal,
                    challenge=challenge,
                    mode=Mode.DAILY,
                    status=Status.WON if won else rng.choice([Status.STUCK, Status.RESIGNED]),
                    verification=Verification.VERIFIED,
                    score=625 if won else rng.randrange(0, 620, 5),
                    moves=rng.randrange(80, 250),
                    ply=0,
                    elapsed_ms=rng.randrange(60_000, 1_800_000, 1000),
                    finished_at=base + dt.timedelta(seconds=rng.randrange(86_400)),
                    verified_at=base,
                    position="-",
                )
            )
        Game.objects.bulk_create(games)
    print(f"inserted {count:,} players and results in {time.perf_counter() - start:.1f} s")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return challenge


def forget_process_copies() -> None:
    day_board.process_cache.clear()
    circles.process_copies.clear()


def timed_requests(
    client: Client,
    url: str,
    repeat: int,
    *,
    kept: bool = False,
    before: Callable[[], object] | None = None,
) -> tuple[list[float], int]:
    """Request times and SQL count; each read checks its rows against PostgreSQL and
    reads the boards' kept values from Redis unless ``kept`` (then it finds them in the
    process's copies, ``day_board.process_cache`` and ``circles.process_copies``).
    ``before`` runs ahead of each read, untimed."""
    client.get(url)  # warm
    if not kept:
        forget_process_copies()
    if before is not None:
        before()
    connection.queries_log.clear()  # DEBUG logs every query; a full log would count 0
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.content
    times = []
    for _ in range(repeat):
        if not kept:
            forget_process_copies()
        if before is not None:
            before()
        start = time.perf_counter()
        client.get(url)
        times.append((time.perf_counter() - start) * 1000)
    return times, len(queries)


def report(name: str, times: list[float], queries: int) -> None:
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"{name:<34} median {statistics.median(times):6.2f} ms  p95 {p95:6.2f} ms  {queries} SQL")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    if not settings.REDIS_URL or connection.vendor != "postgresql":
        sys.exit("needs PostgreSQL and Redis: run it under scripts/test-services")
    settings.LEADERBOARDS_KEY_PREFIX = f"bench-lb-{uuid.uuid4().hex[:8]}:"
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    r = store.client()
    assert r is not None
    try:
        challenge = populate(args.results)
        rebuilds = []
        for _ in range(3):
            start = time.perf_counter()
            day_board.rebuild_daily(challenge.pk)
            rebuilds.append(time.perf_counter() - start)
        print(
            f"full rebuild of {r.zcard(store.daily_key(challenge.pk)):,} results: "
            f"median {statistics.median(rebuilds):.2f} s (target < 5 s)"
        )
        url = f"/api/leaderboards/daily/{challenge.date.isoformat()}/{challenge.tier}/"
        report("first page (anonymous)", *timed_requests(Client(), url, args.repeat))
        report(
            "first page, rows kept (2 s)", *timed_requests(Client(), url, args.repeat, kept=True)
        )
        middle = Game.objects.filter(challenge=challenge).order_by("pk")[args.results // 2]
        client = Client()
        client.force_login(middle.player)
        report(
            "around me (mid-board, logged in)",
            *timed_requests(client, url + "?around=me", args.repeat),
        )
        deep = max(1, args.results // day_board.PAGE_SIZE // 2)
        report(
            f"page {deep} (anonymous)", *timed_requests(Client(), f"{url}?page={deep}", args.repeat)
        )
        settings.LEADERBOARDS_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
        report("first page, Redis down (Postgres)", *timed_requests(Client(), url, 20))
        report("around me, Redis down (Postgres)", *timed_requests(client, url + "?around=me", 20))
        settings.LEADERBOARDS_REDIS_URL = settings.REDIS_URL
    finally:
        store.flush_prefix(r)
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
