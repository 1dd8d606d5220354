"""On real PostgreSQL: a ban and a daily start that race (issue 17, review fix 3).

The start's ban check and the game's creation are one transaction that locks the
player's row; ban_player locks and writes that row before it ends the player's games.
The test holds a ban's transaction open after ban_player has run (the player's games
already ended, nothing committed) and starts a daily meanwhile: the start must wait for
the ban and refuse, never leave a banned player with a live daily.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction

from accounts.models import User
from apikit.errors import Forbidden
from games.models import Game, Status
from games.services import Actor, start_daily_game
from moderation import services as moderation
from tests.factories import make_challenges, make_player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _someone_waits_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def test_a_start_racing_a_ban_waits_for_it_and_is_refused() -> None:
    make_challenges()
    moderator = make_player("Mod", staff=True)  # the service itself checks no group
    bob = make_player("Bob")
    banned, start_done = threading.Event(), threading.Event()
    outcome: dict[str, Any] = {}

    def ban_and_hold() -> None:
        try:
            with transaction.atomic():
                moderation.ban_player(moderator, bob.pk, "bot")
                banned.set()
                deadline = time.monotonic() + 10
                while not start_done.is_set() and time.monotonic() < deadline:
                    if _someone_waits_for_a_lock():
                        break
                    time.sleep(0.02)
                outcome["start_blocked"] = not start_done.is_set()
        finally:
            connection.close()

    def start() -> None:
        try:
            banned.wait(10)
            outcome["start"] = start_daily_game(Actor(user_id=bob.pk), "easy")
        except Exception as exc:  # the assertions below show it
            outcome["start"] = exc
        finally:
            start_done.set()
            connection.close()

    threads = [threading.Thread(target=ban_and_hold), threading.Thread(target=start)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert User.objects.get(pk=bob.pk).is_banned
    assert not Game.objects.filter(player=bob, status=Status.PLAYING).exists()
    assert isinstance(outcome["start"], Forbidden), outcome["start"]
    assert outcome["start_blocked"], "the start did not wait for the ban's transaction"
