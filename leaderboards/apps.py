"""App configuration for leaderboards: subscribe to the games app's ``game_verified`` and to
``results_changed`` (sent by games and accounts when a disqualification, a voided day or
a ban changes which results count)."""

from typing import Any

from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards"

    def ready(self) -> None:
        from accounts.signals import results_changed
        from games.models import Game
        from games.signals import game_verified
        from leaderboards.services import on_game_verified, on_results_changed

        game_verified.connect(on_game_verified, sender=Game, dispatch_uid="leaderboards.verified")
        results_changed.connect(on_results_changed, dispatch_uid="leaderboards.results_changed")
        game_verified.connect(
            _seal_when_closed, sender=Game, dispatch_uid="leaderboards.seal_closed_days"
        )


def _seal_when_closed(sender: Any, game: Any, **kwargs: Any) -> None:
    """A game of a closed day verified: its day may now be final, so try to seal it (the
    beat tries every few minutes too, for days whose games were all verified in time)."""
    if game.mode != "daily" or game.challenge is None or not game.challenge.is_closed():
        return
    from django.db import transaction

    from leaderboards.tasks import seal_closed_days

    transaction.on_commit(seal_closed_days.delay, robust=True)
