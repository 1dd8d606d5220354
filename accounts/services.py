"""Every change to accounts that allauth does not make: the locks on name keys, the display
name, the export of a player's data and the deletion of an account."""

from __future__ import annotations

import hashlib

from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from accounts.login_backoff import fold
from accounts.models import User
from accounts.skeleton import name_key
from accounts.validators import validate_display_name


def lock_names(*, username: str, display_name: str) -> None:
    """Inside a transaction: hold the locks on both name keys until it ends (PostgreSQL),
    so that two sign-ups or renames of look-alike names at one moment run one after the
    other and the second sees the first (SQLite runs one writer anyway)."""
    _lock_display_name(name_key(display_name))
    _lock_username(fold(username))


def display_name_lock_id(key: str) -> int:
    """The PostgreSQL advisory lock of a display-name key (a signed 64-bit number)."""
    digest = hashlib.sha256(b"display-name:" + key.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _lock_display_name(key: str) -> None:
    """Hold a transaction lock on the key (PostgreSQL); SQLite runs one writer anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [display_name_lock_id(key)])


def _lock_username(key: str) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [username_lock_id(key)])


def username_lock_id(key: str) -> int:
    digest = hashlib.sha256(b"username:" + key.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def change_display_name(user: User, name: str) -> User:
    """Rename a player: the look-alike rule applies as at sign-up (under the key's lock);
    boards read names from the player's row, so they show the new one."""
    with transaction.atomic():
        _lock_display_name(name_key(name))
        name = validate_display_name(name, exclude_user_id=user.pk)
        player = User.objects.select_for_update().get(pk=user.pk)
        player.display_name = name
        try:
            with transaction.atomic():
                player.save(update_fields=["display_name"])
        except IntegrityError as exc:  # the same name, taken a moment ago
            raise ValidationError("That display name is taken.") from exc
    return player
