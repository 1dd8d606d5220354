"""The archive plays Sunday's weekly: the calendar lists it on its Sunday (and only there),
with the player's state, so the archive page can offer it (issue 39, item 9). Before, the
calendar knew the three daily tiers only and a closed weekly could not be opened from it."""

from __future__ import annotations

import datetime as dt

import pytest

from games.models import WEEKLY, WEEKLY_VARIANT, DailyChallenge, Deal, utc_today
from leaderboards import archive
from leaderboards.serializers import Calendar
from tests.factories import Api, logged_in, make_challenges, make_player

pytestmark = [pytest.mark.django_db]

SUNDAY = dt.date(2026, 12, 6)


def weekly_on(day: dt.date, number: int = 7) -> DailyChallenge:
    deal, _ = Deal.objects.get_or_create(number=number, variant=WEEKLY_VARIANT)
    return DailyChallenge.objects.create(date=day, tier=WEEKLY, deal=deal)


def last_closed_sunday() -> dt.date:
    yesterday = utc_today() - dt.timedelta(days=1)
    return yesterday - dt.timedelta(days=(yesterday.weekday() - 6) % 7)


def test_the_calendar_holds_the_weekly_on_its_sunday_only() -> None:
    player = make_player("Ann")
    make_challenges(SUNDAY)
    weekly_on(SUNDAY)
    saturday = SUNDAY - dt.timedelta(days=1)
    make_challenges(saturday, {"easy": 11, "medium": 12, "hard": 13})

    month = archive.month_calendar(player.pk, 2026, 12, today=SUNDAY + dt.timedelta(days=2))
    days = {day["date"]: day["tiers"] for day in month["days"]}
    assert days[SUNDAY] == {
        "easy": "not_played",
        "medium": "not_played",
        "hard": "not_played",
        "weekly": "not_played",
    }
    assert days[saturday]["weekly"] is None and days[saturday]["easy"] == "not_played"
    # the answer (the schema's serializer) carries it
    assert Calendar(month).data["days"][SUNDAY.day - 1]["tiers"]["weekly"] == "not_played"

    # On the Sunday itself the weekly is today's, played as the daily.
    today = archive.month_calendar(player.pk, 2026, 12, today=SUNDAY)
    assert today["days"][SUNDAY.day - 1]["tiers"]["weekly"] == "open"


def test_a_closed_sunday_weekly_opens_from_the_calendar() -> None:
    sunday = last_closed_sunday()
    weekly_on(sunday)
    api = Api(logged_in(make_player("Bea")))
    month = f"{sunday:%Y-%m}"
    status, calendar = api.get(f"/api/calendar/{month}/")
    assert status == 200, calendar
    tiers = calendar["days"][sunday.day - 1]["tiers"]
    assert tiers["weekly"] == "not_played", calendar["days"][sunday.day - 1]

    status, game = api.post(f"/api/archive/{sunday}/weekly/")
    assert status == 201, game
    assert (game["mode"], game["tier"], game["variant"]) == ("archive", WEEKLY, WEEKLY_VARIANT)
    status, calendar = api.get(f"/api/calendar/{month}/")
    assert calendar["days"][sunday.day - 1]["tiers"]["weekly"] == "playing"
