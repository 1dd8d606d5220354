"""The account pages and the auth API's answers in the player's language (issue 43): the
log-in page, an API refusal, and the deletion phrase a German page asks to type."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.models import User
from tests.factories import make_player

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

PASSWORD = "a long enough pass 42"


def test_the_log_in_page_and_a_refused_log_in_speak_german() -> None:
    browser = Client(HTTP_ACCEPT_LANGUAGE="de")
    page = browser.get("/login/").content.decode()
    assert "<h1>Anmelden</h1>" in page and "Passwort vergessen?" in page
    refused = browser.post(
        "/api/auth/login/",
        json.dumps({"username": "nobody", "password": "wrong one"}),
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert refused.json()["detail"] == "Benutzername oder Passwort ist falsch."


def test_a_german_page_deletes_with_the_phrase_it_shows() -> None:
    player = make_player("dora")
    player.set_password(PASSWORD)
    player.save()
    browser = Client(HTTP_ACCEPT_LANGUAGE="de")
    browser.force_login(player)
    assert "&bdquo;mein Konto löschen&ldquo;" in browser.get("/account/").content.decode()
    answer = browser.post(
        "/api/auth/delete/",
        json.dumps({"confirm": "mein Konto löschen", "password": PASSWORD}),
        content_type="application/json",
    )
    assert answer.status_code == 200, answer.content
    assert User.objects.get(pk=player.pk).deleted_at is not None
