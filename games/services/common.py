"""What every game service shares: who is asking (the kit's Actor), the clock, ending a game.

``finish`` ends a game and queues its verification after commit; the move path
(``games.services.moves``) does the same in its own SQL.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from apikit.actors import Actor
from games.models import Game

__all__ = ["Actor", "finish", "ms_between", "queue_verification"]


def ms_between(start: dt.datetime, end: dt.datetime) -> int:
    return max(0, (end - start) // dt.timedelta(milliseconds=1))


def queue_verification(game_id: int) -> None:
    from games.tasks import verify_game  # tasks import services: keep the cycle lazy

    # robust: a broker outage must not fail a committed move; the sweeper re-queues.
    transaction.on_commit(lambda: verify_game.delay(game_id), robust=True)


def finish(game: Game, status: str, *, at: dt.datetime | None = None) -> None:
    finished_at = at or timezone.now()
    game.status = status
    game.finished_at = finished_at
    game.elapsed_ms = ms_between(game.started_at, finished_at)
    game.save(update_fields=["status", "finished_at", "elapsed_ms"])
    queue_verification(game.pk)
