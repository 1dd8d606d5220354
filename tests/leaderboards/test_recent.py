"""What a web process keeps of the boards it read (leaderboards.daily.Recent)."""

from __future__ import annotations

import time
from typing import Any

from leaderboards.daily import Recent


def test_kept_for_the_setting_and_full_drops_the_expired_then_the_oldest(settings: Any) -> None:
    settings.LEADERBOARD_ROWS_SECONDS = 0.2
    recent = Recent(size=3)
    recent.put("old", 1)
    time.sleep(0.25)
    assert recent.get("old") is None  # expired
    settings.LEADERBOARD_ROWS_SECONDS = 60
    for key in ("a", "b", "c"):  # full: "old" (expired) makes room for "c"
        recent.put(key, key)
    assert [recent.get(key) for key in ("a", "b", "c")] == ["a", "b", "c"]
    recent.put("a", "a2")  # put again: it becomes the newest
    recent.put("d", "d")  # full: the oldest ("b") goes
    assert [recent.get(key) for key in ("a", "b", "c", "d")] == ["a2", None, "c", "d"]


def test_zero_seconds_keeps_nothing(settings: Any) -> None:
    settings.LEADERBOARD_ROWS_SECONDS = 0
    recent = Recent()
    recent.put("a", 1)
    assert recent.get("a") is None


def test_full_of_mostly_expired_entries_keeps_every_live_one(settings: Any) -> None:
    settings.LEADERBOARD_ROWS_SECONDS = 0.2
    recent = Recent(size=10)
    for key in range(3):
        recent.put(key, key)
    time.sleep(0.25)  # 0, 1, 2 expire
    settings.LEADERBOARD_ROWS_SECONDS = 60
    for key in range(3, 10):
        recent.put(key, key)
    recent.put(10, 10)  # full: only the three expired go
    assert [key for key in range(11) if recent.get(key) is not None] == list(range(3, 11))
    assert len(recent.entries) == 8
