"""Benchmark of the practice pool: time to fill ``--size`` deals per tier from empty.

Runs the pool's own refill (``games.practice_pool.top_up``: random numbers from
``secrets``, each proven by the solver and rated by the strategy bot with the daily
budgets) on a throwaway test database (the configured one, or SQLite when DATABASE_URL is
unset), one variant at a time, with no attempt or time cap unless given, and prints the
wall and CPU time, the numbers tried and the deals per tier. (The solver's C search and
the bot both run in this process, so its CPU time is the work done.) Run it niced on a
shared machine:

    nice -n 19 .venv/bin/python bench/bench_practice_pool.py [--size 50] [--variant yukon]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")
os.environ.setdefault("LOG_LEVEL", "WARNING")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=50, help="deals per tier")
    parser.add_argument("--variant", action="append", help="a variant (default: yukon)")
    parser.add_argument("--max-attempts", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=3600.0, help="cap per variant")
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment(debug=False)
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        for variant in args.variant or ["yukon"]:
            run(variant, args.size, args.max_attempts, args.seconds)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    return 0


def run(variant: str, size: int, max_attempts: int, seconds: float) -> None:
    from django.conf import settings
    from django.db import connection

    from games import practice_pool
    from games.daily import solve_budget
    from games.models import PracticeDeal, Tier

    started, cpu_started = time.perf_counter(), time.process_time()
    refill = practice_pool.top_up(variant, size=size, max_attempts=max_attempts, seconds=seconds)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    print(
        f"{variant}: {size} deals per tier, {connection.vendor}; solver budget "
        f"{solve_budget()[1]:,} nodes, {settings.DAILY_BOT_PLAYOUTS} bot playouts "
        f"per candidate"
    )
    pooled = max(sum(refill.added.values()), 1)
    print(
        f"filled in {elapsed:.1f} s wall ({elapsed / 60:.1f} min), {cpu:.1f} s CPU "
        f"(one core; the wall time is longer on a busy machine): {refill.attempts} numbers "
        f"tried, {cpu / max(refill.attempts, 1):.2f} s CPU per number, "
        f"{cpu / pooled:.2f} s CPU per pooled deal"
    )
    for tier in Tier.values:
        rates = list(
            PracticeDeal.objects.filter(variant=variant, tier=tier).values_list(
                "bot_win_rate", flat=True
            )
        )
        mean = sum(rates) / len(rates) if rates else float("nan")
        print(f"  {tier:7} {len(rates):4} deals, bot win rate mean {mean:.2f}")
    if refill.short:
        print(f"  still short: {refill.short}")


if __name__ == "__main__":
    sys.exit(main())
