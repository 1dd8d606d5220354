"""Double, Triple and Quadruple Yukon in a real Chromium.

A Double Yukon practice deal won by dragging every card of the solver's line at desktop
size; the 13- and 16-column boards at 1280 px and on a phone (screenshots in
test-artifacts/screenshots/); on a phone the 16-column board says that it scrolls sideways
(a fading edge, "More columns →"), a board that fits says nothing; spoken labels naming the
column and the copy; axe on a ten-column board.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tests.e2e.axe import failures
from tests.e2e.dragging import HOME, drag_home_or_onto
from tests.factories import DESKTOP, PHONE
from yukon.engine import Position, card_text
from yukon.solver import solve

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def token(position: Position, card: int) -> str:
    """The browser's name of a physical card: face and deck ("9h#2")."""
    return f"{card_text(card)}#{card // 52 + 1}"


def test_a_double_yukon_practice_deal_is_won_by_dragging(browse: Any, eager_celery: None) -> None:
    line = solve(0, variant="double-yukon", seconds=10).moves
    assert line
    # Without the glide each of the 177 drags waits for (test_play drags with it on).
    page = browse(DESKTOP, reduced_motion="reduce")
    page.goto("/practice/0/?variant=double-yukon")
    p = page.page
    p.locator(".tableau .column").nth(9).wait_for()
    assert p.locator(".tableau .column").count() == 10
    board = p.locator("[data-board]").bounding_box()
    assert board["width"] <= DESKTOP["width"]
    assert not p.locator("[data-board].wide").count()  # ten columns fit at 1280 px
    position = Position.deal(0, "double-yukon")
    for number, text in enumerate(line, start=1):
        move = position.parse_move(text)
        card = token(position, position.move_card(move))
        dest = position.move_dest(move)
        where = HOME if dest is None else dest
        drag_home_or_onto(page, card, where, f"move {number} ({text})", 15_000)
        position.play(move)
        if number % 25 == 0 or number == len(line):
            # the server's answers have caught up: the score is the engine's
            p.wait_for_function(
                "() => document.querySelector('[data-score]').textContent.trim()"
                f" === '{position.score}'",
                timeout=15_000,
            )
    assert position.is_won()
    p.wait_for_function("() => document.querySelector('[data-end]').open", timeout=15_000)
    page.shot("double-yukon-won-desktop")
    page.assert_clean()


@pytest.mark.parametrize(
    ("variant", "viewport", "name"),
    [
        ("quadruple-yukon", DESKTOP, "quadruple-yukon-16-columns-desktop"),
        ("quadruple-yukon", PHONE, "quadruple-yukon-16-columns-phone"),
        ("triple-yukon", DESKTOP, "triple-yukon-13-columns-desktop"),
    ],
)
def test_wide_boards_fit_or_scroll(browse: Any, variant: str, viewport: Any, name: str) -> None:
    page = browse(viewport)
    page.goto(f"/practice/7/?variant={variant}")
    p = page.page
    columns = 16 if variant == "quadruple-yukon" else 13
    p.locator(".tableau .column").nth(columns - 1).wait_for()
    p.locator(".tableau .card.up").first.wait_for()
    widths = p.locator(".tableau .card.up").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().width)"
    )
    assert min(widths) >= 30  # the rank and suit stay readable
    wide = p.locator("[data-board].wide").count() == 1
    if viewport == DESKTOP:
        assert not wide  # 16 columns fit at 1280 px
        right = max(
            p.locator(".tableau .column").evaluate_all(
                "els => els.map(e => e.getBoundingClientRect().right)"
            )
        )
        assert right <= DESKTOP["width"]
    else:
        assert wide  # a phone scrolls the board sideways
        # a suit's four counts on one line under its slot ("0 · 0 · 0 · 0" wrapped onto a
        # second line that ran under the piles), and the variant's whole name in its picker
        piles = p.locator(".foundation .piles")
        assert piles.first.inner_text() == "0·0·0·0"
        heights = piles.evaluate_all("els => els.map(e => e.getBoundingClientRect().height)")
        line = piles.first.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 14")
        assert max(heights) < 1.5 * line, heights
        boxes = piles.evaluate_all("els => els.map(e => e.getBoundingClientRect().toJSON())")
        for left, right in itertools.pairwise(boxes):
            assert left["right"] <= right["left"], "two suits' counts run into each other"
        cards_top = min(
            p.locator(".tableau .card").evaluate_all(
                "els => els.map(e => e.getBoundingClientRect().top)"
            )
        )
        assert max(box["bottom"] for box in boxes) <= cards_top, "the counts lie on the cards"
        picker = p.locator("[data-variant-pick]")
        text_width = picker.evaluate(
            """s => { const c = document.createElement("canvas").getContext("2d");
               c.font = getComputedStyle(s).font;
               return c.measureText(s.options[s.selectedIndex].text).width; }"""
        )
        assert picker.evaluate("s => s.clientWidth") > text_width + 16, "the name is cut"
    # take-back is a one-deck option: not offered beside these decks
    assert p.locator("label.takeback-pick").is_hidden()
    page.shot(name)
    page.assert_clean()


def test_spoken_labels_name_the_column_and_the_copy(browse: Any) -> None:
    """Deal 0 of Double Yukon shows both aces of hearts in column 2: their labels say which."""
    page = browse(DESKTOP)
    page.goto("/practice/0/?variant=double-yukon")
    p = page.page
    p.locator(".tableau .card.up").first.wait_for()
    labels = p.locator('.column[data-col="1"] .card.up').evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    aces = [label for label in labels if label.startswith("ace of hearts")]
    assert len(aces) == 2
    assert {label.split(", column")[0] for label in aces} == {
        "ace of hearts, copy 1",
        "ace of hearts, copy 2",
    }
    assert all("column 2, face up" in label for label in aces)
    single = [label for label in labels if not label.startswith("ace of hearts")]
    assert all(", copy " not in label for label in single)
    page.assert_clean()


def test_keyboard_play_names_the_copy_and_wraps_over_ten_columns(browse: Any) -> None:
    page = browse(DESKTOP)
    page.goto("/practice/0/?variant=double-yukon")
    p = page.page
    p.locator(".tableau .card.up").first.wait_for()
    p.locator("body").focus()
    for _ in range(40):
        p.keyboard.press("Tab")
        if p.evaluate("document.activeElement.closest('.board') !== null"):
            break

    def focused_label() -> str:
        return str(p.evaluate("document.activeElement.getAttribute('aria-label')"))

    assert ", column 1, face up" in focused_label()
    p.keyboard.press("ArrowLeft")  # from column 1 round to the last column
    assert ", column 10, face up" in focused_label()
    p.keyboard.press("ArrowRight")
    p.keyboard.press("ArrowRight")
    # The top card of column 2 is one of its two aces of hearts: the label says which.
    assert focused_label() == "ace of hearts, copy 1, column 2, face up"
    p.keyboard.press("f")
    p.locator('.tableau [data-card="Ah#1"]').wait_for(state="detached")
    p.wait_for_function("() => document.querySelector('[data-moves]').textContent === '1'")
    # axe on the ten-column board: each suit's slot shows its foundations' counts ("1 · 0",
    # "0 · 0"), and its name must hold them as shown (label-content-name-mismatch)
    assert failures(p) == []
    p.reload()
    p.locator(".tableau .card.up").first.wait_for()
    assert p.locator('.tableau [data-card="Ah#1"]').count() == 0
    assert p.locator('.tableau [data-card="Ah#2"]').count() == 1
    assert p.locator("[data-moves]").inner_text() == "1"
    # Resign, then step through the replay: the logged "2:Ah#1>F" and the start it left.
    p.locator("[data-resign]").click()
    p.get_by_role("dialog", name="Resign this game?").get_by_role("button", name="Resign").click()
    p.wait_for_function("() => document.querySelector('[data-end]').open", timeout=15_000)
    replay = p.locator("[data-end-replay]")
    replay.wait_for()
    assert replay.inner_text() == "Replay and analysis"  # the analysis is on that page
    # and a way on: the next numbered deal of the variant
    way_on = p.locator("[data-end-next]")
    assert way_on.inner_text() == "Next deal"
    assert way_on.get_attribute("href") == "/practice/1/?variant=double-yukon"
    href = replay.get_attribute("href") or ""
    assert href.startswith("/replay/"), href
    page.goto(href)
    p.locator('.tableau [data-card="Ah#1"]').wait_for()
    assert p.locator(".tableau .column").count() == 10
    assert p.locator("[data-moves]").inner_text() == "0/1"
    p.locator("[data-forward]").click()
    p.locator('.tableau [data-card="Ah#1"]').wait_for(state="detached")
    assert p.locator("[data-move-text]").inner_text() == "2:Ah#1>F"
    page.assert_clean()


def test_a_hint_names_the_column_and_marks_the_copy(browse: Any) -> None:
    page = browse(DESKTOP)
    page.goto("/practice/0/?variant=double-yukon")
    p = page.page
    p.locator(".tableau .card.up").first.wait_for()
    p.locator("[data-hint]").click()
    p.wait_for_function(
        "() => document.querySelector('[data-coach]').textContent.startsWith('Move')",
        timeout=20_000,
    )
    # both aces of hearts are face up: the words name the column, the board lights the copy
    assert p.locator("[data-coach]").inner_text() == "Move the A♥ in column 2 home."
    assert p.locator('.tableau [data-card="Ah#1"].hinted').count() == 1
    assert p.locator(".tableau .card.hinted").count() == 1
    assert p.locator('.foundations [data-suit="h"].hint-target').count() == 1
    page.assert_clean()


def touch_drag(page: Any, card: str, dest: int) -> None:
    """Drag ``card`` onto column ``dest`` with one finger (Chromium's touch input, not a mouse)."""
    p = page.page
    source = p.locator(f'.tableau [data-card="{card}"]')
    source.scroll_into_view_if_needed()
    box = source.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + 4
    column = p.locator(f'.column[data-col="{dest}"]').bounding_box()
    tx, ty = column["x"] + column["width"] / 2, column["y"] + 20
    assert 0 < tx < PHONE["width"], "the drop column is on screen"
    cdp = p.context.new_cdp_session(p)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 7):
        point = {"x": x + (tx - x) * step / 6, "y": y + (ty - y) * step / 6}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_phone_plays_the_16_column_board_by_touch(browse: Any) -> None:
    """On a 360-px touch screen the wide board scrolls with a sideways swipe, a tap picks a
    card up and a tap on a column off the first screen puts it down, and a finger drags."""
    page = browse(PHONE, has_touch=True, is_mobile=True)
    page.goto("/practice/1/?variant=quadruple-yukon")
    p = page.page
    p.locator(".tableau .column").nth(15).wait_for()
    board = p.locator("[data-board]")
    assert p.locator("[data-board].wide").count() == 1
    position = Position.deal(1, "quadruple-yukon")
    far = position.parse_move("15:4c>2")  # from column 15, well off the first screen
    far_card = token(position, position.move_card(far))
    assert p.locator(f'.tableau [data-card="{far_card}"]').bounding_box()["x"] > PHONE["width"]

    # a sideways swipe on the board's background (below the columns' cards) scrolls it
    tableau = p.locator(".tableau").bounding_box()
    cdp = p.context.new_cdp_session(p)
    x, y = 300, tableau["y"] + tableau["height"] - 12
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 11):
        point = {"x": x - 25 * step, "y": y}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert board.evaluate("b => b.scrollLeft") > 100
    assert board.evaluate("b => b.scrollLeft") > 100

    # tap the card, swipe back (Playwright's tap scrolls to the column), tap the column
    p.locator(f'.tableau [data-card="{far_card}"]').tap(position={"x": 10, "y": 4})  # its strip
    p.locator(f'.tableau [data-card="{far_card}"][aria-pressed="true"]').wait_for()
    column = position.move_dest(far)  # data-col counts from 0
    p.locator(f'.column[data-col="{column}"]').tap(position={"x": 10, "y": 10})
    p.locator(f'.column[data-col="{column}"] [data-card="{far_card}"]').wait_for()
    position.play(far)

    near = position.parse_move("7:Td>1")
    near_card = token(position, position.move_card(near))
    column = position.move_dest(near)
    assert column is not None
    touch_drag(page, near_card, column)
    p.locator(f'.column[data-col="{column}"] [data-card="{near_card}"]').wait_for()
    position.play(near)
    p.wait_for_function(
        f"() => document.querySelector('[data-score]').textContent.trim() === '{position.score}'",
        timeout=10_000,
    )
    page.shot("quadruple-yukon-phone-touch")
    page.assert_clean()


PHONE_390 = {"width": 390, "height": 844}  # a common phone's width (360 above is the narrowest)

# The board's cue that it scrolls sideways: which edges fade (more columns lie past them)
# and the mask that draws the fade.
SCROLL_CUE = """b => ({
    left: b.classList.contains("more-left"),
    right: b.classList.contains("more-right"),
    mask: getComputedStyle(b).maskImage,
    hint: [...document.querySelectorAll("[data-scroll-hint]")]
        .filter((h) => h.checkVisibility({ visibilityProperty: true }))
        .map((h) => h.textContent.trim()),
})"""


@pytest.mark.parametrize("viewport", [PHONE_390, PHONE], ids=["390px", "360px"])
def test_a_board_wider_than_the_phone_says_it_scrolls_sideways(browse: Any, viewport: Any) -> None:
    """Quadruple Yukon on a phone: the right edge fades while columns lie past it, and
    "More columns →" stands beside the foundations; scrolled to the end, the right edge's
    fade and the words go, and the left edge fades. The keyboard and a drag still play."""
    page = browse(viewport)
    width = viewport["width"]
    page.goto("/practice/7/?variant=quadruple-yukon")
    p = page.page
    p.locator(".tableau .column").nth(15).wait_for()
    p.locator(".tableau .card.up").first.wait_for()
    board = p.locator("[data-board]")
    assert p.locator("[data-board].wide").count() == 1
    last = p.locator('.column[data-col="15"]').bounding_box()
    assert last["x"] > width, "the last column starts off the screen"
    page.shot(f"quadruple-yukon-phone-{width}-scroll-cue-start")
    cue = board.evaluate(SCROLL_CUE)
    assert cue["right"] and not cue["left"], cue
    assert "gradient" in cue["mask"], "the right edge fades"
    assert cue["hint"] == ["More columns\u00a0→"], cue
    hint = p.locator("[data-scroll-hint]").bounding_box()
    counts = p.locator('.foundation[data-suit="s"] .piles').bounding_box()
    shown = board.bounding_box()
    assert counts["x"] + counts["width"] < hint["x"], "the words clear the last slot's counts"
    # (within a pixel: text is measured in fractions of one, and CI once gave 0.44 px more)
    assert hint["x"] + hint["width"] <= shown["x"] + shown["width"] + 1, "the words are whole"
    assert failures(p) == []  # axe: the words read against the felt, among the rest

    # a sideways wheel over the board scrolls it to its end
    box = board.bounding_box()
    p.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    p.mouse.wheel(2000, 0)
    p.wait_for_function(
        "() => { const b = document.querySelector('[data-board]');"
        " return b.scrollLeft + b.clientWidth >= b.scrollWidth - 1; }"
    )
    p.wait_for_function(
        "() => !document.querySelector('[data-board]').classList.contains('more-right')"
    )
    page.shot(f"quadruple-yukon-phone-{width}-scroll-cue-end")
    cue = board.evaluate(SCROLL_CUE)
    assert cue["left"] and not cue["right"], cue
    assert "gradient" in cue["mask"], "the left edge fades"
    assert cue["hint"] == [], "no more columns to the right"
    right = p.locator('.column[data-col="15"]').bounding_box()
    assert right["x"] + right["width"] <= width, "the last column is in view"

    # a mouse drag still moves a card, between two columns in view at the end
    position = Position.deal(7, "quadruple-yukon")
    move = position.parse_move("15:Jd>16")
    dest = position.move_dest(move)
    assert dest is not None
    drag_home_or_onto(page, token(position, position.move_card(move)), dest, "15:Jd>16", 10_000)
    # and the keyboard still plays: the cursor steps along the columns, round the end
    p.locator(f'.column[data-col="{dest}"] [data-card]').last.focus()

    def focused_label() -> str:
        return str(p.evaluate("document.activeElement.getAttribute('aria-label')"))

    assert ", column 16, face up" in focused_label()
    p.keyboard.press("ArrowRight")
    assert ", column 1, face up" in focused_label()
    p.keyboard.press("ArrowLeft")
    assert ", column 16, face up" in focused_label()
    # wherever the board stands now, its cue says which edges columns lie past
    p.wait_for_function(
        """() => { const b = document.querySelector('[data-board]').getBoundingClientRect();
            const cols = [...document.querySelectorAll('.tableau .column')]
                .map((c) => c.getBoundingClientRect());
            const cue = document.querySelector('[data-board]').classList;
            return cue.contains('more-left') === cols[0].left < b.left - 1
              && cue.contains('more-right') === cols.at(-1).right > b.right + 1; }"""
    )
    page.assert_clean()


@pytest.mark.parametrize(
    ("variant", "viewport"),
    [("yukon", PHONE_390), ("quadruple-yukon", DESKTOP)],
)
def test_a_board_that_fits_shows_no_scroll_cue(browse: Any, variant: str, viewport: Any) -> None:
    page = browse(viewport)
    page.goto(f"/practice/7/?variant={variant}")
    p = page.page
    p.locator(".tableau .card.up").first.wait_for()
    board = p.locator("[data-board]")
    assert board.evaluate("b => b.scrollWidth <= b.clientWidth")
    cue = board.evaluate(SCROLL_CUE)
    assert cue == {"left": False, "right": False, "mask": "none", "hint": []}, cue
    if variant == "yukon":
        page.shot("yukon-phone-390-no-scroll-cue")
    page.assert_clean()


def test_the_keyboard_cursor_brings_its_column_into_view_on_a_board_that_scrolls(
    browse: Any,
) -> None:
    """Quadruple Yukon on a phone, played by keys: each step of the cursor along the 16
    columns, right to the end and round to the first, leaves the focused card or column
    inside the board's visible width (it stepped into columns off the screen), and the page
    itself never scrolls up or down."""
    page = browse(PHONE_390)
    page.goto("/practice/7/?variant=quadruple-yukon")
    p = page.page
    p.locator(".tableau .card.up").first.wait_for()
    p.locator('.column[data-col="0"] [data-card]').last.focus()
    page_y = p.evaluate("window.scrollY")
    in_view = """() => { const b = document.querySelector('[data-board]').getBoundingClientRect();
        const f = document.activeElement.getBoundingClientRect();
        return f.left >= b.left && f.right <= b.right; }"""
    seen = []
    for _ in range(16):
        p.keyboard.press("ArrowRight")
        seen.append(p.evaluate("document.activeElement.closest('.column').dataset.col"))
        assert p.evaluate(in_view), f"column {seen[-1]} is off the screen"
        assert p.evaluate("window.scrollY") == page_y
    assert seen == [str(k) for k in range(1, 16)] + ["0"]
    page.assert_clean()
