"""Failed log-ins per account: a growing wait, never a lock.

The per-address limit (``THROTTLE_LOGIN``) does not slow a guesser with many addresses.
This counts failed passwords per account (whatever the address) in the default cache:
the first ``LOGIN_BACKOFF_FREE_FAILURES`` cost nothing, then each failure makes the
account wait before the next try, doubling from ``LOGIN_BACKOFF_BASE_SECONDS`` up to
``LOGIN_BACKOFF_MAX_SECONDS``. A try during the wait is refused (429 with Retry-After)
without looking at the password, and is not counted: the right password waits too, so
the wait tells a guesser nothing, and nobody can make it longer than the cap. Success
forgets the failures; so does a day without one.

A username is resolved to its account the way the backend logs in (``account_named``:
the exact name, else the one account whose folded name matches), and the count belongs
to that account (its primary key); a name that resolves to nobody is counted by its
folded form, so an unknown name is answered like a real one.

Someone guessing at a victim's account would keep the victim waiting too. A browser that
has logged in to the account before (it holds a ``yukon_device`` cookie signed with that
account's primary key) counts its own failures apart, so the victim logs in from it as
usual while the account's counter is being run up. Only the count per address and per
device limit that browser. The cookie counts only when the submitted username resolves
to its account: not a name that merely folds to the same letters (``Kate``, ``\u212aate``,
``straße``/``strasse``: a look-alike account of the attacker's own), and never an unknown
name.

Tries are reserved before the password is checked (an atomic increment and, once past
the free ones, a cache ``add`` that only one request at a time wins), so parallel
requests cannot all slip through the same gap.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import math
import secrets
import time
import unicodedata
from typing import Any

import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

DEVICE_COOKIE = "yukon_device"
DEVICE_SALT = "accounts.login_backoff.device"
DEVICE_DAYS = 365
FAILURES_KEPT_SECONDS = 24 * 3600

logger = logging.getLogger(__name__)


def free_failures() -> int:
    return int(getattr(settings, "LOGIN_BACKOFF_FREE_FAILURES", 5))


def base_seconds() -> int:
    return max(1, int(getattr(settings, "LOGIN_BACKOFF_BASE_SECONDS", 1)))


def max_seconds() -> int:
    return max(1, int(getattr(settings, "LOGIN_BACKOFF_MAX_SECONDS", 300)))


def wait_after(failures: int) -> int:
    """Seconds the account waits after its ``failures``-th failure in a row (0: none)."""
    over = failures - free_failures()
    if over < 0:
        return 0
    return min(base_seconds() * 2 ** min(over, 30), max_seconds())


def fold(username: str) -> str:
    """The form two usernames share when they name one account (NFKC, then case folded:
    the Kelvin sign is K, ``ß`` is ``ss``, fullwidth letters are ASCII)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username).casefold())


def account_digest(username: str) -> str:
    """Any spelling of one username is one count here (case does not buy more tries)."""
    return hashlib.sha256(fold(username.strip()).encode()).hexdigest()[:32]


def account_named(username: str) -> Any:
    """The account a log-in with this username is for: the exact name, else the only
    account whose folded name is this one's (two that share it, from before sign-up
    refused that: neither); None if none."""
    manager = get_user_model()._default_manager
    try:
        return manager.get_by_natural_key(username)
    except manager.model.DoesNotExist:
        pass
    matches = list(manager.filter(username_key=fold(username))[:2])
    return matches[0] if len(matches) == 1 else None


def device_of(request: HttpRequest | None, account_id: Any) -> str | None:
    """The device token of a browser that has logged in to this account before, or None."""
    if request is None or account_id is None:
        return None
    value = getattr(request, "COOKIES", {}).get(DEVICE_COOKIE)
    if not value:
        return None
    try:
        data = signing.loads(value, salt=DEVICE_SALT, max_age=DEVICE_DAYS * 24 * 3600)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("u") != account_id:
        return None
    device = data.get("d")
    return device if isinstance(device, str) else None


def remember_device(response: HttpResponse, user: Any) -> None:
    """After a successful log-in: this browser counts its own failures from now on."""
    value = signing.dumps({"u": user.pk, "d": secrets.token_urlsafe(12)}, salt=DEVICE_SALT)
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=DEVICE_DAYS * 24 * 3600,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


class Refused(Exception):
    """The account (or this device of it) must wait ``retry_after`` more seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"wait {retry_after} s")
        self.retry_after = retry_after


class Attempt:
    """One log-in try for an account: ``begin`` before the password, then ``failed`` or
    ``succeeded``."""

    def __init__(self, username: str, account_id: Any = None, device: str | None = None) -> None:
        account = f"user:{account_id}" if account_id is not None else account_digest(username)
        scope = account + (f":{device}" if device else "")
        self.failures_key = f"login-failures:{scope}"
        self.turn_key = f"login-turn:{scope}"
        self.failures = 0

    @classmethod
    def of(cls, request: HttpRequest | None, username: str, account: Any) -> Attempt:
        """The try at ``username``, resolved to ``account`` (``account_named``) or None."""
        account_id = account.pk if account is not None else None
        return cls(username, account_id, device_of(request, account_id))

    def begin(self) -> None:
        """Reserve this try, counted as a failure until it succeeds; Refused if it must wait.

        With the cache down (Redis away) the try goes ahead uncounted: like every other
        rate limit here, this one opens rather than stop everyone from logging in.
        """
        try:
            self._reserve()
        except redis.RedisError as exc:
            logger.warning("log-in limit per account not applied, the cache is down: %s", exc)
            self.failures = 0

    def _reserve(self) -> None:
        cache.add(self.failures_key, 0, FAILURES_KEPT_SECONDS)
        try:
            self.failures = cache.incr(self.failures_key)
        except ValueError:  # expired between add and incr
            cache.set(self.failures_key, 1, FAILURES_KEPT_SECONDS)
            self.failures = 1
        if self.failures <= free_failures():
            return
        # Past the free tries: one try per wait. The key exists while the wait runs;
        # held for a while by this try so that its twins wait for its outcome.
        hold = max(wait_after(self.failures - 1), 5)
        if not cache.add(self.turn_key, time.time() + hold, hold):
            self._unreserve()
            raise Refused(self._seconds_left())

    def failed(self) -> None:
        cache.touch(self.failures_key, FAILURES_KEPT_SECONDS)
        wait = wait_after(self.failures)
        if wait:
            cache.set(self.turn_key, time.time() + wait, wait)

    def succeeded(self) -> None:
        with contextlib.suppress(redis.RedisError):  # the counts expire in any case
            cache.delete_many([self.failures_key, self.turn_key])

    def _unreserve(self) -> None:
        with contextlib.suppress(ValueError, redis.RedisError):  # expired or gone meanwhile
            cache.decr(self.failures_key)

    def _seconds_left(self) -> int:
        until: Any = cache.get(self.turn_key)
        if not isinstance(until, int | float):
            return 1
        return max(1, math.ceil(until - time.time()))
