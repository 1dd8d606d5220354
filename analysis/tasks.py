"""Celery tasks of the analysis app: analyse a finished game, sweep up the analyses due,
solve a chunk of the published odds study.

Tasks take ids, have explicit names, are idempotent through ``GameAnalysis.status`` and
retry only on transient database errors. Without REDIS_URL they run eagerly in-process.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from analysis import odds, services
from apikit.retries import RETRY_ON_DATABASE_ERRORS


@shared_task(
    name="analysis.analyse_game",
    **RETRY_ON_DATABASE_ERRORS,
    max_retries=5,
)
def analyse_game(game_id: int) -> str:
    """Find where a finished game stopped being winnable (binary search with the solver)."""
    return services.analyse_game(game_id)


@shared_task(
    name="analysis.sweep_analyses",
    **RETRY_ON_DATABASE_ERRORS,
    max_retries=3,
)
def sweep_analyses() -> dict[str, Any]:
    """Queue analyses of closed days' daily games and of any practice game that was missed."""
    return services.sweep_analyses(queue=analyse_game.delay)


@shared_task(name="analysis.study_chunk", acks_late=True, ignore_result=False)  # the study reads it
def study_chunk(variant: str, numbers: list[int], budget_nodes: int) -> dict[str, Any]:
    """Solve a chunk of the published odds study (``manage.py odds --publish --workers``).

    Routed to the study queue (CELERY_STUDY_QUEUE), never the site's: it may take minutes.
    Touches no database; a chunk run again after its worker died returns the same rows
    (a position budget, not a time budget), so the message is simply delivered again.
    """
    return odds.study_chunk(variant, numbers, budget_nodes)
