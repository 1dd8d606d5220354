"""Fixtures of the reminder tests: the site's VAPID key pair made for the test, and the
real SMTP server with the Celery worker that delivers the site's mail to it
(tests/accounts/mailbox.py)."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec

from tests.accounts.mailbox import mail_service, mailbox  # noqa: F401 (fixtures)
from tests.reminders.push_service import b64url
from yukon_site import dev_secrets


@pytest.fixture
def vapid(settings: Any) -> str:
    """A fresh VAPID key pair for the site, and the loopback push service allowed; the
    public key (what the stand-in push service checks tokens against)."""
    key = ec.generate_private_key(ec.SECP256R1())
    settings.VAPID_PRIVATE_KEY = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    settings.VAPID_PUBLIC_KEY = dev_secrets.vapid_public_key(settings.VAPID_PRIVATE_KEY)
    settings.VAPID_SUBJECT = "mailto:ops@example.org"
    settings.REMINDERS_PUSH_HOSTS = ["127.0.0.1"]
    return str(settings.VAPID_PUBLIC_KEY)
