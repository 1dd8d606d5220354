"""A ban only happens through the moderation action: the user admin cannot set it."""

from __future__ import annotations

import pytest

from accounts.models import User
from moderation.models import AuditLog
from tests.factories import client_for, make_player


@pytest.mark.django_db
def test_the_user_change_form_cannot_ban() -> None:
    admin = User.objects.create_superuser(
        username="root", display_name="Root", password="x-very-long-pass-1"
    )
    player = make_player("mallory")
    client = client_for(admin)
    page = client.get(f"/admin/accounts/user/{player.pk}/change/")
    assert page.status_code == 200
    form = page.context["adminform"].form
    assert "is_banned" not in form.fields
    data = {k: v for k, v in form.initial.items() if v is not None and k != "password"}
    data.update(
        {
            "username": "mallory",
            "display_name": "Mallory",
            "is_banned": "on",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
            "groups": [],
            "user_permissions": [],
        }
    )
    client.post(f"/admin/accounts/user/{player.pk}/change/", data)
    player.refresh_from_db()
    assert not player.is_banned
    assert not AuditLog.objects.filter(action__icontains="ban").exists()
