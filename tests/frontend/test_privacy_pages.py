"""The privacy and terms pages (issue 41, item 1): linked from every page's footer and from
sign-up; their retention figures are the settings the purges obey; the cookie list names
every cookie the site sets, and no other is set."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from tests.factories import make_challenges

pytestmark = [pytest.mark.django_db]

PRIVACY, TERMS = "/privacy/", "/terms/"
FOOTER = re.compile(
    r'<footer class="site-footer">.*href="/privacy/".*href="/terms/".*'
    r'href="/privacy/#cookies">Only essential cookies</a>',
    re.S,
)
ACCEPT = re.compile(r'you accept the <a href="/terms/">terms</a> and the <a href="/privacy/">')


def page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def text_of(html: str) -> str:
    """The page's words without its tags, one space between each, entities read."""
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def listed_cookies(html: str) -> set[str]:
    table = html.split('<table class="table cookies">', 1)[1].split("</table>", 1)[0]
    return set(re.findall(r'<th scope="row"><code>([^<]+)</code>', table))


@pytest.mark.parametrize(
    "path", ["/", "/faq/", "/signup/", PRIVACY, TERMS, "/accounts/password/reset/"]
)
def test_every_page_links_privacy_terms_and_cookies_in_its_footer(path: str) -> None:
    assert FOOTER.search(page(Client(), path)), path


def test_sign_up_says_what_you_accept() -> None:
    assert ACCEPT.search(page(Client(), "/signup/"))
    assert not ACCEPT.search(page(Client(), "/login/"))


def test_the_pages_state_the_retention_settings(settings: Any) -> None:
    html = text_of(page(Client(), PRIVACY))
    assert "How long: 30 days." in html
    assert "a guest's daily game 7 days after its day closed" in html
    assert "A session lasts 14 days after it last changed" in html
    assert "for 30 days" in text_of(page(Client(), TERMS))

    settings.MODERATION_ORIGIN_DAYS, settings.GUEST_GAME_DAYS = 45, 3
    settings.SESSION_COOKIE_AGE = 24 * 3600
    html = text_of(page(Client(), PRIVACY))
    assert "How long: 45 days." in html
    assert "a guest's daily game 3 days after its day closed" in html
    assert "A session lasts 1 day after it last changed" in html
    assert "for 45 days" in text_of(page(Client(), TERMS))


@pytest.mark.slow  # a sign-up and a log-in hash a password each
@pytest.mark.postgres
def test_no_cookie_but_the_listed_ones_is_ever_set(settings: Any) -> None:
    """A guest looks around, starts a daily (the device cookie), signs up and logs in (the
    log-in's device cookie): every cookie set on the way is on the privacy page's list."""
    settings.ACCOUNT_SIGNUP_ANSWER_SECONDS = settings.ACCOUNT_EMAIL_ANSWER_SECONDS = 0
    make_challenges()
    client = Client()
    listed = listed_cookies(page(client, PRIVACY))
    assert len(listed) >= 4
    set_by_site: set[str] = set()

    def visit(response: Any) -> None:
        assert response.status_code < 400, response.content
        set_by_site.update(response.cookies.keys())

    for path in ("/", "/practice/", "/leaderboards/", "/signup/", "/login/"):
        visit(client.get(path))
    json_type = "application/json"
    visit(client.post("/api/games/", json.dumps({"daily": "easy"}), content_type=json_type))
    kim = {"username": "kim", "display_name": "Kim", "password": "a long enough pass 42"}
    visit(client.post("/api/auth/signup/", json.dumps(kim), content_type=json_type))
    visit(client.get("/account/"))
    visit(client.post("/api/auth/logout/", content_type=json_type))
    login = {"username": "kim", "password": kim["password"]}
    visit(client.post("/api/auth/login/", json.dumps(login), content_type=json_type))
    visit(client.post("/language/", {"language": "de"}))  # the header's language picker

    assert {"csrftoken", "sessionid", "yd_device", "yukon_device", "django_language"} <= set_by_site
    assert set_by_site <= listed, f"not on the privacy page: {set_by_site - listed}"
