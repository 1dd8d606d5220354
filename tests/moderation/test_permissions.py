"""Only moderators see the moderation tools; players get 403 everywhere in the admin; the
audit log is read-only for everyone, superusers included."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from accounts.models import User
from moderation.models import AuditLog, Flag, FlagKind
from tests.factories import client_for, make_player, result

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

ADMIN_URLS = [
    "/admin/",
    "/admin/login/",
    "/admin/games/game/",
    "/admin/games/game/{game}/change/",
    "/admin/games/dailychallenge/",
    "/admin/moderation/flag/",
    "/admin/moderation/flag/{flag}/change/",
    "/admin/moderation/report/",
    "/admin/moderation/auditlog/",
    "/admin/moderation/auditlog/{audit}/change/",
    "/admin/moderation/player/",
    "/admin/accounts/user/",
    "/admin/password_change/",
    "/admin/nothing/here/",
]


@pytest.fixture
def objects(today_challenges: dict[str, Any], moderator: User) -> dict[str, int]:
    game = result(make_player("Ann"), today_challenges["easy"])
    flag = Flag.objects.create(game=game, kind=FlagKind.FAST_MOVES, reason="test")
    audit = AuditLog.objects.create(
        actor=moderator,
        actor_name="mod",
        action="clear_flag",
        target_type="moderation.flag",
        target_id=str(flag.pk),
        target_repr=str(flag),
        reason="seen",
    )
    return {"game": game.pk, "flag": flag.pk, "audit": audit.pk}


def test_a_logged_in_player_gets_403_for_every_admin_url(objects: dict[str, int]) -> None:
    player = client_for(make_player("Pat"))
    for url in ADMIN_URLS:
        path = url.format(**objects)
        assert player.get(path).status_code == 403, path
        assert player.post(path, {"action": "disqualify_games"}).status_code == 403, path
    assert player.post("/admin/logout/").status_code == 403
    # anonymous visitors are sent to the log-in form, which lets no player in
    anonymous = Client().get("/admin/games/game/")
    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]


def test_staff_outside_the_moderator_group_see_no_moderation_tools(
    objects: dict[str, int],
) -> None:
    staff = client_for(make_player("Sam", staff=True))
    assert staff.get("/admin/").status_code == 200
    for url in ADMIN_URLS[2:-3]:
        assert staff.get(url.format(**objects)).status_code == 403, url


def test_moderators_see_the_tools_but_not_user_editing(
    objects: dict[str, int], mod_client: Client
) -> None:
    for url in ADMIN_URLS[:-3]:
        path = url.format(**objects)
        if path == "/admin/login/":
            continue
        assert mod_client.get(path).status_code == 200, path
    index = mod_client.get("/admin/").content.decode()
    assert "Flags" in index and "Audit logs" in index and "Players" in index
    assert mod_client.get("/admin/accounts/user/").status_code == 403
    group = Group.objects.get(name="moderator")
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert {"moderate_games", "ban_players", "view_game", "view_auditlog"} <= codenames
    assert not any(c.startswith(("change_", "delete_", "add_")) for c in codenames)


def test_the_audit_log_cannot_be_changed_even_by_a_superuser(objects: dict[str, int]) -> None:
    boss = User.objects.create_superuser(username="boss", display_name="Boss", password="x")
    client = client_for(boss)
    audit = objects["audit"]
    page = client.get(f"/admin/moderation/auditlog/{audit}/change/")
    assert page.status_code == 200 and b'name="_save"' not in page.content
    changed = client.post(f"/admin/moderation/auditlog/{audit}/change/", {"reason": "edited"})
    assert changed.status_code == 403
    assert client.get(f"/admin/moderation/auditlog/{audit}/delete/").status_code == 403
    deleted = client.post(f"/admin/moderation/auditlog/{audit}/delete/", {"post": "yes"})
    assert deleted.status_code == 403
    assert client.get("/admin/moderation/auditlog/add/").status_code == 403
    listing = client.get("/admin/moderation/auditlog/")
    assert b"delete_selected" not in listing.content
    row = AuditLog.objects.get(pk=audit)
    row.reason = "edited"
    with pytest.raises(PermissionError):
        row.save()
    with pytest.raises(PermissionError):
        row.delete()
    with pytest.raises(PermissionError):
        AuditLog.objects.filter(pk=audit).update(reason="edited")
    with pytest.raises(PermissionError):
        AuditLog.objects.all().delete()
    assert AuditLog.objects.get(pk=audit).reason == "seen"


def test_the_report_api_is_for_logged_in_players_only(objects: dict[str, int]) -> None:
    url = f"/api/games/{objects['game']}/report/"
    response = Client().post(url, {"reason": "x"}, content_type="application/json")
    assert response.status_code == 403


@pytest.mark.django_db(transaction=True)
def test_the_moderator_group_outlives_a_flush_of_the_database() -> None:
    """A test that empties every table (TransactionTestCase's flush) used to take the group its
    migration made with it: later tests on the same worker found no moderators."""
    from django.core.management import call_command

    from moderation.groups import MODERATOR_PERMISSIONS

    call_command("flush", interactive=False, verbosity=0)
    group = Group.objects.get(name="moderator")
    held = set(group.permissions.values_list("content_type__app_label", "codename"))
    assert held == set(MODERATOR_PERMISSIONS)
    assert make_player("Mod", staff=True, moderator=True).groups.filter(pk=group.pk).exists()
