"""Staff powers: the one test of whether a request may see more than a player.

A staff account's password alone is not enough: anyone who learns it would read every
player's game in progress. allauth records in the session each way it authenticated
(``account_authentication_methods``: password, a TOTP code, a passkey, a recovery code);
a staff session has its powers once one of them was a second factor ("mfa"), at log-in or
later through allauth's re-authentication. Until then it is treated as a player's, on the
API and the pages alike; the admin sends it to enrol or confirm one (moderation/site.py).

It lives in the kit, below every app, so that ``actor_of`` and every app above can ask it.
"""

from __future__ import annotations

from typing import Any

from allauth.account.internal.flows.login import get_authentication_records
from django.http import HttpRequest
from rest_framework.request import Request

SECOND_FACTOR = "mfa"


def passed_second_factor(request: Request | HttpRequest) -> bool:
    """The session behind ``request`` used a second factor for its current user."""
    django_request = request._request if isinstance(request, Request) else request
    user: Any = request.user
    records = get_authentication_records(django_request, user)
    return any(record.get("method") == SECOND_FACTOR for record in records)


def has_staff_powers(request: Request | HttpRequest) -> bool:
    """A staff account whose session passed a second factor: it may see more than a player."""
    user: Any = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.is_staff:
        return False
    return passed_second_factor(request)
