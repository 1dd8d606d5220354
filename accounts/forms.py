"""The sign-up form's own part (allauth's ACCOUNT_SIGNUP_FORM_CLASS, a base of every
sign-up form allauth builds: its page, the headless API's, the old /api/auth/signup/):
the display name, checked like every other (accounts/validators.py: the look-alike rule
of issue 11), and an email address that another account holds kept back without a word
(docs/accounts.md, "Sign-up with an email address")."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from allauth.account.internal.flows.email_verification import (
    send_verification_email_to_address,
)
from allauth.account.models import EmailAddress
from django import forms
from django.utils.translation import gettext_lazy

from accounts.models import DISPLAY_NAME_MAX_LENGTH
from accounts.validators import validate_display_name

# allauth's code for "A user is already registered with this email address."
EMAIL_TAKEN = "email_taken"


class SignupDetailsForm(forms.Form):
    display_name = forms.CharField(
        max_length=DISPLAY_NAME_MAX_LENGTH,
        required=False,
        label=gettext_lazy("Display name"),
        # Plain text: allauth's OpenAPI spec writes it as it is (a page shows it translated:
        # frontend/templatetags/account_forms.py).
        help_text="As shown on the boards; your username if left empty.",
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )

    # An address given at sign-up that another account holds: not attached to the new
    # account; its owner is mailed instead (signup()).
    taken_email = ""

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        self._keep_back_a_taken_email(cleaned)
        name = cleaned.get("display_name") or self.data.get("username") or ""
        if "display_name" in self.errors:
            return cleaned
        try:
            cleaned["display_name"] = validate_display_name(str(name))
        except forms.ValidationError as exc:
            self.add_error("display_name", exc)
        return cleaned

    def _keep_back_a_taken_email(self, cleaned: dict[str, Any]) -> None:
        """With optional verification allauth refuses an address another account holds,
        and so tells anyone whose address it is. Take the refusal back: the sign-up goes
        on without the address, exactly as with a free one, and its owner gets allauth's
        "account already exists" mail. A sign-up through an OpenID Connect provider keeps
        allauth's answer (its form names the provider's account)."""
        if hasattr(self, "sociallogin"):
            return
        refusals = self.errors.as_data().get("email", [])  # the errors so far (in full_clean)
        if not refusals or any(error.code != EMAIL_TAKEN for error in refusals):
            return
        del self.errors["email"]
        address = self.fields["email"].clean(self["email"].data)
        self.taken_email = get_adapter().clean_email(address.lower())
        cleaned["email"] = ""

    def awaits_email_confirmation(self) -> bool:
        """An address was given, free or taken: the account logs in once one is confirmed
        (accounts/stages.py), so both cases answer alike."""
        if hasattr(self, "sociallogin"):
            return False
        return bool(self.cleaned_data.get("email") or self.taken_email)

    def signup(self, request: Any, user: Any) -> None:
        """allauth calls this after saving the user (the adapter set the display name).
        A taken address gets what allauth sends when it hides an account: the "account
        already exists" mail, under the same per-address limit and with the same
        "confirmation sent" message as a verification link."""
        if self.taken_email:
            send_verification_email_to_address(
                request, EmailAddress(email=self.taken_email), signup=True
            )
