"""Celery tasks of the games app: prepare the daily challenges, verify finished games,
sweep up whatever was left behind, forget the games of guests who never signed up and
clear the expired sessions.

Tasks take ids, have explicit names, are idempotent through ``Game.verification`` and
retry only on named, transient errors. Without REDIS_URL they run eagerly in-process.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from apikit.retries import RETRY_ON_DATABASE_ERRORS
from games import daily, deals, practice_pool, retention, services
from games.models import utc_today


@shared_task(
    name="games.verify_game",
    **RETRY_ON_DATABASE_ERRORS,
    retry_backoff_max=300,
    max_retries=8,
)
def verify_game(game_id: int) -> str:
    """Replay a finished game's log from its deal: verified or rejected (with the reason)."""
    return services.verify_game(game_id)


@shared_task(
    name="games.sweep_unverified_games",
    **RETRY_ON_DATABASE_ERRORS,
    max_retries=3,
)
def sweep_unverified_games() -> dict[str, Any]:
    """Queue verify_game again for finished games still pending after
    VERIFY_PENDING_GRACE_SECONDS (their message was lost: a worker died, Redis failed
    over); close stale dailies."""
    grace = dt.timedelta(seconds=settings.VERIFY_PENDING_GRACE_SECONDS)
    return services.sweep_games(pending_after=grace, queue=verify_game.delay)


@shared_task(
    name="games.prepare_daily",
    **RETRY_ON_DATABASE_ERRORS,
    max_retries=5,
)
def prepare_daily(date_iso: str | None = None) -> dict[str, int]:
    """Publish one solver-proven challenge per tier for ``date_iso`` (default: tomorrow, UTC).

    Idempotent: a tier already published is left as it is.
    """
    date = dt.date.fromisoformat(date_iso) if date_iso else utc_today() + dt.timedelta(days=1)
    return daily.prepare_daily(date)


@shared_task(name="games.sweep_daily", acks_late=True)
def sweep_daily() -> list[str]:
    """Queue prepare_daily for today, and for tomorrow from 22:00 UTC, when a tier is missing."""
    queued = []
    for date in daily.dates_due(timezone.now()):
        if not daily.is_ready(date):
            prepare_daily.delay(date.isoformat())
            queued.append(date.isoformat())
    return queued


@shared_task(
    name="games.solve_deal",
    **RETRY_ON_DATABASE_ERRORS,
    max_retries=5,
)
def solve_deal(deal_id: int, seconds: float = 10.0) -> str | None:
    """Store the solver's verdict and line on a deal (idempotent); return the verdict."""
    deal = deals.solve_deal(deal_id, seconds)
    return None if deal is None else deal.verdict


@shared_task(
    name="games.top_up_practice_pool",
    **RETRY_ON_DATABASE_ERRORS,
    max_retries=3,
)
def top_up_practice_pool(variant: str) -> dict[str, Any]:
    """Top up one variant's practice pool (docs/practice.md); one run per variant at a time.

    Idempotent: a full pool tries nothing. A run is bounded by PRACTICE_POOL_MAX_ATTEMPTS
    and PRACTICE_POOL_REFILL_SECONDS (PRACTICE_POOL_MULTI_DECK_REFILL_SECONDS for the
    multi-deck variants), well inside the broker's visibility timeout.
    """
    if variant not in practice_pool.pool_variants():
        return {"variant": variant, "skipped": "no practice pool for this variant"}
    lock = f"games:practice-pool:running:{variant}"
    # A run may overrun its budget by one candidate: a solve (at most its cap) and a rating.
    solve_cap, _nodes = daily.solve_budget()
    timeout = int(practice_pool.refill_seconds(variant) + solve_cap) + 60
    if not cache.add(lock, 1, timeout=timeout):
        return {"variant": variant, "skipped": "a refill of this variant is running"}
    try:
        run = practice_pool.top_up(variant)
    finally:
        cache.delete(lock)
    return {"variant": variant, "added": run.added, "short": run.short, "attempts": run.attempts}


@shared_task(name="games.top_up_practice_pools", acks_late=True)
def top_up_practice_pools() -> list[str]:
    """Queue a refill of every pooled variant whose pool lacks deals in some tier."""
    queued = []
    for variant in practice_pool.pool_variants():
        if practice_pool.needs(variant, practice_pool.pool_size(variant)):
            top_up_practice_pool.delay(variant)
            queued.append(variant)
    return queued


@shared_task(name="games.purge_guest_games", **RETRY_ON_DATABASE_ERRORS, max_retries=3)
def purge_guest_games() -> int:
    """Delete the guests' games no account took, ``GUEST_GAME_DAYS`` after their day closed
    (a practice game: after it started, once its session has ended); idempotent."""
    return retention.purge_guest_games()


@shared_task(name="games.clear_expired_sessions", **RETRY_ON_DATABASE_ERRORS, max_retries=3)
def clear_expired_sessions() -> None:
    """Delete the expired sessions (``manage.py clearsessions``), a player's or a guest's."""
    retention.clear_expired_sessions()
