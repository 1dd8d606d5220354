"""App configuration for moderation: listen to the games app, never the reverse.

- ``games.signals.game_verified`` -> raise automatic flags (and keep voided days void);
- ``post_save`` of a new ranked Game -> record the client address it was started from;
- ``games.services.ban_reason`` -> the reason a banned player is told.
"""

from typing import Any

from django.apps import AppConfig


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from games.models import Game
        from games.services import playing as game_services
        from games.signals import game_verified
        from moderation import flags, services

        game_verified.connect(
            flags.on_game_verified, sender=Game, dispatch_uid="moderation.verified"
        )

        def game_saved(sender: Any, instance: Game, created: bool, **kwargs: Any) -> None:
            if created:
                services.record_address(instance)

        post_save.connect(game_saved, sender=Game, dispatch_uid="moderation.address", weak=False)
        game_services.ban_reason = services.ban_reason

