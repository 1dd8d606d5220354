"""A player's record over as many days as its calendar shows: ``GET
/api/players/<name>/record/?days=N`` (the player page's heat map asks for 26 weeks)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from games.models import Tier, utc_today
from leaderboards.serializers import PlayerRecord
from tests.factories import Api, make_challenge, make_player, result

pytestmark = pytest.mark.django_db


@pytest.fixture
def record_of_ann() -> str:
    """Ann won a hard daily 100 days ago and lost today's easy one."""
    ann = make_player("Ann")
    today = utc_today()
    result(ann, make_challenge(today - dt.timedelta(days=100), Tier.HARD))
    result(ann, make_challenge(today, Tier.EASY), won=False, score=240)
    return "/api/players/Ann/record/"


def test_the_record_covers_the_days_asked_for(record_of_ann: str) -> None:
    api = Api(Client())
    today = utc_today()
    status, record = api.get(f"{record_of_ann}?days=182")
    assert status == 200, record
    PlayerRecord(data=record).is_valid(raise_exception=True)
    recent = record["recent"]
    assert [day["date"] for day in (recent[0], recent[-1])] == [
        (today - dt.timedelta(days=181)).isoformat(),
        today.isoformat(),
    ]
    assert len(recent) == 182
    by_date = {day["date"]: day["tiers"] for day in recent}
    assert by_date[(today - dt.timedelta(days=100)).isoformat()]["hard"] == "won"
    assert by_date[today.isoformat()]["easy"] == "lost"
    # Unasked, the last 30 days, as before: the win 100 days ago is not among them.
    status, record = api.get(record_of_ann)
    assert status == 200 and len(record["recent"]) == 30
    assert all(day["tiers"]["hard"] is None for day in record["recent"])
    # Up to a year with its weeks whole.
    assert len(api.get(f"{record_of_ann}?days=371")[1]["recent"]) == 371


@pytest.mark.parametrize("days", ["0", "372", "-3", "a week", ""])
def test_a_bad_number_of_days_is_a_400_that_says_so(record_of_ann: str, days: str) -> None:
    status, body = Api(Client()).get(f"{record_of_ann}?days={days}")
    assert status == 400, body
    assert body["detail"].startswith("days: "), body
