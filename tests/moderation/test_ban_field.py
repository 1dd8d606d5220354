"""A ban is a field: the ban service writes ``User.ban_reason`` beside ``is_banned``;
the games app and the accounts API read it (games never asks moderation), and the
migration gives every ban in force its reason."""

from __future__ import annotations

import pytest

from accounts.models import User
from tests.factories import client_for, make_player, post

pytestmark = pytest.mark.django_db


def test_a_ban_writes_its_reason_and_an_unban_clears_it() -> None:
    from moderation import services

    moderator = make_player("Mod", staff=True, moderator=True)
    bob = make_player("Bob")
    services.ban_player(moderator, bob.pk, "plays with a script")
    bob.refresh_from_db()
    assert (bob.is_banned, bob.ban_reason) == (True, "plays with a script")
    refused = post(client_for(bob), "/api/games/", {"daily": "easy"})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "your account is banned: plays with a script"
    me = client_for(bob).get("/api/auth/me/").json()["player"]
    assert me["ban_reason"] == "plays with a script"
    services.unban_player(moderator, bob.pk, "appeal heard")
    bob.refresh_from_db()
    assert (bob.is_banned, bob.ban_reason) == (False, "")


def test_a_ban_without_a_recorded_reason_says_to_ask() -> None:
    """Set by hand (a careless operator): the player is still told something true."""
    eve = make_player("Eve")
    User.objects.filter(pk=eve.pk).update(is_banned=True)
    refused = post(client_for(eve), "/api/games/", {"daily": "easy"})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "your account is banned: ask a moderator"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_migration_copies_the_reason_of_each_ban_in_force() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    from django.utils import timezone

    before = [("accounts", "0002_display_name_key"), ("moderation", "0004_flag_kinds_for_bots")]
    after = [("moderation", "0005_ban_reason_on_user")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        old = executor.loader.project_state(before).apps
        user, ban = old.get_model("accounts", "User"), old.get_model("moderation", "Ban")
        banned = user.objects.create(username="bot", display_name="Bot", is_banned=True)
        ban.objects.create(player=banned, reason="a solver's line, move for move")
        lifted = user.objects.create(username="ann", display_name="Ann")
        ban.objects.create(player=lifted, reason="old", lifted_at=timezone.now())
        user.objects.create(username="cat", display_name="Cat", is_banned=True)  # no ban row
        MigrationExecutor(connection).migrate(after)
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
    reasons = dict(User.objects.values_list("username", "ban_reason"))
    assert reasons == {"bot": "a solver's line, move for move", "ann": "", "cat": ""}
