"""Web Push to one browser: VAPID-signed (RFC 8292), the payload encrypted to the browser's
keys as aes128gcm (RFC 8291), by pywebpush. The push service's answer decides what we
keep: 404 or 410 means the subscription is gone for good."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings

logger = logging.getLogger(__name__)

# Seconds we wait for a push service: a batch must not hang on one slow host.
PUSH_TIMEOUT_SECONDS = 10
GONE = {404, 410}


def configured() -> bool:
    """Whether this site can send Web Push (it has a VAPID key pair)."""
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY)


def allowed_endpoint(endpoint: str) -> bool:
    """Whether ``endpoint`` is at a push service we send to (REMINDERS_PUSH_HOSTS): the
    worker POSTs there, so a player must not name any other host. HTTPS only, but for a
    loopback host listed by name (a stand-in service in tests and development)."""
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 (a port that is not a number raises ValueError)
    except ValueError:
        return False
    if not host or parts.username or parts.password:
        return False
    listed = any(
        host == entry.lower() or (entry.startswith(".") and host.endswith(entry.lower()))
        for entry in settings.REMINDERS_PUSH_HOSTS
    )
    loopback = host in {"127.0.0.1", "localhost", "::1"}
    return listed and (parts.scheme == "https" or (parts.scheme == "http" and loopback))


@dataclass(frozen=True)
class PushOutcome:
    delivered: bool
    gone: bool  # the push service no longer knows this subscription: forget it


def send_push(
    subscription: Any,
    message: dict[str, str],
    *,
    ttl: int,
    session: requests.Session | None = None,
) -> PushOutcome:
    """Send ``message`` (JSON) to one ``PushSubscription``; never raises for the push
    service's or the network's failure, which are logged."""
    # Imported here, not with the module: pywebpush brings aiohttp, whose import builds a
    # TLS context (0.2 CPU-s), and every process of the site imports this module while only
    # the reminder worker sends a push.
    from pywebpush import WebPushException, webpush

    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    try:
        webpush(
            info,
            data=json.dumps(message),
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            # a fresh dict each time: pywebpush writes "aud" and "exp" into it
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            content_encoding="aes128gcm",
            ttl=ttl,
            timeout=PUSH_TIMEOUT_SECONDS,
            headers={"Urgency": "normal", "Topic": message.get("tag", "reminder")},
            requests_session=session,
        )
    except WebPushException as exc:
        status = exc.status_code
        if status in GONE:
            logger.info("push subscription %s is gone (%s)", subscription.pk, status)
            return PushOutcome(delivered=False, gone=True)
        logger.warning("push to subscription %s failed: %s", subscription.pk, status or exc)
        return PushOutcome(delivered=False, gone=False)
    except (requests.RequestException, ValueError) as exc:
        logger.warning("push to subscription %s failed: %s", subscription.pk, exc)
        return PushOutcome(delivered=False, gone=False)
    return PushOutcome(delivered=True, gone=False)
