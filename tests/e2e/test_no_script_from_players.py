"""Nothing a player writes runs in anyone's browser (issue 41, "A content security policy").

Markup goes into every field a player can write: the reasons of a game's report and of a
league's (names refuse markup: tests/security/test_content_security_policy.py shows the
400, and here the longest strange names they take stand in). Then one staff moderator, with
a passed second factor, visits every page that shows them, the admin included, and every
other page the browser tests visit; a guest the log-in, sign-up and invite pages. On each
page: the policy header with its nonce, the written text shown as text, no dialog, no
`window.__pwned`, and no report of the policy refusing anything (a refusal would be our own
code blocked). Last, markup slipped into a page the way a future bug could (HTML from a
string) is refused by the policy: the last line holds without the first.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client

from social.models import League
from tests.accounts.test_openid_connect import (  # the stand-in provider and its fixture
    StandInProvider,
    provider,  # noqa: F401
)
from tests.factories import DESKTOP, LINES, client_for, make_day, make_player
from tests.security.test_content_security_policy import STRANGE_LEAGUE, STRANGE_NAME
from yukon_site import security_headers

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PAYLOAD = '"><img src=x onerror=alert(1)><script>window.__pwned=1</script><svg onload=alert(2)>'
SHOWN = "&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;"
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
"""


def post(client: Client, url: str, data: Any) -> Any:
    response = client.post(url, data, content_type="application/json")
    assert response.status_code in (200, 201), (url, response.content)
    return response.json()


class Visitor:
    """One browser page that keeps what it saw: dialogs, policy reports, console errors."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.dialogs: list[str] = []
        page.page.on("dialog", self._dismiss)
        page.page.context.add_init_script(WATCH)
        self.missing: list[str] = []
        page.page.on("console", self._note_missing)

    def _dismiss(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _note_missing(self, message: Any) -> None:
        if "404" in message.text:
            self.missing.append(message.location.get("url", ""))

    def visit(self, path: str, *shown: str) -> None:
        response = self.page.goto(path)
        assert response.status == 200, (path, response.status)
        policy = response.headers["content-security-policy"]
        # Our pages' scripts carry the nonce; the admin's are Django's files, from 'self'.
        assert "'nonce-" in policy or path.startswith("/admin/"), (path, policy)
        assert "unsafe" not in policy, (path, policy)
        self.page.page.wait_for_load_state("networkidle")
        content = self.page.page.content()
        for text in shown:
            assert text in content, (path, text)
        assert self.page.page.evaluate("window.__pwned") is None, path
        assert self.page.page.evaluate("window.__violations") == [], path
        assert self.dialogs == [], (path, self.dialogs)
        # The admin's pages name no icon, so the browser asks for /favicon.ico (a 404 in
        # the console); nothing else may be missing.
        if self.missing and all(url.endswith("/favicon.ico") for url in self.missing):
            not_found = "Failed to load resource: the server responded with a status of 404"
            self.page.errors = [e for e in self.page.errors if not_found not in e]
        self.missing.clear()
        self.page.assert_clean()


def test_markup_a_player_writes_never_runs_and_our_pages_break_no_rule(
    browse: Any,
    eager_celery: None,
    settings: Any,
    provider: StandInProvider,  # noqa: F811 (the fixture imported above)
) -> None:
    settings.DAILY_PREPARE_ON_REQUEST = False
    easy = make_day()["easy"]
    writer = make_player(STRANGE_NAME)
    writer_client = client_for(writer)
    game_id = post(writer_client, "/api/games/", {"daily": "easy"})["id"]
    for ply, move in enumerate(LINES[easy.deal.number]):
        post(writer_client, f"/api/games/{game_id}/moves/", {"ply": ply, "move": move})
    league = post(writer_client, "/api/leagues/", {"name": STRANGE_LEAGUE})
    token = League.objects.get(pk=league["id"]).invite_token

    moderator = make_player("Mod", staff=True, moderator=True)
    moderator_client = client_for(moderator)
    post(moderator_client, f"/api/leagues/join/{token}/", None)
    report = post(moderator_client, f"/api/games/{game_id}/report/", {"reason": PAYLOAD})
    league_report = post(
        moderator_client, f"/api/leagues/{league['id']}/report/", {"reason": PAYLOAD}
    )

    staff = Visitor(browse(DESKTOP))
    session = moderator_client.cookies["sessionid"].value
    staff.page.page.context.add_cookies(
        [{"name": "sessionid", "value": session, "url": staff.page.base_url}]
    )
    name, league_name, player = STRANGE_NAME, STRANGE_LEAGUE, quote(STRANGE_NAME)
    staff.visit("/", league_name, name)
    staff.visit("/leaderboards/daily/", name)
    staff.visit(f"/players/{player}/", name)
    staff.visit("/leagues/", league_name)
    staff.visit(f"/leagues/{league['id']}/", league_name, name)
    staff.visit(f"/leagues/join/{token}/", league_name)
    staff.visit(f"/replay/{game_id}/")
    staff.visit("/practice/")
    staff.visit("/practice/0/")
    assert staff.page.page.locator("[data-card] svg").count() > 20  # the board's cards, drawn
    staff.visit("/archive/")
    staff.visit("/how-to-play/")
    staff.visit("/fair-play/")
    staff.visit("/account/")
    staff.visit("/privacy/")
    staff.visit("/terms/")
    staff.visit("/admin/")
    staff.visit("/admin/moderation/report/", SHOWN)
    staff.visit(f"/admin/moderation/report/{report['id']}/change/", SHOWN)
    staff.visit("/admin/moderation/leaguereport/", SHOWN)
    staff.visit(f"/admin/moderation/leaguereport/{league_report['id']}/change/", SHOWN)
    staff.visit(f"/admin/social/league/{league['id']}/change/", league_name)
    staff.visit(f"/admin/moderation/player/?q={quote(name)}", name)
    staff.visit(f"/admin/games/game/{game_id}/change/", name)
    staff.visit("/admin/metrics/")

    guest = Visitor(browse(DESKTOP))
    guest.visit("/login/")
    guest.visit("/signup/")
    guest.visit(f"/leagues/join/{token}/", league_name, name)

    # Sign-in through OpenID Connect: the form posted here is redirected to the provider,
    # which form-action must allow, and back to the sign-up of a first-time account.
    settings.CONTENT_SECURITY_POLICY = security_headers.content_security_policy(provider.url)
    guest.visit("/login/")
    guest.page.page.get_by_role("button", name="Log in with Stand-in ID").click()
    guest.page.page.wait_for_url("**/accounts/3rdparty/signup/**")
    guest.page.page.wait_for_load_state("networkidle")
    assert guest.page.page.evaluate("window.__violations") == []
    guest.page.assert_clean()

    # The last line: an element made from a string with a handler in it is refused.
    guest.page.page.evaluate(
        "document.body.insertAdjacentHTML('beforeend', '<img src=x onerror=\"window.__pwned=1\">')"
    )
    guest.page.page.wait_for_function("() => window.__violations.length > 0")
    assert guest.page.page.evaluate("window.__pwned") is None
    assert guest.page.page.evaluate("window.__violations")[0].startswith("script-src-attr")
