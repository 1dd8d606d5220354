"""The log-in backend: Django's ModelBackend, with the user of each request read from the
cache instead of the database.

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
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.db import transaction


def user_cache_key(user_id: Any) -> str:
    return f"auth-user:{user_id}"


class CachedModelBackend(ModelBackend):
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
