"""The home page's tier cards in a real Chromium (frontend/tier_cards.py, home.js):

- the server draws them, so nothing on the page moves once it is painted: no layout
  shift, for a guest and for a player with games, in English and German, from a phone's
  width to a desktop's (the cards used to be empty places of a fixed height that home.js
  filled: too tall for a guest on a phone, too short for a German player's);
- home.js draws the very same cards when the day was not ready as the page was drawn:
  the same elements with the same words, a player's game lines included (and the note on
  a result held for a moderator, which the player's page and calendar mark too);
- a Play button the server drew starts the game once home.js runs;
- the heading's day is written as the other pages' scripts write a day (shortDayName), in
  the reader's own English: "7 Dec 2026" in en-GB, where the server wrote "Dec 7, 2026".
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from games.models import DailyChallenge, Status
from tests.e2e.test_plain_pages import PHONE, log_in
from tests.factories import make_challenges, make_player, result

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CARDS = "[data-daily] article.tier"
WIDTHS = (390, 768, 1280)

# The layout shift of the page so far (the Layout Instability API: what Lighthouse's CLS
# adds up), shifts right after input left out.
LAYOUT_SHIFT = """() => new Promise((done) => {
  let shift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) shift += entry.value;
  }).observe({ type: "layout-shift", buffered: true });
  setTimeout(() => done(shift), 300);
})"""


def play_some(player: User, day: dict[str, DailyChallenge]) -> None:
    """A won easy game, held for a moderator (a new account's result linked to a guest's
    game), and a medium one in progress: both kinds of game line, and the held note."""
    held = result(player, day["easy"], score=52, elapsed_ms=271_000, save=False)
    held.provisional = held.held = True
    held.save()
    result(player, day["medium"], score=1, elapsed_ms=None, status=Status.PLAYING)


def open_home(browse: Any, player: User | None, locale: str) -> Any:
    page = browse(PHONE, locale=locale)
    if player:
        log_in(page, player)
    return page


def card_html(page: Any) -> list[str]:
    """The cards' markup, the playing counts left out: the page polls them every 30 s, and
    the first poll of a page whose day was not ready counted nobody."""
    found = page.page.locator(CARDS).evaluate_all("(cards) => cards.map((c) => c.outerHTML)")
    return [re.sub(r"(<span data-playing=\"\w+\">)\d+<", r"\1N<", card) for card in found]


@pytest.mark.parametrize(("who", "locale"), [("guest", "en-US"), ("player", "de-DE")])
def test_nothing_moves_once_the_home_page_is_painted(browse: Any, who: str, locale: str) -> None:
    day = make_challenges()
    player = make_player("Greta", language="de") if who == "player" else None
    if player:
        play_some(player, day)
    page = open_home(browse, player, locale)
    p = page.page
    asked: list[str] = []
    p.on("request", lambda request: asked.append(request.url.removeprefix(page.base_url)))
    for width in WIDTHS:
        p.set_viewport_size({"width": width, "height": 844})
        page.goto("/")
        p.wait_for_load_state("networkidle")  # /api/daily/, the home figures, the fonts
        assert p.locator(CARDS).count() == 3, width
        shift = p.evaluate(LAYOUT_SHIFT)
        assert shift == 0, (
            f"{who} at {width} px: the page moved after its first paint ({shift:.4f})"
        )
        page.shot(f"home-cards-{who}-{width}")
    # The cards came with the page: the day's proof is asked for its commitments, never
    # /api/daily/, which counts the day's games again.
    assert "/api/daily/" not in asked and f"/api/daily/{day['easy'].date}/" in asked
    # The server's Play button, now home.js's: one tap starts the game.
    p.locator('[data-start="hard"]').click()
    p.wait_for_url("**/play/*/")
    p.locator(".tableau .card").first.wait_for()
    page.assert_clean()


def test_home_js_draws_the_cards_the_server_draws(browse: Any) -> None:
    """A day prepared while the page loads (the embedded default prepares it on the first
    /api/daily/ of the day): home.js draws the cards into the page's places. They are the
    cards the server draws for the same day, element for element, in German, with a won
    game, a game in progress and a Play button."""
    player = make_player("Greta", language="de")
    page = open_home(browse, player, "de-DE")
    p = page.page

    def prepare_then_answer(route: Any) -> None:
        # Playwright runs a route's handler in a greenlet of its own, which Django gives a
        # database connection of its own: closed here, or the test database outlives it.
        try:
            play_some(player, make_challenges())
        finally:
            connection.close()
        route.continue_()

    p.route("**/api/daily/", prepare_then_answer)
    drawn = page.goto("/").text()
    assert drawn.count('class="tier placeholder"') == 3  # the day was not ready
    p.locator(CARDS).nth(2).wait_for()
    drawn_by_script = card_html(page)
    p.unroute("**/api/daily/")

    assert page.goto("/").text().count('<article class="tier"') == 3  # the server's own
    p.wait_for_load_state("networkidle")
    drawn_by_server = card_html(page)
    assert "Dein Spiel: gewonnen, 52 Punkte, 4:31" in drawn_by_server[0]
    # the won game is on no board and in no streak yet: the card says why
    assert "bis ein Moderator es angesehen hat" in drawn_by_server[0]
    assert "bis ein Moderator" not in drawn_by_server[1]
    assert "Läuft: 1 Punkt" in drawn_by_server[1] and 'data-start="hard"' in drawn_by_server[2]
    assert drawn_by_script == drawn_by_server
    # The player's own page and calendar mark the held game too, and say why.
    page.goto(f"/players/{player.display_name}/")
    p.locator("[data-games] tr.won", has_text="zurückgehalten").wait_for()
    assert "bis ein Moderator es angesehen hat. Warum?" in p.locator("[data-games]").inner_text()
    page.goto("/archive/")
    held = p.locator(".calendar .state.held")
    assert held.get_attribute("title") == "zurückgehalten, bis ein Moderator es angesehen hat"
    page.assert_clean()


def test_the_heading_writes_the_day_as_the_other_pages_do(browse: Any) -> None:
    make_challenges()
    page = browse(PHONE, locale="en-GB")
    p = page.page
    page.goto("/")
    p.wait_for_load_state("networkidle")
    day = p.locator("[data-today]")
    # The league and player pages' own function, from the page's own modules.
    written = p.evaluate(
        "async (day) => (await import('/static/frontend/js/shared/local_time.js'))"
        ".shortDayName(day)",
        day.get_attribute("datetime"),
    )
    assert re.fullmatch(r"\d{1,2} \w{3,4} \d{4}", written), written  # British: day first
    assert day.inner_text() == written
    page.assert_clean()
