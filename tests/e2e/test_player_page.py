"""The player page people read (issue 39, item 4), and local time (item 3), in Chromium.

A player with a month of easy dailies won (a badge), a hard one won and one lost, medium
never played: at a phone's width and a desktop's, the page says it all in words (no raw
field of the API), draws the calendar as a labelled table with months, weekdays and a key,
marks the lost game, pages the games with Newer / Older, keeps the receipts command on
one line, and passes axe. Then, in New York, the home page gives the close of the day on
the reader's clock.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from typing import Any

import pytest

from accounts.models import User
from games.models import Tier, utc_today
from tests.e2e.axe import failures
from tests.e2e.conftest import SCREENSHOTS, save_screenshot
from tests.factories import (
    DESKTOP,
    client_for,
    day_name,
    make_challenge,
    make_player,
    result,
    short_day_name,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NAME = "Pat Player"
# What the API calls its fields, which a reader must never see.
RAW = re.compile(r"\b(count|pages?) \d|win_rate|current_streak|null|undefined|NaN|\b0%")


@pytest.fixture
def pat() -> User:
    """Pat won every easy daily of last month, and today's; won a hard daily ten days ago
    and lost yesterday's; never played a medium one."""
    pat = make_player(NAME)
    today = utc_today()
    last_month_end = today.replace(day=1) - dt.timedelta(days=1)
    day = last_month_end.replace(day=1)
    while day <= last_month_end:
        result(pat, make_challenge(day, Tier.EASY), elapsed_ms=200_000 + day.day * 1000)
        day += dt.timedelta(days=1)
    result(pat, make_challenge(today, Tier.EASY), elapsed_ms=150_000)
    result(pat, make_challenge(today - dt.timedelta(days=10), Tier.HARD), elapsed_ms=400_000)
    yesterday = today - dt.timedelta(days=1)
    result(pat, make_challenge(yesterday, Tier.HARD), won=False, score=240, elapsed_ms=500_000)
    return pat


def log_in(page: Any, user: User) -> None:
    session = client_for(user).cookies["sessionid"].value
    page.page.context.add_cookies([{"name": "sessionid", "value": session, "url": page.base_url}])


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_player_page_reads_in_words(
    browse: Any, pat: User, size: str, viewport: dict[str, int]
) -> None:
    page = browse(viewport, locale="en-US")
    log_in(page, pat)
    page.goto("/players/Pat%20Player/")
    p = page.page
    calendar = p.get_by_role("table", name=re.compile("The last 26 weeks"))
    calendar.wait_for()
    save_screenshot(p, SCREENSHOTS / f"player-page-{size}.png", full_page=True)

    text = p.locator("main").inner_text()
    assert not RAW.search(text), RAW.search(text)
    headings = p.get_by_role("heading", level=2).all_inner_texts()
    for heading in ("Daily totals", "Record by tier", "Calendar", "Badges", "Recent daily games"):
        assert heading in headings, headings

    # The record by tier: percentages, and a tier never played says so (not "0%").
    record = p.locator("table.record")
    assert record.locator("tr", has_text="Easy").inner_text().count("100%") == 1
    assert "50%" in record.locator("tr", has_text="Hard").inner_text()
    assert "not played" in record.locator("tr", has_text="Medium").inner_text()

    # The calendar: a caption, a column per week under its month's name, a row per
    # weekday, each day a square that says its date and result; and its key.
    today = utc_today()
    days = 7 * 25 + today.weekday() + 1
    assert calendar.locator(".heat").count() == days
    heads = calendar.locator("thead th > [aria-hidden=true]").all_inner_texts()
    assert len(heads) == 26 and sum(bool(h.strip()) for h in heads) >= 5, heads
    assert f"{today.replace(day=1):%b}" in heads
    weekdays = calendar.locator("tbody th > [aria-hidden=true]").all_inner_texts()
    assert calendar.get_by_role("rowheader").all_inner_texts()[0].endswith("Monday")
    assert [t.strip() for t in weekdays][:5] == [
        "Mon",
        "",
        "Wed",
        "",
        "Fri",
    ]
    for days_ago, hard in ((10, "won"), (1, "lost")):
        day = today - dt.timedelta(days=days_ago)
        easy = "easy won, " if day.month != today.month else ""  # last month's, every day
        cell = calendar.get_by_role("cell", name=f"{day_name(day)}: {easy}hard {hard}", exact=True)
        assert cell.count() == 1, (day, easy, hard)
    assert calendar.locator(".heat.today").get_attribute("title") == f"{day_name(today)}: easy won"
    key = p.get_by_role("list", name=re.compile("Key to the calendar"))
    assert key.locator("li").all_inner_texts() == [
        "No daily played",
        "Played, none won",
        "1 won",
        "2 won",
        "All 3 won",
    ]
    last_month = today.replace(day=1) - dt.timedelta(days=1)
    assert (
        f"{last_month:%B} {last_month.year}: every easy day won"
        in p.locator(".badge-list").inner_text()
    )

    # The games: the lost one marked, today's rank told, and pages named Newer and Older.
    games = p.get_by_role("region", name="Recent daily games")
    assert games.locator("tr.lost").count() == 1
    assert "✗ No move left" in games.locator("tr.lost").inner_text()
    # each game's day by name, as the rest of the page names days, not "2026-12-06"
    assert today.isoformat() not in games.inner_text()
    today_row = games.locator("tr", has_text=short_day_name(today))
    assert re.search(r"after the close|\d+ so far", today_row.inner_text()), today_row.inner_text()
    pager = p.get_by_role("navigation", name="Daily games")
    assert pager.get_by_role("button").all_inner_texts() == ["Older games"]
    assert re.search(r"Games 1\W30 of 33, newest first", pager.inner_text())  # an en dash
    first_rows = games.locator("tbody tr").all_inner_texts()
    pager.get_by_role("button", name="Older games").click()
    p.get_by_role("button", name="Newer games").wait_for()
    assert games.locator("tbody tr").all_inner_texts() != first_rows
    assert re.search(r"Games 31\W33 of 33", pager.inner_text())

    # The receipts command keeps its one line, scrolling in its own box on a phone.
    command = p.get_by_role("region", name="The command that checks your receipts")
    command.scroll_into_view_if_needed()
    line_height = command.evaluate("el => parseFloat(getComputedStyle(el).lineHeight) || 20")
    box = command.locator("code").bounding_box()
    assert box is not None and box["height"] < 1.6 * line_height
    # the checker a player downloads from the fair-play page, with this site's address (it
    # said `python -m games.verify_day --site …`, the server's own module)
    assert command.inner_text() == (
        f"python3 yukon-verify.pyz --site {page.base_url} --receipt yukon-daily-receipts.jsonl"
    )

    # The calendar and the games fit the width: nothing to scroll sideways to, even on a phone.
    for region in (p.locator(".heatmap-box"), games):
        assert region.evaluate("el => el.scrollWidth <= el.clientWidth"), region
    overflow = p.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
    found = failures(p)
    assert not found, "\n".join(found)
    page.assert_clean()


def test_the_home_page_gives_the_close_on_the_readers_clock(browse: Any) -> None:
    """In New York the day closes at 19:00 (20:00 in summer): the page says so in the
    reader's own way of writing times, and keeps the UTC time as the element's title."""
    page = browse(DESKTOP, timezone_id="America/New_York", locale="en-US")
    page.goto("/")
    turnover = page.page.locator('.countdown time[data-local="turnover"]')
    turnover.filter(has_text="your time").wait_for()
    midnight = dt.datetime.combine(utc_today() + dt.timedelta(days=1), dt.time(), dt.UTC)
    new_york = zoneinfo.ZoneInfo("America/New_York")
    local = midnight.astimezone(new_york)
    # from 00:00 to 05:00 UTC it is still the evening before in New York: the close is
    # tomorrow there, and the page says so
    tomorrow = " tomorrow" if local.date() > dt.datetime.now(new_york).date() else ""
    expected = f"{local.hour - 12}:00 PM{tomorrow} your time"
    shown = re.sub(r"\s", " ", turnover.inner_text())
    assert shown == expected, (shown, expected)
    assert turnover.get_attribute("title") == "00:00 UTC"
    assert turnover.get_attribute("datetime") == midnight.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    save_screenshot(page.page, SCREENSHOTS / "home-local-time-new-york.png")
    page.assert_clean()
