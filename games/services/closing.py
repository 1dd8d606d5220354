"""The close of day: a daily game changes only while its challenge is open.

A game still in play when its day closes ends unfinished (abandoned), at the moment of
its last move (docs/daily.md, "The close of day"): the first request that touches it
after the close ends it, the sweeper ends the rest, and so does the first request of a
new day in the embedded default.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from apikit.errors import Conflict
from games.models import OPEN_DAY_MODES, Game, Status, utc_today
from games.services.common import finish
from games.services.move_log import last_move_at_ms

DAY_CLOSED = gettext_lazy("this day closed at 00:00 UTC: its games can no longer change")


class DayClosed(Conflict):
    """A move or resign on a daily whose day closed: 409 with the game as it ended."""

    refusal = "day_closed"


def day_closed(game: Game, today: dt.date | None = None) -> bool:
    if game.mode not in OPEN_DAY_MODES or game.challenge is None:
        return False
    if today is not None:
        return game.challenge.is_closed(today)
    return timezone.now() >= game.challenge.closes_at


def _stopped_at(game: Game) -> dt.datetime:
    """When a game left in play at the close stopped: its last move, or its start."""
    last_at_ms = last_move_at_ms(game)
    return game.started_at + dt.timedelta(milliseconds=last_at_ms or 0)


def abandon_game(game_id: int, *, at: dt.datetime | None = None) -> Game | None:
    """End a daily (or guest) game in progress as abandoned (played, not won); None if it was not in
    play. ``at`` is when it stopped: default its last move (a day that closed under it)."""
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(no_key=True, of=("self",))
            .select_related("deal", "challenge")
            .filter(pk=game_id, mode__in=OPEN_DAY_MODES, status=Status.PLAYING)
            .first()
        )
        if game is None:
            return None
        finish(game, Status.ABANDONED, at=at or _stopped_at(game))
    return game


def end_if_day_closed(game_id: int) -> Game | None:
    """The game, ended as abandoned if it was still in play after its day closed; None
    when there was nothing to end."""
    game = (
        Game.objects.select_related("challenge")
        .filter(pk=game_id, mode__in=OPEN_DAY_MODES, status=Status.PLAYING)
        .first()
    )
    if game is None or not day_closed(game):
        return None
    return abandon_game(game_id)


def refuse_closed_day(game_id: int) -> DayClosed:
    """The 409 for a change to a closed daily, after ending the game if it was in play."""
    end_if_day_closed(game_id)
    ended = Game.objects.filter(pk=game_id).values_list("ply", "status").first()
    ply, status = ended if ended is not None else (None, None)
    return DayClosed(str(DAY_CLOSED), ply=ply, status=status)


def abandon_closed_games(*, limit: int = 500) -> int:
    """End every daily game still in play whose day has closed; return how many."""
    stale_ids = list(
        Game.objects.filter(
            mode__in=OPEN_DAY_MODES, status=Status.PLAYING, challenge__date__lt=utc_today()
        ).values_list("pk", flat=True)[:limit]
    )
    return sum(1 for game_id in stale_ids if abandon_game(game_id) is not None)
