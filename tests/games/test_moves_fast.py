"""The move endpoint's cost: a pinned number of SQL queries, no replay per move."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from games import services
from tests.games.conftest import Api, winning_lines

pytestmark = pytest.mark.django_db

# Session (only without Redis: with it, sessions are read from the cache), user, the
# locked game row (SELECT ... FOR NO KEY UPDATE), the log insert and the game update (one
# statement on PostgreSQL); plus SAVEPOINT/RELEASE, which is how the test's own transaction
# shows the service's atomic block (a real request gets BEGIN/COMMIT, not logged).
SESSION_QUERIES = 0 if settings.SESSION_ENGINE.endswith("cached_db") else 1
WRITE_QUERIES = 1 if connection.vendor == "postgresql" else 2
MOVE_QUERIES_PLAYER = SESSION_QUERIES + 2 + WRITE_QUERIES + 2
# A guest has no user row to load.
MOVE_QUERIES_GUEST = MOVE_QUERIES_PLAYER - 1


def test_move_endpoint_query_count_is_pinned_for_a_player(
    api: Api, django_assert_num_queries: Any
) -> None:
    _, game = api.post("/api/games/", {"deal": 0})
    line = winning_lines()[0]
    for ply, text in enumerate(line[:3]):
        with django_assert_num_queries(MOVE_QUERIES_PLAYER):
            status, _ = api.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": text})
        assert status == 200


def test_move_endpoint_query_count_is_pinned_for_a_guest(
    guest_api: Api, django_assert_num_queries: Any
) -> None:
    _, game = guest_api.post("/api/games/", {"deal": 0})
    with django_assert_num_queries(MOVE_QUERIES_GUEST):
        status, _ = guest_api.post(f"/api/games/{game['id']}/moves/", {"ply": 0, "move": "8d>6"})
    assert status == 200


def test_the_winning_move_costs_the_same_queries(
    api: Api, django_assert_num_queries: Any
) -> None:
    """Finishing queues verification on commit; it adds no query to the request itself."""
    _, game = api.post("/api/games/", {"deal": 0})
    line = winning_lines()[0]
    for ply, text in enumerate(line[:-1]):
        api.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": text})
    with django_assert_num_queries(MOVE_QUERIES_PLAYER):
        status, body = api.post(
            f"/api/games/{game['id']}/moves/", {"ply": len(line) - 1, "move": line[-1]}
        )
    assert status == 200 and body["status"] == "won"


def test_a_move_never_replays_the_log(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    _, game = api.post("/api/games/", {"deal": 0})

    def no_replay(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a move must use the snapshot, not replay the log")

    monkeypatch.setattr(services, "replay_log", no_replay)
    monkeypatch.setattr("games.models.Deal.start_position", no_replay)
    for ply, text in enumerate(winning_lines()[0][:10]):
        status, _ = api.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": text})
        assert status == 200
