"""Rate limits (429 with a Retry-After): sign-up and log-in per client address, moves per
player. Rates live in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` and are read at
request time, so the tests and the operators can change them through settings."""

from __future__ import annotations

from typing import Any

from django.conf import settings
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


class MoveThrottle(_SettingsRateThrottle):
    """Moves per player (a guest: per session); a burst limit far above human play."""

    scope = "moves"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.user.is_authenticated:
            ident = f"u{request.user.pk}"
        else:
            ident = f"s{request._request.session.session_key or self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}
