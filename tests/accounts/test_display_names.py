"""Display names that look like another player's are refused (UTS #39 skeletons, folded).

The attack: ``AIice`` and ``A1ice`` posing as ``Alice`` on the boards.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from django.contrib.admin.sites import site
from django.core.exceptions import ValidationError
from django.test import Client, RequestFactory

from accounts.models import User
from accounts.skeleton import name_key, prototypes, uts39_skeleton
from accounts.validators import validate_display_name

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough pass 42"
TOO_CLOSE = "too close to an existing display name"


def sign_up(client: Client, username: str, display_name: str) -> tuple[int, Any]:
    response = client.post(
        "/api/auth/signup/",
        json.dumps({"username": username, "display_name": display_name, "password": PASSWORD}),
        content_type="application/json",
    )
    assert response.status_code < 500, response.content
    return response.status_code, response.json()


# ------------------------------------------------------------------ the skeleton itself


def test_the_data_is_unicodes_confusables_txt() -> None:
    table = prototypes()
    assert len(table) > 6_000
    assert table["1"] == "l" and table["I"] == "l" and table["0"] == "O"
    assert table["m"] == "rn"
    assert table["\u0430"] == "a"  # CYRILLIC SMALL LETTER A


@pytest.mark.parametrize(
    ("one", "other"),
    [("AIice", "Alice"), ("A1ice", "Alice"), ("rn", "m"), ("0", "O"), ("p\u0430ypal", "paypal")],
)
def test_uts39_skeletons_agree_on_the_standards_own_cases(one: str, other: str) -> None:
    assert uts39_skeleton(one) == uts39_skeleton(other)


@pytest.mark.parametrize(
    "look_alike",
    [
        "AIice",
        "A1ice",
        "ALICE",
        "alice",
        "Al1ce",
        "AL1CE",
        "A|ice",
        "aLiCe",
        " Alice ",
        "A\u0406ice",  # CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I
    ],
)
def test_look_alikes_of_alice_share_her_key(look_alike: str) -> None:
    assert name_key(look_alike) == name_key("Alice")


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("rn", "m"),
        ("Mary", "rnary"),
        ("MARY", "rnary"),
        ("B0b", "Bob"),
        ("BOB", "bob"),
        ("0scar", "Oscar"),
        ("Sam", "Sarn"),
        ("B1ll", "Bill"),
    ],
)
def test_other_look_alikes_share_a_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Alice", "Alicia"),
        ("Bob", "Rob"),
        ("Anna", "Arma"),
        ("Sam", "Pam"),
        ("Al ice", "Alice"),
        ("Bob", "Bob2"),
        ("Ed", "Ted"),
    ],
)
def test_different_names_keep_different_keys(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


# ------------------------------------------------------------------ every way a name is set


@pytest.mark.slow
@pytest.mark.parametrize("look_alike", ["AIice", "A1ice", "ALICE", "Al1ce", "alice", "AL1CE"])
def test_signup_refuses_a_look_alike(client: Client, look_alike: str) -> None:
    assert sign_up(Client(), "alice", "Alice")[0] == 201
    status, body = sign_up(client, "mallory", look_alike)
    assert status == 400, body
    assert TOO_CLOSE in body["detail"] or "taken" in body["detail"]
    assert body["errors"]["display_name"]
    assert not User.objects.filter(username="mallory").exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("first", "second"), [("Vernon", "Vemon"), ("O0O", "000"), ("Tim", "Tirn")]
)
def test_either_order_is_refused(first: str, second: str) -> None:
    """The later name is refused whichever of the pair came first."""
    for a, b in ((first, second), (second, first)):
        User.objects.all().delete()
        assert sign_up(Client(), "one", a)[0] == 201
        status, body = sign_up(Client(), "two", b)
        assert status == 400 and TOO_CLOSE in body["detail"], (a, b, body)


def test_the_message_says_why() -> None:
    User.objects.create_user(username="alice", display_name="Alice")
    with pytest.raises(ValidationError) as refused:
        validate_display_name("A1ice")
    assert refused.value.messages == [
        "That display name is too close to an existing display name (it looks like another "
        "player's). Pick one that reads differently."
    ]
    with pytest.raises(ValidationError, match="taken"):
        validate_display_name("alice")


@pytest.mark.parametrize(
    "name",
    [
        "deleted player",
        "Deleted Player",
        "de1eted p1ayer",
        "deleted_player",
        "deleted-player",
        "deletedplayer",
        "de leted player",
        "deleted player.",
        "Deleted Players",
    ],
)
def test_nobody_takes_the_deleted_accounts_name_even_before_a_deletion(name: str) -> None:
    """The boards read a row named so as a deleted account's (no page, the reader's own
    words for it); the look-alike check refused it only once an account had been deleted."""
    assert not User.objects.filter(display_name="deleted player").exists()
    with pytest.raises(ValidationError, match="taken"):
        validate_display_name(name)
    status, body = sign_up(Client(), "impostor", name)
    assert status == 400 and body["errors"]["display_name"], body


def test_a_player_may_keep_their_own_name() -> None:
    alice = User.objects.create_user(username="alice", display_name="Alice")
    assert validate_display_name("ALICE", exclude_user_id=alice.pk) == "ALICE"


def test_the_key_is_stored_and_kept_up_to_date() -> None:
    user = User.objects.create_user(username="vern", display_name="Vernon")
    assert User.objects.get(pk=user.pk).display_name_key == name_key("Vernon")
    user.display_name = "Walter"
    user.save(update_fields=["display_name"])
    assert User.objects.get(pk=user.pk).display_name_key == name_key("Walter")
    assert User.objects.filter(display_name_key=name_key("WaIter")).count() == 1


def test_the_admin_form_refuses_a_look_alike() -> None:
    User.objects.create_user(username="alice", display_name="Alice")
    mallory = User.objects.create_user(username="mallory", display_name="Mallory")
    request = RequestFactory().get("/admin/")
    request.user = User.objects.create_superuser(username="root", display_name="Root")
    admin = site._registry[User]
    form_class = admin.get_form(request, obj=mallory, change=True)
    data = {
        "username": "mallory",
        "display_name": "AIice",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "00:00:00",
        "is_active": "on",
    }
    form = form_class(data=data, instance=mallory)
    assert not form.is_valid()
    assert TOO_CLOSE in str(form.errors["display_name"])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_look_alike_signing_up_at_the_same_moment_waits_and_is_refused() -> None:
    """Alice's sign-up holds the lock on her name's key (as sign_up does) while Mallory's
    look-alike arrives: Mallory's waits, then sees Alice and gets the 400."""
    from django.db import connection, transaction

    from accounts.services import display_name_lock_id

    answers: list[tuple[int, Any]] = []
    lock = display_name_lock_id(name_key("Alice"))

    def mallory_signs_up() -> None:
        answers.append(sign_up(Client(), "mallory", "A1ice"))
        connection.close()  # this thread's own connection

    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock])
        mallory = threading.Thread(target=mallory_signs_up)
        mallory.start()
        mallory.join(timeout=1.0)
        assert mallory.is_alive(), answers  # waiting for the lock, nothing written
        User.objects.create_user(username="alice", display_name="Alice")
    mallory.join(timeout=10)
    assert answers and answers[0][0] == 400 and TOO_CLOSE in answers[0][1]["detail"], answers
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_keys_and_keeps_names_that_already_collide() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("accounts", "0001_initial")], [("accounts", "0002_display_name_key")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        old_user = executor.loader.project_state(before).apps.get_model("accounts", "User")
        old_user.objects.create(username="alice", display_name="Alice", password="!")
        old_user.objects.create(username="mallory", display_name="AIice", password="!")
        executor = MigrationExecutor(connection)
        executor.migrate(after)
    finally:
        MigrationExecutor(connection).migrate(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
    keys = dict(User.objects.values_list("username", "display_name_key"))
    assert keys == {"alice": name_key("Alice"), "mallory": name_key("Alice")}
    with pytest.raises(ValidationError, match="too close"):
        validate_display_name("A1ice")
