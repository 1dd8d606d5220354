"""The log-in backends: Django's ModelBackend with a per-account wait after failed
passwords (``LimitedModelBackend``), and that with the user of each request read from the
cache instead of the database (``CachedModelBackend``).

Every request that carries a session loads its user (``AuthenticationMiddleware``); that
query, compiled by the ORM, was a fifth of a move's server time (bench/bench_load.py).
The cached copy is dropped whenever the user row is saved or deleted through the ORM
(ban, log-in, password change, admin edit: ``accounts/apps.py``), and it expires after
``USER_CACHE_SECONDS`` in any case, which bounds how stale a copy can get when a write
races a read or bypasses the ORM's signals (``QuerySet.update``). Only configured with a
cache that every process shares (Redis): see ``AUTHENTICATION_BACKENDS`` in settings.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest

from accounts.login_backoff import Attempt, Refused, account_named


def user_cache_key(user_id: Any) -> str:
    return f"auth-user:{user_id}"


class LimitedModelBackend(ModelBackend):
    """ModelBackend with the per-account wait after failed passwords
    (``accounts/login_backoff.py``) on every path that logs in: the API, the admin's
    form, anything that calls ``authenticate()``."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        if not (_is_text(str(username)) and _is_text(str(password))):
            return None  # a lone surrogate: no account has it, no hasher can read it
        account = account_named(str(username))
        attempt = Attempt.of(request, str(username), account)
        try:
            attempt.begin()
        except Refused as refused:
            if request is not None:  # the API answers 429 with this (accounts/api.py)
                request.login_retry_after = refused.retry_after  # type: ignore[attr-defined]
            raise PermissionDenied from refused  # authenticate(): None, no other backend
        if account is not None:  # a folded spelling logs in to the account it names
            username = account.get_username()
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            attempt.failed()
        else:
            attempt.succeeded()
        return user


def _is_text(value: str) -> bool:
    """False for a string holding a lone surrogate (JSON's "\\ud800"), which neither the
    database nor a password hasher can encode: allauth's JSON log-in passes it through."""
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


class CachedModelBackend(LimitedModelBackend):
    def get_user(self, user_id: Any) -> Any:
        key = user_cache_key(user_id)
        user = cache.get(key)
        if user is None:
            user = super().get_user(user_id)
            if user is not None:
                cache.set(key, user, settings.USER_CACHE_SECONDS)
            return user
        return user if self.user_can_authenticate(user) else None


def forget_user(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Signal receiver: the next request reads the user from the database again. Dropped
    now and again after the commit: a request that read the old row in between (and
    cached it) must not keep it, a password change or a ban would wait for the expiry."""
    key = user_cache_key(instance.pk)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key), robust=True)
