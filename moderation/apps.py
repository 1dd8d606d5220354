"""App configuration for moderation: listen to the games app, never the reverse.

- ``games.signals.game_verified`` -> raise automatic flags (and keep voided days void);
- ``post_save`` of a new ranked Game -> record the client address it was started from;

A ban is a field: the ban service writes ``accounts.User.is_banned`` and ``ban_reason``,
which games and accounts read; moderation's admin of games and daily challenges is
registered by ``moderation.admin`` (``admin_games``).
"""

from typing import Any

from django.apps import AppConfig


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from games.models import Game
        from games.signals import game_verified
        from moderation import flags, services

        game_verified.connect(
            flags.on_game_verified, sender=Game, dispatch_uid="moderation.verified"
        )

        def game_saved(sender: Any, instance: Game, created: bool, **kwargs: Any) -> None:
            if created:
                services.record_address(instance)

        post_save.connect(game_saved, sender=Game, dispatch_uid="moderation.address", weak=False)

