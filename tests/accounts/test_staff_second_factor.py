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
        "action": "ban_players", "_selected_action": [cheat.pk], "confirm": "yes",
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
