"""Celery tasks of moderation: the close check of provisional results, and forgetting the
origins of games older than the retention time.

Tasks take no objects, have explicit names and are idempotent (a second run finds nothing
left to delete). Without REDIS_URL they run eagerly in-process.
"""

from __future__ import annotations

from celery import shared_task

from apikit.retries import RETRY_ON_DATABASE_ERRORS
from moderation import origins, services


@shared_task(name="moderation.purge_origins", **RETRY_ON_DATABASE_ERRORS, max_retries=3)
def purge_origins() -> int:
    """Delete game origins older than ``MODERATION_ORIGIN_DAYS`` (docs/fair-play.md)."""
    return origins.purge_origins()


@shared_task(name="moderation.confirm_provisional", **RETRY_ON_DATABASE_ERRORS, max_retries=3)
def confirm_provisional() -> int:
    """Confirm the closed days' provisional results that carry no open flag."""
    return len(services.confirm_provisional())
