"""Every change to accounts: sign up, log in, log out (the views only call these)."""

from __future__ import annotations

import hashlib

from django.contrib.auth import login, logout
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.http import HttpRequest

from accounts.login_backoff import fold
from accounts.models import USERNAME_TAKEN, User, username_taken
from accounts.signals import guest_logged_in
from accounts.skeleton import name_key
from accounts.validators import validate_display_name


def sign_up(
    request: HttpRequest, *, username: str, display_name: str, password: str, email: str = ""
) -> User:
    """Create a player and log them in; their guest practice games come along.

    Raises ValidationError if the name is taken or looks like another player's, or the
    username folds to another account's: checked again here, under locks on the keys
    (PostgreSQL), so two sign-ups of look-alike names at the same moment cannot both pass
    the serializer's check.
    """
    with transaction.atomic():
        _lock_display_name(name_key(display_name))
        _lock_username(fold(username))
        if username_taken(username):  # one that folds alike signed up since the check
            raise ValidationError({"username": [USERNAME_TAKEN]})
        validate_display_name(display_name)
        try:
            with transaction.atomic():
                user = User.objects.create_user(
                    username=username, password=password, email=email, display_name=display_name
                )
        except IntegrityError as exc:  # a username taken a moment ago
            raise ValidationError("That username or display name is taken.") from exc
    log_in(request, user)
    return user


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


def log_in(request: HttpRequest, user: User) -> None:
    """Start an authenticated session; practice games played as a guest become the player's."""
    guest_session_key = request.session.session_key
    login(request, user)  # the one configured backend (settings.AUTHENTICATION_BACKENDS)
    if guest_session_key:
        guest_logged_in.send(sender=User, user=user, session_key=guest_session_key)


def log_out(request: HttpRequest) -> None:
    logout(request)
