"""The metrics' beat job: the counts gathered in Redis go to PostgreSQL."""

from __future__ import annotations

from celery import shared_task

from apikit.retries import RETRY_ON_DATABASE_ERRORS
from metrics import services


@shared_task(name="metrics.flush_counts", **RETRY_ON_DATABASE_ERRORS, max_retries=3)
def flush_counts() -> int:
    """Add the counts gathered in Redis to DailyCount; idempotent (docs/metrics.md)."""
    return services.flush_pending()
