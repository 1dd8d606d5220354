"""The OpenAPI schema documents every endpoint and validates without a warning."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]

ENDPOINTS = {
    "/api/daily/": {"get"},
    "/api/games/": {"post"},
    "/api/games/{game_id}/": {"get"},
    "/api/games/{game_id}/moves/": {"post"},
    "/api/games/{game_id}/undo/": {"post"},
    "/api/games/{game_id}/resign/": {"post"},
    "/api/games/{game_id}/replay/": {"get"},
    "/api/auth/signup/": {"post"},
    "/api/auth/login/": {"post"},
    "/api/auth/logout/": {"post"},
    "/api/auth/me/": {"get"},
    "/api/auth/display-name/": {"post"},
    "/api/auth/export/": {"get"},
    "/api/auth/delete/": {"post"},
    "/api/account/settings/": {"get", "patch", "put"},
}


def test_schema_lists_every_endpoint_with_its_shapes(client: Client) -> None:
    from drf_spectacular.validation import validate_schema

    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    document = json.loads(response.content)
    validate_schema(document)
    for path, methods in ENDPOINTS.items():
        assert path in document["paths"], path
        assert methods <= set(document["paths"][path]), path
    move = document["paths"]["/api/games/{game_id}/moves/"]["post"]
    assert {"200", "400", "404", "409", "429", "503"} <= set(move["responses"])
    assert "requestBody" in move
    # answers from the stack (apikit/schema.py): 503 everywhere, 429 where limited
    operations = [op for ops in document["paths"].values() for op in ops.values()]
    assert all("503" in op["responses"] for op in operations)
    assert "429" in document["paths"]["/api/auth/login/"]["post"]["responses"]
    assert "429" not in document["paths"]["/api/auth/me/"]["get"]["responses"]
    assert "429" in document["paths"]["/api/auth/display-name/"]["post"]["responses"]
    schemas = document["components"]["schemas"]
    assert "position" in schemas["Game"]["properties"]
    assert "deal" not in schemas["DailyChallenge"]["properties"]
    # The server-side snapshot is never part of any response shape.
    assert all("rejection_reason" not in s.get("properties", {}) for s in schemas.values())


@pytest.mark.slow
def test_spectacular_validates_with_no_warning() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "spectacular",
            "--validate",
            "--fail-on-warn",
            "--file",
            "/dev/null",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_allauth_serves_its_own_spec_of_the_headless_api(client: Client) -> None:
    """The account flows' JSON API is allauth's (docs/api.md): its OpenAPI document is
    served beside ours, at /_allauth/openapi.json."""
    response = client.get("/_allauth/openapi.json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    assert "/_allauth/browser/v1/auth/login" in paths
    assert "/_allauth/browser/v1/auth/webauthn/login" in paths
