"""App configuration for leaderboards: subscribe to the games app's ``game_verified``."""

from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards"

    def ready(self) -> None:
        from games.models import Game
        from games.signals import game_verified
        from leaderboards.services import on_game_verified

        game_verified.connect(on_game_verified, sender=Game, dispatch_uid="leaderboards.verified")
