"""Playing together in a real Chromium: a league made in one browser and joined from a
second one through its invite link; both play today's daily and the league's board,
left open, shows both without a reload; an archive day played from the calendar; the
home page's countdown and streak. Screenshots at 360 and 1280 px (test-artifacts/).
And a league name too long for the form: the browser cuts it at the input's maxlength,
and the page says so (it used to cut it without a word)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from tests.e2e.dragging import drag
from tests.e2e.play_api import PLAY_DAILY
from tests.e2e.test_play import WIN, parse, sign_up, wait_landed
from tests.factories import DESKTOP, PHONE, day_name

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _only_the_fixture_days(settings: Any) -> None:
    """Only the days this test makes exist: the home page must not prepare others."""
    settings.DAILY_PREPARE_ON_REQUEST = False


@pytest.fixture
def yesterday_easy(daily_deal0: Any) -> Any:
    from games.models import DailyChallenge

    return DailyChallenge.objects.create(
        date=daily_deal0.date - dt.timedelta(days=1), tier="easy", deal=daily_deal0.deal
    )


def league_rows(page: Any) -> list[str]:
    board = page.page.locator('[data-tier-board="easy"] tbody tr td:nth-child(2)')
    return [text.strip() for text in board.all_inner_texts()]


def test_league_invite_both_play_board_updates_archive_and_home(
    browse: Any, daily_deal0: Any, yesterday_easy: Any, eager_celery: None
) -> None:
    owner = browse(DESKTOP)
    sign_up(owner, "owlet")
    owner.goto("/leagues/")
    owner.page.get_by_label("New league name").fill("Night Owls")
    owner.page.get_by_role("button", name="Create league").click()
    owner.page.wait_for_url(re.compile(r".*/leagues/\d+/$"))
    owner.page.locator("[data-league-name]", has_text="Night Owls").wait_for()
    invite = owner.page.locator("[data-invite]").input_value()
    assert re.fullmatch(r"http://[^/]+/leagues/join/[A-Za-z0-9_-]{32}/", invite), invite
    league_url = owner.page.url

    friend = browse(PHONE)  # a second browser context: its own cookies
    sign_up(friend, "robin")
    friend.page.goto(invite)
    friend.page.get_by_role("button", name="Join Night Owls").click()
    friend.page.wait_for_url(league_url)
    friend.page.locator("[data-members] li", has_text="Owlet").wait_for()
    friend.page.locator("[data-members] li", has_text="Robin").wait_for()

    # The owner's league page stays open while both play; it polls, nobody reloads it.
    owner.page.locator("[data-members] li", has_text="Robin").wait_for(timeout=15_000)
    assert league_rows(owner) == []
    for page in (friend, owner):
        page.page.evaluate(PLAY_DAILY, ["easy", WIN["moves"]])
    owner.page.wait_for_function(
        "() => document.querySelectorAll('[data-tier-board=\"easy\"] tbody tr').length === 2",
        timeout=20_000,
    )
    # the day is open: the owner's own row links its replay, the friend's does not yet
    assert sorted(league_rows(owner)) == ["Owlet ▶", "Robin"]
    replays = owner.page.locator('[data-tier-board="easy"] a[aria-label=replay]')
    assert replays.count() == 1 and "/replay/" in (replays.get_attribute("href") or "")
    assert owner.page.locator("[data-week] tbody tr").count() == 2
    owner.shot("league-desktop")
    friend.page.reload()
    friend.page.locator('[data-tier-board="easy"] tbody tr').nth(1).wait_for()
    friend.shot("league-phone")

    # The archive: yesterday's easy deal from the calendar, unranked.
    day = yesterday_easy.date.isoformat()
    owner.goto(f"/archive/?month={day[:7]}")  # yesterday may lie in last month
    cell = owner.page.locator(f'[data-play="{day}"][data-tier="easy"]')
    assert "not played" in cell.get_attribute("aria-label")
    owner.shot("archive-desktop")
    cell.click()
    owner.page.wait_for_url(re.compile(r".*/play/\d+/$"))
    title = f"{day_name(yesterday_easy.date)} · Easy · archive"  # the day by name
    owner.page.locator("[data-title]", has_text=title).wait_for()
    for move in WIN["moves"][:3]:
        card, dest = parse(move)
        drag(owner, card, dest)
        wait_landed(owner, card, dest)
    owner.goto(f"/archive/?month={day[:7]}")
    owner.page.locator(f'[data-play="{day}"][data-tier="easy"].playing').wait_for()

    friend.goto(f"/archive/?month={day[:7]}")
    friend.page.locator(f'[data-play="{day}"][data-tier="easy"]').wait_for()
    friend.shot("archive-phone")

    # Home: the countdown runs, the streak (one won daily today) shows.
    for page, name in ((owner, "home-desktop"), (friend, "home-phone")):
        page.goto("/")
        countdown = page.page.locator("[data-countdown]")
        page.page.wait_for_function(
            "() => /^\\d\\d:\\d\\d:\\d\\d$/"
            ".test(document.querySelector('[data-countdown]').textContent)"
        )
        first = countdown.inner_text()
        page.page.wait_for_function(
            f"() => document.querySelector('[data-countdown]').textContent !== '{first}'"
        )
        page.page.locator("[data-streak]", has_text="Your streak: 1 day").wait_for()
        page.page.locator("[data-home-leagues]", has_text="Night Owls").wait_for()
        page.shot(name)
    for page in (owner, friend):
        page.assert_clean()


def test_a_big_leagues_tables_page_through_and_keep_your_row(browse: Any, daily_deal0: Any) -> None:
    """60 members: the week, month and streak tables show 50 rows and the viewer's own
    below them; Next shows the rest."""
    from accounts.models import User
    from social.models import League, Membership
    from social.services import new_invite_token
    from tests.factories import make_player, result

    page = browse(DESKTOP)
    sign_up(page, "laggard")
    me = User.objects.get(username="laggard")
    others = [make_player(f"P{i:02d}") for i in range(59)]
    # The results are written behind the services' back (no counter raised), so they come
    # before the league: the home page's request still in flight after the sign-up must
    # not keep a league board computed without them.
    for index, player in enumerate(others):
        result(player, daily_deal0, elapsed_ms=60_000 + index)
    league = League.objects.create(
        name="Big Table", name_key="big table", owner=me, invite_token=new_invite_token()
    )
    Membership.objects.bulk_create(Membership(league=league, player=p) for p in [me, *others])
    page.goto(f"/leagues/{league.pk}/")
    streaks = page.page.locator("[data-streaks] tbody tr")
    streaks.nth(50).wait_for()
    assert streaks.count() == 51
    assert "me" in (streaks.nth(50).get_attribute("class") or "")
    assert "Laggard" in streaks.nth(50).inner_text()
    caption = page.page.locator("[data-week] caption").inner_text()
    assert caption.endswith("59 members played"), caption
    # the week's days by name, as the rest of the site writes a day ("Dec 7, 2026")
    assert re.match(r"\w{3} \d{1,2}, \d{4} to \w{3} \d{1,2}, \d{4} · ", caption), caption
    pager = page.page.locator("[data-league-pager]")
    assert "Page 1 of 2" in pager.inner_text()
    pager.get_by_role("button", name="Next").click()
    pager.locator("text=Page 2 of 2").wait_for()
    assert streaks.count() == 10  # P50..P58, then the viewer
    week = page.page.locator("[data-week] tbody td:nth-child(2)").all_inner_texts()
    assert [name.strip() for name in week] == [f"P{i:02d}" for i in range(50, 59)]
    pager.get_by_role("button", name="Previous").click()
    pager.locator("text=Page 1 of 2").wait_for()
    page.assert_clean()
