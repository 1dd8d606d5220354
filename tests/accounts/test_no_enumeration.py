"""No email enumeration (issue 38, "Fair play"): sign-up and password reset answer an
email address that has an account exactly as one that has none, on every way in (the
old /api/auth/signup/, allauth's headless API, allauth's sign-up page), and the mail
they cause goes out through a real Celery worker to a real SMTP server
(tests/accounts/mailbox.py). That the two take the same time is measured, not tested:
bench/bench_account_timing.py."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.test import Client

from accounts.models import User
from tests.accounts.mailbox import Mailbox
from tests.factories import closed_port, make_player

# The sign-up queues its mail when its writes commit: the test's must really commit.
pytestmark = pytest.mark.django_db(transaction=True)

AUTH = "/_allauth/browser/v1"
PASSWORD = "a long enough pass 42"
ALREADY_EXISTS = "an account using that email address already exists"

Answer = tuple[int, Any]


def tag() -> str:
    return uuid.uuid4().hex[:8]


def visitor() -> Client:
    """A client from an address of its own: allauth's per-address limits (sign-ups,
    resets) are kept in Redis across tests."""
    octets = uuid.uuid4().bytes[:3]
    return Client(REMOTE_ADDR="10." + ".".join(str(b) for b in octets))


@pytest.fixture
def owner() -> User:
    """A player whose verified address someone else will type."""
    name = f"Owner {tag()}"
    address = f"owner-{tag()}@example.org"
    user = make_player(name, email=address)
    EmailAddress.objects.create(user=user, email=address, verified=True, primary=True)
    return user


# ------------------------------------------------------------------ the three ways in


def sign_up_ours(client: Client, username: str, email: str) -> Answer:
    data = {"username": username, "display_name": username, "password": PASSWORD, "email": email}
    response = client.post("/api/auth/signup/", json.dumps(data), content_type="application/json")
    return response.status_code, response.json()


def sign_up_headless(client: Client, username: str, email: str) -> Answer:
    data = {"username": username, "display_name": username, "password": PASSWORD, "email": email}
    response = client.post(f"{AUTH}/auth/signup", json.dumps(data), content_type="application/json")
    return response.status_code, response.json()


def sign_up_page(client: Client, username: str, email: str) -> Answer:
    """allauth's HTML form: the answer is a redirect; its body is the page it leads to,
    with the address typed (which the visitor knows) and the per-page tokens put aside."""
    data = {"username": username, "display_name": username, "password1": PASSWORD, "email": email}
    response = client.post("/accounts/signup/", data)
    shown = client.get(response["Location"]) if response.status_code == 302 else response
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", shown.content.decode())
    page = re.sub(r'nonce="[^"]*"', "", page)  # the content security policy's, new each page
    page = page.replace(email, "<the address typed>")
    return response.status_code, {"location": response.get("Location"), "page": page}


SIGN_UPS: dict[str, Callable[[Client, str, str], Answer]] = {
    "ours": sign_up_ours,
    "headless": sign_up_headless,
    "page": sign_up_page,
}


def log_in_headless(username: str) -> Answer:
    data = {"username": username, "password": PASSWORD}
    response = visitor().post(
        f"{AUTH}/auth/login", json.dumps(data), content_type="application/json"
    )
    return response.status_code, response.json()


def log_in_ours(username: str) -> Answer:
    data = {"username": username, "password": PASSWORD}
    response = visitor().post("/api/auth/login/", json.dumps(data), content_type="application/json")
    return response.status_code, response.json()


def shape(value: Any) -> Any:
    """The keys and types of a JSON answer, all the way down."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(item) for item in value]
    return type(value).__name__


# ------------------------------------------------------------------ sign-up


@pytest.mark.slow
@pytest.mark.parametrize("route", SIGN_UPS)
def test_a_taken_address_gets_the_answer_a_free_one_gets(
    route: str, owner: User, mailbox: Mailbox
) -> None:
    sign_up = SIGN_UPS[route]
    taken = sign_up(visitor(), f"taker{tag()}", owner.email)
    free = sign_up(visitor(), f"fresh{tag()}", f"fresh-{tag()}@example.org")
    assert taken[0] == free[0], (taken, free)
    assert shape(taken[1]) == shape(free[1])
    assert taken[1] == free[1]  # not only the shape: the very same answer
    assert free[0] in {201, 401, 302}, free  # made, waiting for the address (not a 400)
    # the headless API has one client here: no app client to ask instead
    assert visitor().post("/_allauth/app/v1/auth/signup").status_code == 404


@pytest.mark.slow
@pytest.mark.parametrize("route", SIGN_UPS)
def test_the_taken_address_is_not_attached_and_its_owner_is_told(
    route: str, owner: User, mailbox: Mailbox
) -> None:
    taker_name, fresh_name = f"taker{tag()}", f"fresh{tag()}"
    fresh_address = f"fresh-{tag()}@example.org"
    SIGN_UPS[route](visitor(), taker_name, owner.email)
    SIGN_UPS[route](visitor(), fresh_name, fresh_address)

    taker = User.objects.get(username=taker_name)  # the account is made all the same
    assert taker.email == ""
    assert not EmailAddress.objects.filter(user=taker).exists()
    holders = EmailAddress.objects.filter(email__iexact=owner.email)
    assert [(a.user_id, a.verified) for a in holders] == [(owner.pk, True)]
    fresh = User.objects.get(username=fresh_name)
    assert list(EmailAddress.objects.filter(user=fresh).values_list("email", "verified")) == [
        (fresh_address, False)
    ]

    tried = mailbox.wait_for(owner.email)  # "someone tried to sign up with your address"
    assert "Account Already Exists" in str(tried["Subject"])
    body = " ".join(mailbox.body(tried).split())
    assert ALREADY_EXISTS in body and owner.email in body
    assert mailbox.link(tried, "/accounts/password/reset/")
    link = mailbox.wait_for(fresh_address)
    assert mailbox.link(link, "/accounts/confirm-email/")
    assert len(mailbox.to(owner.email)) == 1  # no confirmation link went to the owner


@pytest.mark.slow
@pytest.mark.parametrize("route", SIGN_UPS)
def test_neither_logs_in_until_an_address_is_confirmed(
    route: str, owner: User, mailbox: Mailbox
) -> None:
    """The same log-in state: not logged in after the sign-up, and a log-in with the
    right password is held back alike, until the free address's link is followed."""
    taker_name, fresh_name = f"taker{tag()}", f"fresh{tag()}"
    fresh_address = f"fresh-{tag()}@example.org"
    for name, address in ((taker_name, owner.email), (fresh_name, fresh_address)):
        client = visitor()
        SIGN_UPS[route](client, name, address)
        assert client.get("/api/auth/me/").json() == {"authenticated": False, "player": None}

    held = [log_in_headless(taker_name), log_in_headless(fresh_name)]
    assert held[0] == held[1]
    assert (
        held[0][0] == 401
        and {"id": "verify_email", "is_pending": True} in held[0][1]["data"]["flows"]
    )
    ours = [log_in_ours(taker_name), log_in_ours(fresh_name)]
    assert ours[0] == ours[1]
    assert ours[0][0] == 401 and ours[0][1]["detail"].startswith("Confirm your email address")

    # the free address's owner follows the link: that account logs in from then on
    link = mailbox.link(mailbox.wait_for(fresh_address), "/accounts/confirm-email/")
    assert visitor().post(link).status_code == 302
    assert log_in_headless(fresh_name)[0] == 200
    assert User.objects.get(username=fresh_name).awaiting_email_confirmation is False
    assert log_in_headless(taker_name)[0] == 401  # nothing of it can ever be confirmed


# ------------------------------------------------------------------ password reset


def reset_headless(client: Client, email: str) -> Answer:
    response = client.post(
        f"{AUTH}/auth/password/request",
        json.dumps({"email": email}),
        content_type="application/json",
    )
    return response.status_code, response.json()


def reset_page(client: Client, email: str) -> Answer:
    response = client.post("/accounts/password/reset/", {"email": email})
    return response.status_code, {"location": response.get("Location")}


@pytest.mark.celery
@pytest.mark.parametrize("reset", [reset_headless, reset_page], ids=["headless", "page"])
def test_a_reset_answers_a_known_address_as_an_unknown_one_without_waiting_for_the_mail(
    reset: Callable[[Client, str], Answer], owner: User, mailbox: Mailbox, settings: Any
) -> None:
    """The web process cannot reach any mail server here: the answer for an address we
    know must not depend on its mail, which the worker sends afterwards."""
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", closed_port()
    unknown = f"nobody-{tag()}@example.org"
    for_unknown = reset(visitor(), unknown)
    for_known = reset(visitor(), owner.email)
    assert for_known == for_unknown
    assert for_known[0] in {200, 302}, for_known
    message = mailbox.wait_for(owner.email)
    assert mailbox.link(message, "/accounts/password/reset/key/")
    # the worker sends in order: had the unknown address been mailed, it would be here
    assert mailbox.to(unknown) == []
