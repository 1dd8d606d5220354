"""Reminders (docs/reminders.md). Wiring: ``accounts.signals.personal_data`` -> the player's
reminder choices, push subscriptions and sent log, for the download of their data;
``accounts.signals.account_deleted`` -> all of it is deleted with the account."""

from typing import Any

from django.apps import AppConfig


class RemindersConfig(AppConfig):
    name = "reminders"
    verbose_name = "Reminders"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.signals import account_deleted, personal_data
        from reminders.services import export_of, forget_player

        def reminders_of(sender: Any, user: Any, **kwargs: Any) -> dict[str, Any]:
            return export_of(user)

        def deleted(sender: Any, user: Any, **kwargs: Any) -> None:
            forget_player(user)

        personal_data.connect(reminders_of, dispatch_uid="reminders.personal_data", weak=False)
        account_deleted.connect(deleted, dispatch_uid="reminders.account_deleted", weak=False)
