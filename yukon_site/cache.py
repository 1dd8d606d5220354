"""A Redis cache that survives a Redis outage (reads miss, writes are dropped), and that
reuses its Redis client objects.

The cache holds sessions (``cached_db``: the database has them too) and rate-limit
counters; neither is the truth. When Redis is down, Django's own RedisCache raises on
every request; this one logs once in a while and carries on, so players keep playing
(PostgreSQL is the truth) and the limits open until Redis is back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

from apikit import redis_client
from apikit.metrics import count_redis_fallback

logger = logging.getLogger(__name__)

_WARN_EVERY = 30.0  # seconds between two warnings about the same outage


class ReusingRedisCacheClient(RedisCacheClient):
    """Django builds a new ``redis.Redis`` for every cache call, which costs more than the
    round trip itself (the client registers ~100 response callbacks), a large share of a
    move's time in bench/bench_load.py's profile. One shared client (which only wraps its
    connection pool, and is thread-safe) serves every call; through the Sentinels when
    ``REDIS_SENTINELS`` is set (apikit/redis_client.py). One server: the site configures
    no cache replicas."""

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        return redis_client.client(self._servers[0], **self._pool_options)  # type: ignore[attr-defined]


class ResilientRedisCache(RedisCache):
    _last_warning = 0.0

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient

    def _failed(self, operation: str, exc: Exception) -> None:
        count_redis_fallback("cache")
        now = time.monotonic()
        if now - ResilientRedisCache._last_warning > _WARN_EVERY:
            ResilientRedisCache._last_warning = now
            logger.warning("cache %s failed, carrying on without Redis: %s", operation, exc)

    def count_in_window(self, key: Any, seconds: int) -> tuple[int, float]:
        """Count one more hit in the fixed window of ``seconds`` that ``key`` is in:
        (hits so far, seconds until the window ends), in one round trip (INCR, EXPIRE NX,
        PTTL in a pipeline). With Redis down: (0, 0), so the limits open."""
        key = self.make_and_validate_key(key)
        try:
            client = self._cache.get_client(key, write=True)  # type: ignore[attr-defined]
            pipe = client.pipeline(transaction=False)
            pipe.incr(key)
            pipe.expire(key, seconds, nx=True)
            pipe.pttl(key)
            count, _, left_ms = pipe.execute()
        except redis.RedisError as exc:
            self._failed("count_in_window", exc)
            return 0, 0.0
        return int(count), max(left_ms, 0) / 1000

    # Budgets of costly calls (apikit/budgets.py): several counters at once, and a charge
    # that lapses with its window.
    _ADD_IF_PRESENT = (
        "if redis.call('EXISTS', KEYS[1]) == 1 then "
        "return redis.call('INCRBY', KEYS[1], ARGV[1]) end return false"
    )

    def add_in_windows(
        self, items: Sequence[tuple[Any, int, int]]
    ) -> list[tuple[int, float]] | None:
        """Add ``amount`` to each counter ``key`` in its fixed window of ``seconds`` (which
        starts with the counter): [(its total, seconds until its window ends)], in one round
        trip (INCRBY, EXPIRE NX, PTTL each). With Redis down: None, so the limits open."""
        if not items:
            return []
        keys = [self.make_and_validate_key(key) for key, _, _ in items]
        try:
            client = self._cache.get_client(keys[0], write=True)  # type: ignore[attr-defined]
            pipe = client.pipeline(transaction=False)
            for key, (_, amount, seconds) in zip(keys, items, strict=True):
                pipe.incrby(key, amount)
                pipe.expire(key, seconds, nx=True)
                pipe.pttl(key)
            replies = pipe.execute()
        except redis.RedisError as exc:
            self._failed("add_in_windows", exc)
            return None
        return [(int(replies[i]), max(replies[i + 2], 0) / 1000) for i in range(0, len(replies), 3)]

    def add_if_present(self, items: Sequence[tuple[Any, int]]) -> None:
        """Add ``amount`` to each counter that still exists, in one round trip: a counter
        whose window ended is not started again by a late charge."""
        if not items:
            return
        keys = [self.make_and_validate_key(key) for key, _ in items]
        try:
            client = self._cache.get_client(keys[0], write=True)  # type: ignore[attr-defined]
            pipe = client.pipeline(transaction=False)
            for key, (_, amount) in zip(keys, items, strict=True):
                pipe.eval(self._ADD_IF_PRESENT, 1, key, amount)
            pipe.execute()
        except redis.RedisError as exc:
            self._failed("add_if_present", exc)

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except redis.RedisError as exc:
            self._failed("get", exc)
            return default

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        try:
            return super().get_many(keys, version)
        except redis.RedisError as exc:
            self._failed("get_many", exc)
            return {}

    def set(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> None:
        try:
            super().set(key, value, timeout, version)
        except redis.RedisError as exc:
            self._failed("set", exc)

    def add(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> bool:
        try:
            return super().add(key, value, timeout, version)
        except redis.RedisError as exc:
            # As if added: a lock or a limit built on add (allauth's rate limits, the
            # coach's one search per player) opens instead of refusing everyone.
            self._failed("add", exc)
            return True

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().delete(key, version)
        except redis.RedisError as exc:
            self._failed("delete", exc)
            return False

    def touch(self, key: Any, timeout: Any = None, version: int | None = None) -> bool:
        try:
            return super().touch(key, timeout, version)
        except redis.RedisError as exc:
            self._failed("touch", exc)
            return False

    def has_key(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().has_key(key, version)
        except redis.RedisError as exc:
            self._failed("has_key", exc)
            return False

    def set_many(
        self, data: dict[Any, Any], timeout: Any = None, version: int | None = None
    ) -> list[Any]:
        try:
            return super().set_many(data, timeout, version)
        except redis.RedisError as exc:
            self._failed("set_many", exc)
            return list(data)
