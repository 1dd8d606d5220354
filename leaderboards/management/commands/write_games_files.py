"""Write the stored games files of sealed days from PostgreSQL (docs/operations.md, "Games
files"): the ones missing, or with --rewrite every one, since --since."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import DailyChallenge
from leaderboards import stored_files
from leaderboards.models import CloseRecord


class Command(BaseCommand):
    help = (
        "Write the stored games file of each tier of each sealed day (a day with a close "
        "record) that has none: after a restore, or a lost storage volume. --since "
        "YYYY-MM-DD: only days from then on. --rewrite: write them all again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--since", help="the first day to write (YYYY-MM-DD)")
        parser.add_argument(
            "--rewrite", action="store_true", help="also the days that have a stored file"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        since = None
        if options["since"]:
            try:
                since = dt.date.fromisoformat(options["since"])
            except ValueError as exc:
                raise CommandError(
                    f"--since {options['since']!r} is not a date (YYYY-MM-DD)"
                ) from exc
        if options["rewrite"]:
            sealed = CloseRecord.objects.filter(date__gte=since or dt.date.min).values("date")
            stored_files.drop(
                DailyChallenge.objects.filter(date__in=sealed).values_list("pk", flat=True)
            )
        started, written, skipped = time.perf_counter(), 0, 0
        for challenge in stored_files.due(since=since).iterator():
            copy = stored_files.write(challenge)
            where = f"{challenge.date.isoformat()} {challenge.tier}"
            if copy is None:
                skipped += 1
                self.stdout.write(f"{where}: not written (a game is pending, or it changed)")
                continue
            written += 1
            self.stdout.write(
                f"{where}: {copy.games} games, {copy.length:,} bytes, {copy.size:,} gzip"
            )
        seconds = time.perf_counter() - started
        self.stdout.write(f"wrote {written} games file(s) in {seconds:.1f} s; {skipped} skipped")
