"""Leagues and follows. Wiring: ``accounts.signals.personal_data`` -> the player's leagues,
follows and league reports, for the download of their data; ``accounts.signals.
account_deleted`` -> a deleted account leaves its leagues and follows
(``social.services.forget_player``)."""

from typing import Any

from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Leagues and follows"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.signals import account_deleted, personal_data
        from social.personal_data import player_social
        from social.services import forget_player

        def social_of(sender: Any, user: Any, **kwargs: Any) -> dict[str, Any]:
            return player_social(user)

        def deleted(sender: Any, user: Any, **kwargs: Any) -> None:
            forget_player(user)

        personal_data.connect(social_of, dispatch_uid="social.personal_data", weak=False)
        account_deleted.connect(deleted, dispatch_uid="social.account_deleted", weak=False)
