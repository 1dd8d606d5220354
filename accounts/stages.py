"""The log-in stage that holds back an account until its sign-up address is confirmed.

Email verification is optional on this site (an address is optional), but a sign-up
that gave one, free or another account's, logs in only once an address of the account
is confirmed: allauth's verification stage, mandatory for that account
(``User.awaiting_email_confirmation``). A free address gets its link again at each try
(within allauth's per-address limit); a taken one was never attached, so nothing is
sent and the answer is the same "we sent you a link" (docs/accounts.md).
"""

from __future__ import annotations

from typing import Any

from allauth.account.app_settings import EmailVerificationMethod
from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage
from allauth.account.utils import has_verified_email

from accounts.models import User


class SignupEmailVerificationStage(EmailVerificationStage):
    """allauth's stage (same key, so the headless API names it ``verify_email``)."""

    def handle(self) -> tuple[Any, bool]:
        user = self.login.user
        if (
            isinstance(user, User)
            and user.awaiting_email_confirmation
            and not has_verified_email(user)
        ):
            self.login.email_verification = EmailVerificationMethod.MANDATORY
        return super().handle()


def forget_awaited_confirmation(sender: Any, email_address: EmailAddress, **kwargs: Any) -> None:
    """allauth's ``email_confirmed``: the account may log in from now on. Saved through
    the ORM, so the cached copy of the user goes too (accounts/backends.py)."""
    user = User.objects.filter(pk=email_address.user_id, awaiting_email_confirmation=True).first()
    if user is not None:
        user.awaiting_email_confirmation = False
        user.save(update_fields=["awaiting_email_confirmation"])
