"""Passkeys in a real Chromium: sign up, add a passkey through the browser's virtual
authenticator (the DevTools protocol's WebAuthn domain: no hardware, the real browser
API), log out, and log in with the passkey alone; at the IP address the log-in page
explains that passkeys need a name (issue 39, item 7)."""

from __future__ import annotations

from typing import Any

import pytest
from allauth.mfa.models import Authenticator

from accounts.models import User
from tests.e2e.axe import failures
from tests.factories import SIGN_UP_WAIT_MS

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery 42"


def virtual_authenticator(page: Any) -> tuple[Any, str]:
    """A platform authenticator that holds passkeys and verifies its user at once."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    added = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, added["authenticatorId"]


def test_sign_up_add_a_passkey_log_out_and_log_in_with_it_alone(browse: Any, settings: Any) -> None:
    settings.MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = True  # the live server speaks plain HTTP
    page = browse()
    assert page.base_url.startswith("http://localhost:")  # a passkey needs a domain, not an IP
    p = page.page
    cdp, authenticator = virtual_authenticator(p)

    page.goto("/signup/")
    form = p.locator("[data-account-form]")
    form.locator("[name=username]").fill("keyholder")
    form.locator("[name=display_name]").fill("Key Holder")
    form.locator("[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    p.wait_for_url(page.base_url + "/", timeout=SIGN_UP_WAIT_MS)
    p.locator(".who", has_text="Key Holder").wait_for()

    page.goto("/accounts/2fa/webauthn/add/")
    page.shot("passkey-add-reauthenticate")
    assert "/accounts/reauthenticate/" in p.url  # adding a factor: the password again first
    p.get_by_label("Password").fill(PASSWORD)
    p.get_by_role("button", name="Confirm").click()
    p.wait_for_url(lambda url: "/webauthn/add/" in url)
    page.shot("passkey-add")
    p.get_by_label("Name").fill("laptop")
    p.get_by_label("Passwordless").check()
    p.locator("#mfa_webauthn_add").click()
    p.wait_for_url(lambda url: "/webauthn/add/" not in url)
    user = User.objects.get(username="keyholder")
    assert Authenticator.objects.filter(user=user, type=Authenticator.Type.WEBAUTHN).count() == 1
    stored = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(stored["credentials"]) == 1 and stored["credentials"][0]["isResidentCredential"]
    page.goto("/accounts/2fa/webauthn/")  # the list, in the site's words; axe finds nothing
    p.get_by_role("cell", name="laptop", exact=True).wait_for()
    assert failures(p) == []
    page.shot("passkey-list")

    p.locator("[data-logout]").click()
    p.wait_for_url(page.base_url + "/")
    p.get_by_role("link", name="Log in").wait_for()

    # At the IP address the button says why it cannot work, and where to go instead.
    p.goto(page.base_url.replace("//localhost:", "//127.0.0.1:") + "/login/")
    note = p.locator(".passkey-note")
    note.wait_for()
    assert note.get_by_role("link").get_attribute("href") == page.base_url + "/login/"
    assert p.locator("[data-passkey-login]").is_disabled()
    page.shot("passkey-at-an-ip-address")

    page.goto("/login/")
    assert p.locator(".passkey-note").count() == 0
    p.locator("[data-passkey-login]").click()  # no username, no password
    p.wait_for_url(page.base_url + "/")
    p.locator(".who", has_text="Key Holder").wait_for()
    me = p.evaluate("fetch('/api/auth/me/').then((r) => r.json())")
    assert me["player"]["username"] == "keyholder"
    page.assert_clean()
