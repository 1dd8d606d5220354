"""Account flows on django-allauth: the headless API the browser client speaks, email
verification and password reset through a real SMTP server, password and display-name
changes, and the old /api/auth/ endpoints as thin wrappers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

from accounts.models import User
from tests.accounts.mailbox import Mailbox
from tests.factories import client_for, make_player

pytestmark = pytest.mark.django_db

AUTH = "/_allauth/browser/v1"
PASSWORD = "a long enough pass 42"
NEW_PASSWORD = "another long pass 43"


def call(client: Client, method: str, url: str, data: Any = None) -> tuple[int, Any]:
    kwargs: dict[str, Any] = {}
    if data is not None:
        kwargs = {"data": json.dumps(data), "content_type": "application/json"}
    response = getattr(client, method)(url, **kwargs)
    assert response.status_code < 500, response.content
    return response.status_code, response.json() if response.content else None


def sign_up(client: Client, username: str, **extra: str) -> tuple[int, Any]:
    data = {"username": username, "password": PASSWORD, **extra}
    return call(client, "post", f"{AUTH}/auth/signup", data)


def test_headless_sign_up_logs_in_with_the_display_name() -> None:
    client = Client()
    status, body = sign_up(client, "frank", display_name="Frank the Fox")
    assert status == 200, body
    assert body["meta"]["is_authenticated"] is True
    assert body["data"]["user"]["display_name"] == "Frank the Fox"
    me = client.get("/api/auth/me/").json()
    assert me["player"]["username"] == "frank" and me["player"]["display_name"] == "Frank the Fox"


def test_headless_sign_up_without_a_display_name_uses_the_username() -> None:
    status, body = sign_up(Client(), "gina")
    assert status == 200, body
    assert User.objects.get(username="gina").display_name == "gina"


@pytest.mark.parametrize(
    ("extra", "param", "message"),
    [
        ({"display_name": "A1ice"}, "display_name", "too close"),
        ({"display_name": "<b>"}, "display_name", "letters, digits"),
        ({"username": "ALICE"}, "username", "That username is taken."),
        ({"password": "123"}, "password", ""),
        ({"email": "not an address"}, "email", ""),
    ],
)
def test_headless_sign_up_refusals_are_400_with_the_field(
    extra: dict[str, str], param: str, message: str
) -> None:
    make_player("Alice")
    status, body = sign_up(Client(), **{"username": "mallory", **extra})
    assert status == 400, body
    errors = {e.get("param"): e["message"] for e in body["errors"]}
    assert param in errors and message in errors[param], body
    assert not User.objects.filter(username="mallory").exists()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # the mail is queued when the sign-up commits
def test_email_is_verified_by_the_link_mailed(mailbox: Mailbox) -> None:
    client = Client()
    status, body = sign_up(client, "hana", email="hana@example.org")
    # an address given: no log-in until it is confirmed (tests/accounts/test_no_enumeration.py)
    assert status == 401 and body["meta"]["is_authenticated"] is False, body
    assert {"id": "verify_email", "is_pending": True} in body["data"]["flows"]
    address = EmailAddress.objects.get(email="hana@example.org")
    assert address.verified is False
    message = mailbox.wait_for("hana@example.org")
    link = mailbox.link(message, "/accounts/confirm-email/")
    assert client.get(link).status_code == 200  # the page with its "Confirm" button
    response = client.post(link)
    assert response.status_code == 302
    address.refresh_from_db()
    assert address.verified is True
    status, body = call(
        Client(), "post", f"{AUTH}/auth/login", {"username": "hana", "password": PASSWORD}
    )
    assert status == 200 and body["data"]["user"]["email"] == "hana@example.org", body
    # a made-up key confirms nothing
    assert Client().post("/accounts/confirm-email/not-a-key/").status_code in (200, 404)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_lost_password_is_reset_by_the_link_mailed(mailbox: Mailbox) -> None:
    user = make_player("Ivy", email="ivy@example.org")
    user.set_password(PASSWORD)
    user.save()
    EmailAddress.objects.create(user=user, email="ivy@example.org", verified=True, primary=True)
    client = Client()
    status, body = call(
        client, "post", f"{AUTH}/auth/password/request", {"email": "ivy@example.org"}
    )
    assert status == 200, body
    message = mailbox.wait_for("ivy@example.org")
    link = mailbox.link(message, "/accounts/password/reset/key/")
    page = client.get(link, follow=True)
    assert page.status_code == 200
    form_url = page.redirect_chain[-1][0] if page.redirect_chain else link
    response = client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302, response.content.decode()[:2000]
    status, _ = call(
        Client(), "post", "/api/auth/login/", {"username": "ivy", "password": PASSWORD}
    )
    assert status == 400
    status, _ = call(
        Client(), "post", "/api/auth/login/", {"username": "ivy", "password": NEW_PASSWORD}
    )
    assert status == 200
    # the link works once
    again = Client().get(link, follow=True)
    assert "password1" not in again.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_reset_for_an_unknown_address_sends_nothing_and_says_the_same(mailbox: Mailbox) -> None:
    status, body = call(
        Client(), "post", f"{AUTH}/auth/password/request", {"email": "nobody@example.org"}
    )
    assert status == 200, body
    # a known address next: once its mail is in, the unknown one's would be too
    known = make_player("Known", email="known@example.org")
    EmailAddress.objects.create(user=known, email="known@example.org", verified=True, primary=True)
    again = call(Client(), "post", f"{AUTH}/auth/password/request", {"email": "known@example.org"})
    assert again == (status, body)
    mailbox.wait_for("known@example.org")
    assert mailbox.to("nobody@example.org") == []


@pytest.mark.slow
def test_change_password_through_the_headless_api() -> None:
    client = Client()
    sign_up(client, "jack")
    status, body = call(
        client,
        "post",
        f"{AUTH}/account/password/change",
        {"current_password": "wrong one", "new_password": NEW_PASSWORD},
    )
    assert status == 400, body
    status, body = call(
        client,
        "post",
        f"{AUTH}/account/password/change",
        {"current_password": PASSWORD, "new_password": NEW_PASSWORD},
    )
    assert status == 200, body
    assert client.get("/api/auth/me/").json()["authenticated"] is True  # still logged in
    assert User.objects.get(username="jack").check_password(NEW_PASSWORD)


def test_the_display_name_changes_and_keeps_the_look_alike_rule(settings: Any) -> None:
    make_player("Alice")
    kate = make_player("Kate")
    client = client_for(kate)
    status, body = call(client, "post", "/api/auth/display-name/", {"display_name": "AIice"})
    assert status == 400 and "too close" in body["detail"], body
    status, body = call(client, "post", "/api/auth/display-name/", {"display_name": ["x"]})
    assert status == 400, body
    status, body = call(
        client, "post", "/api/auth/display-name/", {"display_name": "Kate the Great"}
    )
    assert status == 200 and body["player"]["display_name"] == "Kate the Great", body
    assert client.get("/api/auth/me/").json()["player"]["display_name"] == "Kate the Great"
    status, body = call(Client(), "post", "/api/auth/display-name/", {"display_name": "Anon"})
    assert status == 403


def test_display_name_changes_are_rate_limited(settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "display_name": "2/day",
        },
    }
    client = client_for(make_player("Lena"))
    for name in ("Lena One", "Lena Two"):
        assert call(client, "post", "/api/auth/display-name/", {"display_name": name})[0] == 200
    status, body = call(client, "post", "/api/auth/display-name/", {"display_name": "Lena Three"})
    assert status == 429, body
    assert User.objects.get(username="lena").display_name == "Lena Two"


@pytest.mark.slow
def test_the_old_endpoints_wrap_allauth() -> None:
    client = Client()
    status, body = call(
        client,
        "post",
        "/api/auth/signup/",
        {
            "username": "mia",
            "display_name": "Mia",
            "password": PASSWORD,
            "email": "mia@example.org",
        },
    )
    # made, and waiting for its address to be confirmed before it logs in
    assert status == 201, body
    assert body == {"authenticated": False, "player": None, "confirm_email": True}
    assert EmailAddress.objects.filter(email="mia@example.org", verified=False).exists()
    status, body = call(
        client,
        "post",
        "/api/auth/signup/",
        {"username": "nia", "display_name": "Nia", "password": PASSWORD},
    )
    assert status == 201 and body["player"]["display_name"] == "Nia", body
    assert body["confirm_email"] is False
    assert call(client, "post", "/api/auth/logout/", {})[1]["authenticated"] is False
    status, body = call(client, "get", f"{AUTH}/auth/session")
    assert status == 401  # allauth sees the same session: logged out
    status, body = call(
        client, "post", "/api/auth/login/", {"username": "MIA", "password": PASSWORD}
    )
    assert status == 401 and body["detail"].startswith("Confirm your email address"), body
    status, body = call(
        client, "post", "/api/auth/login/", {"username": "NIA", "password": PASSWORD}
    )
    assert status == 200 and body["player"]["username"] == "nia", body
    status, body = call(client, "get", f"{AUTH}/auth/session")
    assert status == 200 and body["data"]["user"]["username"] == "nia"


@pytest.mark.slow
def test_headless_log_in_keeps_the_per_account_wait(settings: Any) -> None:
    settings.LOGIN_BACKOFF_FREE_FAILURES = 1
    settings.LOGIN_BACKOFF_BASE_SECONDS = settings.LOGIN_BACKOFF_MAX_SECONDS = 600
    sign_up(Client(), "nora")
    guesser = Client()
    status, _ = call(guesser, "post", f"{AUTH}/auth/login", {"username": "nora", "password": "x1"})
    assert status == 400
    call(guesser, "post", f"{AUTH}/auth/login", {"username": "nora", "password": "x2"})
    status, body = call(
        guesser, "post", f"{AUTH}/auth/login", {"username": "nora", "password": PASSWORD}
    )
    assert status == 400 and "Too many failed log-ins" in body["errors"][0]["message"], body


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_look_alike_signing_up_through_allauth_at_the_same_moment_gets_a_400() -> None:
    """Alice's sign-up holds the lock on her name's key while Mallory's look-alike comes
    through the headless API: Mallory's waits, then sees Alice: 400, never a 500."""
    import threading

    from django.db import connection, transaction

    from accounts.services import display_name_lock_id
    from accounts.skeleton import name_key

    answers: list[tuple[int, Any]] = []

    def mallory_signs_up() -> None:
        answers.append(sign_up(Client(), "mallory", display_name="A1ice"))
        connection.close()

    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s)", [display_name_lock_id(name_key("Alice"))]
            )
        mallory = threading.Thread(target=mallory_signs_up)
        mallory.start()
        mallory.join(timeout=1.0)
        assert mallory.is_alive(), answers  # waiting for the lock, nothing written
        User.objects.create_user(username="alice", display_name="Alice")
    mallory.join(timeout=10)
    assert answers and answers[0][0] == 400, answers
    assert answers[0][1]["errors"][0]["param"] == "display_name"
    assert "too close" in answers[0][1]["errors"][0]["message"]
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


def test_a_wrong_password_is_told_in_the_log_in_forms_own_words() -> None:
    """The /login/ page names its field "Log-in name", and a wrong password said "The
    username and/or password you specified are not correct." (allauth's words)."""
    make_player("Ola")
    for language, said in [("en", "Wrong log-in name or password."), ("de", "Falscher")]:
        status, body = call(
            Client(HTTP_ACCEPT_LANGUAGE=language),
            "post",
            f"{AUTH}/auth/login",
            {"username": "ola", "password": "not the password 1"},
        )
        assert status == 400
        (error,) = body["errors"]
        assert error["message"].startswith(said), error
