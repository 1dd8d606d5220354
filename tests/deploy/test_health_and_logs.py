"""/healthz (database required, Redis reported), the 404/500 handlers, JSON logs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any
from unittest import mock

import pytest
from django.db import OperationalError
from django.test import Client, RequestFactory

from tests.faults.server import ROOT, TEST_SECRET_KEY
from yukon_site import health

pytestmark = pytest.mark.django_db


def test_healthy(client: Client, settings: Any) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    expected_redis = "ok" if settings.REDIS_URL else "not configured"
    assert response.json() == {"status": "ok", "database": "ok", "redis": expected_redis}
    assert "no-cache" in response["Cache-Control"]


def test_redis_down_is_reported_but_still_200(client: Client, settings: Any) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["redis"] == "down"


def test_database_down_is_503(client: Client) -> None:
    with mock.patch.object(health.connection, "cursor", side_effect=OperationalError("gone")):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "down"


def test_the_500_handler_says_503_for_a_database_outage_and_never_more() -> None:
    factory = RequestFactory()
    try:
        raise OperationalError("connection refused: secret detail")
    except OperationalError:
        api = health.server_error(factory.get("/api/daily/"))
        page = health.server_error(factory.get("/"))
    assert api.status_code == page.status_code == 503
    assert json.loads(api.content) == {"detail": health.DATABASE_DOWN}
    assert api["Retry-After"] == "5" and b"secret" not in page.content
    try:
        raise ValueError("a bug: secret detail")
    except ValueError:
        bug = health.server_error(factory.get("/api/daily/"))
    assert bug.status_code == 500 and b"secret" not in bug.content


def test_api_404_is_json(client: Client) -> None:
    response = client.get("/api/games/-1/")
    assert response.status_code == 404 and response.json() == {"detail": "not found"}


def test_production_logs_are_json_lines() -> None:
    env = {
        "PATH": os.environ["PATH"], "DEBUG": "false", "SECRET_KEY": TEST_SECRET_KEY,
        "DAILY_SECRET": "d", "ALLOWED_HOSTS": "x", "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
    }
    code = (
        "import django, logging; django.setup(); "
        "logging.getLogger('games').warning('game %s rejected', 7, extra={'game': 7})"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
        check=True,
    )
    (line,) = result.stderr.strip().splitlines()
    entry = json.loads(line)
    assert entry["level"] == "WARNING" and entry["logger"] == "games"
    assert entry["message"] == "game 7 rejected" and entry["game"] == 7
