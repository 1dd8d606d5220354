"""Staff must use a second factor: has this session passed one?

allauth records each way a session authenticated (``account_authentication_methods``:
password, a TOTP code, a passkey, a recovery code). A staff session may use the admin,
and so every moderation action, only once one of them was a second factor ("mfa"): at
log-in, or later through allauth's re-authentication with it. A staff account without
one is sent to enrol (moderation/site.py).
"""

from __future__ import annotations

from typing import Any

from allauth.account.internal.flows.login import get_authentication_records
from allauth.mfa.utils import is_mfa_enabled
from django.http import HttpRequest

SECOND_FACTOR = "mfa"
ENROL_MESSAGE = (
    "Staff use a second factor: add an authenticator app or a passkey here, "
    "then open the admin again."
)
CONFIRM_MESSAGE = "Staff use a second factor: confirm it to open the admin."


def passed_second_factor(request: HttpRequest) -> bool:
    user: Any = request.user
    records = get_authentication_records(request, user)
    return any(record.get("method") == SECOND_FACTOR for record in records)


def has_second_factor(user: Any) -> bool:
    """The account has a TOTP authenticator or a passkey (recovery codes alone: no)."""
    return bool(is_mfa_enabled(user, types=["totp", "webauthn"]))
