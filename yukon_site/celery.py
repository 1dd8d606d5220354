"""The Celery application: configured from Django settings (CELERY_* names)."""

import os
from typing import Any

from celery import Celery
from django.db import InterfaceError, OperationalError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

app = Celery("yukon_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Task failures and verification lags are counted where tasks run (yukon_site/metrics.py
# connects the signals); the worker imports it at start. Not imported here: gunicorn
# imports this package before it names the metrics directory for its workers.
app.conf.imports = ("yukon_site.metrics",)

# How every task of ours treats failure: acknowledged only once done (a worker that dies
# mid-task leaves the message for another), retried with backoff on database errors only.
RETRY_ON_DATABASE_ERRORS: dict[str, Any] = {
    "acks_late": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
}
