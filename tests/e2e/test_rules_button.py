"""The game's bar at 1280 px: the button beside Resign says what it opens (the rules, in a
new tab), and `?` means one thing on the page, the keyboard shortcuts. It used to read "?"
and open the rules while the `?` key opened the shortcuts.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.factories import DESKTOP

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("path", "shot"),
    [
        ("/practice/1/?variant=yukon", "rules-button-practice-desktop"),
        ("/practice/offline/?deal=7&variant=yukon", "rules-button-offline-practice-desktop"),
    ],
    ids=["practice", "offline-practice"],
)
def test_the_rules_button_says_rules_and_the_question_mark_opens_the_shortcuts(
    browse: Any, path: str, shot: str
) -> None:
    page = browse(DESKTOP)
    tab = page.page
    page.goto(path)
    bar = tab.locator(".hud-actions")
    rules = bar.get_by_role("link", name="Rules (opens a new tab)")
    expect(rules).to_be_visible()
    expect(rules).to_have_attribute("href", "/how-to-play/")
    expect(rules).to_have_attribute("target", "_blank")
    expect(rules).to_contain_text("Rules")
    controls = [text.strip() for text in bar.locator("a, button").all_inner_texts()]
    assert "?" not in controls, controls  # the key's symbol is the shortcuts' alone
    page.shot(shot)

    tab.locator("body").press("?")
    expect(tab.get_by_role("dialog", name="Keyboard shortcuts")).to_be_visible()
    page.assert_clean()
