"""After a game: the way back to the results, the results' actions in view on a phone, and
the replay's analysis found on load, in a real Chromium at 390 and 1280 px.

A newcomer's walk found that "Look at the board" left the finished board with no way back
to the results (only a reload); that on a phone the results' actions came only after a
screen of statistics, "Copy" focused off-screen; that the share text's score had no unit;
and that the replay's analysis sat below the first screen with nothing saying it was
there, the slider's first position named just "deal".
Screenshots: test-artifacts/screenshots/ways-on-*.png.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.play_api import PLAY_DAILY
from tests.e2e.test_play import WIN
from tests.e2e.test_results_screen import _quick_moves  # noqa: F401 (autouse: moves unthrottled)
from tests.factories import DESKTOP, client_for, make_player
from tests.leaderboards.conftest import board_prefix  # noqa: F401 (fixture: fresh Redis keys)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
ACTIONS = (
    "[data-end-next]",
    "[data-copy]",
    "[data-end-replay]",
    "[data-end-board]",
    "[data-end-close]",
)

# Where a node is in the window, and whether it is the one drawn at its middle (not under
# another, not scrolled away inside its panel).
IN_VIEW = """el => {
  const box = el.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const top = document.elementFromPoint(x, y);
  return {top: box.top, bottom: box.bottom, left: box.left, right: box.right,
          drawn: Boolean(top && (top === el || el.contains(top)))};
}"""


def logged_in(browse: Any, viewport: dict[str, int]) -> Any:
    """A player's page at `viewport`, with the CSRF cookie the page's own POSTs need."""
    player = make_player("Birch")
    page = browse(viewport)
    session = client_for(player).cookies["sessionid"].value
    page.page.context.add_cookies([{"name": "sessionid", "value": session, "url": page.base_url}])
    page.goto("/practice/")  # a page that sets the CSRF cookie
    return page


def won_daily(browse: Any, viewport: dict[str, int]) -> tuple[Any, int]:
    """A player's page at `viewport` and their won easy daily (deal 0), played through the
    page's own API calls."""
    page = logged_in(browse, viewport)
    return page, page.page.evaluate(PLAY_DAILY, ["easy", WIN["moves"]])


def open_results(page: Any, game_id: int) -> Any:
    """The finished game's page, its results dialog open and filled in."""
    page.goto(f"/play/{game_id}/")
    dialog = page.page.locator("dialog[data-end][open]")
    dialog.wait_for()
    dialog.locator("[data-results]").wait_for()  # the day's figures, read
    page.page.wait_for_function(
        "() => document.querySelector('[data-share]').value.includes('Cards home by eighths')"
    )
    return dialog


def assert_in_view(page: Any, locator: Any, what: str) -> None:
    where = locator.evaluate(IN_VIEW)
    size = page.page.viewport_size
    inside = where["top"] >= 0 and where["bottom"] <= size["height"]
    inside = inside and where["left"] >= 0 and where["right"] <= size["width"]
    assert inside and where["drawn"], f"{what} is not in view: {where} in {size}"


def test_after_look_at_the_board_a_results_button_leads_back(
    browse: Any,
    daily_deal0: Any,
    eager_celery: None,
    board_prefix: str,  # noqa: F811
) -> None:
    page, game_id = won_daily(browse, PHONE)
    dialog = open_results(page, game_id)
    results = page.page.locator("[data-results-open]")

    dialog.locator("[data-end-close]").click()
    page.page.locator("dialog[data-end]").wait_for(state="hidden")
    # The finished game offers its results again, in Resign's place, and holds the focus.
    assert results.is_visible()
    assert results.inner_text() == "Results"
    assert not page.page.locator("[data-resign]").is_visible()
    assert page.page.evaluate("document.activeElement.matches('[data-results-open]')")
    assert_in_view(page, results, "the Results button")
    page.shot("ways-on-after-look-phone")

    # The keyboard opens it again, with its ways on; Escape closes it, back on the button.
    page.page.keyboard.press("Enter")
    dialog.wait_for()
    assert dialog.locator("[data-end-replay]").get_attribute("href") == f"/replay/{game_id}/"
    assert dialog.locator("[data-end-next]").inner_text() == "Today's other deals"
    page.page.keyboard.press("Escape")
    page.page.locator("dialog[data-end]").wait_for(state="hidden")
    assert page.page.evaluate("document.activeElement.matches('[data-results-open]')")
    results.click()
    dialog.wait_for()
    dialog.locator("[data-end-replay]").click()
    page.page.wait_for_url(re.compile(rf".*/replay/{game_id}/$"))
    page.assert_clean()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_results_actions_are_in_view_without_scrolling(
    browse: Any,
    daily_deal0: Any,
    eager_celery: None,
    board_prefix: str,  # noqa: F811
    viewport: dict[str, int],
) -> None:
    page, game_id = won_daily(browse, viewport)
    dialog = open_results(page, game_id)
    panel = dialog.locator("[data-results-panel]")
    assert panel.evaluate("p => p.scrollTop") == 0
    for action in ACTIONS:
        assert_in_view(page, dialog.locator(action), action)
    # What has the focus as the dialog opens is in view too, and in the dialog.
    focused = page.page.locator(":focus")
    assert focused.evaluate("el => Boolean(el.closest('dialog[data-end]'))")
    assert_in_view(page, focused, "the focused control")
    # The score has its unit.
    share = dialog.locator("[data-share]").input_value()
    assert re.match(r"Yukon Daily \S+ easy: won, 625 points, \d+:\d\d\n", share), share
    page.shot(f"ways-on-results-{'phone' if viewport == PHONE else 'desktop'}")
    # Scrolled to its end, the share text shows above the bar, not under it.
    panel.evaluate("p => { p.scrollTop = p.scrollHeight; }")
    assert_in_view(page, dialog.locator("[data-share]"), "the share text, scrolled to")
    page.assert_clean()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_replay_says_on_load_that_it_has_an_analysis(
    browse: Any,
    daily_deal0: Any,
    eager_celery: None,
    board_prefix: str,  # noqa: F811
    viewport: dict[str, int],
) -> None:
    page, game_id = won_daily(browse, viewport)
    page.goto(f"/replay/{game_id}/")
    page.page.locator('.tableau [data-card="8d"]').wait_for()
    assert page.page.locator("[data-move-text]").inner_text() == "the deal, before move 1"
    # On load, in the first screen: a line that says there is an analysis and what it says.
    peek = page.page.locator("[data-analysis-peek]")
    peek.filter(has_text="opens when its day closes").wait_for()
    assert_in_view(page, peek, "the analysis line")
    link = peek.get_by_role("link", name="Analysis")
    page.shot(f"ways-on-replay-{'phone' if viewport == PHONE else 'desktop'}")
    link.click()
    section = page.page.locator("[data-analysis]")
    page.page.wait_for_function(
        """() => { const box = document.querySelector('[data-analysis]').getBoundingClientRect();
                   return box.top >= 0 && box.bottom <= innerHeight; }"""
    )
    assert section.evaluate("el => el === document.activeElement")
    page.page.locator("[data-forward]").click()
    assert page.page.locator("[data-move-text]").inner_text() == "8d>6"
    page.assert_clean()


def test_a_resigned_daily_is_not_told_it_is_first(
    browse: Any,
    daily_deal0: Any,
    eager_celery: None,
    board_prefix: str,  # noqa: F811
) -> None:
    """The first to finish today, by resigning after two moves, read "You are #1 on
    today's easy board." at the top of the results: a loss told as a victory."""
    page = logged_in(browse, DESKTOP)
    game_id = page.page.evaluate(
        """async () => {
          const csrf = decodeURIComponent(document.cookie.match(/csrftoken=([^;]+)/)[1]);
          const headers = {"Content-Type": "application/json", "X-CSRFToken": csrf};
          const post = (url, data) => fetch(url, {method: "POST", headers,
            credentials: "same-origin", body: JSON.stringify(data)}).then(r => r.json());
          const game = await post("/api/games/", {daily: "easy"});
          await post(`/api/games/${game.id}/resign/`, {});
          return game.id;
        }"""
    )
    page.goto(f"/play/{game_id}/")
    rank = page.page.locator("dialog[data-end][open] [data-end-rank]")
    page.page.wait_for_function(
        "() => /#\\d/.test(document.querySelector('[data-end-rank]').textContent)"
    )
    assert rank.inner_text() == (
        "#1 on today's easy board without a win: every win ranks above a game without one."
    )
    page.assert_clean()
