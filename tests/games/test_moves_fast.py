"""The move endpoint's cost: a pinned number of SQL queries, no replay per move."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from games import services
from games.models import Game, Move
from games.services import moves, verification
from tests.factories import Api, winning_lines

pytestmark = pytest.mark.django_db

# Session and user (each only without Redis: with it, both are read from the cache), the
# game row, and the conditional write: one statement on PostgreSQL; on SQLite an update
# and an insert inside SAVEPOINT/RELEASE (how the test's own transaction shows the
# service's atomic block).
SESSION_QUERIES = 0 if settings.SESSION_ENGINE.endswith("cached_db") else 1
USER_QUERIES = 0 if settings.AUTHENTICATION_BACKENDS[0].endswith("CachedModelBackend") else 1
WRITE_QUERIES = 1 if connection.vendor == "postgresql" else 4
MOVE_QUERIES_PLAYER = SESSION_QUERIES + USER_QUERIES + 1 + WRITE_QUERIES
# A guest has no user row to load.
MOVE_QUERIES_GUEST = MOVE_QUERIES_PLAYER - USER_QUERIES


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


def test_the_winning_move_costs_the_same_queries(api: Api, django_assert_num_queries: Any) -> None:
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

    monkeypatch.setattr(verification, "replay_game_log", no_replay)
    monkeypatch.setattr("games.models.Deal.start_position", no_replay)
    for ply, text in enumerate(winning_lines()[0][:10]):
        status, _ = api.post(f"/api/games/{game['id']}/moves/", {"ply": ply, "move": text})
        assert status == 200


def test_a_move_checked_at_a_ply_the_game_has_left_is_not_stored(api: Api) -> None:
    """play_move validates without a lock; its write stores only at the ply it checked."""
    _, game = api.post("/api/games/", {"deal": 0})
    line = winning_lines()[0]
    owner = Game.objects.get(pk=game["id"]).player_id
    stale = moves._game_for_move(services.Actor(user_id=owner), game["id"])  # at ply 0
    status, _ = api.post(f"/api/games/{game['id']}/moves/", {"ply": 0, "move": line[0]})
    assert status == 200  # another tab moved first
    stale.ply, stale.moves = 1, 1
    assert moves._store_move(stale, line[1], "", 10) is False
    assert list(Move.objects.filter(game_id=game["id"]).values_list("text", flat=True)) == [line[0]]
    assert Game.objects.get(pk=game["id"]).ply == 1
