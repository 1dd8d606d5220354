"""One way in (issue 39, items 5 and 7): allauth's log-in and sign-up addresses lead to the
site's one page of each, carrying where to go after (``next``) only when it is on this
site; an emailed confirmation link leads back there (to an invite, say) through the
log-in page; and the address ``make run`` serves is one where passkeys work."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.accounts.mailbox import Mailbox
from tests.factories import make_player

pytestmark = pytest.mark.django_db

AUTH = "/_allauth/browser/v1"
PASSWORD = "a long enough pass 42"
INVITE = "/leagues/join/AbCdEfGhIjKlMnOpQrStUvWxYz012345/"
ELSEWHERE = ["https://evil.example/", "//evil.example/", "/\\evil.example/", "javascript:alert(1)"]


INVITE_QUERY = "?next=%2Fleagues%2Fjoin%2F" + INVITE.split("/")[3] + "%2F"


def test_allauths_log_in_page_leads_to_ours_with_next() -> None:
    response = Client().get("/accounts/login/", {"next": INVITE})
    assert response.status_code == 302 and response["Location"] == "/login/" + INVITE_QUERY
    assert Client().get("/accounts/login/")["Location"] == "/login/"


@pytest.mark.slow
def test_allauths_sign_up_page_leads_to_ours_and_its_form_still_goes_to_next() -> None:
    """A browser asking for the page gets ours; a client posting allauth's form itself (no
    page of ours) is answered by allauth: made, logged in, sent to the invite."""
    response = Client().get("/accounts/signup/", {"next": INVITE})
    assert response.status_code == 302 and response["Location"] == "/signup/" + INVITE_QUERY
    form = {"username": "poster", "password1": PASSWORD, "email": "", "next": INVITE}
    response = Client().post("/accounts/signup/", form)
    assert response.status_code == 302 and response["Location"] == INVITE
    form = {**form, "username": "poster2", "next": "https://evil.example/"}
    response = Client().post("/accounts/signup/", form)
    assert response.status_code == 302 and response["Location"] == settings.LOGIN_REDIRECT_URL


@pytest.mark.parametrize("elsewhere", ELSEWHERE)
def test_an_address_on_another_site_is_never_carried(elsewhere: str) -> None:
    response = Client().get("/accounts/signup/", {"next": elsewhere})
    assert response.status_code == 302 and response["Location"] == "/signup/"
    response = Client().get("/accounts/login/", {"next": elsewhere})
    assert response.status_code == 302 and response["Location"] == "/login/"


def test_a_refused_post_to_allauths_log_in_form_answers_in_our_words() -> None:
    make_player("Rita")
    page = Client().post("/accounts/login/", {"login": "rita", "password": "wrong"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "<h1>Log in</h1>" in html and 'class="site-header"' in html
    assert "Remember" not in html and "Sign In" not in html


def sign_up_by_mail(client: Client, username: str, address: str, next_url: str) -> Any:
    """The /signup/ page's request: the headless API, with the page's ``next`` in the query."""
    data = {"username": username, "password": PASSWORD, "email": address}
    return client.post(
        f"{AUTH}/auth/signup?next={next_url}", json.dumps(data), content_type="application/json"
    )


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)  # the mail is queued when the sign-up commits
def test_the_confirmation_link_leads_back_to_the_invite_and_never_elsewhere(
    mailbox: Mailbox,
) -> None:
    client = Client()
    answer = sign_up_by_mail(client, "invited", "invited@example.org", INVITE)
    assert answer.status_code == 401, answer.content  # waiting for the address
    link = mailbox.link(mailbox.wait_for("invited@example.org"), "/accounts/confirm-email/")
    page = client.get(link).content.decode()
    assert 'name="next"' in page  # the confirm button's form keeps it
    response = client.post(link)
    assert response.status_code == 302 and response["Location"] == "/login/" + INVITE_QUERY

    lured = Client()
    sign_up_by_mail(lured, "lured", "lured@example.org", "https://evil.example/")
    link = mailbox.link(mailbox.wait_for("lured@example.org"), "/accounts/confirm-email/")
    assert "evil" not in link and "next" not in link
    response = lured.post(link)
    assert response.status_code == 302 and response["Location"] == settings.LOGIN_URL


def test_make_run_serves_an_address_passkeys_accept() -> None:
    """WebAuthn names the site by the page's host and browsers refuse an IP address:
    `make run` serves a name, and the relying party is that name."""
    makefile = (Path(settings.BASE_DIR) / "Makefile").read_text()
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    served = re.search(r"runserver (\S+):(\d+)", run)
    assert served and served.group(1) == "localhost", run
    assert "http://localhost:8000/" in makefile  # `make help` says the same
    host = f"{served.group(1)}:{served.group(2)}"
    answer = Client().get(f"{AUTH}/auth/webauthn/login", HTTP_HOST=host).json()
    assert answer["data"]["request_options"]["publicKey"]["rpId"] == "localhost"


def test_passkey_pages_explain_an_address_that_cannot_use_them() -> None:
    """The page module that says why (an IP address, plain HTTP, no browser support) is on
    the log-in page and on allauth's passkey pages."""
    assert "frontend/js/pages/account.js" in Client().get("/login/").content.decode()
    player = make_player("Keen")
    player.set_password(PASSWORD)  # a way to re-authenticate, which allauth asks for
    player.save()
    client = Client()
    client.force_login(player)
    session = client.session  # confirmed a moment ago: no re-authentication asked
    session["account_authentication_methods"] = [
        {"method": "password", "at": time.time(), "reauthenticated": True}
    ]
    session["account_authentication_methods_user"] = str(player.pk)
    session.save()
    page = client.get("/accounts/2fa/webauthn/add/")
    assert page.status_code == 200, page
    assert "frontend/js/pages/passkeys.js" in page.content.decode()
