"""Provisional results: a new account's ranked result shows on its board marked provisional
until the check after the close passes (moderation) or a moderator confirms it.

An account is new for ``PROVISIONAL_ACCOUNT_DAYS`` days after sign-up, and until it has
``PROVISIONAL_DAILIES`` verified dailies finished before this one (docs/fair-play.md).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.conf import settings

from games.models import Game, Mode, Verification


def is_new_account(game: Game) -> bool:
    """Was the game's player a new account when the game started?"""
    player = game.player
    if player is None:
        return True
    young = game.started_at - player.date_joined < dt.timedelta(
        days=settings.PROVISIONAL_ACCOUNT_DAYS
    )
    return young or earlier_dailies(game) < settings.PROVISIONAL_DAILIES


def earlier_dailies(game: Game) -> int:
    """How many verified dailies the game's player finished before this one."""
    return (
        Game.objects.filter(
            player_id=game.player_id,
            mode=Mode.DAILY,
            verification=Verification.VERIFIED,
            finished_at__lt=game.finished_at,
        )
        .exclude(pk=game.pk)
        .count()
    )


def confirm_results(game_ids: Iterable[int]) -> list[int]:
    """Take the provisional mark off these games' results; the ids that had it."""
    games = Game.objects.filter(pk__in=list(game_ids), provisional=True)
    confirmed = list(games.values_list("pk", flat=True))
    games.update(provisional=False)
    return confirmed
