"""``manage.py odds``: study numbered deals with the solver and print the odds of winning.

Resumable: every verdict is stored (``DealStudy``) as soon as it is known, and deals
already studied are skipped, so an interrupted study picks up where it stopped.

``--publish`` runs the study that ships with the code instead (no database): a position
budget per deal (``--nodes``, reproducible on any machine), each verdict appended to a
work file as soon as it is known (``--work``; a rerun resumes from it), and the compact
result written to analysis/data/odds-study.json (``--output``), which /stats/ shows.
With ``--workers`` the deals go in chunks (``--chunk``) to the Celery workers of the study
queue (``--queue``, CELERY_STUDY_QUEUE), and their rows into the same work file.
See docs/odds.md.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import RedisError

from analysis import odds, study_workers
from analysis.models import DealStudy
from yukon.engine import DEAL_ALGORITHM_VERSION, MAX_DEAL_NUMBER, VARIANT_NAMES
from yukon.solver import SolveResult


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
        """Count one more deal with this verdict and redraw."""
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
        parser.add_argument(
            "--publish",
            action="store_true",
            help="Run the shipped study (position budget, work file, compact JSON output).",
        )
        parser.add_argument(
            "--nodes",
            type=int,
            default=2_000_000,
            help="With --publish: positions per deal (default 2,000,000).",
        )
        parser.add_argument("--work", default=None, help="With --publish: the resumable work file.")
        parser.add_argument(
            "--output",
            default=str(odds.STUDY_FILE),
            help="With --publish: the compact study (default analysis/data/odds-study.json).",
        )
        parser.add_argument(
            "--workers",
            action="store_true",
            help="With --publish: solve on the Celery workers of the study queue, in chunks.",
        )
        parser.add_argument(
            "--chunk",
            type=int,
            default=50,
            help="With --workers: deals per task (default 50).",
        )
        parser.add_argument(
            "--queue",
            default=None,
            help="With --workers: the queue (default CELERY_STUDY_QUEUE, 'study').",
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
        if options["workers"]:
            if not options["publish"]:
                raise CommandError("--workers needs --publish (the stored study runs here)")
            if options["jobs"] != 1:
                raise CommandError("--workers takes no --jobs: each worker solves one deal at once")
            if not 1 <= options["chunk"] <= 10_000:
                raise CommandError("--chunk must be 1 to 10,000")
            if options["queue"] is not None and not options["queue"].strip():
                raise CommandError("--queue must name a queue")
        variants = list(VARIANT_NAMES) if options["variant"] == "all" else [options["variant"]]
        numbers = range(start, start + deals)
        if options["publish"]:
            self.publish(variants, numbers, options)
            return
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

    def publish(self, variants: list[str], numbers: range, options: dict[str, Any]) -> None:
        budget: int = options["nodes"]
        if not 1_000 <= budget <= 10**10:
            raise CommandError("--nodes must be 1,000 to 10,000,000,000")
        output = Path(options["output"])
        work_path = Path(options["work"] or output.with_suffix(".work.jsonl"))
        try:
            work = odds.WorkFile(work_path, budget)
            keep = odds.kept_variants(output)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        for variant in variants:
            done = work.done(variant, numbers)
            todo = len(numbers) - len(done)
            self.stdout.write(
                f"{variant}: {len(done)} of {len(numbers)} deals already in {work_path}, "
                f"{todo} to go ({budget:,} positions each at most)"
            )
            if not todo:
                continue
            progress = Progress(variant, todo, self.stderr)

            def report(outcome: odds.Outcome, progress: Progress = progress) -> None:
                progress.step(outcome.verdict)
                if progress.done % 250 == 0:  # a long study shows its figures as it goes
                    self.write_output(work, output, keep)

            if options["workers"]:
                self.study_on_workers(work, variant, numbers, options, report)
                self.write_output(work, output, keep)
                continue
            odds.run_study(work, variant, numbers, jobs=options["jobs"], on_result=report)
            self.write_output(work, output, keep)
        self.write_output(work, output, keep)
        study = odds.load_published(output)
        if study is not None:
            self.stdout.write("")
            self.stdout.write(odds.format_published(study))

    def study_on_workers(
        self,
        work: odds.WorkFile,
        variant: str,
        numbers: range,
        options: dict[str, Any],
        report: Callable[[odds.Outcome], None],
    ) -> None:
        queue: str = options["queue"] or settings.CELERY_STUDY_QUEUE

        def sent(done: study_workers.WorkersReport, chunks: int) -> None:
            reused = f", {done.reused} finished by an earlier run" if done.reused else ""
            where = (
                "solved here, one after another (no broker: REDIS_URL is unset)"
                if study_workers.study_chunk.app.conf.task_always_eager
                else f"for the workers of queue '{queue}' (celery -A yukon_site worker -Q {queue})"
            )
            noun = "chunk" if chunks == 1 else "chunks"
            self.stdout.write(
                f"{variant}: {chunks} {noun} of {options['chunk']} deals{reused}, {where}"
            )

        try:
            done = study_workers.run_study_on_workers(
                work,
                variant,
                numbers,
                chunk_size=options["chunk"],
                queue=queue,
                on_result=report,
                on_sent=sent,
            )
        except (BrokerError, RedisError) as exc:  # the broker's, or the result backend's
            raise CommandError(f"Redis cannot be reached ({exc}): is it up?") from exc
        except study_workers.StudyWorkerError as exc:
            raise CommandError(str(exc)) from exc
        except KeyboardInterrupt:
            # The chunks already sent stay queued and the workers finish them; a rerun of
            # the same command collects the finished ones from the result backend.
            raise CommandError(
                f"interrupted: {len(work.outcomes)} deals in {work.path}; run the same command "
                "again to resume",
                returncode=130,
            ) from None
        if done.failed:
            raise CommandError(
                f"{len(done.failed)} chunks failed (their deals are not in {work.path}; run the "
                "same command again to send them again): " + "; ".join(done.failed[:3])
            )

    def write_output(self, work: odds.WorkFile, output: Path, keep: dict[str, Any]) -> None:
        data = odds.compact_study(work, git_commit=current_commit(), keep=keep)
        output.parent.mkdir(parents=True, exist_ok=True)
        partial = output.with_suffix(".tmp")
        partial.write_text(json.dumps(data, separators=(",", ":")) + "\n")
        partial.replace(output)


def current_commit() -> str:
    """The code's git commit, recorded with a published study ("" outside a checkout)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parent,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip()
