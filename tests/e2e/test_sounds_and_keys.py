"""The keyboard help and the sounds in a real Chromium, on one practice page.

`?` opens the list of shortcuts (the play page's own among them), Escape closes it and the
focus is back on the card it left; the footer's button opens it too. With sound on in the
settings, no AudioContext exists until the player acts, and a move then plays its notes.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.axe import failures
from tests.e2e.dragging import drag
from tests.e2e.test_play import parse, wait_landed
from tests.factories import DESKTOP, winning_lines

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SOUND_ON = {"sound": True, "volume": 0.5}

# Before any of the page's scripts: the settings the player chose, and a count of the audio
# contexts made and the oscillators started (the browser's own classes, wrapped).
LISTEN = (
    f"localStorage.setItem('yd-settings', {json.dumps(json.dumps(SOUND_ON))});"
    + """
window.__audio = { contexts: 0, started: 0 };
const RealContext = window.AudioContext;
window.AudioContext = class extends RealContext {
  constructor(...args) { super(...args); window.__audio.contexts += 1; }
};
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function (...args) {
  window.__audio.started += 1;
  return start.apply(this, args);
};
"""
)

FOCUSED_CARD = "() => document.activeElement && document.activeElement.dataset.card"


def test_keyboard_help_and_sounds_on_the_practice_page(browse: Any) -> None:
    page = browse(DESKTOP)
    p = page.page
    p.add_init_script(LISTEN)
    page.goto("/practice/1/?variant=yukon")
    card = p.locator('.tableau [tabindex="0"][data-card]')
    card.focus()
    focused = p.evaluate(FOCUSED_CARD)
    assert focused
    assert p.evaluate("window.__audio") == {"contexts": 0, "started": 0}  # not on load

    p.keyboard.press("?")
    help_dialog = p.get_by_role("dialog", name="Keyboard shortcuts")
    help_dialog.wait_for()
    captions = help_dialog.locator("caption").all_inner_texts()
    assert captions[0] == "Everywhere"
    assert "Practice games (this page)" in captions
    assert captions[-1] == "Replays"  # another page's, after this page's
    text = help_dialog.inner_text()
    for shortcut in (
        "Ctrl",
        "Undo the last move",
        "Send the picked-up card",
        "Put the picked-up card back",
    ):
        assert shortcut in text
    assert p.evaluate("document.activeElement.dataset.keyboardHelpClose") == ""
    assert failures(p) == []
    p.keyboard.press("Escape")
    help_dialog.wait_for(state="hidden")
    assert p.evaluate(FOCUSED_CARD) == focused
    assert p.locator(".card.selected").count() == 0  # the board never saw the keys

    footer_button = p.get_by_role("button", name="Keyboard shortcuts")
    footer_button.click()
    help_dialog.get_by_role("button", name="Close").click()
    help_dialog.wait_for(state="hidden")
    assert p.evaluate("document.activeElement.dataset.keyboardHelpOpen") == ""

    moved, dest = parse(winning_lines()[1][0])
    drag(page, moved, dest)
    wait_landed(page, moved, dest)
    audio = p.evaluate("window.__audio")
    assert audio["contexts"] == 1
    assert audio["started"] >= 3  # the pick-up's note and the drop's two
    page.assert_clean()
