"""Celery tasks of reminders: another door to ``reminders.services``, no logic of their own.

Beat runs ``queue_reminders`` every REMINDER_WINDOW (yukon_site/settings.py); it finds the
players due and queues one ``send_reminder_batch`` per REMINDERS_BATCH_SIZE of them, so
that workers share a busy quarter hour. Both are safe to run twice: the sent log lets one
reminder per player, day and kind through (reminders/services.py).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from apikit.retries import RETRY_ON_DATABASE_ERRORS
from reminders import services


@shared_task(name="reminders.queue_reminders", **RETRY_ON_DATABASE_ERRORS)
def queue_reminders(at: str | None = None) -> int:
    """Queue the batches of this run (``at``: its time, ISO; now if None); how many players."""
    now = dt.datetime.fromisoformat(at) if at else timezone.now()
    ids = services.due_player_ids(now)
    size = max(1, settings.REMINDERS_BATCH_SIZE)
    for start in range(0, len(ids), size):
        send_reminder_batch.delay(ids[start : start + size], now.isoformat())
    services.purge_sent_log(now.astimezone(dt.UTC).date())
    return len(ids)


@shared_task(name="reminders.send_reminder_batch", **RETRY_ON_DATABASE_ERRORS)
def send_reminder_batch(player_ids: list[int], at: str) -> dict[str, Any]:
    """Send the reminders due at ``at`` (ISO) to these players."""
    return services.send_reminders(player_ids, dt.datetime.fromisoformat(at))
