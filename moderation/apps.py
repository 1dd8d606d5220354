"""App configuration for moderation: listen to the games app, never the reverse.

- ``games.signals.game_verified`` -> raise automatic flags, judge again the games linked to it
  (and keep voided days void);
- ``games.signals.result_counting`` -> hold a new account's result linked to a guest's game
  off the boards (moderation.guest_links), before it can show there;
- ``post_save`` of a new daily, guest or archive Game -> record where it was started from;
- ``accounts.signals.personal_data`` -> a player's closed flags, reports (of games and of
  league names) and game origins, for their download;
- ``accounts.signals.account_deleted`` -> forget where the player's games came from, and the
  notices sent to them;
- ``accounts.signals.results_changed`` -> triage the queue again (moderation.triage): the
  boards changed;
- ``games.signals.challenges_under_review`` -> the challenges with an open flag or report,
  whose guests' games the games app keeps until the case is closed;
- ``post_migrate`` -> the ``moderator`` group and its permissions (moderation.groups);

A ban is a field: ``accounts.services.ban_account`` writes ``accounts.User.is_banned`` and
``ban_reason``, which games and accounts read; moderation's admin of games and daily challenges is
registered by ``moderation.admin`` (``admin_games``).
"""

from typing import Any

from django.apps import AppConfig


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate, post_save

        from moderation.groups import ensure_moderator_group

        post_migrate.connect(ensure_moderator_group, dispatch_uid="moderation.group")

        from games.models import Game
        from games.signals import game_verified, result_counting
        from moderation import flags, guest_links, origins

        game_verified.connect(
            flags.on_game_verified, sender=Game, dispatch_uid="moderation.verified"
        )
        result_counting.connect(
            guest_links.on_result_counting, sender=Game, dispatch_uid="moderation.guest_links"
        )

        def game_saved(sender: Any, instance: Game, created: bool, **kwargs: Any) -> None:
            if created:
                origins.record_origin(instance)

        post_save.connect(game_saved, sender=Game, dispatch_uid="moderation.origin", weak=False)

        from accounts.signals import account_deleted, personal_data
        from moderation.personal_data import player_moderation

        def moderation_of(sender: Any, user: Any, **kwargs: Any) -> dict[str, Any]:
            return player_moderation(user)

        personal_data.connect(moderation_of, dispatch_uid="moderation.personal_data", weak=False)

        def forget_origins(sender: Any, user: Any, **kwargs: Any) -> None:
            origins.forget_player(user.pk)
            Notice.objects.filter(player_id=user.pk).delete()

        account_deleted.connect(forget_origins, dispatch_uid="moderation.origins", weak=False)

        from accounts.signals import results_changed
        from moderation import triage
        from moderation.models import Notice

        results_changed.connect(
            triage.on_results_changed, dispatch_uid="moderation.triage", weak=False
        )

        from games.signals import challenges_under_review

        def under_review(sender: Any, **kwargs: Any) -> set[int]:
            return origins.challenges_under_review()

        challenges_under_review.connect(
            under_review, sender=Game, dispatch_uid="moderation.under_review", weak=False
        )
