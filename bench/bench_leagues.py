"""League and circle boards: a league of 1,000 members on a day of 100,000 results.

Run under throwaway services from the repository root (nice it: the CPU is shared):

    nice -n 19 .venv/bin/python scripts/test-services -- .venv/bin/python bench/bench_leagues.py

It builds the day of ``bench_leaderboards.py`` (100,000 players with verified results on
one board, ``--results N``), puts 1,000 of them in one league (``--members N``) and has
one member follow 500 players, then prints median and p95 through the API (Django test
client, logged in as a member), with SQL counts: the league's page (today per tier,
week and month points, streaks), the daily board narrowed to the league and to the
followed players, the global board's first page, and the home page's figures, each read
checking its rows against PostgreSQL and fetching the kept values from Redis; then the
league's two reads again as they go when members read within LEADERBOARD_ROWS_SECONDS
(the values found in the process's copies). ``--profile`` adds where the league page's
time goes. Target: every read under 20 ms median. Not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_leaderboards as base  # sets Django up before the imports below
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import setup_test_environment

from accounts.models import User
from leaderboards import day_board, store
from social.models import Follow, League, Membership
from social.services import new_invite_token


def make_league(members: list[User]) -> League:
    league = League.objects.create(
        name="Bench League", name_key="bench league", owner=members[0],
        invite_token=new_invite_token(),
    )
    Membership.objects.bulk_create([Membership(league=league, player=m) for m in members])
    return league


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--members", type=int, default=1_000)
    parser.add_argument("--follows", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument(
        "--profile", action="store_true",
        help="also print where the league page's time goes (cProfile, top 30 by own time)",
    )
    args = parser.parse_args()
    if not settings.REDIS_URL or connection.vendor != "postgresql":
        sys.exit("needs PostgreSQL and Redis: run it under scripts/test-services")
    settings.LEADERBOARDS_KEY_PREFIX = f"bench-lg-{uuid.uuid4().hex[:8]}:"
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0)
    r = store.client()
    assert r is not None
    try:
        challenge = base.populate(args.results)
        day_board.rebuild_daily(challenge.pk)
        rng = random.Random(19)
        players = list(User.objects.order_by("pk").values_list("pk", flat=True))
        members = list(User.objects.filter(pk__in=rng.sample(players, args.members)))
        league = make_league(members)
        me = members[1]
        Follow.objects.bulk_create(
            [Follow(follower=me, followed_id=pk) for pk in rng.sample(players, args.follows)
             if pk != me.pk]
        )
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"one league of {args.members:,} members; a member following {args.follows}")
        client = Client()
        client.force_login(me)
        day = f"/api/leaderboards/daily/{challenge.date.isoformat()}/{challenge.tier}/"
        reads = [
            ("league page (today, week, month)", f"/api/leaderboards/leagues/{league.pk}/"),
            ("daily board, ?league=", f"{day}?league={league.pk}"),
            ("daily board, ?following=true", f"{day}?following=true"),
            ("global board, first page", day),
            ("home figures", "/api/leaderboards/home/"),
        ]
        for name, url in reads:
            base.report(name, *base.timed_requests(client, url, args.repeat))
        for name, url in reads[:2]:  # members reading in turn within 2 s
            base.report(
                f"{name.split(' (')[0]}, kept (2 s)",
                *base.timed_requests(client, url, args.repeat, kept=True),
            )
        if args.profile:
            profile = cProfile.Profile()
            profile.runcall(base.timed_requests, client, reads[0][1], args.repeat)
            pstats.Stats(profile).sort_stats("tottime").print_stats(30)
    finally:
        store.flush_prefix(r)
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
