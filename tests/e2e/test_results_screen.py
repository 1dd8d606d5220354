"""The results screen at the end of a daily, in a real Chromium at 1280 and 390 px.

Others have played today's easy deal; the player plays it to one move from the end through
the page's own API calls, then drags the last card home: the cascade starts and a click
stops it; the screen shows the record, the day's bars with the player's marked, the
percentile, the computer's game and the countdown, and axe finds nothing serious at either
width. Screenshots: test-artifacts/screenshots/results-*.png.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.axe import failures
from tests.e2e.dragging import drag
from tests.e2e.play_api import PLAY_DAILY
from tests.e2e.test_play import WIN, parse
from tests.factories import DESKTOP, client_for, make_player, result
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture: fresh Redis keys)
from yukon.engine import Position

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def _quick_moves(settings: Any) -> None:
    """The page plays 98 moves as fast as it can: lift the per-player move limit."""
    rates = dict(settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}))
    rates["moves"] = "100000/s"
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    settings.DAILY_PREPARE_ON_REQUEST = False


def others_played(challenge: Any) -> None:
    """Four winners (a tenth of a second, faster than the page plays its 99 moves; then 20,
    40 and 60 minutes) and two who were stuck."""
    for name, ms in [("Quick", 100), ("Steady", 1_200_000), ("Slow", 2_400_000)]:
        result(make_player(name), challenge, elapsed_ms=ms)
    result(make_player("Slower"), challenge, elapsed_ms=3_600_000)
    for name, moves in [("Stuck Sam", 30), ("Stuck Sue", 60)]:
        position = Position.deal(0)
        for text in WIN["moves"][:moves]:
            position.play_text(text)
        game = result(make_player(name), challenge, won=False, score=0, save=False)
        game.position = position.to_text()
        game.save()


def assert_axe_passes(page: Any, what: str) -> None:
    found = failures(page.page)
    assert not found, f"axe on {what}:\n" + "\n".join(found)


def test_the_results_screen_after_a_win(browse: Any, daily_deal0: Any, eager_celery: None) -> None:
    others_played(daily_deal0)
    player = make_player("Rosa")
    page = browse(DESKTOP)
    session = client_for(player).cookies["sessionid"].value
    page.page.context.add_cookies([{"name": "sessionid", "value": session, "url": page.base_url}])
    page.goto("/practice/")  # a page that sets the CSRF cookie for the POSTs below
    game_id = page.page.evaluate(PLAY_DAILY, ["easy", WIN["moves"][:-1]])
    page.goto(f"/play/{game_id}/")
    card, dest = parse(WIN["moves"][-1])
    drag(page, card, dest)

    dialog = page.page.locator("dialog[data-end]")
    dialog.wait_for(state="visible")
    assert dialog.locator("[data-end-title]").inner_text() == "You won!"
    # The win: cards bounce off the foundations around the panel until a click stops them.
    cascade = dialog.locator("[data-cascade]")
    cascade.wait_for(state="visible")
    page.page.wait_for_timeout(700)
    page.shot("results-cascade-desktop")
    dialog.locator("[data-end-title]").click()
    cascade.wait_for(state="hidden")
    assert dialog.is_visible()

    body = dialog.locator("[data-results]")
    body.wait_for()
    # Quick was faster; the three slower winners were not: 3 of 4.
    percentile = dialog.locator("[data-percentile]")
    assert percentile.inner_text() == "Faster than 75 % of today's winners."
    bars = dialog.locator("[data-histogram] li")
    assert bars.count() == 6  # 0-10 ... 40-50 min, then 50 min or more
    mine = dialog.locator("[data-histogram] li.yours")
    assert mine.count() == 1
    assert mine.locator(".sr-only").inner_text() == "0\u201310 min: 2 results, yours among them"
    record = dict(
        zip(
            dialog.locator("[data-record] dt").all_inner_texts(),
            dialog.locator("[data-record] dd").all_inner_texts(),
            strict=True,
        )
    )
    assert record == {"Played": "1", "Win %": "100", "Current streak": "1", "Best streak": "1"}
    assert dialog.locator("[data-bot-verdict]").inner_text().startswith("You beat the computer")
    countdown = dialog.locator("[data-next-deal]").inner_text()
    assert re.fullmatch(
        r"Next deal in (\d+ h( \d+ min)?|\d+ min|\d+ s) \(.+ your time\)", countdown
    ), countdown
    assert dialog.locator("[data-countdown]").get_attribute("role") == "timer"
    # The share text: plain lines, every one in view from the first.
    share = dialog.locator("[data-share]")
    page.page.wait_for_function(
        "() => document.querySelector('[data-share]').value.includes('Cards home by eighths')"
    )
    text = share.input_value()
    assert "Faster than 75 % of today's winners · beat the computer" in text, text
    fits = share.evaluate("el => el.scrollTop === 0 && el.scrollHeight <= el.clientHeight + 1")
    assert fits, text
    assert_axe_passes(page, "the results screen at 1280 px")
    page.shot("results-desktop")

    page.page.set_viewport_size(PHONE)
    panel = dialog.locator("[data-results-panel]").bounding_box()
    assert panel is not None and panel["width"] <= PHONE["width"]
    assert_axe_passes(page, "the results screen at 390 px")
    page.shot("results-phone")
    dialog.locator("[data-copy]").scroll_into_view_if_needed()
    page.shot("results-phone-share")
    page.page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    page.assert_clean()
