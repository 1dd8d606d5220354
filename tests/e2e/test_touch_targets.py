"""The play page's controls are big enough for a thumb: on a phone held upright every
button, the variant menu and the take-back switch are at least 44 px each way (WCAG 2.5.5,
and Apple's 44 pt); held sideways, where the height goes to the board, at least 24 px
(WCAG 2.5.8)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CONTROLS = """() => [...document.querySelectorAll(
    '.hud-actions .button, .hud-actions select, .hud-actions label.takeback-pick')]
  .filter((c) => c.getClientRects().length)
  .map((c) => { const r = c.getBoundingClientRect();
    return [c.tagName === 'SELECT' ? c.value : c.textContent.trim() || c.getAttribute('aria-label'),
            Math.round(r.width), Math.round(r.height)]; })"""


@pytest.mark.parametrize(
    ("viewport", "least"),
    [({"width": 390, "height": 844}, 44), ({"width": 844, "height": 390}, 24)],
    ids=["upright", "sideways"],
)
def test_every_control_of_the_play_page_fits_a_thumb(
    browse: Any, viewport: dict[str, int], least: int
) -> None:
    page = browse(viewport, has_touch=True, is_mobile=True)
    page.goto("/practice/7/")
    page.page.locator(".tableau .card.up").first.wait_for()
    controls = page.page.evaluate(CONTROLS)
    assert len(controls) >= 7, controls  # variant, take-back, undo, new, hint, winnable, resign
    small = [c for c in controls if c[1] < least or c[2] < least]
    assert not small, f"under {least} px: {small}"
    page.assert_clean()
