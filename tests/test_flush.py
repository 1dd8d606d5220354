"""The quicker end of a transactional test (tests/flush.py) leaves the database as Django's
flush and its post_migrate receivers leave it, the ids aside."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS
from django.test import TransactionTestCase

from tests import flush
from tests.factories import make_player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def what_the_receivers_made() -> dict[str, Any]:
    """Every table's row count, and the receivers' rows by their natural keys."""
    ContentType.objects.clear_cache()
    return {
        "counts": {table: len(rows) for table, _, rows in flush.rows_of_every_table("default")},
        "content types": sorted(ContentType.objects.values_list("app_label", "model")),
        "permissions": sorted(
            Permission.objects.values_list("content_type__app_label", "codename", "name")
        ),
        "groups": sorted(
            (group.name, sorted(group.permissions.values_list("codename", flat=True)))
            for group in Group.objects.all()
        ),
    }


def a_tests_rows() -> None:
    """Rows a test leaves, one of them in a table post_migrate fills."""
    make_player("Mod", staff=True, moderator=True)
    ContentType.objects.create(app_label="games", model="no_such_model")


def test_emptying_leaves_what_djangos_flush_leaves() -> None:
    assert vars(TransactionTestCase)["_fixture_teardown"].__module__ == "tests.conftest"
    call_command("flush", verbosity=0, interactive=False, reset_sequences=False)
    djangos = what_the_receivers_made()
    assert djangos["groups"] and djangos["permissions"] and djangos["content types"]
    for _ in range(2):  # the first may be the database's first (Django's own flush)
        a_tests_rows()
        flush.emptied(DEFAULT_DB_ALIAS)
        assert what_the_receivers_made() == djangos
    # rows made afterwards (a migration that makes a content type) get new ids
    a_tests_rows()
