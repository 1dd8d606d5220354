"""Failed log-ins per account: a growing wait, never a lock.

The per-address limit (``THROTTLE_LOGIN``) does not slow a guesser with many addresses.
This counts failed passwords per account (whatever the address) in the default cache:
the first ``LOGIN_BACKOFF_FREE_FAILURES`` cost nothing, then each failure makes the
account wait before the next try, doubling from ``LOGIN_BACKOFF_BASE_SECONDS`` up to
``LOGIN_BACKOFF_MAX_SECONDS``. A try during the wait is refused (429 with Retry-After)
without looking at the password, and is not counted: the right password waits too, so
the wait tells a guesser nothing, and nobody can make it longer than the cap. Success
forgets the failures; so does a day without one.

Someone guessing at a victim's account would keep the victim waiting too. A browser that
has logged in to the account before (it holds a signed ``yukon_device`` cookie for that
account) counts its own failures apart, so the victim logs in from it as usual while the
account's counter is being run up. Only the count per address and per device limit
that browser.

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
from typing import Any

import redis
from django.conf import settings
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


def account_digest(username: str) -> str:
    """Any spelling of one username is one account here (case does not buy more tries)."""
    return hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]


def device_of(request: HttpRequest | None, username: str) -> str | None:
    """The device token of a browser that has logged in to this account before, or None."""
    if request is None:
        return None
    value = getattr(request, "COOKIES", {}).get(DEVICE_COOKIE)
    if not value:
        return None
    try:
        data = signing.loads(value, salt=DEVICE_SALT, max_age=DEVICE_DAYS * 24 * 3600)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("a") != account_digest(username):
        return None
    device = data.get("d")
    return device if isinstance(device, str) else None


def remember_device(response: HttpResponse, username: str) -> None:
    """After a successful log-in: this browser counts its own failures from now on."""
    value = signing.dumps(
        {"a": account_digest(username), "d": secrets.token_urlsafe(12)}, salt=DEVICE_SALT
    )
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

    def __init__(self, username: str, device: str | None = None) -> None:
        scope = account_digest(username) + (f":{device}" if device else "")
        self.failures_key = f"login-failures:{scope}"
        self.turn_key = f"login-turn:{scope}"
        self.failures = 0

    @classmethod
    def of(cls, request: HttpRequest | None, username: str) -> Attempt:
        return cls(username, device_of(request, username))

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
