"""Fixtures for the leaderboard tests: players, challenges, verified results, Redis per test.

Every test here gets its own Redis key prefix (the real Redis from REDIS_URL), flushed
afterwards, so tests never see each other's boards. ``dead_redis`` points the boards at a
closed port instead: the PostgreSQL fallback.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from games.models import DailyChallenge, utc_today
from leaderboards import store
from tests.factories import closed_port, make_challenge


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


@pytest.fixture
def dead_redis(settings: Any) -> str:
    """Boards pointed at a port where nothing listens: every Redis call fails fast."""
    url = f"redis://127.0.0.1:{closed_port()}/0"
    settings.LEADERBOARDS_REDIS_URL = url
    return url


@pytest.fixture
def today() -> dt.date:
    return utc_today()


@pytest.fixture
def challenge(db: None) -> DailyChallenge:
    return make_challenge()
