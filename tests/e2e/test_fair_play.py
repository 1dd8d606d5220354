"""Fair play in a real browser: the home page shows each tier's commitment and opens
yesterday's deals (behind "How we keep it fair"); the fair-play page recomputes a closed
day's commitment with Web Crypto."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from games.models import DailyChallenge, utc_today
from tests.factories import DESKTOP, make_challenges

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_home_shows_commitments_and_yesterdays_openings(browse: Any) -> None:
    today = make_challenges()
    yesterday = make_challenges(
        utc_today() - dt.timedelta(days=1), {"easy": 5, "medium": 6, "hard": 7}
    )
    page = browse(DESKTOP)
    page.goto("/")
    # Yesterday's winners arrive after the page and push the box down: a click aimed
    # before they land can miss the summary (seen once in CI), so click once they have.
    page.page.wait_for_load_state("networkidle")
    page.page.locator("[data-fair] summary").click()
    page.page.locator("[data-fair][open]").wait_for()
    easy = page.page.locator("[data-fair-today] li", has_text="Easy").locator("code")
    easy.wait_for()
    assert easy.get_attribute("title") == today["easy"].commitment
    assert easy.inner_text() == today["easy"].commitment[:12] + "…"
    opened = page.page.locator("[data-opened]")
    opened.wait_for()
    text = opened.inner_text()
    for challenge in yesterday.values():
        assert challenge.salt in text and f"deal {challenge.deal.number}" in text
    for challenge in today.values():
        assert challenge.salt not in page.page.content()
    page.assert_clean()


def test_the_fair_play_page_checks_a_closed_day(browse: Any) -> None:
    day = utc_today() - dt.timedelta(days=1)
    easy = make_challenges(day, {"easy": 5, "medium": 6, "hard": 7})["easy"]
    page = browse(DESKTOP)
    page.goto("/fair-play/")
    page.page.fill("input[name=recorded]", easy.commitment)
    page.page.click("[data-proof-form] button[type=submit]")
    result = page.page.locator("[data-proof-result]")
    result.get_by_text("They match.").wait_for()
    assert easy.salt in result.inner_text()

    page.assert_clean()

    DailyChallenge.objects.filter(pk=easy.pk).update(salt="0" * 32)  # tampered
    fresh = browse(DESKTOP)  # the first page may keep the closed day's answer (max-age 300)
    fresh.goto("/fair-play/")
    fresh.page.click("[data-proof-form] button[type=submit]")
    fresh.page.locator("[data-proof-result]").get_by_text("They do not match.").wait_for()
    fresh.assert_clean()
