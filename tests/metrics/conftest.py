"""The metrics tests: verification in-process (a finish is counted when a game is
verified), and no count left in Redis by an earlier test of the worker."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from django.conf import settings

from metrics import services


@pytest.fixture(autouse=True)
def _verify_in_process() -> Iterator[None]:
    from yukon_site.celery import app

    saved = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def _no_pending_counts() -> None:
    """Every game started or account signed up in this worker's earlier tests left a
    count in Redis (their databases are gone, the Redis database stays)."""
    if not settings.REDIS_URL:
        return
    client = redis.Redis.from_url(settings.REDIS_URL)
    keys = [services.PENDING_KEY, *client.scan_iter(match=f"{services.BATCH_PREFIX}*")]
    client.delete(*keys)
    client.close()
