"""Celery tasks of the leaderboards: rebuild boards whose Redis copy missed an update."""

from __future__ import annotations

from celery import shared_task

from leaderboards import services
from yukon_site.celery import RETRY_ON_DATABASE_ERRORS


@shared_task(
    name="leaderboards.rebuild_stale_boards",
    **RETRY_ON_DATABASE_ERRORS,
    max_retries=3,
)
def rebuild_stale_boards() -> int:
    """Rebuild every board marked stale (Redis failed during an update); idempotent."""
    return services.rebuild_stale_boards()
