"""Offline practice in Chromium (docs/frontend.md, "Offline practice"): with the network cut,
deal 7 is dealt and played in the browser alone, and after every move the board shows what
the engine's position holds; the game survives a reload from the device's store, undo takes
a move back, and when the network returns the page says the game is not sent to the server.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.dragging import DRAG_POINTS, HOME
from tests.factories import DESKTOP
from yukon.engine import Position, card_text

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Deal 7's first moves: four cards turn up, two go home, a King fills an emptied column.
MOVES = ["Jh>7", "4h>2", "Qd>2", "5c>5", "7d>7", "As>F", "5h>6", "6c>7", "Kh>2", "Ah>F"]
RANKS = "A23456789TJQK"

WAIT_FOR_WORKER = """async () => {
  const sw = navigator.serviceWorker;
  await sw.ready;
  if (!sw.controller) await new Promise((done) => sw.addEventListener("controllerchange", done));
}"""
# What the board shows: each column's face-down count and face-up cards, bottom first, and
# each foundation's top card ("" when empty).
SHOWN = """() => ({
  down: [...document.querySelectorAll(".tableau .column")].map(
    (c) => c.querySelectorAll(".card.down").length),
  up: [...document.querySelectorAll(".tableau .column")].map(
    (c) => [...c.querySelectorAll(".card.up[data-card]")].map((n) => n.dataset.card)),
  foundations: Object.fromEntries([...document.querySelectorAll(".foundations [data-suit]")].map(
    (slot) => [slot.dataset.suit, slot.dataset.top || ""])),
  moves: document.querySelector("[data-moves]").textContent,
  score: document.querySelector("[data-score]").textContent,
})"""
SHOWS = f"(want) => JSON.stringify(({SHOWN})()) === JSON.stringify(want)"


def engine_view(moves: list[str]) -> dict[str, Any]:
    """The engine's position after ``moves`` of deal 7, as SHOWN reads the board."""
    position = Position.deal(7)
    for move in moves:
        position.play_text(move)
    return {
        "down": position.down,
        "up": [
            [card_text(c) for c in col[down:]]
            for col, down in zip(position.cols, position.down, strict=True)
        ],
        "foundations": {
            suit: RANKS[n - 1] + suit if n else ""
            for suit, n in zip("cdhs", position.found, strict=True)
        },
        "moves": str(position.moves),
        "score": str(position.score),
    }


def assert_board_is(tab: Any, moves: list[str]) -> None:
    want = engine_view(moves)
    try:
        # 10 s: under CI's load (three browsers on two cores) a move took over 3 s to show
        tab.wait_for_function(SHOWS, arg=want, timeout=10_000)
    except Exception:  # say what differs, not only that it timed out
        assert tab.evaluate(SHOWN) == want, f"after {moves}"
        raise


def play(tab: Any, move: str) -> None:
    """A card onto a column by two clicks; a card home by the keyboard (focus it, press F)."""
    card, dest = move.split(">")
    if dest == HOME:
        tab.locator(f'.tableau [data-card="{card}"]').focus()
        tab.keyboard.press("f")
        return
    x, y, tx, ty = tab.evaluate(DRAG_POINTS, [card, int(dest) - 1])
    tab.mouse.click(x, y)
    tab.mouse.click(tx, ty)


def test_deal_7_is_played_offline_as_the_engine_plays_it(browse: Any) -> None:
    page = browse(DESKTOP, service_workers="allow")
    tab = page.page
    page.goto("/practice/offline/?deal=7")
    tab.evaluate(WAIT_FOR_WORKER)  # the worker keeps the page's shell and files
    tab.context.set_offline(True)
    tab.reload()
    # Cut off indeed: what the worker does not keep (the API) is out of reach.
    assert tab.evaluate("fetch('/api/daily/').then(() => 'reached', () => 'cut off')") == "cut off"
    expect(tab.locator(".offline-badge")).to_have_text("Offline practice")
    expect(tab.locator("[data-connection]")).to_contain_text("You are offline")
    expect(tab.get_by_role("heading", level=1)).to_have_text("Practice #7 · Yukon")
    assert tab.url.endswith("/practice/offline/?deal=7&variant=yukon")
    assert_board_is(tab, [])

    for ply in range(len(MOVES)):
        play(tab, MOVES[ply])
        assert_board_is(tab, MOVES[: ply + 1])
    page.shot("offline-practice-desktop")

    tab.reload()  # still offline: the game comes back from the device's store
    assert_board_is(tab, MOVES)
    tab.locator(".tableau .card.up").first.focus()
    tab.keyboard.press("Control+z")
    assert_board_is(tab, MOVES[:-1])

    tab.context.set_offline(False)
    expect(tab.locator("[data-connection]")).to_contain_text(
        "You are back online. This game is offline practice: it stays on this device and is "
        "not sent to the server."
    )
    expect(tab.get_by_role("link", name="Play this deal online")).to_have_attribute(
        "href", "/practice/7/?variant=yukon"
    )
    # What was out of reach offline: the fetch above and the page's own checks of /healthz.
    cut_off = "console: Failed to load resource: net::ERR_INTERNET_DISCONNECTED"
    assert cut_off in page.errors
    page.errors = [error for error in page.errors if error != cut_off]
    page.assert_clean()
