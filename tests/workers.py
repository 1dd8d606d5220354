"""Real Celery processes for tests: workers and beat on the real Redis, pointed at the
test database that pytest-django created (``test_<name>``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from django.conf import settings

from yukon_site.celery import app

ROOT = Path(__file__).resolve().parents[1]


def worker_database_url() -> str:
    """A DATABASE_URL for the database the tests use now (pytest-django's ``test_...``)."""
    db = settings.DATABASES["default"]
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    return f"postgres://{auth}{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def celery_env(**extra: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": worker_database_url(),
        "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
        **extra,
    }


def start_worker(queue: str, log_path: Path, **extra_env: str) -> subprocess.Popen[bytes]:
    """A solo worker process consuming only ``queue``, and sending its own tasks there."""
    log = log_path.open("ab")
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "yukon_site",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "-Q",
            queue,
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=INFO",
            "-n",
            f"{uuid.uuid4().hex[:8]}@%h",
        ],
        cwd=ROOT,
        env=celery_env(CELERY_TASK_DEFAULT_QUEUE=queue, **extra_env),
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def start_beat(
    queue: str, workdir: Path, log_path: Path, **extra_env: str
) -> subprocess.Popen[bytes]:
    """Celery beat with the project's schedule sending to ``queue``; state kept in ``workdir``."""
    log = log_path.open("ab")
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "yukon_site",
            "beat",
            "--loglevel=INFO",
            "-s",
            str(workdir / "beat-schedule"),
            "--pidfile=",
        ],
        cwd=ROOT,
        env=celery_env(CELERY_TASK_DEFAULT_QUEUE=queue, **extra_env),
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def stop(process: subprocess.Popen[bytes], *, kill: bool = False) -> None:
    """End a Celery process: SIGKILL at once when ``kill``, else a warm shutdown."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@contextmanager
def own_queue() -> Iterator[str]:
    """Route this test's tasks to a queue of its own, so nothing else feeds or steals them."""
    queue = f"test-{uuid.uuid4().hex[:8]}"
    saved = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        yield queue
    finally:
        app.conf.task_default_queue = saved
