"""Dragging a card with the mouse, as a player does, for the browser tests.

Each drag measures the card's grab point and the drop point in one round trip to the
browser (separate locator calls cost about a dozen a drag, and a won game is 99 to 177
drags), once the last move's glide has ended: a point taken mid-glide misses its card.
An endless animation (a pulse) is not waited for.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

HOME = "F"  # a move's destination when the card goes to its foundation

DRAG_POINTS = """async ([card, dest]) => {
    const gliding = document.getAnimations().filter(
        (a) => a.effect && a.effect.getTiming().iterations !== Infinity);
    await Promise.all(gliding.map((a) => a.finished.catch(() => null)));
    const source = document.querySelector(
        `.tableau [data-card="${card}"], .foundations [data-card="${card}"]`);
    if (!source) return null;
    source.scrollIntoView({block: "nearest"});
    const from = source.getBoundingClientRect();
    const to = (dest === "F"
        ? document.querySelector(`.foundations [data-suit="${card[1]}"]`)
        : document.querySelector(`.column[data-col="${dest}"]`)).getBoundingClientRect();
    return [from.x + from.width / 2, from.y + 5,
            to.x + to.width / 2, dest === "F" ? to.y + to.height / 2 : to.y + 30];
}"""


def drag(page: Any, card: str, dest: int | str) -> None:
    """Drag ``card`` (by its visible top strip) onto column ``dest`` or, for ``HOME``, its
    foundation; with the take-back option the card may be a foundation's top card."""
    p = page.page
    points = p.evaluate(DRAG_POINTS, [card, dest])
    if points is None:  # not drawn yet
        p.locator(f'.tableau [data-card="{card}"], .foundations [data-card="{card}"]').wait_for()
        points = p.evaluate(DRAG_POINTS, [card, dest])
    x, y, tx, ty = points
    p.mouse.move(x, y)
    p.mouse.down()
    p.mouse.move(x + 8, y + 8)  # past the board's drag threshold
    p.mouse.move(tx, ty, steps=2)
    p.mouse.up()


def landed(page: Any, card: str, dest: int | str, timeout: int) -> bool:
    """Has ``card`` left the tableau (``HOME``) or reached column ``dest``?"""
    p = page.page
    if dest == HOME:
        target, state = p.locator(f'.tableau [data-card="{card}"]'), "detached"
    else:
        target, state = p.locator(f'.column[data-col="{dest}"] [data-card="{card}"]'), "visible"
    try:
        target.wait_for(state=state, timeout=timeout)
    except PlaywrightTimeout:
        return False
    return True


def wait_turned(page: Any, timeout: int = 15_000) -> None:
    """Wait until no face-down card waits to turn. The page shows a move at once and the
    card it uncovered when the server's answer names it, and refuses a drop onto that
    column until then ("wait for the face-down card to turn"); under load the answer
    came after a test's next drag (seen in CI)."""
    page.page.locator(".tableau .card.turning").first.wait_for(state="detached", timeout=timeout)


def drag_home_or_onto(page: Any, card: str, dest: int | str, what: str, patience_ms: int) -> None:
    """Drag ``card`` and see it land. The page moves a card as soon as it takes a drop (the
    server's answer comes after), so a card still in place after a few seconds is a drop
    the browser lost, as it did in CI runs on a machine busy with the suite's other
    services: it is dragged again, and must land within ``patience_ms``."""
    drag(page, card, dest)
    if not landed(page, card, dest, 5_000):
        drag(page, card, dest)
        assert landed(page, card, dest, patience_ms), f"{what} did not land"
    wait_turned(page, patience_ms)
