"""The sign-up form of the signup page (the API uses accounts.api serializers)."""

from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm

from accounts.models import User
from accounts.validators import validate_display_name


class SignupForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username", "display_name", "email")

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"]
        return validate_display_name(name)
