"""The Celery application: configured from Django settings (CELERY_* names)."""

import os
from typing import Any

from celery import Celery
from django.db import InterfaceError, OperationalError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

app = Celery("yukon_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# How every task of ours treats failure: acknowledged only once done (a worker that dies
# mid-task leaves the message for another), retried with backoff on database errors only.
RETRY_ON_DATABASE_ERRORS: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
}
