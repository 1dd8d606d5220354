"""Every change to accounts that allauth does not make: the locks on name keys, the display
name, the player's settings, a ban's mark on the player, the export of a player's data and
the deletion of an account."""

from __future__ import annotations

import hashlib
from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.socialaccount.models import SocialAccount
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from accounts.login_backoff import fold
from accounts.models import DELETED_NAME, User
from accounts.signals import account_deleted, personal_data, results_changed
from accounts.skeleton import name_key
from accounts.suppression import forget_suppressions_of, suppressions_of
from accounts.validators import DISPLAY_NAME_TAKEN, validate_display_name

EXPORT_FORMAT = 1  # the shape of export_data's answer (docs/accounts.md)


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
            raise ValidationError(DISPLAY_NAME_TAKEN) from exc
    return player


def save_settings(user: User, chosen: dict[str, Any], *, replace: bool) -> dict[str, Any]:
    """Store the player's settings (already checked: accounts.player_settings), merged into
    what the account holds or, with ``replace``, instead of it. Under the row's lock, so
    two tabs saving different keys at one moment both keep theirs."""
    with transaction.atomic():
        player = User.objects.select_for_update().get(pk=user.pk)
        player.settings = dict(chosen) if replace else {**player.settings, **chosen}
        player.save(update_fields=["settings"])
    user.settings = player.settings
    return player.settings


def ban_account(user_id: int, reason: str) -> User:
    """Mark the player banned, with the reason they are shown. The moderators keep the
    record of the ban (``moderation.Ban``) and decide; this mark is what games and
    accounts read: a ranked start is refused under the player's row lock, which this
    write takes, and once it has committed the boards drop the player's results
    (``results_changed``)."""
    with transaction.atomic(savepoint=False):
        player = User.objects.select_for_update().get(pk=user_id)
        player.is_banned = True
        player.ban_reason = reason
        player.save(update_fields=["is_banned", "ban_reason"])
        _announce_results_of(player.pk)
    return player


def unban_account(user_id: int) -> User:
    """Lift the mark of a ban; once committed, the player's results that count come back."""
    with transaction.atomic(savepoint=False):
        player = User.objects.select_for_update().get(pk=user_id)
        player.is_banned = False
        player.ban_reason = ""
        player.save(update_fields=["is_banned", "ban_reason"])
        _announce_results_of(player.pk)
    return player


def _announce_results_of(player_id: int) -> None:
    # robust: Redis trouble must not fail a committed ban (board reads filter anyway)
    transaction.on_commit(
        lambda: results_changed.send(sender=User, games=[], players=[player_id], challenges=[]),
        robust=True,
    )


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def export_data(user: User) -> dict[str, Any]:
    """Everything we hold about the player, as JSON-ready data: the account here, and
    each app's sections (accounts.signals.personal_data: games with their move logs, the
    guests' games they took, where their games were started from, closed flags on them,
    reports made, leagues and follows). Secrets (password hash, second-factor keys) are
    named, never copied.

    An app that keeps something new about players adds it by answering the signal with a
    section of its own (a new top-level key; its owner documents it in docs/accounts.md);
    two answers naming one key are refused rather than one silently losing the other."""
    data: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now().isoformat(),
        "profile": {
            "id": user.pk,
            "username": user.username,
            "display_name": user.display_name,
            "email": user.email or None,
            "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login),
            "is_staff": user.is_staff,
            "is_banned": user.is_banned,
            "ban_reason": user.ban_reason or None,
            "has_password": user.has_usable_password(),
        },
        # the look and play options they saved in the account (docs/frontend.md, "Settings")
        "settings": user.settings,
        # the language they chose for the site and its mail (blank: none chosen)
        "language": user.language or None,
        "email_addresses": [
            {"email": a.email, "verified": a.verified, "primary": a.primary}
            for a in EmailAddress.objects.filter(user=user).order_by("pk")
        ],
        # addresses of theirs we no longer mail: bounced, or marked as spam
        "mail_suppressions": suppressions_of(user),
        "second_factors": [
            {
                "type": a.type,
                "name": a.data.get("name") if a.type == Authenticator.Type.WEBAUTHN else None,
                "created_at": _iso(a.created_at),
                "last_used_at": _iso(a.last_used_at),
            }
            for a in Authenticator.objects.filter(user=user).order_by("pk")
        ],
        "sign_in_providers": [
            {"provider": a.provider, "uid": a.uid, "date_joined": _iso(a.date_joined)}
            for a in SocialAccount.objects.filter(user=user).order_by("pk")
        ],
    }
    for receiver, section in personal_data.send(sender=User, user=user):
        if not isinstance(section, dict):
            continue
        if taken := data.keys() & section.keys():
            raise ValueError(f"{receiver!r} answers export sections already taken: {taken}")
        data.update(section)
    return data


def delete_account(user: User) -> User:
    """Delete the player's account, keeping what others rely on.

    The row stays (games, boards, reports and the audit log point at it) but holds
    nothing personal: the username becomes ``deleted:<id>`` (no sign-up can take it: the
    colon is not allowed), the display name ``deleted player`` on every past board, the
    email addresses, password, second factors and provider links are gone, and the
    account can never log in again. Verified results stay on their boards and the move
    logs stay for the boards' public proof (docs/accounts.md). The apps above let go of
    the player in the same transaction (``accounts.signals.account_deleted``): they leave
    every league and follow nobody, and nobody follows them; their receipts are dropped;
    where their games were started from is forgotten (but for the evidence of a case still
    open, which goes when it is closed). Every session of theirs stops working at once
    (it was tied to the password's hash) and is cleared at its expiry.
    """
    with transaction.atomic():
        player = User.objects.select_for_update().get(pk=user.pk)
        if player.deleted_at is not None:
            return player
        forget_suppressions_of(player)  # while its addresses are still known
        player.username = f"deleted:{player.pk}"
        player.display_name = DELETED_NAME
        player.email = player.first_name = player.last_name = ""
        player.settings = {}
        player.language = ""
        player.set_unusable_password()
        player.is_active = player.is_staff = player.is_superuser = False
        player.deleted_at = timezone.now()
        player.save()
        player.groups.clear()
        player.user_permissions.clear()
        EmailAddress.objects.filter(user=player).delete()
        Authenticator.objects.filter(user=player).delete()
        SocialAccount.objects.filter(user=player).delete()
        account_deleted.send(sender=User, user=player)
    return player
