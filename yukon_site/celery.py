"""The Celery application: configured from Django settings (CELERY_* names)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yukon_site.settings")

app = Celery("yukon_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Task failures and verification lags are counted where tasks run (yukon_site/metrics.py
# connects the signals); the worker imports it at start. Not imported here: gunicorn
# imports this package before it names the metrics directory for its workers.
app.conf.imports = ("yukon_site.metrics",)

# How a task of ours treats failure (acks late, retries on database errors): the kit's
# apikit/retries.py, which every app's tasks import.
