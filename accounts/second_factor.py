"""Staff must use a second factor: has this account one, and what the admin tells staff.

Whether a session passed one, and so has staff powers, is the kit's single test
(apikit/staff.py): the API, the pages and the admin all ask it. A staff session may use
the admin, and so every moderation action, only once it passed one; a staff account
without one is sent to enrol (moderation/site.py).
"""

from __future__ import annotations

from typing import Any

from allauth.mfa.utils import is_mfa_enabled

from apikit.staff import SECOND_FACTOR, has_staff_powers, passed_second_factor

__all__ = [
    "CONFIRM_MESSAGE",
    "ENROL_MESSAGE",
    "SECOND_FACTOR",
    "has_second_factor",
    "has_staff_powers",
    "passed_second_factor",
]

ENROL_MESSAGE = (
    "Staff use a second factor: add an authenticator app or a passkey here, "
    "then open the admin again."
)
CONFIRM_MESSAGE = "Staff use a second factor: confirm it to open the admin."


def has_second_factor(user: Any) -> bool:
    """The account has a TOTP authenticator or a passkey (recovery codes alone: no)."""
    return bool(is_mfa_enabled(user, types=["totp", "webauthn"]))
