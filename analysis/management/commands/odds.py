"""``manage.py odds``: study numbered deals with the solver and print the odds of winning.

Resumable: every verdict is stored (``DealStudy``) as soon as it is known, and deals
already studied are skipped, so an interrupted study picks up where it stopped.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper

from analysis import odds
from analysis.models import DealStudy
from games.engine import DEAL_ALGORITHM_VERSION, MAX_DEAL_NUMBER, VARIANT_NAMES
from games.solver import SolveResult


class Progress:
    """A one-line progress bar on a terminal (plain lines elsewhere, every 10 %)."""

    WIDTH = 30

    def __init__(self, label: str, total: int, stream: OutputWrapper) -> None:
        self.label = label
        self.total = total
        self.stream = stream
        self.done = 0
        self.counts = {"solved": 0, "unwinnable": 0, "unknown": 0}
        self.started = time.monotonic()
        self.tty = stream.isatty()
        self.last_tenth = -1

    def step(self, verdict: str) -> None:
        self.done += 1
        self.counts[verdict] = self.counts.get(verdict, 0) + 1
        tenth = 10 * self.done // max(1, self.total)
        if self.tty:
            self.stream.write("\r" + self.line(), ending="")
            if self.done == self.total:
                self.stream.write("")
        elif tenth != self.last_tenth:
            self.stream.write(self.line())
        self.last_tenth = tenth
        self.stream.flush()

    def line(self) -> str:
        filled = self.WIDTH * self.done // max(1, self.total)
        bar = "#" * filled + "." * (self.WIDTH - filled)
        elapsed = time.monotonic() - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate else 0.0
        c = self.counts
        return (
            f"{self.label:<10} [{bar}] {self.done}/{self.total}  solved {c['solved']}  "
            f"unwinnable {c['unwinnable']}  undecided {c['unknown']}  "
            f"{elapsed:.0f}s elapsed, ~{left:.0f}s left"
        )


class Command(BaseCommand):
    help = "Study N numbered deals per variant with the solver; print the odds of winning."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--deals", type=int, default=1000, help="Deals per variant.")
        parser.add_argument("--start", type=int, default=0, help="First deal number.")
        parser.add_argument(
            "--variant", choices=[*VARIANT_NAMES, "all"], default="all", help="Default: all."
        )
        parser.add_argument(
            "--seconds", type=float, default=5.0, help="Solver budget per deal (default 5)."
        )
        parser.add_argument(
            "--jobs", type=int, default=1, help="Searches at once (threads; one per core)."
        )
        parser.add_argument(
            "--retry-undecided",
            action="store_true",
            help="Study again the undecided deals whose stored budget is below --seconds.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        deals: int = options["deals"]
        start: int = options["start"]
        seconds: float = options["seconds"]
        if deals < 1:
            raise CommandError("--deals must be at least 1")
        if start < 0 or start + deals - 1 > MAX_DEAL_NUMBER:
            raise CommandError(f"deal numbers run from 0 to {MAX_DEAL_NUMBER}")
        if not 0 < seconds <= 3600:
            raise CommandError("--seconds must be above 0 and at most 3600")
        if not 1 <= options["jobs"] <= 64:
            raise CommandError("--jobs must be 1 to 64")
        variants = list(VARIANT_NAMES) if options["variant"] == "all" else [options["variant"]]
        numbers = range(start, start + deals)
        for variant in variants:
            done = odds.done_numbers(variant, numbers)
            if options["retry_undecided"]:
                done -= set(
                    DealStudy.objects.filter(
                        variant=variant,
                        algorithm_version=DEAL_ALGORITHM_VERSION,
                        verdict="unknown",
                        budget_seconds__lt=seconds,
                        number__gte=numbers.start,
                        number__lt=numbers.stop,
                    ).values_list("number", flat=True)
                )
            todo = [n for n in numbers if n not in done]
            self.stdout.write(
                f"{variant}: {len(done)} of {deals} deals already studied, {len(todo)} to go "
                f"({seconds:g} s each at most)"
            )
            if not todo:
                continue
            progress = Progress(variant, len(todo), self.stderr)

            def report(number: int, result: SolveResult, progress: Progress = progress) -> None:
                progress.step(result.verdict)

            odds.study(variant, todo, seconds=seconds, jobs=options["jobs"], on_result=report)
        rows = [odds.odds_row(v, numbers) for v in variants]
        self.stdout.write("")
        last = start + deals - 1
        self.stdout.write(f"Deals {start}..{last}, deal algorithm v{DEAL_ALGORITHM_VERSION}:")
        self.stdout.write(odds.format_table(rows))
