"""Requests for the OpenAPI document arriving together at a threaded server (`make run`'s
runserver) are all answered: drf-spectacular's first generation in a process loads its
extensions lazily, and a second one started meanwhile failed (500) before
apikit/schema_view.py had them wait their turn."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THREADS = 8

# A fresh process, so that its first generation is the one the threads race for.
RACE = f"""
import threading

import django

django.setup()
from django.test import Client

barrier = threading.Barrier({THREADS})
statuses = []
# Each client's middleware chain built here, one after the other, as a server builds its one
# chain at start: eight built at once race django-prometheus's metrics, registered once a
# process (DuplicateTimeseries), which is not the race this test is about.
clients = [Client(raise_request_exception=False) for _ in range({THREADS})]
for client in clients:
    client.handler.load_middleware()


def ask(client):
    barrier.wait()
    statuses.append(client.get("/api/schema/").status_code)


threads = [threading.Thread(target=ask, args=(client,)) for client in clients]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(sorted(statuses))
"""


@pytest.mark.slow
def test_requests_for_the_schema_at_once_are_all_answered(tmp_path: Path) -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DAILY_SECRET"}
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
            "DEBUG": "true",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",  # the schema reads no row
            "DEV_SECRETS_FILE": str(tmp_path / "dev_secrets.py"),
        }
    )
    result = subprocess.run(
        [sys.executable, "-c", RACE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-1] == str([200] * THREADS), result.stderr[-3000:]
