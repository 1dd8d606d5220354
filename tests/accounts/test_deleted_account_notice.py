"""The home page a deleted account's player lands on says the account was deleted
(``/?account=deleted``, where pages/your_account.js sends them, logged out by then); a
plain visit, or anyone logged in, sees no such line."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import client_for, make_player

pytestmark = [pytest.mark.django_db]

NOTICE = "Your account has been deleted."


def test_only_a_guest_sent_there_after_deleting_is_told() -> None:
    assert NOTICE in Client().get("/?account=deleted").content.decode()
    assert NOTICE not in Client().get("/").content.decode()
    assert NOTICE not in Client().get("/?account=other").content.decode()
    logged_in = client_for(make_player("Ann"))
    assert NOTICE not in logged_in.get("/?account=deleted").content.decode()
