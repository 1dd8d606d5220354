"""App configuration for accounts."""

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from allauth.account.signals import email_confirmed

        from accounts.backends import forget_user
        from accounts.models import User
        from accounts.stages import forget_awaited_confirmation

        post_save.connect(forget_user, sender=User, dispatch_uid="accounts.forget_user.save")
        post_delete.connect(forget_user, sender=User, dispatch_uid="accounts.forget_user.delete")
        email_confirmed.connect(
            forget_awaited_confirmation, dispatch_uid="accounts.forget_awaited_confirmation"
        )
