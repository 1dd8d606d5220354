"""Take-back in a real Chromium: a practice game with the option on, a card dragged back
from its foundation onto the tableau; without the option the foundation card stays put."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.dragging import drag
from tests.e2e.test_play import parse, wait_landed
from tests.factories import DESKTOP, PHONE, winning_lines

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Deal 1's known win, 12 moves in: Ad, 2d, Ah and 2h are home, and column 3 ends in a black 3.
OPENING = winning_lines()[1][:12]


def play_opening(page: Any) -> None:
    for move in OPENING:
        card, dest = parse(move)
        drag(page, card, dest)
        wait_landed(page, card, dest)


def test_a_card_is_dragged_back_from_its_foundation(browse: Any) -> None:
    page = browse(DESKTOP)
    page.goto("/practice/1/?variant=yukon&takeback=1")
    p = page.page
    assert p.locator("[data-takeback-pick]").is_checked()
    play_opening(page)
    score = int(p.locator("[data-score]").inner_text())
    assert p.locator('.foundations [data-suit="d"]').get_attribute("data-top") == "2d"
    drag(page, "2d", 2)  # from the diamonds foundation onto the black 3 of column 3
    wait_landed(page, "2d", 2)
    p.locator('.foundations [data-suit="d"][data-top="Ad"]').wait_for()
    p.wait_for_function(
        f"() => document.querySelector('[data-score]').textContent == '{score - 10}'"
    )
    assert p.locator("[data-moves]").inner_text() == str(len(OPENING) + 1)
    # The server agrees: the game's position has the card back in the tableau.
    p.reload()
    p.locator('.column[data-col="2"] [data-card="2d"]').wait_for()
    assert p.locator("[data-takeback-pick]").is_checked()
    page.assert_clean()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_practice_form_at_a_glance(browse: Any, viewport: dict[str, int]) -> None:
    # The take-back switch once sat above its words, 13 rem wide (a text field's rule).
    page = browse(viewport)
    page.goto("/practice/")
    label = page.page.locator("label.takeback-pick")
    box = label.locator("input[type=checkbox]").bounding_box()
    words = label.bounding_box()
    assert box is not None and words is not None
    assert 16 <= box["width"] <= 24 and 16 <= box["height"] <= 24, box
    middle = box["y"] + box["height"] / 2
    assert abs(middle - (words["y"] + words["height"] / 2)) < 3, (box, words)
    assert words["height"] < 2 * box["height"] + 12, words  # one line, not two
    page.page.get_by_text("Take-back from the foundations").click()  # the words toggle it
    assert label.locator("input").is_checked()
    # a variant the solver never won says so when chosen, and only then
    note = page.page.locator('[data-never-won="moosehide-runs"]')
    assert note.is_hidden()
    page.page.get_by_label("Variant").select_option("moosehide-runs")
    assert note.is_visible() and "all 5,000 deals it studied lost" in note.inner_text()
    page.page.get_by_label("Variant").select_option("yukon")
    assert note.is_hidden()
    page.assert_clean()


def test_without_takeback_a_foundation_card_cannot_be_picked_up(browse: Any) -> None:
    page = browse(DESKTOP)
    page.goto("/practice/1/?variant=yukon")
    p = page.page
    assert not p.locator("[data-takeback-pick]").is_checked()
    play_opening(page)
    assert p.locator('.foundations [data-card="2d"]').count() == 0  # not a card to grab
    box = p.locator('.foundations [data-suit="d"]').bounding_box()
    column = p.locator('.column[data-col="2"]').bounding_box()
    p.mouse.move(box["x"] + box["width"] / 2, box["y"] + 5)
    p.mouse.down()
    p.mouse.move(column["x"] + column["width"] / 2, column["y"] + 30, steps=4)
    p.mouse.up()
    p.wait_for_timeout(300)
    assert p.locator('.foundations [data-suit="d"]').get_attribute("data-top") == "2d"
    assert p.locator("[data-moves]").inner_text() == str(len(OPENING))
    page.assert_clean()
