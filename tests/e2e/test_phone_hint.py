"""How to move cards, on a phone (docs/frontend.md): the play page's one line about it
("Drag, or tap a card then a column...") shows on a phone too, in a short form, under the
board and clear of it, with a column grown long and on Quadruple Yukon's 16 columns.
Screenshots: test-artifacts/screenshots/phone-hint-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.dragging import drag
from tests.e2e.test_play import WIN, assert_every_rank_shows, parse, wait_landed
from tests.factories import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PHONE_390 = {"width": 390, "height": 844}
# The visible move hint's box, the board's, and every card's bottom.
MEASURE = """() => {
  const hint = [...document.querySelectorAll(".keys-hint, .keys-hint *")]
    .find((e) => e.checkVisibility() && /tap a card/i.test(e.textContent) && !e.children.length)
    || null;
  const box = (e) => e && e.getBoundingClientRect().toJSON();
  return {
    hint: box(hint), text: hint && hint.textContent.trim(),
    board: box(document.querySelector("[data-board]")),
    cards: [...document.querySelectorAll(".tableau .card")]
      .map((c) => c.getBoundingClientRect().bottom),
    view: { width: innerWidth, height: innerHeight },
  };
}"""


def assert_hint_shows_clear_of_the_board(page: Any) -> None:
    found = page.page.evaluate(MEASURE)
    hint, board, view = found["hint"], found["board"], found["view"]
    assert hint, "no visible line says how to move cards"
    assert hint["width"] > 0 and hint["height"] > 0
    assert hint["left"] >= 0 and hint["right"] <= view["width"], hint
    assert hint["top"] >= 0 and hint["bottom"] <= view["height"], f"below the fold: {hint}"
    # under the board, not on it; and the board still ends inside the window
    assert hint["top"] >= board["bottom"] - 0.5, (hint, board)
    assert board["bottom"] <= view["height"]
    assert max(found["cards"]) <= board["bottom"] + 1, "a card runs past the board"


@pytest.mark.parametrize("viewport", [PHONE_390, PHONE], ids=["390px", "360px"])
def test_a_phone_says_how_to_move_cards_as_a_column_grows(browse: Any, viewport: Any) -> None:
    page = browse(viewport)
    page.goto("/practice/0/")
    p = page.page
    p.locator('.tableau [data-card="8d"]').wait_for()
    assert_hint_shows_clear_of_the_board(page)
    text = p.evaluate(MEASURE)["text"]
    assert "tap a card" in text and "Keys:" not in text, text  # a phone's words, no keys
    for move in WIN["moves"][:20]:  # a column grows long
        card, dest = parse(move)
        drag(page, card, dest)
        wait_landed(page, card, dest)
    assert_hint_shows_clear_of_the_board(page)
    assert_every_rank_shows(page)
    page.shot(f"phone-hint-{viewport['width']}-midgame")
    page.assert_clean()


@pytest.mark.parametrize("viewport", [PHONE_390, PHONE], ids=["390px", "360px"])
def test_a_phone_says_how_to_move_cards_on_quadruple_yukon(browse: Any, viewport: Any) -> None:
    page = browse(viewport)
    page.goto("/practice/7/?variant=quadruple-yukon")
    p = page.page
    p.locator(".tableau .column").nth(15).wait_for()
    p.locator(".tableau .card.up").first.wait_for()
    assert_hint_shows_clear_of_the_board(page)
    page.shot(f"phone-hint-{viewport['width']}-quadruple-yukon")
    page.assert_clean()
