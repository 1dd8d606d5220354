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


def test_putting_back_leaves_what_djangos_flush_leaves() -> None:
    assert vars(TransactionTestCase)["_fixture_teardown"].__module__ == "tests.conftest"  # in force
    call_command("flush", verbosity=0, interactive=False)
    kept = flush.rows_of_every_table(DEFAULT_DB_ALIAS)
    djangos = what_the_receivers_made()
    assert djangos["groups"] and djangos["permissions"] and djangos["content types"]
    # a test's rows, and one that post_migrate's own tables would keep
    make_player("Mod", staff=True, moderator=True)
    ContentType.objects.create(app_label="games", model="no_such_model")
    call_command("flush", verbosity=0, interactive=False, inhibit_post_migrate=True)
    assert what_the_receivers_made()["counts"] == {}  # emptied: nothing made again
    flush.put_back(DEFAULT_DB_ALIAS, kept)
    assert what_the_receivers_made() == djangos
