"""Whose results screen may be read: a daily game that is over, seen by whoever may see it.

The figures themselves (the player's record, the day's spread of results, the computer's
game) belong to the boards, which read them from here (leaderboards/results.py).
"""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.utils.translation import gettext as _

from apikit.errors import Conflict, NotFound
from games.models import OPEN_DAY_MODES, WEEKLY, DailyChallenge, Game
from games.services.common import Actor
from games.services.reads import get_game_for


def get_finished_daily_for(actor: Actor, game_id: int, *, today: dt.date | None = None) -> Game:
    """A game of a day's challenge played on its day (a ranked daily, or a guest's game)
    that is over and that the actor may look at (their own, a guest's own by its
    session, anyone's once its day has closed); else 404, or 409 for
    the actor's own game still in play (its day's figures wait for its end).

    Anyone else's game in play is a 404 like any game they may not see: on an open day
    nobody learns from here that someone's game exists. Staff powers open nothing more:
    the screen is the player's, and staff read the game itself where they need it.
    """
    game = get_game_for(dataclasses.replace(actor, staff_powers=False), game_id, today=today)
    if game.mode not in OPEN_DAY_MODES:
        raise NotFound(_("only a daily game has a results screen"))
    if not game.is_over:
        raise Conflict(_("the results open when the game is over"), status=game.status)
    return game


def next_deal_at(challenge: DailyChallenge) -> dt.datetime:
    """When the next challenge of the same tier is dealt: the close of this one's day
    for the dailies, the next Sunday's first minute for the weekly (UTC)."""
    if challenge.tier == WEEKLY:
        return challenge.closes_at + dt.timedelta(days=6)
    return challenge.closes_at
