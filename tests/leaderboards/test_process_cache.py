"""What a web process keeps of what it read lately (apikit.process_cache.ExpiringProcessCache:
the boards' pages, the day's counts)."""

from __future__ import annotations

import time
from typing import Any

from apikit.process_cache import ExpiringProcessCache


def test_kept_for_the_setting_and_full_drops_the_expired_then_the_oldest(settings: Any) -> None:
    settings.LEADERBOARD_ROWS_SECONDS = 0.2
    cache = ExpiringProcessCache(size=3)
    cache.put("old", 1)
    time.sleep(0.25)
    assert cache.get("old") is None  # expired
    settings.LEADERBOARD_ROWS_SECONDS = 60
    for key in ("a", "b", "c"):  # full: "old" (expired) makes room for "c"
        cache.put(key, key)
    assert [cache.get(key) for key in ("a", "b", "c")] == ["a", "b", "c"]
    cache.put("a", "a2")  # put again: it becomes the newest
    cache.put("d", "d")  # full: the oldest ("b") goes
    assert [cache.get(key) for key in ("a", "b", "c", "d")] == ["a2", None, "c", "d"]


def test_zero_seconds_keeps_nothing(settings: Any) -> None:
    settings.LEADERBOARD_ROWS_SECONDS = 0
    cache = ExpiringProcessCache()
    cache.put("a", 1)
    assert cache.get("a") is None


def test_full_of_mostly_expired_entries_keeps_every_live_one(settings: Any) -> None:
    settings.LEADERBOARD_ROWS_SECONDS = 0.2
    cache = ExpiringProcessCache(size=10)
    for key in range(3):
        cache.put(key, key)
    time.sleep(0.25)  # 0, 1, 2 expire
    settings.LEADERBOARD_ROWS_SECONDS = 60
    for key in range(3, 10):
        cache.put(key, key)
    cache.put(10, 10)  # full: only the three expired go
    assert [key for key in range(11) if cache.get(key) is not None] == list(range(3, 11))
    assert len(cache.entries) == 8
