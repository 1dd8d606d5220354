"""Rules for display names, shared by the signup page and the API."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError

from accounts.models import DISPLAY_NAME_MAX_LENGTH, User

_DISPLAY_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.\-]*$")


def validate_display_name(name: str, *, exclude_user_id: int | None = None) -> str:
    """Return the cleaned name or raise ValidationError with a readable reason."""
    name = " ".join(name.split())
    if not 2 <= len(name) <= DISPLAY_NAME_MAX_LENGTH:
        raise ValidationError(
            f"A display name has 2 to {DISPLAY_NAME_MAX_LENGTH} characters."
        )
    if not _DISPLAY_NAME.match(name):
        raise ValidationError(
            "A display name uses letters, digits, spaces, '_', '.' and '-', "
            "and starts with a letter or digit."
        )
    taken = User.objects.filter(display_name__iexact=name)
    if exclude_user_id is not None:
        taken = taken.exclude(pk=exclude_user_id)
    if taken.exists():
        raise ValidationError("That display name is taken.")
    return name
