"""Celery tasks of the leaderboards: rebuild boards whose Redis copy missed an update."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from leaderboards import services


@shared_task(
    name="leaderboards.rebuild_stale_boards",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=3,
)
def rebuild_stale_boards() -> int:
    """Rebuild every board marked stale (Redis failed during an update); idempotent."""
    return services.rebuild_stale_boards()
