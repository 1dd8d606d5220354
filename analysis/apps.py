"""App configuration for analysis: subscribe to the games app's ``game_verified``."""

from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"

    def ready(self) -> None:
        from analysis.services import on_game_verified
        from games.models import Game
        from games.signals import game_verified

        game_verified.connect(on_game_verified, sender=Game, dispatch_uid="analysis.verified")
