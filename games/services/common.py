"""What every game service shares: who is asking (the kit's Actor), the clock, ending a game.

``finish`` ends a game and queues its verification after commit; the move path
(``games.services.moves``) does the same in its own SQL.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from apikit.actors import Actor
from games.models import ChallengeTier, Game, Status

__all__ = ["Actor", "finish", "ms_between", "queue_verification", "status_word", "tier_word"]

# How a game's status and a challenge's tier are said inside a message to the player, in
# the request's language; the JSON keeps the codes ("won", "easy").
_STATUS_WORDS: dict[str, Promise] = {
    Status.PLAYING: pgettext_lazy("game status", "playing"),
    Status.WON: pgettext_lazy("game status", "won"),
    Status.STUCK: pgettext_lazy("game status", "stuck"),
    Status.RESIGNED: pgettext_lazy("game status", "resigned"),
    Status.ABANDONED: pgettext_lazy("game status", "abandoned"),
}
_TIER_WORDS: dict[str, Promise] = {
    ChallengeTier.EASY: pgettext_lazy("tier", "easy"),
    ChallengeTier.MEDIUM: pgettext_lazy("tier", "medium"),
    ChallengeTier.HARD: pgettext_lazy("tier", "hard"),
    ChallengeTier.WEEKLY: pgettext_lazy("tier", "weekly"),
}


def status_word(status: str) -> str:
    """``status`` in words for a message ("won"); an unknown code as it came."""
    return str(_STATUS_WORDS.get(status, status))


def tier_word(tier: str) -> str:
    """``tier`` in words for a message ("easy"); an unknown code as it came."""
    return str(_TIER_WORDS.get(tier, tier))


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
