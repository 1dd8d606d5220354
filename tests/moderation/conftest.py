"""Fixtures for the moderation tests: a moderator, players, today's challenges with known
winning lines (the helpers that make them and play games are in tests/factories.py).

Boards use the real Redis under a per-test key prefix (the leaderboards' fixture), and
Celery tasks run in-process (the games' fixture), so a finished game is verified, flagged
and put on its board as in production once its transaction commits.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from tests.factories import Clock, client_for, make_day, make_player
from tests.games.conftest import _celery_in_process  # noqa: F401 (fixture)
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    fake = Clock.for_play()
    monkeypatch.setattr(timezone, "now", fake)
    yield fake


@pytest.fixture(autouse=True)
def _fast_test_moves(settings: Any) -> None:
    """The tests play whole games in well under a second: lift the per-player move limit."""
    rates = dict(settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}))
    rates["moves"] = "100000/s"
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}


@pytest.fixture
def moderator(db: None) -> User:
    return make_player("Mod", staff=True, moderator=True)


@pytest.fixture
def mod_client(moderator: User) -> Client:
    return client_for(moderator)


@pytest.fixture
def today_challenges(db: None) -> dict[str, Any]:
    return make_day()
