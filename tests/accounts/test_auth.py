"""Accounts: the custom user with a display name, the auth API and the pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from tests.factories import client_for

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough pass 42"


def post(client: Client, url: str, data: Any) -> tuple[int, Any]:
    response = client.post(url, data, content_type="application/json")
    assert response.status_code < 500
    return response.status_code, response.json()


def test_the_user_model_is_ours() -> None:
    assert settings.AUTH_USER_MODEL == "accounts.User"


@pytest.mark.slow
def test_signup_login_logout_me(client: Client) -> None:
    status, body = post(
        client,
        "/api/auth/signup/",
        {"username": "frank", "display_name": "Frank", "password": PASSWORD},
    )
    assert status == 201 and body["authenticated"] and body["player"]["display_name"] == "Frank"
    assert client.get("/api/auth/me/").json()["player"]["username"] == "frank"
    status, body = post(client, "/api/auth/logout/", {})
    assert status == 200 and body == {"authenticated": False, "player": None}
    assert client.get("/api/auth/me/").json()["authenticated"] is False
    status, body = post(client, "/api/auth/login/", {"username": "frank", "password": "nope"})
    assert status == 400 and body["detail"] == "Wrong username or password."
    status, body = post(client, "/api/auth/login/", {"username": "frank", "password": PASSWORD})
    assert status == 200 and body["player"]["display_name"] == "Frank"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "username: This field is required"),
        ({"username": "g", "display_name": "G", "password": PASSWORD}, "display name has 2 to"),
        ({"username": "g", "display_name": "<script>", "password": PASSWORD}, "letters, digits"),
        ({"username": "g", "display_name": "Gina", "password": "123"}, "password"),
        ({"username": "g h", "display_name": "Gina", "password": PASSWORD}, "username"),
        ({"username": "g", "display_name": "x" * 31, "password": PASSWORD}, "display_name"),
        ({"username": ["g"], "display_name": "Gina", "password": PASSWORD}, "username"),
    ],
)
def test_bad_signups(client: Client, data: Any, message: str) -> None:
    status, body = post(client, "/api/auth/signup/", data)
    assert status == 400 and message in body["detail"], body
    assert User.objects.count() == 0


def test_display_names_are_unique_ignoring_case(client: Client) -> None:
    User.objects.create_user(username="h1", display_name="Hank")
    data = {"username": "h2", "display_name": "hANK", "password": PASSWORD}
    status, body = post(client, "/api/auth/signup/", data)
    assert status == 400 and "taken" in body["detail"]


@pytest.mark.parametrize(
    ("existing", "attempt"),
    [
        ("kate", "\u212aate"),  # the Kelvin sign: NFKC makes it K
        ("kate", "KATE"),
        ("kate", "\uff4b\uff41\uff54\uff45"),  # fullwidth letters
        ("strasse", "stra\u00dfe"),  # ß folds to ss
        ("stra\u00dfe", "STRASSE"),
    ],
)
def test_usernames_are_unique_by_their_folded_form(
    client: Client, existing: str, attempt: str
) -> None:
    """A name that folds (NFKC, then case) to a taken one is taken: otherwise a second
    account named like the first exists, and a log-in limit keyed on the folded name
    (accounts/login_backoff.py) is shared with the attacker's own account."""
    User.objects.create_user(username=existing, display_name="First")
    data = {"username": attempt, "display_name": "Second", "password": PASSWORD}
    status, body = post(client, "/api/auth/signup/", data)
    assert status == 400 and body["detail"] == "username: That username is taken.", body
    assert User.objects.count() == 1


def test_the_admin_add_form_refuses_a_folded_username_too(client: Client) -> None:
    admin = User.objects.create_superuser(username="boss", display_name="Boss", password=PASSWORD)
    client = client_for(admin)
    User.objects.create_user(username="strasse", display_name="First")
    answer = client.post(
        "/admin/accounts/user/add/",
        {
            "username": "stra\u00dfe",
            "display_name": "Second",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "usable_password": "true",
        },
    )
    assert answer.status_code == 200 and "That username is taken." in answer.content.decode()
    assert not User.objects.filter(display_name="Second").exists()


def test_a_change_to_the_player_reaches_their_next_request(client: Client) -> None:
    """Each request's user may come from the cache (accounts/backends.py): a save drops it."""
    user = User.objects.create_user(username="mona", display_name="Mona", password=PASSWORD)
    client.force_login(user)
    assert client.get("/api/auth/me/").json()["player"]["is_banned"] is False
    user.is_banned = True
    user.save(update_fields=["is_banned"])
    assert client.get("/api/auth/me/").json()["player"]["is_banned"] is True
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert client.get("/api/auth/me/").json() == {"authenticated": False, "player": None}
