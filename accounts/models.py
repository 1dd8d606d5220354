"""The user model: Django's user plus a unique public display name.

Chosen before the first migration so that leaderboards can show names and moderation can
ban players (``is_active``/``is_banned``) without a later swap of AUTH_USER_MODEL.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext, gettext_lazy

from accounts.login_backoff import fold
from accounts.skeleton import name_key

DISPLAY_NAME_MAX_LENGTH = 30
NO_BAN_REASON = gettext_lazy("ask a moderator")


def no_player_called(name: str) -> str:
    """What the site says of a name ``User.named`` finds nobody for: the player page, the
    player API and a follow say the same."""
    return gettext("No player is called “%(name)s”.") % {"name": name}


DELETED_NAME = "deleted player"
USERNAME_TAKEN = gettext_lazy("That username is taken.")


class User(AbstractUser):
    display_name = models.CharField(
        max_length=DISPLAY_NAME_MAX_LENGTH,
        help_text="Shown on leaderboards; unique regardless of letter case (deleted accounts "
        f'all show "{DELETED_NAME}").',
    )
    # What the name looks like (accounts/skeleton.py): a new name whose key another player
    # already has is refused (accounts/validators.py). Indexed, not unique: two players
    # whose names collided before the rule existed both keep them (docs/api.md).
    display_name_key = models.TextField(default="", db_index=True, editable=False)
    # The username folded (NFKC, case: accounts/login_backoff.py's ``fold``): a new name
    # whose key another account has is taken, and a log-in may spell the name in any
    # folded form. Indexed, not unique, like display_name_key.
    username_key = models.TextField(default="", db_index=True, editable=False)
    # Set by moderation: a banned player keeps the account but vanishes from every board.
    is_banned = models.BooleanField(default=False)
    # Written with is_banned by moderation's ban service: what the player is told.
    ban_reason = models.TextField(blank=True, default="")
    # Set when the player deleted the account (accounts.services.delete_account): the row
    # stays so that past boards and the audit log keep their references, emptied of
    # everything personal.
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Set by a sign-up that gave an email address, whether the address was free or another
    # account's (which is then not attached): no log-in until an address of the account is
    # confirmed (accounts/stages.py), so the sign-up's answer and every log-in after it are
    # the same either way and tell nobody whose the address is (docs/accounts.md).
    awaiting_email_confirmation = models.BooleanField(default=False, editable=False)
    # The player's own settings of the site (theme, card faces, sounds...: docs/frontend.md,
    # "Settings"), kept so they follow the player to another browser. Only the keys the
    # player chose, each checked by accounts.player_settings before it is written; a key
    # left out takes the browser's default.
    settings = models.JSONField(default=dict, blank=True, editable=False)
    # The language the player chose (a code of settings.LANGUAGES; blank: none chosen, the
    # browser's applies). It wins over the browser's on every request once logged in, and
    # mail sent outside a request is written in it (accounts/language.py).
    language = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                condition=Q(deleted_at__isnull=True),
                name="accounts_user_display_name_ci",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or self.username

    @classmethod
    def named(cls, name: str) -> User | None:
        """The player a page, a board or a follow names (in any letter case, spaces around
        ignored); None for a name nobody has, a banned player's, who has vanished, or a
        deleted account's, which has no public profile (its results stay on the boards
        under ``DELETED_NAME``, linked nowhere). A name with a NUL is nobody's (PostgreSQL
        cannot hold one: the player page's query was a 500)."""
        if "\x00" in name:
            return None
        return cls.objects.filter(
            display_name__iexact=name.strip(), is_banned=False, deleted_at__isnull=True
        ).first()

    @property
    def ban_notice(self) -> str:
        """Why the player is banned, as they are told (a ban without a reason: ask)."""
        return self.ban_reason or str(NO_BAN_REASON)

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.display_name_key = name_key(self.display_name)
        self.username_key = fold(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "display_name_key"}
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*kwargs["update_fields"], "username_key"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        """Every form that sets a name (the admin's) refuses another player's look-alike,
        and a username that folds to another account's."""
        super().clean()
        from accounts.validators import look_alike_error

        errors = {}
        error = look_alike_error(self.display_name, exclude_user_id=self.pk)
        if error is not None:
            errors["display_name"] = error
        if username_taken(self.username, exclude_user_id=self.pk):
            errors["username"] = str(USERNAME_TAKEN)
        if errors:
            raise ValidationError(errors)


def username_taken(username: str, exclude_user_id: Any = None) -> bool:
    """Another account's username folds to this one's (``kate``, ``KATE``, ``\u212aate``)."""
    return User.objects.filter(username_key=fold(username)).exclude(pk=exclude_user_id).exists()


def public_name(user: Any) -> str:
    """How allauth names the player (ACCOUNT_USER_DISPLAY): the display name."""
    return str(getattr(user, "display_name", "") or user.get_username())


class SuppressionReason(models.TextChoices):
    """Why an address is no longer mailed (accounts/suppression.py)."""

    BOUNCE = "bounce", gettext_lazy("its mail bounced")
    COMPLAINT = "complaint", gettext_lazy("its owner marked our mail as spam")


class SuppressedAddress(models.Model):
    """An address the site no longer mails, fed back by the mail provider (docs/operations.md,
    "Mail"): the sending task skips it. Keyed by the address, not the player, because the
    provider knows only the address; lifted when a player adds or confirms it again."""

    # Folded to lower case: providers report an address in whatever case they saw it.
    address = models.CharField(max_length=254, unique=True)
    reason = models.CharField(max_length=16, choices=SuppressionReason.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "suppressed addresses"

    def __str__(self) -> str:
        return f"{self.address} ({self.reason})"
