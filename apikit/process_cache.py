"""A value this process read lately, kept a few seconds: the hot reads of a busy day (a
board's page, the day's counts) come many times a second, and each would repeat the same
queries. How long is a setting's, read at each put (0 keeps nothing), so tests and
operators change it without a restart."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings


class ExpiringProcessCache:
    """Values kept for ``settings.<seconds_setting>`` seconds, at most ``size`` of them:
    when full, the expired ones go, then the oldest."""

    def __init__(self, seconds_setting: str = "LEADERBOARD_ROWS_SECONDS", size: int = 256) -> None:
        self.seconds_setting = seconds_setting
        self.size = size
        self.entries: dict[Any, tuple[float, Any]] = {}  # in the order they were put

    def get(self, key: Any) -> Any:
        found = self.entries.get(key)
        return found[1] if found is not None and found[0] > time.monotonic() else None

    def put(self, key: Any, value: Any) -> None:
        seconds = getattr(settings, self.seconds_setting)
        if seconds <= 0:
            return
        now = time.monotonic()
        self.entries.pop(key, None)
        if len(self.entries) >= self.size:
            self.entries = {k: v for k, v in self.entries.items() if v[0] > now}
            excess = len(self.entries) - self.size + 1
            for oldest in list(self.entries)[: max(0, excess)]:
                del self.entries[oldest]
        self.entries[key] = (now + seconds, value)

    def clear(self) -> None:
        self.entries.clear()
