"""Rebuild daily boards in Redis from PostgreSQL: one (--date/--tier), the stale ones, or all."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import redis
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import ChallengeTier, DailyChallenge
from leaderboards import services, store


class Command(BaseCommand):
    help = (
        "Rebuild leaderboards from PostgreSQL. Without options: every daily board. "
        "--date YYYY-MM-DD [--tier easy|medium|hard|weekly]: the boards of that day. "
        "--stale: only boards that missed an update while Redis was down."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--date", help="the day of the boards to rebuild (YYYY-MM-DD)")
        parser.add_argument("--tier", choices=ChallengeTier.values, help="only this tier's board")
        parser.add_argument("--stale", action="store_true", help="only boards marked stale")

    def handle(self, *args: Any, **options: Any) -> None:
        if store.client() is None:
            raise CommandError("no Redis configured (REDIS_URL): boards are served from PostgreSQL")
        if options["tier"] and not options["date"]:
            raise CommandError("--tier needs --date")
        started = time.perf_counter()
        try:
            if options["stale"]:
                count = services.rebuild_stale_boards()
            elif options["date"]:
                try:
                    day = dt.date.fromisoformat(options["date"])
                except ValueError as exc:
                    raise CommandError(
                        f"--date {options['date']!r} is not a date (YYYY-MM-DD)"
                    ) from exc
                challenges = DailyChallenge.objects.filter(date=day)
                if options["tier"]:
                    challenges = challenges.filter(tier=options["tier"])
                ids = list(challenges.values_list("pk", flat=True))
                if not ids:
                    raise CommandError(f"no challenge on {day.isoformat()}")
                count = services.rebuild_boards(ids)
            else:
                count = services.rebuild_boards()
        except redis.RedisError as exc:
            raise CommandError(f"Redis failed: {exc}") from exc
        seconds = time.perf_counter() - started
        self.stdout.write(f"rebuilt {count} board(s) in {seconds:.2f} s")
