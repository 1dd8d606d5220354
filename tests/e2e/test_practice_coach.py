"""The practice coach in a real Chromium: the Hint button shows a move and counts it."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_hint_button_shows_a_move_and_still_winnable_answers(browse: Any) -> None:
    page = browse()
    page.goto("/practice/0/?variant=yukon")
    p = page.page
    p.locator(".tableau .card").first.wait_for()
    p.locator("[data-hint]").click()
    line = p.locator("[data-coach]")
    p.wait_for_function(
        "() => document.querySelector('[data-coach]').textContent.startsWith('Move the')",
        timeout=10_000,
    )
    assert re.search(r"^Move the .+ (onto (the empty )?column [1-7]|home)\.$", line.inner_text())
    assert p.locator("[data-hints]").inner_text() == "1"
    assert p.locator(".tableau .card.hinted").count() == 1
    p.locator("[data-winnable]").click()
    p.wait_for_function(
        "() => document.querySelector('[data-coach]').textContent.startsWith('Yes')", timeout=10_000
    )
    assert p.locator("[data-hints]").inner_text() == "2"
    page.assert_clean()
