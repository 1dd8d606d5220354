"""Whether a game's result stands: disqualify games, put them back, void a day's games.

Moderation decides, locks what it reads and writes its audit rows; these functions are
the only writers of ``Game.disqualified``. Each runs in the caller's transaction (or its
own, when there is none) and, once that has committed, sends
``accounts.signals.results_changed`` so that the boards take the results off or put them
back (``leaderboards.services.on_results_changed``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from accounts.signals import results_changed
from games.models import Game, Mode


def disqualify_games(game_ids: Iterable[int]) -> list[Game]:
    """Disqualify the given games; return those that were not disqualified yet, locked
    until the caller's transaction ends."""
    return _set_disqualified(game_ids, disqualified=True)


def requalify_games(game_ids: Iterable[int]) -> list[Game]:
    """Put the given disqualified games back; return those that were disqualified."""
    return _set_disqualified(game_ids, disqualified=False)


def void_challenge(challenge_id: int) -> list[int]:
    """Disqualify every daily game of the challenge (the moderators voided its board);
    return their ids, disqualified before or not. Its boards are rebuilt after commit."""
    with transaction.atomic(savepoint=False):
        games = Game.objects.filter(challenge_id=challenge_id, mode=Mode.DAILY)
        game_ids = list(games.values_list("pk", flat=True))
        games.update(disqualified=True)
        _announce(challenges=[challenge_id])
    return game_ids


def _set_disqualified(game_ids: Iterable[int], *, disqualified: bool) -> list[Game]:
    with transaction.atomic(savepoint=False):
        changing = Game.objects.filter(pk__in=list(game_ids), disqualified=not disqualified)
        # in id order: two moderators acting on overlapping games lock them alike
        games = list(changing.select_for_update(of=("self",)).order_by("pk"))
        if not games:
            return []
        Game.objects.filter(pk__in=[game.pk for game in games]).update(disqualified=disqualified)
        for game in games:
            game.disqualified = disqualified
        _announce(games=[game.pk for game in games])
    return games


def _announce(*, games: list[int] | None = None, challenges: list[int] | None = None) -> None:
    # robust: Redis trouble must not fail a committed decision (board reads filter anyway)
    transaction.on_commit(
        lambda: results_changed.send(
            sender=Game, games=games or [], players=[], challenges=challenges or []
        ),
        robust=True,
    )
