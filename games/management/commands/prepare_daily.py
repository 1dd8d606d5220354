"""``manage.py prepare_daily [--date YYYY-MM-DD]``: publish a day's three challenges now."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.daily import DailyPreparationError, prepare_daily
from games.models import DailyChallenge, utc_today


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--date {text!r} is not a date in the form YYYY-MM-DD") from None


class Command(BaseCommand):
    help = "Prepare the daily challenges of a date (default: today, UTC). Idempotent."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--date", type=str, help="YYYY-MM-DD (default: today, UTC)")

    def handle(self, *args: Any, **options: Any) -> None:
        date = _date(options["date"]) if options["date"] else utc_today()
        try:
            ids = prepare_daily(date)
        except DailyPreparationError as exc:
            raise CommandError(str(exc)) from None
        for challenge in DailyChallenge.objects.filter(pk__in=ids.values()).order_by("pk"):
            self.stdout.write(
                f"{date} {challenge.tier}: ready (bot win rate {challenge.bot_win_rate:.0%})"
            )
