"""Reading a game (who may look at it, and at its log), and a day's published challenges."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _

from apikit.errors import Conflict, NotFound
from games.models import OPEN_DAY_MODES, DailyChallenge, Game, Mode, Status
from games.services.closing import abandon_game, day_closed
from games.services.common import Actor

# Seconds an answer about a closed day may be kept (Cache-Control max-age): the day's
# challenges, its boards and its games file change only by moderation.
CLOSED_DAY_MAX_AGE = 300


def get_game_for(actor: Actor, game_id: int, *, today: dt.date | None = None) -> Game:
    """A game the actor may look at: their own, any (staff powers), a finished public one;
    else 404.

    A daily still in play after its day closed is ended first (``abandon_game``):
    whoever reads it sees it as it now stands, unfinished.
    """
    game = Game.objects.select_related("deal", "challenge").filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("no such game"))
    if actor.owns(game) or actor.staff_powers or _public_to_all(game, today):
        if game.status == Status.PLAYING and day_closed(game, today):
            game = abandon_game(game.pk) or game
        return game
    raise NotFound(_("no such game"))


def _public_to_all(game: Game, today: dt.date | None) -> bool:
    """A daily (or a guest's game of one) once its day has closed; an archive game (of a
    closed day) once it is over. A guest's game of the open day is its session's alone,
    like a player's."""
    if game.mode in OPEN_DAY_MODES:
        return game.is_public(today)
    return game.mode == Mode.ARCHIVE and game.is_over


def get_replay_for(actor: Actor, game_id: int, *, today: dt.date | None = None) -> Game:
    """A game whose log the actor may see: own finished, or any daily once its day closed
    and the game is over."""
    game = get_game_for(actor, game_id, today=today)
    if _public_to_all(game, today) and game.is_over:
        return game
    if game.is_over and (actor.owns(game) or actor.staff_powers):
        return game
    if actor.owns(game):
        raise Conflict(_("the replay opens when the game is over"), status=game.status)
    raise NotFound(_("no such game"))


def recent_practice_games(actor: Actor, limit: int) -> list[Game]:
    """The actor's newest practice games (a guest's: their session's), newest first."""
    if actor.user_id is not None:
        owned = Game.objects.filter(player_id=actor.user_id)
    elif actor.session_key:
        owned = Game.objects.filter(player__isnull=True, session_key=actor.session_key)
    else:
        return []
    return list(
        owned.filter(mode=Mode.PRACTICE)
        .select_related("deal")
        .order_by("-started_at", "-id")[:limit]
    )


def public_challenges(day: dt.date, today: dt.date) -> list[DailyChallenge]:
    """The day's challenges in tier order, published from the first minute of the day
    (their deals stay secret until it closes); 404 for a future day or a day without."""
    if day > today:
        raise NotFound(
            _("%(date)s is in the future: nothing is published for it yet")
            % {"date": day.isoformat()}
        )
    challenges = DailyChallenge.of_day(day)
    if not challenges:
        raise NotFound(_("there were no challenges on %(date)s") % {"date": day.isoformat()})
    return challenges
