"""Fixtures for the leaderboard tests: players, challenges, verified results, Redis per test.

Every test here gets its own Redis key prefix (the real Redis from REDIS_URL), flushed
afterwards, so tests never see each other's boards. ``dead_redis`` points the boards at a
closed port instead: the PostgreSQL fallback.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import os
import socket
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.test import Client

from accounts.models import User
from games.models import DailyChallenge, Deal, Game, Mode, Status, Verification, utc_today
from leaderboards import store

_numbers = itertools.count(1_000)


@pytest.fixture(autouse=True)
def board_prefix(settings: Any) -> Iterator[str]:
    """A fresh key prefix for this test; its keys are deleted afterwards."""
    name = f"test-lb-{uuid.uuid4().hex[:12]}:"
    settings.LEADERBOARDS_KEY_PREFIX = name
    settings.LEADERBOARDS_REDIS_URL = os.environ.get("REDIS_URL", "")
    yield name
    r = store.client()
    if r is not None:
        with contextlib.suppress(redis.RedisError):
            store.flush_prefix(r)


@pytest.fixture
def lb_redis(board_prefix: str) -> redis.Redis:
    r = store.client()
    assert r is not None, "needs REDIS_URL (mark the test redis)"
    return r


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def dead_redis(settings: Any) -> str:
    """Boards pointed at a port where nothing listens: every Redis call fails fast."""
    url = f"redis://127.0.0.1:{closed_port()}/0"
    settings.LEADERBOARDS_REDIS_URL = url
    return url


def make_player(name: str, **extra: Any) -> User:
    return User.objects.create(username=name.lower(), display_name=name, **extra)


def make_challenge(date: dt.date | None = None, tier: str = "easy") -> DailyChallenge:
    deal = Deal.objects.create(number=next(_numbers), variant="yukon")
    return DailyChallenge.objects.create(date=date or utc_today(), tier=tier, deal=deal)


FINISH_BASE = dt.datetime(2025, 1, 1, 12, tzinfo=dt.UTC)


def result(
    player: User,
    challenge: DailyChallenge,
    *,
    won: bool = True,
    score: int = 625,
    elapsed_ms: int = 60_000,
    moves: int = 100,
    finished_at: dt.datetime | None = None,
    verification: str = Verification.VERIFIED,
    status: str | None = None,
    save: bool = True,
) -> Game:
    game = Game(
        player=player,
        deal_id=challenge.deal_id,
        challenge=challenge,
        mode=Mode.DAILY,
        status=status or (Status.WON if won else Status.STUCK),
        verification=verification,
        score=score,
        moves=moves,
        ply=moves,
        elapsed_ms=elapsed_ms,
        finished_at=finished_at or FINISH_BASE,
        verified_at=FINISH_BASE,
        position="-",
    )
    if save:
        game.save()
    return game


@pytest.fixture
def today() -> dt.date:
    return utc_today()


@pytest.fixture
def challenge(db: None) -> DailyChallenge:
    return make_challenge()


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client
