"""Celery tasks of moderation: the close check of provisional results, forgetting the
origins of games older than the retention time (unless a case still open needs them),
judging a guest's game that became a daily at sign-up, and triaging the queue again once
days close.

Tasks take no objects, have explicit names and are idempotent (a second run finds nothing
left to delete). Without REDIS_URL they run eagerly in-process.
"""

from __future__ import annotations

from celery import shared_task

from apikit.retries import RETRY_ON_DATABASE_ERRORS
from moderation import flags, origins, services, triage


@shared_task(name="moderation.purge_origins", **RETRY_ON_DATABASE_ERRORS, max_retries=3)
def purge_origins() -> int:
    """Delete game origins older than ``MODERATION_ORIGIN_DAYS``, but none an open case
    still needs (docs/operations.md, "Data retention")."""
    return origins.purge_origins()


@shared_task(name="moderation.confirm_provisional", **RETRY_ON_DATABASE_ERRORS, max_retries=3)
def confirm_provisional() -> int:
    """Confirm the closed days' provisional results that carry no open flag."""
    return len(services.confirm_provisional())


@shared_task(name="moderation.raise_flags", **RETRY_ON_DATABASE_ERRORS, max_retries=3)
def raise_flags(game_id: int) -> int:
    """Flag a verified game its verification did not judge: a guest's game (unjudged, as
    it could not rank) that became a daily when its guest signed up. Idempotent."""
    raised = flags.raise_flags(game_id)
    triage.on_board_changed(games=[game_id])  # its board gained a result: at once
    return len(raised)


@shared_task(name="moderation.triage_flags", **RETRY_ON_DATABASE_ERRORS, max_retries=3)
def triage_flags() -> int:
    """Triage the open flags of open days again, those whose day has closed since, and any
    no hook triaged."""
    return triage.triage_stale()
