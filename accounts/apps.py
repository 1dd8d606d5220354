"""App configuration for accounts."""

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from allauth.account.models import EmailAddress
        from allauth.account.signals import email_confirmed

        from accounts.backends import forget_user
        from accounts.models import User
        from accounts.stages import forget_awaited_confirmation
        from accounts.suppression import (
            lift_bounce_of_added_address,
            lift_suppression_of_confirmed_address,
        )

        post_save.connect(forget_user, sender=User, dispatch_uid="accounts.forget_user.save")
        post_delete.connect(forget_user, sender=User, dispatch_uid="accounts.forget_user.delete")
        email_confirmed.connect(
            forget_awaited_confirmation, dispatch_uid="accounts.forget_awaited_confirmation"
        )
        # Suppressed addresses (accounts/suppression.py): an address added again may be
        # mailed its confirmation, one confirmed may be mailed anything.
        post_save.connect(
            lift_bounce_of_added_address,
            sender=EmailAddress,
            dispatch_uid="accounts.lift_bounce_of_added_address",
        )
        email_confirmed.connect(
            lift_suppression_of_confirmed_address,
            dispatch_uid="accounts.lift_suppression_of_confirmed_address",
        )
