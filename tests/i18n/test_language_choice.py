"""Which language a page is in, and how a player chooses one (accounts/language.py,
frontend/catalogue.py; docs/frontend.md, "Languages"): the browser's Accept-Language,
then the picker's cookie, then, once logged in, the account's choice; the picker's endpoint
refuses what it cannot keep; a page not in English loads its JavaScript catalogue, an
English page loads none."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from accounts.language import in_language_of, language_of
from accounts.models import User
from tests.factories import logged_in, make_player

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

CATALOGUE = re.compile(r'<script nonce="[^"]+" src="(/jsi18n/de/[0-9a-f]{16}\.js)" defer></script>')


def page_language(client: Client, **headers: str) -> str:
    html = client.get("/how-to-play/", headers=headers).content.decode()
    found = re.search(r'<html lang="([^"]*)"', html)
    assert found, "no <html lang>"
    return found[1]


def test_the_language_comes_from_the_account_then_the_cookie_then_accept_language() -> None:
    guest = Client()
    assert page_language(guest) == "en"
    assert page_language(guest, accept_language="de-AT,de;q=0.9") == "de"
    guest.cookies["django_language"] = "es"  # the picker's choice beats the browser's
    assert page_language(guest, accept_language="de") == "es"

    ann = make_player("Ann", language="de")
    player = logged_in(ann)
    player.cookies["django_language"] = "es"  # another choice made in this browser before
    assert page_language(player, accept_language="es") == "de"  # the account's wins
    ann.language = ""
    ann.save(update_fields=["language"])
    assert page_language(player, accept_language="de") == "es"  # none chosen: the cookie's


def test_the_picker_keeps_the_choice_in_the_cookie_and_the_account() -> None:
    ann = make_player("Ann")
    player = logged_in(ann)
    response = player.post("/language/", {"language": "es", "next": "/archive/?month=2026-11"})
    assert response.status_code == 302 and response["Location"] == "/archive/?month=2026-11"
    cookie = response.cookies["django_language"]
    assert cookie.value == "es" and cookie["max-age"] == 365 * 24 * 3600 and cookie["httponly"]
    assert User.objects.get(pk=ann.pk).language == "es"
    assert page_language(player) == "es"

    guest = Client()
    response = guest.post(
        "/language/", {"language": "de"}, headers={"sec-fetch-site": "same-origin"}
    )
    assert response.status_code == 302 and response["Location"] == "/"
    assert page_language(guest) == "de"
    assert guest.get("/language/").status_code == 405  # a choice is posted, never a link
    # Without a script the form names no page: back to the one it was posted from, if ours.
    for referer, back in (
        ("http://testserver/archive/?month=2026-11", "/archive/?month=2026-11"),
        ("https://evil.example/archive/", "/"),
    ):
        response = guest.post("/language/", {"language": "es"}, headers={"referer": referer})
        assert response.status_code == 302 and response["Location"] == back


@pytest.mark.parametrize(
    ("data", "headers", "status", "message"),
    [
        ({"language": "fr"}, {}, 400, "Unknown language: choose one of en, de, es."),
        ({}, {}, 400, "Unknown language: choose one of en, de, es."),
        (
            {"language": "de", "next": "https://evil.example/"},
            {},
            400,
            "must be a page of this site",
        ),
        ({"language": "de", "next": "//evil.example/x"}, {}, 400, "must be a page of this site"),
        ({"language": "de", "next": "/\\evil.example"}, {}, 400, "must be a page of this site"),
        ({"language": "de"}, {"sec-fetch-site": "cross-site"}, 403, "this site's own pages"),
        ({"language": "de"}, {"origin": "https://evil.example"}, 403, "this site's own pages"),
    ],
)
def test_the_picker_refuses_what_it_cannot_keep(
    data: dict[str, str], headers: dict[str, str], status: int, message: str
) -> None:
    ann = make_player("Ann")
    response = logged_in(ann).post("/language/", data, headers=headers)
    assert response.status_code == status and message in response.content.decode()
    assert "django_language" not in response.cookies
    assert User.objects.get(pk=ann.pk).language == ""


def test_a_german_page_loads_the_german_catalogue_kept_for_a_year_and_an_english_one_none() -> None:
    client = Client()
    english = client.get("/practice/offline/", headers={"accept-language": "en"}).content.decode()
    assert "/jsi18n/" not in english  # no request more for an English page

    german = client.get("/practice/offline/", headers={"accept-language": "de"}).content.decode()
    found = CATALOGUE.search(german)
    assert found, "no catalogue script on the German page"
    # before the first module of the page: they read it (js/shared/i18n.js)
    assert german.index(found[0]) < german.index('type="module"')
    response = client.get(found[1])  # no Accept-Language: the address says the language
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response["Content-Language"] == "de"
    code = response.content.decode()
    assert "django.pluralidx" in code and '"DATE_FORMAT": "j. F Y"' in code  # German's

    # A page from before a deploy names an old hash: today's catalogue, not kept under it.
    stale = client.get("/jsi18n/de/0123456789abcdef.js")
    assert stale.status_code == 200 and stale["Cache-Control"] == "no-cache"
    assert client.get(found[1].replace("/de/", "/en/")).status_code == 404  # English has none
    assert client.get(found[1].replace("/de/", "/xx/")).status_code == 404

    # the installable app keeps it for the offline pages
    plan = re.search(
        r"^const PLAN = (\{.*?^\});$", client.get("/sw.js").content.decode(), re.M | re.S
    )
    assert plan and found[1] in json.loads(plan[1])["catalogues"]


def test_a_new_account_takes_the_language_of_its_sign_up_page() -> None:
    client = Client()
    response = client.post(
        "/api/auth/signup/",
        json.dumps({"username": "bea", "display_name": "Bea", "password": "a long pass phrase 7"}),
        content_type="application/json",
        headers={"accept-language": "es"},
    )
    assert response.status_code == 201, response.content
    assert User.objects.get(username="bea").language == "es"


def test_work_outside_a_request_is_in_the_players_language() -> None:
    assert language_of(User(language="de")) == "de"
    assert language_of(User(language="")) == "en"  # none chosen: the site's
    assert language_of(User(language="fr")) == "en"  # a language no longer shipped
    assert language_of(None) == "en"
    with translation.override("es"):  # a task's language before, whatever it was
        with in_language_of(User(language="de")) as language:
            assert language == "de"
            assert gettext("This field is required.") == "Dieses Feld ist zwingend erforderlich."
        assert translation.get_language() == "es"  # and after
