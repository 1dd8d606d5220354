"""Celery tasks of the leaderboards: rebuild boards whose Redis copy missed an update, and
sign the close record of each closed day (then store its games files)."""

from __future__ import annotations

from celery import shared_task
from django.core.cache import cache

from apikit.retries import RETRY_ON_DATABASE_ERRORS
from leaderboards import sealing, services, stored_files

SEALING_LOCK = "leaderboards:seal-closed-days:running"
SEALING_LOCK_SECONDS = 600  # beyond the longest run (a month of days on a first upgrade)


@shared_task(
    name="leaderboards.rebuild_stale_boards",
    **RETRY_ON_DATABASE_ERRORS,
    max_retries=3,
)
def rebuild_stale_boards() -> int:
    """Rebuild every board marked stale (Redis failed during an update); idempotent."""
    return services.rebuild_stale_boards()


@shared_task(
    name="leaderboards.seal_closed_days",
    **RETRY_ON_DATABASE_ERRORS,
    max_retries=3,
)
def seal_closed_days() -> list[str]:
    """Sign the close record of every closed day whose games are all verified, oldest
    first (docs/fair-play.md, section 5); idempotent. The dates sealed.

    One run at a time: the verifications that end a busy day each queue one, and only the
    last finds the day final; a run skipped here is redone by the beat within minutes.
    """
    if not cache.add(SEALING_LOCK, 1, timeout=SEALING_LOCK_SECONDS):
        return []
    try:
        sealed = sealing.seal_closed_days()
        # then the files of sealed days, written once here, not in a request
        stored_files.write_due()
        return sealed
    finally:
        cache.delete(SEALING_LOCK)
