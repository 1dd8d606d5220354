"""Fixtures for the page tests: a game every visitor may open."""

from __future__ import annotations

import datetime as dt

import pytest

from games.models import Tier, utc_today
from tests.factories import make_day, make_player, result


@pytest.fixture
def public_game(db: None) -> int:
    """A finished daily of a closed day: its play and replay pages open to anyone (a page
    of a game one may not see is a 404, as its API answer is)."""
    closed_day = utc_today() - dt.timedelta(days=2)
    return result(make_player("Ann Public"), make_day(closed_day)[Tier.EASY]).pk
