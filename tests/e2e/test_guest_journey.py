"""The first minute and the last (issue 39), as a new player meets them, at 1280 and 390 px.

A guest opens the home page and taps Play on today's easy daily: no sign-up first. They win
it by dragging every card with the mouse, see the results screen (the day's bars with theirs
marked, their percentile, "Sign up to keep this result"), sign up from it and come back to
the game, then follow it to the day's board, where it ranks, marked provisional. One page
and one session for the whole journey. Screenshots of each step:
test-artifacts/screenshots/journey-<width>-<step>-<name>.png. And a game that is not there is
the site's 404 page (not-found-<width>.png).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games.models import Game, Mode, Status, Verification
from tests.e2e.axe import failures
from tests.e2e.dragging import drag_home_or_onto
from tests.e2e.test_play import WIN, parse
from tests.e2e.test_results_screen import others_played
from tests.factories import SIGN_UP_WAIT_MS, day_name
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture: fresh Redis keys)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Slow steps on a busy CI machine (a page load, the server's verification) get this long.
PATIENCE_MS = 20_000


@pytest.fixture(autouse=True)
def _only_todays_easy(settings: Any) -> None:
    """Only the challenge the test makes: the home page must not prepare the other tiers."""
    settings.DAILY_PREPARE_ON_REQUEST = False


def another_guest_played(challenge: Any) -> None:
    """A guest from another browser finished today's easy deal: the home page counts them."""
    Game.objects.create(
        session_key="another-guests-session",
        deal_id=challenge.deal_id,
        challenge=challenge,
        mode=Mode.GUEST,
        played_as_guest=True,
        status=Status.STUCK,
        verification=Verification.VERIFIED,
        score=40,
        moves=12,
        ply=12,
        position="-",
    )


def win_by_dragging(page: Any, shot_name: str) -> None:
    """Every move of deal 0's winning line, dragged with the mouse as a player would."""
    for number, move in enumerate(WIN["moves"], start=1):
        card, dest = parse(move)
        drag_home_or_onto(page, card, dest, f"move {number} ({move})", PATIENCE_MS)
        if number == 40:
            page.shot(shot_name)


@pytest.mark.parametrize(
    "viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}], ids=["1280", "390"]
)
def test_a_guest_plays_todays_easy_deal_signs_up_and_finds_the_result_on_the_board(
    browse: Any, daily_deal0: Any, eager_celery: None, viewport: dict[str, int]
) -> None:
    others_played(daily_deal0)  # four winners (1 s to 60 min) and two who were stuck
    another_guest_played(daily_deal0)
    width = viewport["width"]
    page = browse(viewport)
    p = page.page
    p.set_default_timeout(PATIENCE_MS)

    # 1. A guest opens the home page: Play, one tap, and how many played as guests.
    page.goto("/")
    easy = p.locator('[data-daily] article[aria-label^="Easy"]')
    play = easy.locator('[data-start="easy"]')
    play.wait_for()
    assert p.get_by_text("Sign up to play").count() == 0
    assert re.search(r"\b7 played \(1 as a guest\)", easy.locator(".counts").inner_text())
    p.wait_for_function(
        "() => !document.querySelector('[data-countdown]').textContent.includes('-')"
    )
    page.shot(f"journey-{width}-1-home")

    # 2. Play: the game is the guest's at once; won by dragging every card.
    play.click()
    p.wait_for_url(re.compile(r".*/play/\d+/$"))
    game_path = p.url.removeprefix(page.base_url)
    p.locator('.tableau [data-card="8d"]').wait_for()
    # which daily this is, on a phone too (it was hidden there): the day by name and tier
    title = p.locator("[data-title]")
    p.wait_for_function("() => document.querySelector('[data-title]').textContent.includes('Easy')")
    assert title.is_visible() and (title.bounding_box() or {}).get("height", 0) > 10
    assert title.inner_text() == f"{day_name(daily_deal0.date)} · Easy", title.inner_text()
    win_by_dragging(page, f"journey-{width}-2-play")

    # 3. The results screen: the day's bars with the guest's marked, the percentile, and
    # the result waiting for an account.
    dialog = p.locator("dialog[data-end]")
    dialog.wait_for(state="visible")
    assert dialog.locator("[data-end-title]").inner_text() == "You won!"
    # The win's cascade starts with the screen (tests/e2e/test_results_screen.py checks it):
    # a click stops it, however far a slow machine has let it run.
    dialog.locator("[data-end-title]").click()
    dialog.locator("[data-cascade]").wait_for(state="hidden")
    dialog.locator("[data-results]").wait_for()
    assert dialog.locator("[data-histogram] li").count() >= 2
    assert dialog.locator("[data-histogram] li.yours").count() == 1
    # Quick (1 s) was faster than the guest; the three slower winners were not.
    percentile = dialog.locator("[data-percentile]")
    assert percentile.inner_text() == "Faster than 75 % of today's winners."
    sign_up = dialog.locator("[data-signup]")
    assert sign_up.inner_text() == "Sign up to keep this result"
    page.shot(f"journey-{width}-3-results")

    # 4. Sign up from it; the link brings the player back to the game.
    sign_up.click()
    p.wait_for_url(re.compile(r".*/signup/\?next=%2Fplay%2F\d+%2F$"))
    form = p.locator("[data-account-form]")
    form.locator("[name=username]").fill(f"newcomer{width}")
    form.locator("[name=display_name]").fill(f"Newcomer {width}")
    form.locator("[name=password]").fill("correct horse battery 42")
    page.shot(f"journey-{width}-4-sign-up")
    form.locator("button[type=submit]").click()
    p.wait_for_url(page.base_url + game_path, timeout=SIGN_UP_WAIT_MS)
    dialog.wait_for(state="visible")
    rank = dialog.locator("[data-end-rank]")
    rank.filter(has_text="on today's easy board").wait_for()
    assert dialog.locator("[data-results-guest]").is_hidden()  # kept: nothing left to offer

    # 5. The result on the day's board, marked provisional (a new account's).
    dialog.locator("[data-end-board]").click()
    p.wait_for_url(re.compile(r".*/leaderboards/daily/\?date=[-\d]+&tier=easy$"))
    row = p.locator("[data-board-body] tr", has_text=f"Newcomer {width}")
    row.wait_for()
    assert row.locator(".provisional").inner_text() == "provisional"
    assert row.locator("td").first.inner_text() == "2"  # after Quick's 1 s
    # Won or not, said on every row (a stuck game's score looked like a win's); the day is
    # open, so only the player's own row links its replay (the others' led to a 404).
    # (the mark for the eye, the ending's words for a screen reader, in the score's cell)
    assert row.locator("td.result").text_content() == "✓ Won: 625"
    stuck = p.locator("[data-board-body] tr", has_text="Stuck Sam")
    assert stuck.locator("td.result").text_content() == "✗ No move left: 0"
    assert stuck.locator("td.result .result-mark").get_attribute("aria-hidden") == "true"
    replays = p.locator("[data-board-body] a[aria-label=replay]")
    assert replays.count() == 1 and row.locator("a[aria-label=replay]").count() == 1
    row.scroll_into_view_if_needed()
    page.shot(f"journey-{width}-5-board")
    page.assert_clean()


def test_a_missing_game_is_the_sites_own_404_page(browse: Any) -> None:
    """``/play/999999/``: the site's 404 page, never a game header with a live Resign button;
    axe finds nothing serious at either width."""
    page = browse({"width": 1280, "height": 800})
    p = page.page
    for width, height in ((1280, 800), (390, 844)):
        p.set_viewport_size({"width": width, "height": height})
        response = page.goto("/play/999999/")
        assert response.status == 404
        assert p.locator("main h1").inner_text() == "Not found"
        assert p.locator("[data-resign], [data-game]").count() == 0
        found = failures(p)
        assert not found, f"axe on the 404 page at {width} px:\n" + "\n".join(found)
        page.shot(f"not-found-{width}")
    # The browser reports the page's own 404 status, and nothing else went wrong.
    assert all("status of 404" in error for error in page.errors), page.errors
