"""Staff must use a second factor: the admin, and with it every moderation action, refuses
a staff session that has not passed one, and the first visit asks to enrol one."""

from __future__ import annotations

import pytest
from allauth.mfa.models import Authenticator
from django.test import Client

from moderation.models import AuditLog
from tests.factories import client_for, make_player, pass_second_factor

pytestmark = pytest.mark.django_db


def password_only(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)  # a session that passed a password, nothing else
    return client


def test_a_staff_session_without_a_second_factor_is_sent_to_enrol() -> None:
    mod = make_player("Mod", staff=True, moderator=True)
    client = password_only(mod)
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/2fa/?next=%2Fadmin%2F")
    page = client.get(response["Location"])
    assert page.status_code == 200 and b"Staff use a second factor" in page.content
    for path in ("/admin/games/game/", "/admin/moderation/auditlog/", "/admin/accounts/user/"):
        assert client.get(path).status_code == 302, path


def test_an_enrolled_staff_session_must_still_confirm_the_factor() -> None:
    mod = make_player("Mod", staff=True, moderator=True)
    pass_second_factor(Client(), mod)  # has an authenticator, this session never used it
    assert Authenticator.objects.filter(user=mod).exists()
    response = password_only(mod).get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/2fa/reauthenticate/?next=")


def test_a_moderation_action_is_refused_without_the_second_factor() -> None:
    mod = make_player("Mod", staff=True, moderator=True)
    cheat = make_player("Cheat")
    data = {
        "action": "ban_players",
        "_selected_action": [cheat.pk],
        "confirm": "yes",
        "reason": "caught",
    }
    refused = password_only(mod).post("/admin/moderation/player/", data)
    assert refused.status_code == 403
    cheat.refresh_from_db()
    assert cheat.is_banned is False and not AuditLog.objects.exists()
    done = client_for(mod).post("/admin/moderation/player/", data)
    assert done.status_code == 302, done.content[:500]
    cheat.refresh_from_db()
    assert cheat.is_banned is True and AuditLog.objects.count() == 1


def test_players_are_not_asked_and_staff_who_passed_get_in() -> None:
    assert client_for(make_player("Sam", staff=True)).get("/admin/").status_code == 200
    assert password_only(make_player("Pat")).get("/admin/").status_code == 403


def totp_now(secret: str) -> str:
    """RFC 6238 (30 s, 6 digits, SHA-1), written here rather than taken from allauth."""
    import base64
    import hashlib
    import hmac
    import struct
    import time

    counter = struct.pack(">Q", int(time.time()) // 30)
    digest = hmac.new(base64.b32decode(secret), counter, hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"


@pytest.mark.slow
def test_a_moderator_logs_in_with_password_and_code_and_gets_the_admin() -> None:
    import base64
    import json
    import secrets

    from allauth.mfa.totp.internal.auth import TOTP

    password = "a long enough pass 42"
    mod = make_player("Mod", staff=True, moderator=True)
    mod.set_password(password)
    mod.save()
    secret = base64.b32encode(secrets.token_bytes(20)).decode()
    TOTP.activate(mod, secret)

    def post(client: Client, url: str, data: dict[str, str]) -> tuple[int, dict]:  # type: ignore[type-arg]
        response = client.post(url, json.dumps(data), content_type="application/json")
        assert response.status_code < 500, response.content
        return response.status_code, response.json()

    # the old endpoint cannot finish such a log-in: 401, and the session is not logged in
    old = Client()
    status, body = post(old, "/api/auth/login/", {"username": "mod", "password": password})
    assert status == 401 and "second factor" in body["detail"]
    assert old.get("/admin/").status_code == 302

    client = Client()
    auth = "/_allauth/browser/v1/auth"
    status, body = post(client, f"{auth}/login", {"username": "mod", "password": password})
    assert status == 401, body
    pending = [flow for flow in body["data"]["flows"] if flow.get("is_pending")]
    assert pending[0]["id"] == "mfa_authenticate" and "totp" in pending[0]["types"]
    assert client.get("/admin/").status_code == 302  # a password alone is not a log-in
    code = totp_now(secret)
    wrong = f"{(int(code) + 500_000) % 1_000_000:06d}"
    status, body = post(client, f"{auth}/2fa/authenticate", {"code": wrong})
    assert status == 400, body
    status, body = post(client, f"{auth}/2fa/authenticate", {"code": code})
    assert status == 200 and body["meta"]["is_authenticated"], body
    assert client.get("/admin/").status_code == 200
