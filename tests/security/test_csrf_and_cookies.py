"""CSRF on every state-changing browser request, and cookies scripts cannot read."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import make_challenges, make_user

pytestmark = pytest.mark.django_db

# Every unsafe endpoint of the API, with a body that would otherwise be acceptable.
UNSAFE = [
    ("api:games", {}, {"deal": 5}),
    ("api:moves", {"game_id": 0}, {"ply": 0, "move": "Kc>1"}),
    ("api:undo", {"game_id": 0}, {"ply": 1}),
    ("api:resign", {"game_id": 0}, None),
    ("api:signup", {}, {"username": "eve", "display_name": "Eve", "password": "x" * 20}),
    ("api:login", {}, {"username": "alice", "password": "pw"}),
    ("api:logout", {}, None),
]


@pytest.mark.parametrize("logged_in", [True, False], ids=["player", "guest"])
@pytest.mark.parametrize(("name", "kwargs", "body"), UNSAFE, ids=[u[0] for u in UNSAFE])
def test_unsafe_requests_without_the_csrf_token_are_refused(
    name: str, kwargs: dict[str, int], body: object, logged_in: bool
) -> None:
    make_challenges()
    owner = make_user("alice")
    trusted = Client()
    trusted.force_login(owner)
    game_id = trusted.post("/api/games/", {"deal": 7}, content_type="application/json").json()["id"]
    if "game_id" in kwargs:
        kwargs = {"game_id": game_id}
    client = Client(enforce_csrf_checks=True)
    if logged_in:
        client.force_login(owner)
    url = reverse(name, kwargs=kwargs)
    response = client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 403, response.content
    assert "CSRF" in response.json()["detail"]
    # ... and the same request with the token goes through the CSRF check
    client.get("/api/auth/me/")
    token = client.cookies["csrftoken"].value
    response = client.post(
        url, json.dumps(body), content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert "CSRF" not in response.content.decode()


def test_admin_login_form_needs_the_token() -> None:
    make_user("root", staff=True)
    client = Client(enforce_csrf_checks=True)
    response = client.post("/admin/login/", {"username": "root", "password": "x"})
    assert response.status_code == 403


def test_session_cookie_is_http_only_and_csrf_cookie_is_for_the_header(client: Client) -> None:
    client.get("/api/auth/me/")
    token = client.cookies["csrftoken"].value
    response = client.post(
        "/api/auth/signup/",
        {"username": "hana", "display_name": "Hana", "password": "correct horse battery"},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 201, response.content
    session = response.cookies["sessionid"]
    assert session["httponly"] and session["samesite"] == "Lax"
    # the client's script reads csrftoken to send it back in X-CSRFToken
    assert not client.cookies["csrftoken"]["httponly"]


def test_production_cookies_are_secure() -> None:
    import os
    import subprocess
    import sys

    from tests.faults.server import ROOT, TEST_RECEIPT_SIGNING_KEY, TEST_SECRET_KEY

    env = {
        "PATH": os.environ["PATH"],
        "DEBUG": "false",
        "SECRET_KEY": TEST_SECRET_KEY,
        "DAILY_SECRET": "d",
        "RECEIPT_SIGNING_KEY": TEST_RECEIPT_SIGNING_KEY,
        "ALLOWED_HOSTS": "yukon.example",
    }
    probe = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY, "
        "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS > 0, s.SECURE_PROXY_SSL_HEADER)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "yukon_site.settings"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert out == "True True True True True ('HTTP_X_FORWARDED_PROTO', 'https')"
