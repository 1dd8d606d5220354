"""Rate limits (429 with a Retry-After): sign-up, log-in and a closed day's game logs per
client address, moves per player. Rates live in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``
and are read at request time, so the tests and the operators can change them through settings."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle


class _SettingsRateThrottle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        rates: dict[str, str] = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {})
        return rates.get(str(self.scope))


class AddressThrottle(_SettingsRateThrottle):
    """Counts requests per client address (REMOTE_ADDR, or X-Forwarded-For past NUM_PROXIES)."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SignupThrottle(AddressThrottle):
    scope = "signup"


class LoginThrottle(AddressThrottle):
    scope = "login"


class DailyGamesThrottle(AddressThrottle):
    """Downloads of a closed day's move logs (whole boards), per client address."""

    scope = "daily_games"


class MoveThrottle(_SettingsRateThrottle):
    """Moves per player (a guest: per session); a burst limit far above human play.

    Counted in fixed windows (one counter per player and window), not DRF's sliding
    history: on the move path that is one cache round trip instead of a read and a write
    of the whole history. A player can reach twice the rate across a window's edge,
    which a burst limit far above human play allows.
    """

    scope = "moves"

    def get_cache_key(self, request: Request | HttpRequest, view: Any) -> str | None:
        if request.user.is_authenticated:
            ident = f"u{request.user.pk}"
        else:
            address = self.get_ident(request)  # type: ignore[arg-type] # reads only META
            ident = f"s{request.session.session_key or address}"
        return self.cache_format % {"scope": self.scope, "ident": ident}

    @classmethod
    def window_key(cls, ident: str, seconds: int) -> str:
        """The counter of ``ident``'s windows of ``seconds``: a changed rate starts afresh
        instead of counting on in a window (and TTL) made for the old one."""
        return f"{cls.cache_format % {'scope': cls.scope, 'ident': ident}}:{seconds}"

    def allow_request(self, request: Request | HttpRequest, view: Any) -> bool:
        key = self.get_cache_key(request, view) if self.rate is not None else None
        if key is None:
            return True
        limit, seconds = self.parse_rate(self.rate)
        if limit is None or seconds is None:
            return True
        key = f"{key}:{seconds}"
        count_in_window = getattr(self.cache, "count_in_window", None)
        if count_in_window is not None:  # Redis: yukon_site/cache.py
            count, self.left = count_in_window(key, seconds)
        else:  # the local-memory cache of the embedded default
            count, self.left = 1, float(seconds)
            if not self.cache.add(key, 1, seconds):
                try:
                    count = self.cache.incr(key)
                except ValueError:  # the window ended between add and incr
                    self.cache.set(key, 1, seconds)
        return bool(count <= limit)

    def wait(self) -> float:
        return max(self.left, 0.001)


class PlayerThrottle(_SettingsRateThrottle):
    """Counts requests per logged-in player (guests: per address); the scope names the rate."""

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        ident = f"u{request.user.pk}" if request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class DisplayNameThrottle(PlayerThrottle):
    scope = "display_name"


class AccountDataThrottle(PlayerThrottle):
    """Exports and deletions of one's account."""

    scope = "account_data"
