"""The play page near the close of day: a daily started at 23:55 UTC says how long is
left, and the last minutes count down (frontend/static/frontend/js/shared/closing.js)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from tests.e2e.test_play import sign_up
from tests.factories import DESKTOP

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _no_solver_runs(settings: Any) -> None:
    """Only the easy tier exists: the home page must not prepare the others meanwhile."""
    settings.DAILY_PREPARE_ON_REQUEST = False


def without_date_header(route: Any) -> None:
    """The page takes the server's time from each answer's Date header; without one it
    keeps the browser's clock, which this test sets."""
    response = route.fetch()
    headers = {k: v for k, v in response.headers.items() if k.lower() != "date"}
    route.fulfill(response=response, headers=headers)


def test_a_daily_started_five_minutes_before_the_close_counts_down(
    browse: Any, daily_deal0: Any
) -> None:
    page = browse(DESKTOP)
    # The server's own clock says the day is open (it is); the page is told it is 23:55.
    near = dt.datetime.combine(daily_deal0.date, dt.time(23, 55), tzinfo=dt.UTC)
    page.page.clock.install(time=near)
    page.page.route("**/api/**", without_date_header)
    sign_up(page, "latecomer")
    page.page.locator('[data-start="easy"]').click()
    page.page.wait_for_url(re.compile(r".*/play/\d+/$"))
    page.page.locator('.tableau [data-card="8d"]').wait_for()

    toast = page.page.locator(".toast", has_text="The day closes in")
    toast.wait_for()
    line = page.page.locator("[data-closing]")
    line.wait_for(state="visible")
    # 5:00 while less than a second has passed on the page's clock since 23:55
    assert re.fullmatch(r"The day closes in (5:00|4:[0-5]\d)", line.inner_text()), line.inner_text()
    assert "urgent" in (line.get_attribute("class") or "")
    page.page.clock.fast_forward("02:00")
    page.page.wait_for_function(
        "() => document.querySelector('[data-closing]').textContent.match(/in 2:[0-5]\\d$/)"
    )
    page.shot("play-desktop-closing")
    page.assert_clean()


def test_nothing_is_said_early_in_the_day(browse: Any, daily_deal0: Any) -> None:
    page = browse(DESKTOP)
    noon = dt.datetime.combine(daily_deal0.date, dt.time(12, 0), tzinfo=dt.UTC)
    page.page.clock.install(time=noon)
    page.page.route("**/api/**", without_date_header)
    sign_up(page, "early")
    page.page.locator('[data-start="easy"]').click()
    page.page.wait_for_url(re.compile(r".*/play/\d+/$"))
    page.page.locator('.tableau [data-card="8d"]').wait_for()
    assert page.page.locator("[data-closing]").is_hidden()
    page.assert_clean()


def test_at_midnight_the_page_shows_the_game_ended_unfinished(
    browse: Any, daily_deal0: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.utils import timezone

    page = browse(DESKTOP)
    # Both clocks at 23:59:40 UTC of the challenge's day, running: the live server's (it
    # runs in this process) and the page's (no Date header to correct it).
    start = dt.datetime.combine(daily_deal0.date, dt.time(23, 59, 40), tzinfo=dt.UTC)
    shift = start - dt.datetime.now(dt.UTC)
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real_now() + shift)
    page.page.clock.install(time=start)
    page.page.route("**/api/**", without_date_header)
    sign_up(page, "lastminute")
    page.page.locator('[data-start="easy"]').click()
    page.page.wait_for_url(re.compile(r".*/play/\d+/$"))
    page.page.locator('.tableau [data-card="8d"]').wait_for()
    line = page.page.locator("[data-closing]")
    line.filter(has_text=re.compile(r"The day closes in 0:[0-5]\d")).wait_for()

    page.page.wait_for_timeout(1_000)
    page.page.clock.fast_forward("00:30")  # past midnight on both clocks
    monkeypatch.setattr(timezone, "now", lambda: real_now() + shift + dt.timedelta(seconds=30))
    dialog = page.page.locator("dialog[data-end]")
    dialog.wait_for(state="visible", timeout=10_000)
    assert dialog.locator("[data-end-title]").inner_text() == "Day closed"
    from games.models import Game, Status

    assert Game.objects.get(player__username="lastminute").status == Status.ABANDONED
    page.assert_clean()
    # The end dialog's own requests (the results, the board) must be answered before the
    # teardown empties the tables: one still in the server's hands held a lock the flush
    # needed (a deadlock, seen once in CI).
    page.page.wait_for_load_state("networkidle")
