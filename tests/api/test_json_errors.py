"""Every path under /api/ answers JSON, with DEBUG on (`make run`) as with it off: a path no
route takes, an id a route's converter refuses, a wrong method; and the schema lists
those answers (docs/api.md, "Conventions")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from tests.factories import logged_in, make_player

pytestmark = pytest.mark.django_db

NOT_FOUND = {"detail": "not found"}

# Paths no route takes: an id the <id:...> converter refuses (0, past 2^63 - 1, negative),
# an unknown path, one without its trailing slash.
UNROUTED = [
    "/api/games/0/",
    "/api/games/0/moves/",
    "/api/games/9223372036854775808/",
    "/api/games/-1/",
    "/api/leagues/0/",
    "/api/leaderboards/leagues/0/",
    "/api/nope/",
    "/api/daily",
    "/api/",
]


@pytest.fixture(params=[True, False], ids=["debug", "production"])
def debug(request: pytest.FixtureRequest, settings: Any) -> bool:
    """Django answers its own 404 with a technical HTML page when DEBUG is on, whatever
    handler404 says."""
    settings.DEBUG = request.param
    return bool(request.param)


@pytest.mark.parametrize("path", UNROUTED)
def test_a_path_no_route_takes_is_a_json_404(debug: bool, client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == NOT_FOUND


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize("path", ["/api/games/0/resign/", "/api/nope/", "/api/games"])
def test_an_unsafe_request_to_no_route_is_a_json_404(
    debug: bool, client: Client, method: str, path: str
) -> None:
    """Without a CSRF token too (nothing is there to protect), and without the trailing
    slash: never Django's CSRF page, nor its error for a POST it cannot redirect."""
    response = getattr(client, method)(path, "{}", content_type="application/json")
    assert response.status_code == 404
    assert response.json() == NOT_FOUND


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "/api/auth/login/"), ("get", "/api/games/1/moves/"), ("put", "/api/daily/")],
)
def test_a_wrong_method_is_a_json_405(debug: bool, method: str, path: str) -> None:
    client = logged_in(make_player("wrong-method"))
    client.get("/api/auth/me/")  # the CSRF cookie, as the pages get it
    token = client.cookies["csrftoken"].value
    response = getattr(client, method)(path, HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    assert "not allowed" in response.json()["detail"]


# ----- the schema lists what these answers are ------------------------------------------


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    document: dict[str, Any] = json.loads(response.content)
    return document


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    ]


def test_every_operation_with_a_path_parameter_lists_404(schema: dict[str, Any]) -> None:
    for path, method, operation in operations(schema):
        if any(p["in"] == "path" for p in operation.get("parameters", [])):
            assert "404" in operation["responses"], (method, path)


def test_every_unsafe_operation_lists_the_csrf_403(schema: dict[str, Any]) -> None:
    unsafe = [
        (path, method, operation)
        for path, method, operation in operations(schema)
        if method in {"post", "put", "patch", "delete"}
    ]
    assert unsafe
    for path, method, operation in unsafe:
        assert "403" in operation["responses"], (method, path)
    login = schema["paths"]["/api/auth/login/"]["post"]["responses"]["403"]
    assert "CSRF" in login["description"]


def test_an_id_in_a_path_is_declared_as_the_numbers_its_route_takes(
    schema: dict[str, Any],
) -> None:
    parameter = schema["paths"]["/api/games/{game_id}/"]["get"]["parameters"][0]
    assert parameter["name"] == "game_id"
    assert parameter["schema"] == {
        "type": "integer",
        "format": "int64",
        "minimum": 1,
        "maximum": 2**63 - 1,
    }


def test_a_string_refused_blank_is_declared_with_a_minimum_length(
    schema: dict[str, Any],
) -> None:
    components = schema["components"]["schemas"]
    login = components["LoginRequest"]["properties"]
    assert login["username"]["minLength"] == 1
    assert login["password"]["minLength"] == 1
    move = components["MoveInputRequest"]["properties"]
    assert move["move"]["minLength"] == 1


def test_the_login_is_optional_where_a_guest_may_call(schema: dict[str, Any]) -> None:
    """OpenAPI's way: ``{}`` among the security requirements; where a log-in is required,
    only the session cookie."""
    optional: list[dict[str, list[str]]] = [{"cookieAuth": []}, {}]
    for path, method in [
        ("/api/auth/me/", "get"),
        ("/api/auth/logout/", "post"),
        ("/api/leaderboards/alltime/", "get"),
        ("/api/leaderboards/streaks/", "get"),
        ("/api/leaderboards/home/", "get"),
        ("/api/daily/", "get"),
        ("/api/games/", "post"),
    ]:
        assert schema["paths"][path][method]["security"] == optional, (method, path)
    for path, method in [("/api/auth/export/", "get"), ("/api/follows/", "get")]:
        assert schema["paths"][path][method]["security"] == [{"cookieAuth": []}], (method, path)


def test_the_schema_leaves_its_own_view_out(schema: dict[str, Any]) -> None:
    """apikit/schema_view.py serves it; like drf-spectacular's own view, it is no operation."""
    assert "/api/schema/" not in schema["paths"]
