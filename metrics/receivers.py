"""The server's own counts: a game started or finished, an account signed up (wired in
``MetricsConfig.ready``). Each counts after its transaction commits (a start undone by a
race or an error is no start), and a count that fails is logged, never passed on: the
game, the account and the other receivers of the signal come first.

They count for everyone, Do Not Track or not: each is a count of something the site does
for the player anyway (the game, the account), kept with no identifier, and a finish is
counted in the worker, where no browser's header is at hand (docs/metrics.md).
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.db import transaction

from games.models import Game, Mode, Status
from metrics import services

logger = logging.getLogger(__name__)

FINISHED = (Status.WON, Status.STUCK, Status.RESIGNED)  # played to an end, not abandoned


def tier_of(game: Game) -> str:
    """A daily's tier (a guest's game of today's daily is a daily here too), or the kind
    of game for practice and the archive, which are counted apart."""
    if game.mode == Mode.ARCHIVE:
        return services.ARCHIVE
    if game.mode == Mode.PRACTICE or game.challenge is None:
        return services.PRACTICE
    return str(game.challenge.tier)


def count_start(
    sender: Any, instance: Game, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if not created or raw:
        return
    tier, day = tier_of(instance), _utc_day(instance.started_at)
    transaction.on_commit(lambda: _count(services.START, tier, day))


def count_finish(sender: Any, game: Game, **kwargs: Any) -> None:
    """A verified game played to its end, on the day it ended (sent after commit)."""
    if game.status in FINISHED:
        _count(services.FINISH, tier_of(game), _utc_day(game.finished_at))


def count_sign_up(sender: Any, user: Any, **kwargs: Any) -> None:
    transaction.on_commit(lambda: _count(services.SIGN_UP, "", None))


def _utc_day(moment: dt.datetime | None) -> dt.date | None:
    return moment.astimezone(dt.UTC).date() if moment is not None else None


def _count(event: str, tier: str, day: dt.date | None) -> None:
    try:
        services.count(event, tier, day=day)
    except Exception:  # a count is never worth a failed game or sign-up
        logger.exception("metrics: could not count %s (%s)", event, tier or "-")
