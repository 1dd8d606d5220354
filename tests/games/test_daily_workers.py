"""The daily pipeline through real Celery processes on the real Redis: beat, a worker
preparing tomorrow, a worker killed mid-task, two workers racing."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from celery.schedules import crontab

from games import tasks
from games.models import DailyChallenge, Deal, utc_today
from games.models import tiers_of as tiers_due
from tests.workers import own_queue, start_beat, start_worker, stop
from yukon_site.celery import app

pytestmark = [pytest.mark.celery, pytest.mark.redis, pytest.mark.postgres]

TIERS = ["easy", "hard", "medium"]
# The workers rate candidates with 20 bot playouts, not 200: these tests are about the
# processes (who prepares, what survives a kill, who wins a race), not about the ratings,
# and the finer rating was nearly a third of their CPU (66 CPU-s, then 47). The hard band,
# 2 to 12 %, needs 9 playouts or more. They prove in one thread, not two (as the in-process
# tests do: tests/conftest.py): the second thread's race for a sooner proof was thrown-away
# work on a machine whose cores the rest of the suite keeps busy (47 CPU-s, then 40).
QUICK_PREPARATION = {"DAILY_BOT_PLAYOUTS": "20", "DAILY_SOLVE_JOBS": "1"}


def wait_for(condition: Callable[[], bool], seconds: float, logs: list[Path]) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail("timed out; logs:\n" + "\n".join(p.read_text() for p in logs if p.exists()))
        time.sleep(0.2)


def tiers_of(date: dt.date) -> list[str]:
    return sorted(DailyChallenge.objects.filter(date=date).values_list("tier", flat=True))


def all_tiers_of(date: dt.date) -> list[str]:
    """Every tier ``date`` has: on a Sunday the weekly too (the tests of today and tomorrow
    run on any day; the others' dates are weekdays)."""
    return sorted(tiers_due(date))


def test_beat_schedule_prepares_tomorrow_before_midnight_and_sweeps() -> None:
    schedule = app.conf.beat_schedule
    nightly = schedule["prepare-tomorrow"]
    assert nightly["task"] == tasks.prepare_daily.name == "games.prepare_daily"
    assert isinstance(nightly["schedule"], crontab) and nightly["schedule"].hour == {22}
    assert schedule["sweep-daily"]["task"] == tasks.sweep_daily.name
    assert tasks.prepare_daily.acks_late


@pytest.mark.django_db(transaction=True)
def test_beat_and_a_worker_prepare_a_missing_today(tmp_path: Path) -> None:
    with own_queue() as queue:
        logs = [tmp_path / "worker.log", tmp_path / "beat.log"]
        worker = start_worker(queue, logs[0], **QUICK_PREPARATION)
        # the sweeper runs every second
        beat = start_beat(queue, tmp_path, logs[1], DAILY_SWEEP_SECONDS="1")
        try:
            wait_for(lambda: tiers_of(utc_today()) == all_tiers_of(utc_today()), 120, logs)
        finally:
            stop(beat)
            stop(worker)
    assert "games.sweep_daily" in logs[1].read_text()


@pytest.mark.django_db(transaction=True)
def test_a_worker_prepares_tomorrow(tmp_path: Path) -> None:
    with own_queue() as queue:
        log = tmp_path / "worker.log"
        worker = start_worker(queue, log, **QUICK_PREPARATION)
        try:
            tasks.prepare_daily.delay()
            tomorrow = utc_today() + dt.timedelta(days=1)
            wait_for(lambda: tiers_of(tomorrow) == all_tiers_of(tomorrow), 120, [log])
        finally:
            stop(worker)


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_task_is_replaced_and_the_day_completes_once(
    tmp_path: Path,
) -> None:
    date = dt.date(2031, 1, 9)
    with own_queue() as queue:
        logs = [tmp_path / "first.log", tmp_path / "second.log"]
        # Slow rating, so the first worker is surely mid-task when it dies; messages it
        # took come back after 3 s.
        fast_restore = {"CELERY_VISIBILITY_TIMEOUT": "3", "CELERY_RESTORE_INTERVAL": "1"}
        slow = {"DAILY_BOT_PLAYOUTS": "5000", **fast_restore}
        first = start_worker(queue, logs[0], **slow)
        try:
            tasks.prepare_daily.delay(date.isoformat())
            wait_for(Deal.objects.exists, 60, logs)
            stop(first, kill=True)
            assert first.returncode == -9
            assert DailyChallenge.objects.filter(date=date).count() < 3
            second = start_worker(queue, logs[1], **fast_restore, **QUICK_PREPARATION)
            try:
                wait_for(lambda: tiers_of(date) == TIERS, 180, logs)
            finally:
                stop(second)
        finally:
            stop(first, kill=True)
    assert "games.prepare_daily" in logs[1].read_text()


@pytest.mark.django_db(transaction=True)
def test_two_workers_racing_publish_one_challenge_per_tier(tmp_path: Path) -> None:
    date = dt.date(2031, 1, 10)
    with own_queue() as queue:
        logs = [tmp_path / "a.log", tmp_path / "b.log"]
        workers = [start_worker(queue, log, **QUICK_PREPARATION) for log in logs]
        try:
            for _ in range(2):
                tasks.prepare_daily.delay(date.isoformat())
            wait_for(lambda: tiers_of(date) == TIERS, 120, logs)
            # both tasks finished (each either published or found the other's challenge)
            wait_for(lambda: sum(p.read_text().count("succeeded") for p in logs) >= 2, 120, logs)
        finally:
            for worker in workers:
                stop(worker)
    assert tiers_of(date) == TIERS
