"""The boards follow the owners of the writes, with no moderation in between: a
disqualification or a voided day through ``games.services`` and a ban through
``accounts.services`` take the results off the Redis board once committed (their
``results_changed`` signal), and putting them back puts the results back."""

from __future__ import annotations

from typing import Any, cast

import pytest
import redis
from django.test import Client

from accounts import services as account_services
from games import services as game_services
from games.models import DailyChallenge, Game
from leaderboards import ranking, store
from tests.factories import make_player, result

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]


def on_board(r: redis.Redis, challenge: DailyChallenge) -> set[int]:
    """The games in the board's Redis copy: what the signal changed, not the read's filter."""
    members: list[bytes] = cast(list[bytes], r.zrange(store.daily_key(challenge.pk), 0, -1))
    return {ranking.game_id_of(m) for m in members}


@pytest.fixture
def games(client: Client, challenge: DailyChallenge, lb_redis: redis.Redis) -> dict[str, Game]:
    """Ann, Bob and Cat's results, on the board built in Redis by its first read."""
    games = {
        name: result(make_player(name), challenge, elapsed_ms=60_000 + i * 1000)
        for i, name in enumerate(("Ann", "Bob", "Cat"))
    }
    url = f"/api/leaderboards/daily/{challenge.date.isoformat()}/{challenge.tier}/"
    assert client.get(url, HTTP_ACCEPT="application/json").json()["count"] == 3
    assert on_board(lb_redis, challenge) == {game.pk for game in games.values()}
    return games


def test_a_disqualification_by_the_games_service_leaves_the_board_on_commit(
    challenge: DailyChallenge,
    games: dict[str, Game],
    lb_redis: redis.Redis,
    django_capture_on_commit_callbacks: Any,
) -> None:
    everyone = {game.pk for game in games.values()}
    ann = games["Ann"].pk
    with django_capture_on_commit_callbacks(execute=True):
        taken = game_services.disqualify_games([ann])
        assert on_board(lb_redis, challenge) == everyone  # not before the commit
    assert [game.pk for game in taken] == [ann] and taken[0].disqualified
    assert on_board(lb_redis, challenge) == everyone - {ann}
    with django_capture_on_commit_callbacks(execute=True):
        assert game_services.disqualify_games([ann]) == []  # nothing more to take
    with django_capture_on_commit_callbacks(execute=True):
        back = game_services.requalify_games([ann])
    assert [game.pk for game in back] == [ann]
    assert on_board(lb_redis, challenge) == everyone


def test_a_ban_by_the_accounts_service_takes_the_players_results_off(
    challenge: DailyChallenge,
    games: dict[str, Game],
    lb_redis: redis.Redis,
    django_capture_on_commit_callbacks: Any,
) -> None:
    everyone = {game.pk for game in games.values()}
    bob = games["Bob"]
    assert bob.player_id is not None
    with django_capture_on_commit_callbacks(execute=True):
        player = account_services.ban_account(bob.player_id, "shared account")
    assert player.is_banned and player.ban_reason == "shared account"
    assert on_board(lb_redis, challenge) == everyone - {bob.pk}
    with django_capture_on_commit_callbacks(execute=True):
        player = account_services.unban_account(bob.player_id)
    assert not player.is_banned and player.ban_reason == ""
    assert on_board(lb_redis, challenge) == everyone


def test_a_voided_day_by_the_games_service_empties_its_board(
    challenge: DailyChallenge,
    games: dict[str, Game],
    lb_redis: redis.Redis,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        voided = game_services.void_challenge(challenge.pk)
    assert sorted(voided) == sorted(game.pk for game in games.values())
    assert on_board(lb_redis, challenge) == set()
    assert Game.objects.filter(challenge=challenge, disqualified=False).count() == 0
