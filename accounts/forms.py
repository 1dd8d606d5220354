"""The sign-up form's own field (allauth's ACCOUNT_SIGNUP_FORM_CLASS): the display name,
checked like every other (accounts/validators.py: the look-alike rule of issue 11)."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import DISPLAY_NAME_MAX_LENGTH
from accounts.validators import validate_display_name


class SignupDetailsForm(forms.Form):
    display_name = forms.CharField(
        max_length=DISPLAY_NAME_MAX_LENGTH,
        required=False,
        help_text="As shown on the boards; your username if left empty.",
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        name = cleaned.get("display_name") or self.data.get("username") or ""
        if "display_name" in self.errors:
            return cleaned
        try:
            cleaned["display_name"] = validate_display_name(str(name))
        except forms.ValidationError as exc:
            self.add_error("display_name", exc)
        return cleaned

    def signup(self, request: Any, user: Any) -> None:
        """allauth calls this after saving the user; the adapter already set the name."""
