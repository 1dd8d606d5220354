"""League and circle boards: a league of 1,000 members on a day of 100,000 results.

Run under throwaway services from the repository root (nice it: the CPU is shared):

    nice -n 19 .venv/bin/python scripts/test-services -- .venv/bin/python bench/bench_leagues.py

It builds the day of ``bench_leaderboards.py`` (100,000 players with verified results on
one board, ``--results N``), puts 1,000 of them in one league (``--members N``) and has
one member follow 500 players, gives the members ``--days`` closed days of history (a
challenge per tier a day, each played by about 70% of them, so the week's and month's
tables and the streaks are full), then prints median and p95 through the API (Django
test client, logged in as a member), with SQL counts: the league's page (today per
tier, week and month points, streaks), the daily board narrowed to the league and to
the followed players, the global board's first page, and the home page's figures, each
read checking its rows against PostgreSQL and fetching the kept values from Redis; then
the league's two reads again as they go when members read within
LEADERBOARD_ROWS_SECONDS (the values found in the process's copies), and as they go on
a busy day, when another player's verified result has entered the board before every
read, and when a member's has (the league's today is computed again). ``--profile`` adds
where the league page's time goes. Target: the league's boards and the global board
under 20 ms median (the home figures are printed for comparison). Not a test: it prints
figures.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import itertools
import pstats
import random
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import bench_leaderboards as base  # sets Django up before the imports below

# isort: split
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import setup_test_environment
from django.utils import timezone

from accounts.models import User
from games.models import DailyChallenge, Deal, Game, Mode, Status, Tier, Verification
from leaderboards import day_board, store
from leaderboards.services import on_game_verified
from social.models import Follow, League, Membership
from social.services import new_invite_token


def make_league(members: list[User]) -> League:
    league = League.objects.create(
        name="Bench League",
        name_key="bench league",
        owner=members[0],
        invite_token=new_invite_token(),
    )
    Membership.objects.bulk_create([Membership(league=league, player=m) for m in members])
    return league


def make_history(members: list[User], today: dt.date, days: int) -> int:
    """``days`` closed days before ``today``, one challenge per tier each, played by
    about 70% of ``members`` (verified results, a third of them won); returns the count."""
    rng = random.Random(20)
    games = []
    for back in range(1, days + 1):
        date = today - dt.timedelta(days=back)
        start = dt.datetime.combine(date, dt.time(), tzinfo=dt.UTC)
        for offset, tier in enumerate(Tier.values):
            deal = Deal.objects.create(number=1_000_000 + back * 3 + offset, variant="yukon")
            challenge = DailyChallenge.objects.create(date=date, tier=tier, deal=deal)
            for member in members:
                if rng.random() >= 0.7:
                    continue
                won = rng.random() < 0.35
                games.append(
                    Game(
                        player=member,
                        deal=deal,
                        challenge=challenge,
                        mode=Mode.DAILY,
                        status=Status.WON if won else Status.STUCK,
                        verification=Verification.VERIFIED,
                        score=625 if won else rng.randrange(0, 620, 5),
                        moves=rng.randrange(80, 250),
                        ply=0,
                        elapsed_ms=rng.randrange(60_000, 1_800_000, 1000),
                        finished_at=start + dt.timedelta(seconds=rng.randrange(86_400)),
                        verified_at=start,
                        position="-",
                    )
                )
    Game.objects.bulk_create(games, batch_size=5_000)
    return len(games)


def verified(player: User, challenge: DailyChallenge) -> None:
    """A verified won result of ``player`` entering ``challenge``'s board, as the
    verification task adds it."""
    now = timezone.now()
    game = Game.objects.create(
        player=player,
        deal=challenge.deal,
        challenge=challenge,
        mode=Mode.DAILY,
        status=Status.WON,
        verification=Verification.VERIFIED,
        score=625,
        moves=120,
        ply=0,
        elapsed_ms=600_000,
        finished_at=now,
        verified_at=now,
        position="-",
    )
    on_game_verified(Game, game)


def result_arrives(challenge: DailyChallenge) -> Callable[[], None]:
    """Results of new players (not members) entering ``challenge``'s board one by one."""
    numbers = itertools.count()

    def arrive() -> None:
        number = next(numbers)
        player = User.objects.create(
            username=f"late{number}", display_name=f"Late {number}", password="!"
        )
        verified(player, challenge)

    return arrive


def members_play(today: dt.date, members: list[User]) -> Callable[[], None]:
    """The members' verified results entering the day's medium board one by one: the
    league's values of today are computed again, its closed days' part stays kept."""
    deal = Deal.objects.create(number=999_999, variant="yukon")
    challenge = DailyChallenge.objects.create(date=today, tier="medium", deal=deal)
    players = iter(members)
    return lambda: verified(next(players), challenge)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--members", type=int, default=1_000)
    parser.add_argument("--follows", type=int, default=500)
    parser.add_argument("--days", type=int, default=30, help="closed days of history")
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument(
        "--profile",
        action="store_true",
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
            [
                Follow(follower=me, followed_id=pk)
                for pk in rng.sample(players, args.follows)
                if pk != me.pk
            ]
        )
        history = make_history(members, challenge.date, args.days)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(
            f"one league of {args.members:,} members with {history:,} results over "
            f"{args.days} closed days; a member following {args.follows}"
        )
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
        arrive = result_arrives(challenge)
        for name, url in reads[:2]:  # a busy day: the board changes between reads
            base.report(
                f"{name.split(' (')[0]}, a result before",
                *base.timed_requests(client, url, args.repeat, before=arrive),
            )
        base.report(
            "league page, a member's result before",
            *base.timed_requests(
                client, reads[0][1], args.repeat, before=members_play(challenge.date, members)
            ),
        )
        if args.profile:
            for title, before in (("values kept", None), ("a result before each read", arrive)):
                print(f"\nthe league page, {title}:")
                profile = cProfile.Profile()
                profile.runcall(
                    base.timed_requests, client, reads[0][1], args.repeat, before=before
                )
                pstats.Stats(profile).sort_stats("tottime").print_stats(30)
    finally:
        store.flush_prefix(r)
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
