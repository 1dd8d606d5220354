"""Benchmark of the daily pipeline: time to prepare a day's three tiers, and their bot rates.

Prepares ``--days`` consecutive days (default 30) from scratch on a throwaway test
database (the configured one, or SQLite when DATABASE_URL is unset) and prints the median
and worst time per day, the candidates tried per tier, and the measured bot win rate of
each tier's published deals. Run it on a quiet machine:

    .venv/bin/python bench/bench_daily.py [--days 30]
    .venv/bin/python bench/bench_daily.py --sundays 10   # the weekly challenge only

Target: under 60 s per day on one core. ``--sundays N`` prepares only the weekly
challenge (Double Yukon) of N consecutive Sundays from ``--start``: time per Sunday,
candidates tried, their verdicts, the published deals' proof sizes and bot win rates.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--start", default="2027-01-01", help="first date (YYYY-MM-DD)")
    parser.add_argument("--sundays", type=int, default=0, help="the weekly only, N Sundays")
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment(debug=False)
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        start = dt.date.fromisoformat(args.start)
        if args.sundays:
            return run_weekly(start, args.sundays)
        return run(start, args.days)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(start: dt.date, days: int) -> int:
    from django.conf import settings

    from games.daily import BANDS, candidate_number, prepare_daily
    from games.models import DailyChallenge, Tier

    seconds: list[float] = []
    attempts: dict[str, list[int]] = {tier: [] for tier in Tier.values}
    for offset in range(days):
        date = start + dt.timedelta(days=offset)
        started = time.perf_counter()
        prepare_daily(date)
        seconds.append(time.perf_counter() - started)
        for challenge in DailyChallenge.objects.filter(date=date).select_related("deal"):
            tried = [
                candidate_number(settings.DAILY_SECRET, date, challenge.tier, n)
                for n in range(settings.DAILY_MAX_ATTEMPTS)
            ]
            attempts[challenge.tier].append(tried.index(challenge.deal.number) + 1)
        print(f"{date}: {seconds[-1]:.1f} s", flush=True)
    print(
        f"\n{days} days, {connection_vendor()}; solver budget {settings.DAILY_SOLVE_NODES:,} "
        f"nodes, {settings.DAILY_BOT_PLAYOUTS} bot playouts per candidate"
    )
    print(
        f"time per day: median {statistics.median(seconds):.1f} s, "
        f"p95 {sorted(seconds)[int(0.95 * (len(seconds) - 1))]:.1f} s, "
        f"max {max(seconds):.1f} s (target < 60 s)"
    )
    print(
        f"{'tier':8} {'band':>12} {'bot win rate: mean':>20} {'min':>6} {'max':>6} "
        f"{'candidates tried: mean':>24}"
    )
    for tier in Tier.values:
        rates = [
            rate
            for rate in DailyChallenge.objects.filter(tier=tier).values_list(
                "bot_win_rate", flat=True
            )
            if rate is not None
        ]
        band = BANDS[tier]
        print(
            f"{tier:8} {band.low:>5.2f}-{min(band.high, 1):<5.2f} "
            f"{statistics.mean(rates):>20.2f} {min(rates):>6.2f} {max(rates):>6.2f} "
            f"{statistics.mean(attempts[tier]):>24.1f}"
        )
    return 0


def run_weekly(start: dt.date, sundays: int) -> int:
    from django.conf import settings

    from games.daily import BANDS, candidate_number, prepare_tier
    from games.models import WEEKLY, WEEKLY_VARIANT, Deal

    first = start + dt.timedelta(days=(6 - start.weekday()) % 7)
    seconds: list[float] = []
    attempts: list[int] = []
    verdicts: dict[str, int] = {}
    nodes: list[int] = []
    rates: list[float] = []
    for week in range(sundays):
        date = first + dt.timedelta(weeks=week)
        started = time.perf_counter()
        challenge = prepare_tier(date, WEEKLY)
        seconds.append(time.perf_counter() - started)
        tried = [
            candidate_number(settings.DAILY_SECRET, date, WEEKLY, n)
            for n in range(settings.WEEKLY_MAX_ATTEMPTS)
        ]
        attempts.append(tried.index(challenge.deal.number) + 1)
        for deal in Deal.objects.filter(number__in=tried[: attempts[-1]], variant=WEEKLY_VARIANT):
            verdicts[str(deal.verdict)] = verdicts.get(str(deal.verdict), 0) + 1
        nodes.append(challenge.deal.solve_nodes or 0)
        rates.append(challenge.bot_win_rate or 0.0)
        print(
            f"{date}: {seconds[-1]:.1f} s, candidate {attempts[-1]}, proof "
            f"{nodes[-1]:,} positions, bot {rates[-1]:.2f}",
            flush=True,
        )
    band = BANDS[WEEKLY]
    print(
        f"\n{sundays} Sundays, {connection_vendor()}; weekly solver budget "
        f"{settings.DAILY_SOLVE_NODES:,} nodes (the dailies'), "
        f"{settings.DAILY_BOT_PLAYOUTS} bot playouts, band {band.low:.2f}-{band.high:.2f}"
    )
    print(f"time per Sunday: median {statistics.median(seconds):.1f} s, max {max(seconds):.1f} s")
    print(
        f"candidates tried: mean {statistics.mean(attempts):.1f}, max {max(attempts)}; "
        f"verdicts of all tried: {dict(sorted(verdicts.items()))}"
    )
    print(
        f"published: proof positions median {statistics.median(nodes):,.0f}, max "
        f"{max(nodes):,}; bot win rate mean {statistics.mean(rates):.2f}, min "
        f"{min(rates):.2f}, max {max(rates):.2f}"
    )
    return 0


def connection_vendor() -> str:
    from django.db import connection

    return connection.vendor


if __name__ == "__main__":
    sys.exit(main())
