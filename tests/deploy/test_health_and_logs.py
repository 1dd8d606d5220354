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

from tests.faults.server import ROOT, TEST_RECEIPT_SIGNING_KEY, TEST_SECRET_KEY
from yukon_site import health

pytestmark = pytest.mark.django_db


def test_healthy(client: Client, settings: Any) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    expected_redis = "ok" if settings.REDIS_URL else "not configured"
    assert response.json() == {"status": "ok", "database": "ok", "redis": expected_redis}
    assert "no-cache" in response["Cache-Control"]


def test_head_answers_as_get_does_without_a_body(client: Client) -> None:
    """The offline practice page asks with HEAD whether the site can be reached."""
    response = client.head("/healthz")
    assert response.status_code == 200 and response.content == b""
    assert client.post("/healthz").status_code == 405


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


@pytest.mark.slow
def test_production_logs_are_json_lines() -> None:
    env = {
        "PATH": os.environ["PATH"],
        "DEBUG": "false",
        "SECRET_KEY": TEST_SECRET_KEY,
        "DAILY_SECRET": "d",
        "RECEIPT_SIGNING_KEY": TEST_RECEIPT_SIGNING_KEY,
        "ALLOWED_HOSTS": "x",
        "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
    }
    code = (
        "import django, logging; django.setup(); "
        "logging.getLogger('games').warning('game %s rejected', 7, extra={'game': 7})"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    (line,) = result.stderr.strip().splitlines()
    entry = json.loads(line)
    assert entry["level"] == "WARNING" and entry["logger"] == "games"
    assert entry["message"] == "game 7 rejected" and entry["game"] == 7


# ----- the request id -----------------------------------------------------------------


def test_every_response_carries_a_new_request_id(client: Client) -> None:
    first, second = client.get("/healthz"), client.get("/api/games/-1/")
    for response in (first, second):
        assert len(response["X-Request-ID"]) == 32
        int(response["X-Request-ID"], 16)
    assert first["X-Request-ID"] != second["X-Request-ID"]


@pytest.mark.parametrize(
    "given", ["4bf92f3577b34da6a3ce929d0e0e4736", "req-1.2:abc_DEF", "a" * 128, "7"]
)
def test_a_sane_request_id_from_the_proxy_is_kept(client: Client, given: str) -> None:
    assert client.get("/healthz", HTTP_X_REQUEST_ID=given)["X-Request-ID"] == given


@pytest.mark.parametrize(
    "given",
    [
        "",
        "a" * 129,
        "two words",
        "line\nbreak",
        "x\r\nSet-Cookie: a=b",
        'quote"',
        "é",
        "a/b",
        "<script>",
        "%0a",
    ],
)
def test_an_insane_request_id_is_replaced(client: Client, given: str) -> None:
    answered = client.get("/healthz", HTTP_X_REQUEST_ID=given)["X-Request-ID"]
    assert answered != given and len(answered) == 32


def _log_of_one_request(log_format: str) -> tuple[str, list[str]]:
    """Runs one request that logs (an API 404) in a fresh process; (its id, stderr lines)."""
    env = {
        "PATH": os.environ["PATH"],
        "DEBUG": "false",
        "SECRET_KEY": TEST_SECRET_KEY,
        "DAILY_SECRET": "d",
        "RECEIPT_SIGNING_KEY": TEST_RECEIPT_SIGNING_KEY,
        "ALLOWED_HOSTS": "testserver",
        "DJANGO_SETTINGS_MODULE": "yukon_site.settings",
        "LOG_FORMAT": log_format,
        "SECURE_SSL_REDIRECT": "false",
    }
    code = (
        "import django, logging, sys; django.setup(); "
        "from django.test import Client; "
        "logging.getLogger('games').warning('before'); "
        "response = Client().get('/api/games/-1/', HTTP_X_REQUEST_ID='proxy-id-42'); "
        "response.close(); logging.getLogger('games').warning('after'); "
        "print(response['X-Request-ID'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip(), result.stderr.strip().splitlines()


@pytest.mark.slow
def test_json_log_lines_of_a_request_carry_its_id() -> None:
    request_id, lines = _log_of_one_request("json")
    assert request_id == "proxy-id-42"
    entries = [json.loads(line) for line in lines if line.startswith("{")]
    outside = next(e for e in entries if e["message"] == "before")
    inside = next(e for e in entries if e["logger"] == "django.request")
    after = next(e for e in entries if e["message"] == "after")
    assert "request_id" not in outside and "request_id" not in after
    assert inside["request_id"] == "proxy-id-42" and "Not Found" in inside["message"]


@pytest.mark.slow
def test_plain_log_lines_of_a_request_carry_its_id() -> None:
    _, lines = _log_of_one_request("plain")
    outside = next(line for line in lines if line.endswith(": before"))
    inside = next(line for line in lines if "django.request" in line)
    after = next(line for line in lines if line.endswith(": after"))
    assert " games [-]: before" in outside and " games [-]: after" in after
    assert "django.request [proxy-id-42]: Not Found" in inside
