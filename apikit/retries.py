"""How every Celery task of the site treats failure: the options each app's ``shared_task``
takes, here so that an app needs nothing of the site's top (yukon_site/celery.py)."""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError

# Acknowledged only once done (a worker that dies mid-task leaves the message for another),
# retried with backoff on database errors only.
RETRY_ON_DATABASE_ERRORS: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
}
