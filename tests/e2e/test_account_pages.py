"""The account pages in the house style (issue 39, items 5 and 6), in Chromium.

One journey through allauth's pages as a player meets them: the log-in and sign-up
addresses lead to the site's one page of each; a password reset (asked, mailed, the
link's form, a dead link, done); an emailed confirmation link; a log-in whose second
factor is typed on allauth's page; then, logged in, the email, password, second-factor,
recovery-code, passkey, re-authentication and log-out pages, and turning the
authenticator app off and on again. Each page shows the site's header, speaks the site's
words in sentence case and passes axe at 1280 and at 390 px; screenshots go to
test-artifacts/screenshots/account-*.png.

And an invite that survives a sign-up: a guest opens a league's invite, signs up from it
and lands in the league; the owner finds the link at the top of the league's page, with
Copy.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from allauth.account.utils import user_pk_to_url_str
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import TOTP

from accounts.models import User
from social.services import is_member
from tests.e2e.axe import failures
from tests.factories import SIGN_UP_WAIT_MS, Api, current_totp, logged_in, make_player

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long enough pass 42"
WIDE = {"width": 1280, "height": 800}
NARROW = {"width": 390, "height": 844}
# allauth's wording that the site does not use (its Title Case, "sign in", "E-mail").
NOT_OURS = ("Remember Me", "E-mail", "Sign In", "Sign Out", "Sign Up", "Security Key")
# Words that keep their capital in the middle of a sentence.
PROPER = {"Yukon", "Daily", "OpenID", "Connect", "I", "QR"}


def title_case_words(texts: list[str]) -> list[str]:
    """Headings, labels and buttons with a capitalised word after their first one."""
    found = []
    for text in texts:
        words = re.findall(r"[A-Za-z][\w'-]*", text)
        capitals = [w for w in words[1:] if w[0].isupper() and not w.isupper()]
        if [w for w in capitals if w not in PROPER]:
            found.append(text)
    return found


def check_page(page: Any, name: str) -> list[str]:
    """The site's header, our words, and axe at both widths; a screenshot of each."""
    p = page.page
    problems = []
    if not p.locator("header.site-header .brand").is_visible():
        problems.append(f"{name}: no site header")
    main = p.locator("main").inner_text()
    problems += [f"{name}: says {phrase!r}" for phrase in NOT_OURS if phrase in main]
    texts = p.locator(
        "main h1, main h2, main label, main button:visible, main a.button, main th"
    ).all_inner_texts()
    problems += [f"{name}: Title Case {t.strip()!r}" for t in title_case_words(texts)]
    for size, label in ((WIDE, "1280"), (NARROW, "390")):
        p.set_viewport_size(size)
        problems += [f"{name} at {label} px: {line}" for line in failures(p)]
        page.shot(f"account-{name}-{label}")
    p.set_viewport_size(WIDE)
    return problems


@pytest.fixture
def tess() -> tuple[User, str]:
    """A player with a password, a confirmed address, a new one waiting for its link, an
    authenticator app and recovery codes."""
    user = make_player("Tess", email="tess@example.org")
    user.set_password(PASSWORD)
    user.save()
    EmailAddress.objects.create(user=user, email="tess@example.org", verified=True, primary=True)
    EmailAddress.objects.create(user=user, email="tess.new@example.org", verified=False)
    secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    TOTP.activate(user, secret)
    RecoveryCodes.activate(user)
    return user, secret


def test_account_pages_are_the_sites(browse: Any, tess: tuple[User, str]) -> None:
    user, secret = tess
    page = browse(WIDE)
    p = page.page
    problems: list[str] = []

    def visit(path: str, name: str) -> None:
        page.goto(path)
        problems.extend(check_page(page, name))

    # One log-in page and one sign-up page; allauth's addresses lead to them, with next.
    page.goto("/accounts/login/?next=/leagues/")
    assert p.url == page.base_url + "/login/?next=%2Fleagues%2F"
    problems += check_page(page, "login")
    page.goto("/accounts/signup/")
    assert p.url == page.base_url + "/signup/"
    problems += check_page(page, "signup")

    # A lost password: ask, the mailed link's form, a dead link, done.
    visit("/accounts/password/reset/", "password-reset")
    visit("/accounts/password/reset/done/", "password-reset-done")
    token = default_token_generator.make_token(user)
    page.goto(f"/accounts/password/reset/key/{user_pk_to_url_str(user)}-{token}/")
    p.get_by_label("New password", exact=True).wait_for()
    problems += check_page(page, "password-reset-from-key")
    visit("/accounts/password/reset/key/1-no-such-key/", "password-reset-dead-link")
    visit("/accounts/password/reset/key/done/", "password-reset-from-key-done")
    # An emailed confirmation link, a dead one, and the "check your mail" page.
    waiting = EmailAddress.objects.get(email="tess.new@example.org")
    visit(f"/accounts/confirm-email/{EmailConfirmationHMAC(waiting).key}/", "email-confirm")
    assert p.get_by_role("button", name="Confirm").is_visible()
    visit("/accounts/confirm-email/no-such-key/", "email-confirm-dead-link")
    visit("/accounts/confirm-email/", "verification-sent")

    # A log-in with a second factor: the password on our page, the code on allauth's.
    page.goto("/login/")
    form = p.locator("[data-account-form]")
    form.locator("[name=username]").fill("tess")
    form.locator("[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    p.locator("[data-second-factor] [name=code]").wait_for()
    # allauth's headless API answers "now the second factor" with a 401, which Chromium logs
    assert [e for e in page.errors if "401 (Unauthorized)" not in e] == []
    page.errors.clear()
    visit("/accounts/2fa/authenticate/", "mfa-authenticate")
    p.get_by_label("Code").fill(current_totp(secret, margin=8.0))
    p.get_by_role("button", name="Log in", exact=True).click()
    p.locator(".who", has_text="Tess").wait_for()

    # Logged in: the pages that need only that.
    for path, name in [
        ("/account/", "your-account"),
        ("/accounts/email/", "email"),
        ("/accounts/password/change/", "password-change"),
        ("/accounts/2fa/", "mfa-index"),
        ("/accounts/2fa/reauthenticate/", "mfa-reauthenticate"),
        ("/accounts/3rdparty/", "connections"),
        ("/accounts/logout/", "logout"),
    ]:
        visit(path, name)
        assert p.url.endswith(path), f"{path} led to {p.url}"
    # The recovery codes ask to confirm it is you first (allauth's re-authentication).
    visit("/accounts/2fa/recovery-codes/", "reauthenticate")
    assert "/accounts/reauthenticate/?next=" in p.url
    p.get_by_label("Password").fill(PASSWORD)
    p.get_by_role("button", name="Confirm").click()
    p.wait_for_url(page.base_url + "/accounts/2fa/recovery-codes/")
    for path, name in [
        ("/accounts/2fa/recovery-codes/", "recovery-codes"),
        ("/accounts/2fa/recovery-codes/generate/", "recovery-codes-generate"),
        ("/accounts/2fa/webauthn/", "passkeys"),
        ("/accounts/2fa/webauthn/add/", "passkey-add"),
        ("/accounts/2fa/totp/deactivate/", "totp-deactivate"),
    ]:
        visit(path, name)
        assert p.url.endswith(path), f"{path} led to {p.url}"
    assert "Changing to: tess.new@example.org" in p.evaluate(
        "fetch('/accounts/email/').then((r) => r.text())"
    ).replace("<strong>", "").replace("</strong>", "")
    p.get_by_role("button", name="Turn off").click()
    p.wait_for_url(page.base_url + "/accounts/2fa/")
    p.locator(".messages", has_text="Authenticator app").wait_for()
    visit("/accounts/2fa/totp/activate/", "totp-activate")
    assert p.get_by_label("Secret key").input_value()
    page.assert_clean()
    assert not problems, "\n".join(problems)


def test_a_guest_signs_up_from_an_invite_and_lands_in_the_league(browse: Any) -> None:
    owner = make_player("Olive")
    status, league = Api(logged_in(owner)).post("/api/leagues/", {"name": "Night Owls"})
    assert status == 201, league
    invite = league["invite_url"]

    guest = browse(NARROW)
    # The league's own page, before joining: the way in and back (it said only the API's
    # "Authentication credentials were not provided."), then, for a logged-in stranger, a
    # sentence and the way to one's own leagues (the API's words, lower-case).
    page_url = f"/leagues/{league['id']}/"
    guest.goto(page_url)
    main = guest.page.locator("main")
    assert "for its members" in main.inner_text()
    assert main.get_by_role("link", name="Sign up").get_attribute("href") == (
        f"/signup/?next={page_url}"
    )
    stranger = browse(NARROW)
    session = logged_in(make_player("Stranger")).cookies["sessionid"].value
    stranger.page.context.add_cookies(
        [{"name": "sessionid", "value": session, "url": stranger.base_url}]
    )
    stranger.goto(page_url)
    status = stranger.page.locator("[data-league-status]")
    status.get_by_role("link", name="Your leagues").wait_for()
    assert status.inner_text().startswith("No such league")
    stranger.errors = [e for e in stranger.errors if "status of 404" not in e]
    stranger.assert_clean()
    guest.goto(invite)
    sign_up = guest.page.get_by_role("link", name="Sign up to join")
    log_in = guest.page.get_by_role("link", name="Log in to join")
    assert log_in.get_attribute("href") == f"/login/?next={invite.replace('/', '%2F')}"
    guest.shot("account-invite-guest-390")
    sign_up.click()
    form = guest.page.locator("[data-account-form]")
    form.locator("[name=username]").fill("newcomer")
    form.locator("[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    guest.page.wait_for_url(f"{guest.base_url}/leagues/{league['id']}/", timeout=SIGN_UP_WAIT_MS)
    guest.page.locator("[data-members] li", has_text="newcomer").wait_for()
    guest.shot("account-invite-joined-390")
    assert is_member(league["id"], User.objects.get(username="newcomer").pk)
    guest.assert_clean()

    # The owner's page: the link first, with Copy.
    host = browse(WIDE, permissions=["clipboard-read", "clipboard-write"])
    session = logged_in(owner).cookies["sessionid"].value
    host.page.context.add_cookies([{"name": "sessionid", "value": session, "url": host.base_url}])
    host.goto(f"/leagues/{league['id']}/")
    top = host.page.locator("[data-invite-top] [data-invite-box]")
    top.get_by_role("button", name="Copy").click()
    host.page.locator(".toast", has_text="Invite link copied.").wait_for()
    copied = host.page.evaluate("navigator.clipboard.readText()")
    assert copied == host.base_url + invite
    first = host.page.evaluate(
        "document.querySelector('[data-invite-box]').getBoundingClientRect().top"
        " < document.querySelector('[data-today]').getBoundingClientRect().top"
    )
    assert first, "the owner's invite link is not above the boards"
    host.shot("account-invite-owner-1280")
    host.assert_clean()


def test_before_its_script_runs_the_form_cannot_send_the_password(browse: Any) -> None:
    """A click before the page's module has run (a slow phone, a busy machine) must not let
    the browser send the form itself: as a GET, the password went into the address (and the
    server's logs), and the player landed on the same form."""
    page = browse(NARROW, java_script_enabled=False)
    for path in ("/signup/", "/login/"):
        page.goto(path)
        form = page.page.locator("[data-account-form]")
        assert form.locator("button[type=submit]").is_disabled(), path
        assert form.get_attribute("method") == "post", path
