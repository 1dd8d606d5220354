"""The browser client in a real Chromium against a live server.

Sign up, win today's easy daily by dragging cards along a known winning line, read the
end screen, step through the replay; keyboard-only moves; an illegal drop snaps back;
screenshots of the main pages at phone and desktop sizes; first-load weight of the play page.
"""

from __future__ import annotations

import datetime as dt
import gzip
import itertools
import re
from typing import Any

import pytest

from tests.e2e.dragging import drag, wait_turned
from tests.e2e.play_api import PLAY_DAILY
from tests.factories import DESKTOP, PHONE, SIGN_UP_WAIT_MS, e2e_fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIN = e2e_fixture("deal0.json")


def parse(move: str) -> tuple[str, int | str]:
    card, dest = move.split(">")
    return card, "F" if dest == "F" else int(dest) - 1


BAD_REQUEST = "Failed to load resource: the server responded with a status of 400 (Bad Request)"


def sign_up(page: Any, name: str) -> None:
    page.goto("/signup/")
    form = page.page.locator("[data-account-form]")
    # a refusal names the field as the form labels it, not the API's parameter
    form.locator("[name=username]").fill("two words")
    form.locator("[name=password]").fill("correct horse battery 42")
    form.locator("button[type=submit]").click()
    error = page.page.locator("[data-form-error]")
    error.filter(has_text=re.compile(r"\S")).wait_for()
    assert error.inner_text().startswith("Log-in name: "), error.inner_text()
    assert page.errors == ["console: " + BAD_REQUEST], page.errors  # the refusal's 400
    page.errors.clear()
    form.locator("[name=username]").fill(name)
    form.locator("[name=display_name]").fill(name.title())
    form.locator("[name=password]").fill("correct horse battery 42")
    form.locator("button[type=submit]").click()
    page.page.wait_for_url(page.base_url + "/", timeout=SIGN_UP_WAIT_MS)
    page.page.locator(".who", has_text=name).wait_for()


def wait_landed(page: Any, card: str, dest: int | str) -> None:
    """Wait until the card lies at its destination, has finished gliding there, and any
    card it uncovered has turned (the next move may go onto that card)."""
    where = (
        f'.foundations [data-top="{card}"]'
        if dest == "F"
        else f'.column[data-col="{dest}"] [data-card="{card}"]'
    )
    try:
        page.page.locator(where).wait_for()
    except Exception as exc:
        toast = page.page.locator(".toast").inner_text()
        raise AssertionError(f"{card} did not reach {dest}; the page said: {toast!r}") from exc
    wait_turned(page)
    page.page.wait_for_function(
        "() => document.getAnimations().every(a => a.effect.getTiming().iterations === Infinity)"
    )


def assert_every_rank_shows(page: Any) -> None:
    """Each face-up card under another still shows its rank and suit (the top 28% of
    the face), and every column ends inside the board."""
    columns = page.page.locator(".tableau .column").evaluate_all(
        "cols => cols.map(col => [...col.querySelectorAll('.card.up')].map(card => {"
        " const box = card.getBoundingClientRect(); return [box.top, box.height]; }))"
    )
    for number, cards in enumerate(columns, start=1):
        for (top, height), (below, _) in itertools.pairwise(cards):
            strip = below - top  # whole pixels: a pixel of rounding allowed
            assert strip >= 0.28 * height - 1, f"column {number}: {strip:.0f}px strip"
    board = page.page.locator("[data-board]").bounding_box()
    bottoms = page.page.locator(".tableau .card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().bottom)"
    )
    assert max(bottoms) <= board["y"] + board["height"] + 1


def test_sign_up_win_daily_by_dragging_then_replay(
    browse: Any, daily_deal0: Any, eager_celery: None
) -> None:
    page = browse(DESKTOP)
    sign_up(page, "dragger")
    today = daily_deal0.date.isoformat()

    start = page.page.locator('[data-start="easy"]')
    start.click()
    page.page.wait_for_url(re.compile(r".*/play/\d+/$"))
    game_url = page.page.url
    page.page.locator('.tableau [data-card="8d"]').wait_for()
    commitment = page.page.locator("[data-commitment]")
    assert commitment.is_visible()
    assert commitment.locator("code").first.get_attribute("title") == daily_deal0.commitment
    assert daily_deal0.salt not in commitment.inner_text()
    page.shot("play-desktop-start")

    for number, move in enumerate(WIN["moves"], start=1):
        if number == len(WIN["moves"]):  # what the page says as the last card goes home
            page.page.evaluate(
                """() => {
                  window.said = [];
                  const note = (el) => el.textContent && window.said.push(el.textContent);
                  for (const el of document.querySelectorAll("[data-announce], .status-line"))
                    new MutationObserver(() => note(el))
                      .observe(el, {childList: true, subtree: true, characterData: true});
                }"""
            )
        card, dest = parse(move)
        drag(page, card, dest)
        wait_landed(page, card, dest)
        if number % 10 == 0:
            assert_every_rank_shows(page)
        if number == 40:
            page.shot("play-desktop-midgame")

    dialog = page.page.locator("dialog[data-end]")
    dialog.wait_for(state="visible")
    assert dialog.locator("[data-end-title]").inner_text() == "You won!"
    assert dialog.locator("[data-end-next]").inner_text() == "Today's other deals"
    # the winning move is not a stuck position (it was, before the server's answer came)
    assert "No legal move left." not in page.page.evaluate("window.said"), page.page.evaluate(
        "window.said"
    )
    share = dialog.locator("[data-share]").input_value()
    assert re.match(rf"Yukon Daily {today} easy: won, 625 points, \d+:\d\d\n", share), share
    assert "8d" not in share and "deal" not in share
    dialog.locator("[data-end-rank]").filter(has_text=re.compile("Verified|#")).wait_for()
    page.shot("play-desktop-won")
    assert page.page.locator("[data-score]").inner_text() == "625"

    # Reloading shows the finished game again, straight from the server.
    page.page.goto(game_url)
    page.page.locator("dialog[data-end][open]").wait_for()

    game_id = game_url.rstrip("/").rsplit("/", 1)[1]
    page.goto(f"/replay/{game_id}/")
    page.page.locator('.tableau [data-card="8d"]').wait_for()
    assert page.page.locator("[data-moves]").inner_text() == "0/99"
    page.page.locator("[data-forward]").click()
    page.page.locator('.column[data-col="5"] [data-card="8d"]').wait_for()
    assert page.page.locator("[data-move-text]").inner_text() == "8d>6"
    page.page.locator("[data-back]").click()
    page.page.locator('.column[data-col="4"] [data-card="8d"]').wait_for()
    page.page.locator("[data-scrub]").fill("50")
    assert page.page.locator("[data-moves]").inner_text() == "50/99"
    for control in ("first", "back", "forward", "last"):  # drawn, not a font's missing glyph
        icon = page.page.locator(f"[data-{control}] svg").bounding_box()
        assert icon is not None and icon["width"] >= 10, control
    page.page.locator("[data-last]").click()
    assert page.page.locator("[data-score]").inner_text() == "625"
    assert page.page.locator(".tableau .card").count() == 0
    page.shot("replay-desktop-end")

    page.goto(f"/leaderboards/daily/?date={today}&tier=easy")
    body = page.page.locator("[data-board-body]")
    body.filter(has_not_text="Loading").wait_for()
    assert body.locator("tr", has_text="Dragger").count() == 1
    page.assert_clean()


def test_keyboard_only_moves(browse: Any) -> None:
    page = browse(DESKTOP)
    page.goto("/practice/0/?variant=yukon")
    p = page.page
    p.locator('.tableau [data-card="8d"]').wait_for()
    # Tab from the page top into the board: its one tab stop is the first column's card.
    p.locator("body").focus()
    for _ in range(40):
        p.keyboard.press("Tab")
        if p.evaluate("document.activeElement.closest('.board') !== null"):
            break

    def focused_label() -> str:
        return str(p.evaluate("document.activeElement.getAttribute('aria-label')"))

    assert focused_label() == "8 of spades, column 1, face up"

    def keys(*names: str) -> None:
        for name in names:
            p.keyboard.press(name)

    # 8d>6: column 5 (four right), up to its first face-up card, pick up, one right, drop.
    keys(*["ArrowRight"] * 4, *["ArrowUp"] * 4)
    assert focused_label() == "8 of diamonds, column 5, face up, 4 on it"
    keys("Enter", "ArrowRight", "Enter")
    p.locator('.column[data-col="5"] [data-card="8d"]').wait_for()
    p.locator("[data-moves]", has_text="1").wait_for()
    # 9c>7: column 2 is four to the left of column 6, then its first face-up card.
    keys(*["ArrowLeft"] * 4, *["ArrowUp"] * 4, "Space", *["ArrowRight"] * 5, "Enter")
    p.locator('.column[data-col="6"] [data-card="9c"]').wait_for()
    p.wait_for_function("() => document.querySelector('[data-moves]').textContent === '2'")
    wait_turned(page)  # the card the move uncovered (8h), named by the server's answer
    assert p.locator('.column[data-col="4"] [data-card="8h"]').count() == 1
    # 7s>5: two columns left is column 5 (now topped by the eight of hearts it uncovered),
    # one right is column 6, six up is the seven of spades; pick up, one left, drop.
    keys("ArrowLeft", "ArrowLeft")
    assert focused_label() == "8 of hearts, column 5, face up"
    keys("ArrowRight", *["ArrowUp"] * 6)
    assert focused_label() == "7 of spades, column 6, face up, 6 on it"
    keys("Enter", "ArrowLeft", "Enter")
    p.locator('.column[data-col="4"] [data-card="7s"]').wait_for()
    # As>F: the ace of spades is now the last card of column 6; F sends it home.
    keys("ArrowRight")
    assert focused_label() == "ace of spades, column 6, face up"
    keys("f")
    wait_landed(page, "As", "F")
    p.wait_for_function("() => document.querySelector('[data-moves]').textContent === '4'")
    # the card went home and uncovered another: the keyboard stays on the board, there
    assert focused_label() == "king of diamonds, column 6, face up", focused_label()
    # The server agrees: a reload shows the same four moves.
    p.reload()
    p.locator('.foundations [data-top="As"]').wait_for()
    assert p.locator("[data-moves]").inner_text() == "4"
    page.assert_clean()


def test_the_keyboard_stays_on_the_board_when_its_card_leaves(browse: Any) -> None:
    """A card sent home from the keyboard that uncovers a face-down card, and a King moved
    into an empty column: the focus went to the page's body (the card's column had
    nothing face up until the server named the turned card; the empty column's slot was
    covered), and a keyboard or screen-reader player lost their place."""
    page = browse(DESKTOP)
    p = page.page
    page.goto("/practice/")
    assert WIN["moves"][8:12] == ["Ac>F", "2c>3", "5h>7", "Kh>2"]
    game_id = p.evaluate(PLAY_DAILY, [{"deal": 0, "variant": "yukon"}, WIN["moves"][:8]])
    page.goto(f"/play/{game_id}/")

    def focused() -> str:
        p.wait_for_timeout(300)  # the server's answer, its render, any focus change after it
        return str(p.evaluate("document.activeElement.getAttribute('aria-label')"))

    def move(card: str, onto: str) -> None:
        p.locator(f'.tableau [data-card="{card}"]').focus()
        p.keyboard.press("Enter")
        p.locator(onto).focus()
        p.keyboard.press("Enter")

    p.locator('.tableau [data-card="Ac"]').focus()
    p.keyboard.press("f")  # Ac>F, which turns the 3 of diamonds under it
    wait_landed(page, "Ac", "F")
    assert focused() == "3 of diamonds, column 3, face up"
    move("2c", '.tableau [data-card="3d"]')
    wait_landed(page, "2c", 2)  # columns count from 0 here
    move("5h", '.column[data-col="6"] .card:last-child')
    wait_landed(page, "5h", 6)
    move("Kh", '[data-col-slot="1"]')  # into the empty column 2, whose slot it covers
    wait_landed(page, "Kh", 1)
    assert focused().startswith("king of hearts, column 2"), focused()
    page.assert_clean()


def test_the_timer_keeps_the_servers_time_when_the_browsers_clock_is_off(browse: Any) -> None:
    page = browse(DESKTOP)
    ahead = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    page.page.clock.install(time=ahead)  # the browser's clock is an hour fast; time runs
    page.goto("/practice/0/")
    page.page.locator('.tableau [data-card="8d"]').wait_for()
    drag(page, "8d", 5)
    wait_landed(page, "8d", 5)
    shown = page.page.locator("[data-time]").inner_text()
    assert re.fullmatch(r"0:[0-5]\d", shown), shown  # seconds into the game, not 60:00
    page.assert_clean()


def test_illegal_drop_snaps_back_with_a_reason(browse: Any) -> None:
    page = browse(DESKTOP)
    page.goto("/practice/0/")
    p = page.page
    p.locator('.tableau [data-card="8s"]').wait_for()
    before = p.locator('.tableau [data-card="8s"]').bounding_box()
    drag(page, "8s", 1)  # the eight of spades cannot go on the six of spades
    toast = p.locator(".toast")
    toast.wait_for(state="visible")
    # the rules' reason, a clause, is shown as a sentence ("the eight ..." read as a fragment)
    assert toast.inner_text().startswith("The eight of spades cannot go on the six of spades")
    p.wait_for_timeout(300)  # the snap-back animation
    assert p.locator('.column[data-col="0"] [data-card="8s"]').count() == 1
    after = p.locator('.tableau [data-card="8s"]').bounding_box()
    assert abs(after["x"] - before["x"]) < 1 and abs(after["y"] - before["y"]) < 1
    assert p.locator("[data-moves]").inner_text() == "0"
    # A legal drag on the same board works, and the click-click route too.
    drag(page, "8d", 5)
    wait_landed(page, "8d", 5)
    p.locator('.tableau [data-card="9c"]').click(position={"x": 20, "y": 5})
    p.locator('.column[data-col="6"]').click(position={"x": 20, "y": 300})
    wait_landed(page, "9c", 6)
    page.assert_clean()
    # On a phone the reason takes the screen's width, not half of it in a narrow column
    # (a fixed box at left: 50% wraps within the half to its right unless sized itself).
    phone = browse(PHONE)
    phone.goto("/practice/0/")
    phone.page.locator('.tableau [data-card="8s"]').wait_for()
    drag(phone, "8s", 1)
    toast = phone.page.locator(".toast", has_text="cannot go on the six of spades")
    toast.wait_for(state="visible")
    box = toast.bounding_box()
    assert box and box["width"] > 0.8 * PHONE["width"], box
    phone.assert_clean()


def test_a_move_without_a_connection_waits_for_it_and_the_game_goes_on(browse: Any) -> None:
    """The connection drops as a move is made (the same play page as a daily's): the board
    stops taking moves and says why, and when the connection is back it shows the game as
    the server has it and play goes on. It took moves the server never saw, and the first
    move once back online was refused as "The game changed elsewhere"."""
    page = browse(DESKTOP)
    page.goto("/practice/0/")
    p = page.page
    p.locator('.tableau [data-card="8d"]').wait_for()
    drag(page, "8d", 5)
    wait_landed(page, "8d", 5)
    p.context.set_offline(True)
    drag(page, "9c", 6)  # the server never hears of it
    line = p.locator("[data-connection]")
    line.filter(has_text="No connection").wait_for()
    assert "may not have been saved" in line.inner_text()
    assert p.locator("[data-board].frozen").count() == 1  # no more moves meanwhile
    p.context.set_offline(False)
    line.wait_for(state="hidden", timeout=10_000)
    assert p.locator("[data-board].frozen").count() == 0
    assert p.locator("[data-moves]").inner_text() == "1"  # as the server has it
    assert p.locator('.column[data-col="6"] [data-card="9c"]').count() == 0
    drag(page, "9c", 6)  # made again, and taken
    wait_landed(page, "9c", 6)
    assert p.locator("[data-moves]").inner_text() == "2"
    assert "changed elsewhere" not in p.locator("body").inner_text()
    p.reload()
    p.locator('.column[data-col="6"] [data-card="9c"]').wait_for()
    assert p.locator("[data-moves]").inner_text() == "2"
    cut_off = "console: Failed to load resource: net::ERR_INTERNET_DISCONNECTED"
    assert cut_off in page.errors  # the lost move and the tries while offline
    page.errors = [error for error in page.errors if error != cut_off]
    page.assert_clean()


PAGES = [
    ("home", "/"),
    ("how-to-play", "/how-to-play/"),
    ("strategy", "/strategy/"),
    ("faq", "/faq/"),
    ("practice", "/practice/"),
    ("practice-board", "/practice/0/?variant=yukon"),
    ("leaderboards", "/leaderboards/daily/"),
    ("signup", "/signup/"),
    ("login", "/login/"),
]


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_screenshots_without_console_errors(
    browse: Any, daily_deal0: Any, size: str, viewport: dict[str, int]
) -> None:
    page = browse(viewport)
    for name, path in PAGES:
        page.goto(path)
        page.page.wait_for_load_state("networkidle")
        page.shot(f"{name}-{size}")
    # No horizontal scrolling at any size.
    for name, path in PAGES:
        page.goto(path)
        page.page.wait_for_load_state("networkidle")
        overflow = page.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at {size}"
    page.assert_clean()


COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml")


def test_play_page_first_load_is_small(browse: Any) -> None:
    """What a phone downloads for its first practice game, counted as production sends it:
    text compressed (whitenoise serves CSS, JavaScript and SVG gzipped), fonts and images as
    they are, and every response's headers. About 100 kB, 25 of them the two weights of
    the site's font."""
    page = browse(PHONE)
    finished: list[Any] = []
    # (a bound builtin cannot be a handler: Playwright tags the function it is given)
    page.page.on("requestfinished", lambda request: finished.append(request))  # noqa: PLW0108
    page.goto("/practice/3/")
    page.page.locator(".tableau .card.up").first.wait_for()
    page.page.wait_for_load_state("networkidle")
    sizes = {}
    for request in finished:
        response = request.response()
        body = response.body()
        if response.headers.get("content-type", "").startswith(COMPRESSED_TYPES):
            body = gzip.compress(body, 9)
        sizes[request.url] = len(body) + request.sizes()["responseHeadersSize"]
    total = sum(sizes.values())
    assert total < 120_000, f"{total} bytes: {sizes}"
    page.assert_clean()


LANDSCAPE = {"width": 740, "height": 360}  # a phone on its side


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("landscape", LANDSCAPE)])
def test_board_fits_and_does_not_shift_as_columns_grow(
    browse: Any, size: str, viewport: dict[str, int]
) -> None:
    page = browse(viewport)
    page.goto("/practice/0/")
    p = page.page
    p.locator('.tableau [data-card="8d"]').wait_for()
    board = p.locator("[data-board]").bounding_box()
    for move in WIN["moves"][:20]:
        card, dest = parse(move)
        drag(page, card, dest)
        wait_landed(page, card, dest)
    assert p.locator("[data-board]").bounding_box() == board
    bottom = board["y"] + board["height"]
    assert bottom <= viewport["height"]  # no scrolling to reach a card
    for box in p.locator(".tableau .card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().bottom)"
    ):
        assert box <= bottom + 1
    if size == "phone":  # on its side a 20-card column gets the smallest cards: thinner strips
        assert_every_rank_shows(page)
    page.shot(f"play-{size}-midgame")
    page.assert_clean()
