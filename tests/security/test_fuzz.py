"""Schemathesis fuzzes every operation of /api/schema/ with a fixed budget and seed, as a
logged-in player with a CSRF token and games of their own: no 500s, and every response
matches the schema (status code documented, body conforming)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
)
from schemathesis.generation import GenerationMode

from tests.factories import make_challenges, make_user
from yukon_site.wsgi import application

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

CSRF = "f" * 32  # an unmasked token: the cookie and the header carry the same secret


@pytest.fixture
def api_schema(settings: Any, session_headers: dict[str, str]) -> Iterator[Any]:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"signup": "10000/s", "login": "10000/s", "moves": "10000/s"},
    }
    # As Django's test client does: the WSGI app must not close the test's connection
    # (its transaction holds the test data) at the end of each request. After
    # session_headers: the test client connects these again when it is done.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        loaded = schemathesis.openapi.from_wsgi("/api/schema/", application)
        # schema-valid requests only, as before schemathesis 4 (whose default adds invalid ones)
        loaded.config.generation.update(modes=[GenerationMode.POSITIVE])
        yield loaded
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture
def session_headers() -> dict[str, str]:
    make_challenges()
    client = Client()
    client.force_login(make_user("fuzz"))
    for deal in (0, 1):
        client.post("/api/games/", {"deal": deal}, content_type="application/json")
    client.post("/api/games/", {"daily": "easy"}, content_type="application/json")
    session = client.cookies["sessionid"].value
    return {"Cookie": f"sessionid={session}; csrftoken={CSRF}", "X-CSRFToken": CSRF}


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=12,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_fuzz(case: Any, session_headers: dict[str, str]) -> None:
    if case.path == "/api/auth/logout/":
        return  # would end the session the other operations use
    response = case.call(headers=session_headers)
    case.validate_response(
        response,
        checks=(not_a_server_error, response_schema_conformance, content_type_conformance),
    )
