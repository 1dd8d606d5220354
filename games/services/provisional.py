"""Provisional results: a new account's ranked result shows on its board marked provisional
until the check after the close passes (moderation) or a moderator confirms it.

An account is new for ``PROVISIONAL_ACCOUNT_DAYS`` days after sign-up, and until it has
``PROVISIONAL_DAILIES`` verified dailies finished before this one (docs/fair-play.md).

A provisional result moderation links to a guest's game is *held*: off every board until
a moderator confirms it (``hold_results``; docs/fair-play.md, "Guests"). Holding and
confirming tell the boards after commit (``accounts.signals.results_changed``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.conf import settings
from django.db import transaction

from accounts.signals import results_changed
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
    """Take the provisional mark off these games' results, and a hold with it; the ids
    that had the mark."""
    games = Game.objects.filter(pk__in=list(game_ids), provisional=True)
    confirmed = list(games.values_list("pk", flat=True))
    released = list(games.filter(held=True).values_list("pk", flat=True))
    games.update(provisional=False, held=False)
    _announce(released)
    return confirmed


def hold_results(game_ids: Iterable[int]) -> list[int]:
    """Keep these provisional results off every board until a moderator confirms them
    (``confirm_results``) or releases them (``release_results``); the ids newly held."""
    games = Game.objects.filter(pk__in=list(game_ids), provisional=True, held=False)
    held = list(games.values_list("pk", flat=True))
    Game.objects.filter(pk__in=held).update(held=True)
    _announce(held)
    return held


def release_results(game_ids: Iterable[int]) -> list[int]:
    """Let held results back on their boards, still provisional (a moderator found the link
    that held them harmless); the ids that were held."""
    games = Game.objects.filter(pk__in=list(game_ids), held=True)
    released = list(games.values_list("pk", flat=True))
    Game.objects.filter(pk__in=released).update(held=False)
    _announce(released)
    return released


def _announce(game_ids: list[int]) -> None:
    if game_ids:
        # robust: Redis trouble must not fail a committed decision (board reads check anyway)
        transaction.on_commit(
            lambda: results_changed.send(sender=Game, games=game_ids, players=[], challenges=[]),
            robust=True,
        )
