"""App configuration for games: hear from accounts (below it) through its signals."""

from typing import Any

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from accounts.signals import guest_logged_in
        from games.services import claim_guest_games

        def claim(sender: Any, user: Any, session_key: str, **kwargs: Any) -> None:
            claim_guest_games(user, session_key)

        guest_logged_in.connect(claim, dispatch_uid="games.claim_guest_games", weak=False)
