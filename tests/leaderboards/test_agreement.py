"""Redis and PostgreSQL rank thousands of random results identically, ties included."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

from accounts.models import User
from games.models import DailyChallenge, Game, Status
from leaderboards import day_board, ranking
from tests.factories import FINISH_BASE, closed_port, make_challenge, result

pytestmark = [pytest.mark.django_db, pytest.mark.postgres, pytest.mark.redis]

RESULTS = 3000


def random_board(challenge: DailyChallenge, rng: random.Random, count: int) -> None:
    """Few distinct values per key, so that many results tie on some keys or on all four
    (and some share a finish time too: the game id decides their order)."""
    users = User.objects.bulk_create(
        [User(username=f"p{i}", display_name=f"Player {i}", password="!") for i in range(count)]
    )
    games = []
    for user in users:
        won = rng.random() < 0.4
        games.append(
            result(
                user,
                challenge,
                won=won,
                score=625 if won else rng.choice([0, 5, 300, 310, 600]),
                elapsed_ms=rng.choice([59_999, 60_000, 61_000, 2**30]),  # one beyond the cap
                moves=rng.choice([90, 91, 100, 20_000]),  # one beyond the cap
                finished_at=FINISH_BASE + dt.timedelta(milliseconds=rng.randrange(50)),
                status=None if won else rng.choice([Status.STUCK, Status.RESIGNED]),
                save=False,
            )
        )
    Game.objects.bulk_create(games, batch_size=1000)


def redis_ranking(challenge: DailyChallenge) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    page = 1
    while True:
        board = day_board.daily_board(challenge, page=page)
        assert board.source == "redis"
        out += [(row.game_id, row.rank) for row in board.rows]
        if page >= board.pages:
            return out
        page += 1


def python_ranking(challenge: DailyChallenge) -> list[tuple[int, int]]:
    """The rules written out plainly, for a third opinion."""
    games = list(day_board.counted_games(challenge.pk).values(*day_board._ROW_FIELDS))
    results = sorted((day_board.result_of(g) for g in games), key=ranking.result_key)
    out = []
    rank = 0
    previous = None
    for index, r in enumerate(results):
        key = ranking.encode(r.won, r.score, r.elapsed_ms, r.moves)
        if key != previous:
            rank = index + 1
        previous = key
        out.append((r.game_id, rank))
    return out


def test_redis_and_postgres_rankings_agree_on_random_results_with_ties(settings: Any) -> None:
    rng = random.Random(20250101)
    challenge = make_challenge()
    random_board(challenge, rng, RESULTS)
    in_postgres = day_board.postgres_ranking(challenge.pk)
    in_redis = redis_ranking(challenge)  # the first read builds the board
    assert len(in_postgres) == RESULTS
    assert in_redis == in_postgres
    assert python_ranking(challenge) == in_postgres
    ranks = [rank for _, rank in in_postgres]
    assert len(set(ranks)) < RESULTS / 10, "the random board should be full of ties"
    # around-me windows agree as well, anywhere on the board
    for game_id, rank in rng.sample(in_postgres, 25):
        player_id = Game.objects.get(pk=game_id).player_id
        board = day_board.daily_board(challenge, viewer_id=player_id, around_me=True)
        assert board.me is not None and board.me.rank == rank
        assert [(row.game_id, row.rank) for row in board.rows] == in_postgres[
            board.offset : board.offset + day_board.PAGE_SIZE
        ]
        assert any(row.game_id == game_id for row in board.rows)

    # and the fallback (Redis down) serves the same pages and windows from PostgreSQL
    settings.LEADERBOARDS_REDIS_URL = f"redis://127.0.0.1:{closed_port()}/0"
    for page in (1, 7, RESULTS // day_board.PAGE_SIZE):
        board = day_board.daily_board(challenge, page=page)
        assert board.source == "postgres"
        start = (page - 1) * day_board.PAGE_SIZE
        assert [(row.game_id, row.rank) for row in board.rows] == in_postgres[
            start : start + day_board.PAGE_SIZE
        ]
    game_id, rank = in_postgres[RESULTS // 2]
    board = day_board.daily_board(
        challenge, viewer_id=Game.objects.get(pk=game_id).player_id, around_me=True
    )
    assert board.source == "postgres" and board.me is not None and board.me.rank == rank
