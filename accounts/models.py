"""The user model: Django's user plus a unique public display name.

Chosen before the first migration so that leaderboards can show names and moderation can
ban players (``is_active``/``is_banned``) without a later swap of AUTH_USER_MODEL.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower

DISPLAY_NAME_MAX_LENGTH = 30


class User(AbstractUser):
    display_name = models.CharField(
        max_length=DISPLAY_NAME_MAX_LENGTH,
        unique=True,
        help_text="Shown on leaderboards; unique regardless of letter case.",
    )
    # Set by moderation: a banned player keeps the account but vanishes from every board.
    is_banned = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("display_name"), name="accounts_user_display_name_ci"),
        ]

    def __str__(self) -> str:
        return self.display_name or self.username
