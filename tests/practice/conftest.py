"""Fixtures of the coach and analysis tests: the games tests' clients, small solver budgets."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache

from tests.games.conftest import (  # noqa: F401  (fixtures, registered by import)
    _celery_in_process,
    api,
    guest_api,
    other_api,
    player,
)


@pytest.fixture(autouse=True)
def _small_budgets(settings: Any) -> Iterator[None]:
    """Budgets that keep these tests quick on deals the solver settles in milliseconds;
    a fresh cache, so that no answer comes from another test."""
    settings.HINT_SECONDS = 1.0
    settings.ANALYSIS_SOLVE_SECONDS = 0.5
    settings.ANALYSIS_TOTAL_SECONDS = 10.0
    # The hint loops play a hundred moves in a second: far above the human burst limit.
    rates = dict(settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}))
    rates["moves"] = "100000/s"
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    cache.clear()
    yield
    cache.clear()
