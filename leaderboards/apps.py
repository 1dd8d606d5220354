"""App configuration for leaderboards: subscribe to the games app's ``game_verified`` and to
``results_changed`` (sent by games and accounts when a disqualification, a voided day or
a ban changes which results count), and to players' renames and deletions (the names in
the stored games files)."""

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
        _drop_stored_games_files_on_change()


def _drop_stored_games_files_on_change() -> None:
    """A sealed day's stored games file must follow what changes the file: which results
    count (``results_changed``) and the names in it (a rename, a deletion)."""
    from django.conf import settings
    from django.db.models.signals import post_save, pre_delete, pre_save

    from accounts.signals import results_changed
    from leaderboards import stored_files

    uid = "leaderboards.stored_games_files"
    results_changed.connect(stored_files.on_results_changed, dispatch_uid=uid)
    player = settings.AUTH_USER_MODEL
    pre_save.connect(stored_files.on_player_saving, sender=player, dispatch_uid=uid)
    post_save.connect(stored_files.on_player_saved, sender=player, dispatch_uid=uid)
    pre_delete.connect(stored_files.on_player_deleting, sender=player, dispatch_uid=uid)


def _seal_when_closed(sender: Any, game: Any, **kwargs: Any) -> None:
    """A game of a closed day verified: its day may now be final, so try to seal it (the
    beat tries every few minutes too, for days whose games were all verified in time)."""
    if game.mode != "daily" or game.challenge is None or not game.challenge.is_closed():
        return
    from django.db import transaction

    from leaderboards.tasks import seal_closed_days

    transaction.on_commit(seal_closed_days.delay, robust=True)
